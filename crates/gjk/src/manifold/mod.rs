//! Contact manifolds: several contact points for one pair, so a box resting on a box is held at its corners and
//! stacks stay still.
//!
//! The penetration query gives the normal. Each shape then reports the feature (vertex, edge, face) that supports
//! it along that normal; the one with more points is the *reference*, the other the *incident* feature. The
//! incident feature is clipped to the reference's side planes (Sutherland–Hodgman), and every clipped point
//! within the prediction distance of the reference plane becomes a contact with its own depth. More than four
//! points (two in 2D) are reduced to the deepest and the widest spread. Ids come from the features' vertex ids and
//! the clipping planes, so the same contact keeps its id from frame to frame. Curved shapes use their real
//! geometry: a ball has one point, a capsule's feature is its segment (two points when lying flat), a cylinder's
//! cap is its true rim circle.

mod clip;
mod triangle;

use crate::epa::penetration;
use crate::gjk::Status;
use crate::math::{Iso, Real, Vector};
use crate::shape::{Feature, SupportMap};
use crate::simplex::facet_normal;
use clip::{clip_to_reference, MAX_CLIP};
pub(crate) use triangle::{box_triangle, segment_triangle, TRIANGLE_CLIP};

/// Most contacts in a manifold (four in 3D; two are used in 2D).
pub const MAX_CONTACTS: usize = 4;

/// One contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact<V> {
    /// The point on A (world).
    pub point_a: V,
    /// The point on B (world).
    pub point_b: V,
    /// Penetration depth at this point (negative: a gap, for contacts within the prediction distance).
    pub depth: f64,
    /// Stable id: the same contact keeps it across frames while the same features touch.
    pub id: u64,
}

/// The contacts of a pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<V: Vector> {
    /// Unit normal from A toward B, shared by every contact.
    pub normal: V,
    /// The contacts (the first `len`).
    pub contacts: [Contact<V>; MAX_CONTACTS],
    /// How many contacts (0 when the shapes are farther apart than the prediction distance).
    pub len: usize,
    /// The pair's signed distance (negative when overlapping).
    pub distance: V::Real,
    /// How the underlying penetration query ended.
    pub status: Status,
}

impl<V: Vector> Manifold<V> {
    /// The contacts.
    pub fn contacts(&self) -> &[Contact<V>] {
        &self.contacts[..self.len]
    }
}

/// The contact manifold of two shapes, including contacts up to `prediction` apart.
///
/// ```
/// use gjk::manifold::contact_manifold;
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::Cuboid;
/// let ground = Cuboid::new(DVec3::new(5.0, 0.5, 5.0)).unwrap();
/// let crate_ = Cuboid::new(DVec3::splat(0.5)).unwrap();
/// // A crate resting 0.01 deep in the ground: four contacts, at its corners, each 0.01 deep.
/// let m = contact_manifold(&ground, &Iso::identity(), &crate_, &Iso::from_translation(DVec3::new(1.0, 0.99, 0.0)), 0.0);
/// assert_eq!(m.len, 4);
/// for c in m.contacts() {
///     assert!((c.depth - 0.01).abs() < 1e-12);
///     assert!((c.point_b.y - 0.49).abs() < 1e-12);
/// }
/// ```
pub fn contact_manifold<V, A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>, prediction: V::Real) -> Manifold<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    manifold_from_penetration(a, pose_a, b, pose_b, &penetration(a, pose_a, b, pose_b), prediction)
}

/// The fixed buffers a manifold is built in: the two features, the clipped polygon and the contacts found (about
/// 10 KB in 3D f64). A caller building many manifolds (a composite's leaves) keeps one and passes it to
/// [`manifold_from_penetration_in`], so the buffers are zeroed once, not once per leaf: the zeroing cost more than
/// the clipping itself (callgrind, a capsule resting on the monastery: 41 % of the instructions were `memset`).
/// Only the first `len` entries of each buffer are ever read, so what a previous manifold left there is harmless.
pub(crate) struct Scratch<V: Vector> {
    fa: Feature<V>,
    fb: Feature<V>,
    found: [Contact<V>; MAX_CLIP],
    clip: clip::ClipBuffers<V>,
}

impl<V: Vector> Default for Scratch<V> {
    // Inlined so that the buffers are zeroed where they live, not built aside and copied there.
    #[inline(always)]
    fn default() -> Self {
        Self {
            fa: Feature::default(),
            fb: Feature::default(),
            found: [Contact::default(); MAX_CLIP],
            clip: clip::ClipBuffers::default(),
        }
    }
}

/// [`contact_manifold`] from a penetration answer already known (or a normal chosen by the caller, as a mesh does
/// to replace the normal of an interior edge by its face's): the features supporting `p.normal` are clipped.
pub(crate) fn manifold_from_penetration<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    p: &crate::epa::Penetration<V>,
    prediction: V::Real,
) -> Manifold<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    manifold_from_penetration_in(a, pose_a, b, pose_b, p, prediction, &mut Scratch::default())
}

/// [`manifold_from_penetration`] built in the caller's buffers.
pub(crate) fn manifold_from_penetration_in<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    p: &crate::epa::Penetration<V>,
    prediction: V::Real,
    scratch: &mut Scratch<V>,
) -> Manifold<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if p.distance > prediction {
        return Manifold {
            normal: p.normal,
            contacts: [Contact::default(); MAX_CONTACTS],
            len: 0,
            distance: p.distance,
            status: p.status,
        };
    }
    // Everything below is in A's frame (the pair frame), where the numbers are small.
    let rel = pose_a.relative(pose_b);
    let n = pose_a.inverse_transform_vector(p.normal);
    let Scratch { fa, fb, found, clip } = scratch;
    // Emptied as a fresh feature would be: a shape that writes nothing leaves an empty feature.
    fa.reset(0);
    a.support_feature(n, fa);
    fb.reset(0);
    b.support_feature(rel.inverse_transform_vector(-n), fb);
    fb.map(|q| rel.transform_point(q));
    let tol = plane_tolerance(fa, fb);
    // Thinner than 16 times their rounding, a face's plane is uncertain by more than about 1/256 rad (its points
    // round by about tol / 16): such a face is clipped as the segment it cannot be told from.
    let sliver = V::Real::from_f64(16.0) * tol;
    fa.collapse_thinner_than(sliver);
    fb.collapse_thinner_than(sliver);
    let count = clipped_contacts(fa, fb, n, (a.radius(), b.radius()), prediction, tol, found, clip);
    finish(pose_a, p, &mut found[..], count, tol)
}

/// The manifold of the `count` contacts in `found` (in the frame `pose` carries into the world, within `tol` of
/// their planes), with the penetration answer `p` they were clipped for: its pair of points joins them when none
/// is as deep, and more than four (two in 2D) are reduced.
pub(crate) fn finish<V: Vector>(
    pose: &Iso<V>,
    p: &crate::epa::Penetration<V>,
    found: &mut [Contact<V>],
    count: usize,
    tol: V::Real,
) -> Manifold<V> {
    let mut m = Manifold {
        normal: p.normal,
        contacts: [Contact::default(); MAX_CONTACTS],
        len: 0,
        distance: p.distance,
        status: p.status,
    };
    // The penetration query's own pair of points: a contact by every rule of the clipper, and the deepest there is.
    let witness = Contact {
        point_a: p.point_a,
        point_b: p.point_b,
        depth: p.depth.to_f64() - (p.distance.max(V::Real::ZERO)).to_f64(),
        id: 0,
    };
    if count == 0 {
        // A vertex, a curved point or a tilted pair of features touches: the witness pair is the contact.
        m.contacts[0] = witness;
        m.len = 1;
        return m;
    }
    // The clipped features should hold the witness pair, but a shape may report a face beside it (of two faces
    // around an edge that supports n, the one whose normal is nearer n, while the witness lies on the other side
    // of the edge): then the witness pair joins them, so the deepest contact is the penetration depth.
    let deepest = found[..count].iter().fold(f64::NEG_INFINITY, |d, c| d.max(c.depth));
    let count = if deepest < witness.depth - tol.to_f64() {
        let slot = if count < found.len() {
            count
        } else {
            (0..count).fold(0, |s, i| if found[i].depth < found[s].depth { i } else { s })
        };
        let to_pair = |q: V| pose.inverse_transform_point(q);
        found[slot] = Contact { point_a: to_pair(witness.point_a), point_b: to_pair(witness.point_b), ..witness };
        count.max(slot + 1)
    } else {
        count
    };
    let max = if V::DIM == 2 { 2 } else { MAX_CONTACTS };
    let kept = reduce(&mut found[..count], max, |c| c.depth, |c| c.point_a);
    for (slot, c) in m.contacts.iter_mut().zip(&found[..kept]) {
        *slot = Contact { point_a: pose.transform_point(c.point_a), point_b: pose.transform_point(c.point_b), ..*c };
    }
    m.len = kept;
    m
}

/// Clips the incident feature to the reference one and turns the clipped points within reach into contacts
/// (pair frame). Returns how many were written; zero when neither feature can be the reference.
///
/// Every contact follows the penetration answer's convention: its two points lie on the two shapes and differ by
/// `depth · n` (n the shared normal, from A toward B). So each clipped incident point q is paired with the point
/// where the line q + t·n meets the reference face's plane (as Jolt does), not with its foot along the face's own
/// normal: that point is on the reference shape (in the face, inside its side planes), and since it lies in A and q
/// in B (or the other way round), its depth along n is at most the penetration depth h_A(n) + h_B(−n), which the
/// pair of witness points reaches. A face meeting n at a grazing angle, or an edge the line misses (3D), is no
/// reference; with none, the pair gets the single contact of the penetration query. `tol` is
/// [`plane_tolerance`] of the two features.
#[allow(clippy::too_many_arguments)]
fn clipped_contacts<V: Vector>(
    fa: &Feature<V>,
    fb: &Feature<V>,
    n: V,
    (ra, rb): (V::Real, V::Real),
    prediction: V::Real,
    tol: V::Real,
    out: &mut [Contact<V>; MAX_CLIP],
    bufs: &mut clip::ClipBuffers<V>,
) -> usize {
    // A keeps the reference unless B's face is clearly better aligned with the normal (ids then stay put from
    // frame to frame while the two faces are nearly parallel).
    let (reference, incident, ref_is_a) = match (Reference::new(fa, n, tol), Reference::new(fb, -n, tol)) {
        (Some(ref_a), Some(ref_b)) if ref_b.cos > ref_a.cos + V::Real::from_f64(SWITCH_COS) => (ref_b, fa, false),
        (Some(ref_a), _) => (ref_a, fb, true),
        (None, Some(ref_b)) => (ref_b, fa, false),
        (None, None) => return 0,
    };
    let len = clip_to_reference(reference.feature, incident, reference.toward, bufs);
    let clip::ClipBuffers { out: buf, seen, .. } = bufs;
    let mut count = 0;
    for q in &buf[..len] {
        // How far q lies above the reference plane along the normal, less the radii.
        let sep = reference.along_normal(q.p);
        let gap = sep - ra - rb;
        if gap > prediction {
            continue;
        }
        let on_reference = q.p - reference.toward * sep;
        if !reference.holds(on_reference, tol) || seen[..count].iter().any(|p| (*p - q.p).max_abs() <= tol) {
            // Off a 3D edge, or a repeat (a degenerate incident feature clips to the same point twice).
            continue;
        }
        seen[count] = q.p;
        let (core_a, core_b) = if ref_is_a { (on_reference, q.p) } else { (q.p, on_reference) };
        let id = (u64::from(!ref_is_a) << 63) | ((u64::from(reference.feature.id) & 0xffff) << 47) | q.id;
        out[count] = Contact { point_a: core_a + n * ra, point_b: core_b - n * rb, depth: -gap.to_f64(), id };
        count += 1;
    }
    count
}

/// A feature serving as the reference: an edge or face of a shape facing `toward` (n for A, −n for B), with the
/// normal of its plane.
struct Reference<'f, V: Vector> {
    feature: &'f Feature<V>,
    toward: V,
    /// Unit normal of the reference plane, on the side of `toward`.
    normal: V,
    /// normal · toward, at least [`MIN_COS`].
    cos: V::Real,
}

/// The reference plane must face the normal within 60°: the pairing line q + t·n then meets it at most twice as
/// far from q as the plane itself.
const MIN_COS: f64 = 0.5;

/// B's feature replaces A's as the reference only when it faces the normal better by this much (of the cosine), so
/// that two nearly parallel faces keep one reference, and their contacts their ids, from frame to frame.
const SWITCH_COS: f64 = 0.02;

impl<'f, V: Vector> Reference<'f, V> {
    /// `feature` as a reference facing `toward`, if it is an edge or a flat face whose plane faces `toward`. A 3D
    /// edge's plane is the one through it perpendicular to `toward`'s part across the edge. A face whose points
    /// stray from the plane of three of them by more than `tol` (a sliver: its normal is rounding noise) is none.
    fn new(feature: &'f Feature<V>, toward: V, tol: V::Real) -> Option<Self> {
        let pts = feature.points();
        let k = pts.len();
        let normal = if k >= 2 && (V::DIM == 2 || k == 2) {
            let e = pts[k - 1] - pts[0];
            let ee = e.length_squared();
            if !(ee > V::Real::ZERO) {
                return None;
            }
            // The part of `toward` across the edge: its length is the cosine between `toward` (a unit vector) and
            // the plane's normal. Judged on that length, not on the normalised vector's dot product, which is 1 even
            // when the part is rounding noise: an edge along `toward` (a capsule standing on a face, gjk-fuzz seed
            // 1 case 2355) would otherwise pass as a reference facing it, its "plane" at a random tilt.
            let across = toward - e * (toward.dot(e) / ee);
            if !(across.length() >= V::Real::from_f64(MIN_COS)) {
                return None;
            }
            across.normalize_or_zero()
        } else if k >= 3 {
            // Three corners spread around the face: adjacent ones on a fine rim are nearly collinear.
            let normal = facet_normal(&[pts[0], pts[k / 3], pts[2 * k / 3]])?.normalize_or_zero();
            if pts.iter().any(|p| !(normal.dot(*p - pts[0]).abs() <= tol)) {
                return None;
            }
            normal
        } else {
            return None;
        };
        let normal = if normal.dot(toward) < V::Real::ZERO { -normal } else { normal };
        let cos = normal.dot(toward);
        (cos >= V::Real::from_f64(MIN_COS)).then_some(Self { feature, toward, normal, cos })
    }

    /// The signed distance from `p` along `toward` to the reference plane (positive above it).
    fn along_normal(&self, p: V) -> V::Real {
        self.normal.dot(p - self.feature.points[0]) / self.cos
    }

    /// Whether `p` (on the reference plane, inside the side planes) lies on the feature: always for a face or a 2D
    /// edge; for a 3D edge, only on its line.
    fn holds(&self, p: V, tol: V::Real) -> bool {
        let pts = self.feature.points();
        if V::DIM == 2 || pts.len() >= 3 {
            return true;
        }
        let (a, e) = (pts[0], pts[1] - pts[0]);
        let d = p - a;
        let off = d - e * (d.dot(e) / e.length_squared());
        off.length() <= tol
    }
}

/// How far a feature may stray from a plane and still count as lying in it: the rounding of the coordinates in
/// play (64 ulps of the largest), plus 1e-10 of the features' extent for the normal's own error.
fn plane_tolerance<V: Vector>(fa: &Feature<V>, fb: &Feature<V>) -> V::Real {
    tolerance_of(fa.points(), fb.points())
}

/// [`plane_tolerance`] of two features given by their points.
pub(super) fn tolerance_of<V: Vector>(a: &[V], b: &[V]) -> V::Real {
    let mut pts = a.iter().chain(b).copied();
    let Some(first) = pts.next() else {
        return V::Real::ZERO;
    };
    let (mut lo, mut hi, mut scale) = (first, first, first.max_abs());
    for p in pts {
        (lo, hi, scale) = (lo.min_elem(p), hi.max_elem(p), scale.max(p.max_abs()));
    }
    V::Real::from_f64(64.0) * V::Real::EPSILON * scale + V::Real::from_f64(1e-10) * (hi - lo).max_abs()
}

/// Keeps at most `max` contacts at the front: the deepest, the farthest from it, then (3D) the two that widen the
/// covered area most. Returns how many are kept. `depth` and `at` read a contact's depth and point (contact
/// manifolds of either module keep these).
pub(crate) fn reduce<T, V: Vector>(c: &mut [T], max: usize, depth: impl Fn(&T) -> f64, at: impl Fn(&T) -> V) -> usize {
    if c.len() <= max {
        return c.len();
    }
    pick(c, 0, &depth);
    let p0 = at(&c[0]);
    pick(c, 1, |x| (at(x) - p0).length_squared().to_f64());
    if max > 2 {
        let p1 = at(&c[1]);
        // Twice a triangle's area, squared: |u|²|v|² − (u·v)² (Lagrange's identity, any dimension).
        let area = |p: V, q: V, r: V| {
            let (u, v) = (q - p, r - p);
            (u.length_squared() * v.length_squared() - u.dot(v) * u.dot(v)).to_f64()
        };
        pick(c, 2, |x| area(p0, p1, at(x)));
        let p2 = at(&c[2]);
        pick(c, 3, |x| {
            let q = at(x);
            area(p0, p1, q) + area(p1, p2, q) + area(p2, p0, q)
        });
    }
    max
}

/// Moves the entry of `c[start..]` with the highest score (the first of equals) to `start`.
#[inline]
fn pick<T>(c: &mut [T], start: usize, score: impl Fn(&T) -> f64) {
    // The best score is carried along rather than recomputed at each comparison (the area scores cost a few dozen
    // products each, and a mesh's query reduces once per touching triangle).
    let first = (start, score(&c[start]));
    let (best, _) = (start + 1..c.len()).fold(first, |(b, sb), i| {
        let si = score(&c[i]);
        if si > sb {
            (i, si)
        } else {
            (b, sb)
        }
    });
    c.swap(start, best);
}

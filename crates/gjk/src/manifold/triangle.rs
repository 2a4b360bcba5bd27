//! The contact manifold of a box or a capsule against one triangle of a mesh (3D), built without asking the shapes
//! for their features: a mesh's contact query builds one per touching triangle (about 35 per query for a box
//! resting on the monastery, where the general clipper was 46 % of the instructions).
//!
//! The rules are the general clipper's (see the parent module), so the two give the same contacts with the same
//! ids; only the features and buffers differ. Both shapes' features are known at once: the triangle is its own face
//! (A's, the composite being A), the box's face supporting −n is the one across the axis where the normal is largest
//! ([`supporting_face`]), a capsule's feature is its core segment. The triangle is the reference face when it
//! faces the normal within 60°, unless the box face faces it better by [`SWITCH_COS`]; then the box face is. The
//! other feature (box face or segment, or the triangle) is clipped by Sutherland–Hodgman to the reference's side
//! planes, each through an edge and containing the normal (their outward normals are edge × normal, oriented by
//! the way the corners turn, with no centre), plus the caps of a sliver's sharp corners, in stack arrays of nine
//! points. Each clipped point within the prediction of the reference plane (measured along the normal) becomes a
//! contact paired with where the normal carries it onto the plane. Everything is in the probe's frame (the box's or
//! capsule's), where the numbers are small.
//!
//! A capsule's segment facing the normal better than the triangle is B's reference, an edge, as in the general
//! clipper: the triangle is clipped to the planes through the segment's ends, and only the points carried onto the
//! segment's line count (a triangle corner or an edge's crossing right under it, as where a capsule lies along or
//! across a ridge).

use super::clip::{clip_plane, sharp_corner_cap, vertex_id, ClipPoint};
use super::{tolerance_of, Contact, MIN_COS, SWITCH_COS};
use crate::analytic::triangle::cross;
use crate::math::{Real, Vector};
use crate::shape::supporting_face;
use crate::simplex::facet_normal;

/// Room for the clipped polygon: a plane adds at most one point to a convex polygon, and the most a polygon meets
/// is a box face's four corners clipped by a triangle's three side planes and two caps (two of its corners can be
/// under 26°; three cannot, summing to 180°).
pub(crate) const TRIANGLE_CLIP: usize = 9;

/// A reference face: its corners in order around it (the first `len`), on the shape it belongs to.
struct Reference<V: Vector> {
    corners: [V; 4],
    len: usize,
    /// Unit normal of its plane, on the side of `toward`.
    normal: V,
    /// normal · toward, at least [`MIN_COS`].
    cos: V::Real,
    /// The direction points are carried along onto it: the contact normal n for A's face, −n for B's.
    toward: V,
    /// Whether it is A's (the triangle's) face.
    is_a: bool,
    /// The feature's id, as the shape's `support_feature` gives it (0 for a triangle).
    id: u32,
}

impl<V: Vector> Reference<V> {
    /// Whether `p` (on the reference plane, inside the side planes) lies on the feature: always for a face; for an
    /// edge, only on its line (within `tol`).
    fn holds(&self, p: V, tol: V::Real) -> bool {
        if self.len >= 3 {
            return true;
        }
        let (a, e) = (self.corners[0], self.corners[1] - self.corners[0]);
        let d = p - a;
        (d - e * (d.dot(e) / e.length_squared())).length() <= tol
    }
}

/// The contacts (probe frame: point_a on the triangle `t`, point_b on the box of half-extents `h`) of the box
/// against the triangle for the unit normal `n` (from the triangle toward the box), written to `out`; returns how
/// many and the plane tolerance they were judged with.
pub(crate) fn box_triangle<V: Vector>(
    t: [V; 3],
    h: V,
    n: V,
    prediction: V::Real,
    out: &mut [Contact<V>; TRIANGLE_CLIP],
) -> (usize, V::Real) {
    let (mut face, mut ids, mut len) = ([V::zero(); 4], [0u32; 4], 0);
    let face_id = supporting_face(h, -n, |p, id| {
        if len < 4 {
            (face[len], ids[len]) = (p, id);
            len += 1;
        }
    });
    let tol = tolerance_of(&t, &face[..len]);
    let triangle = triangle_reference(t, n);
    let on_box = box_reference(h, n, face, face_id);
    let reference = match (triangle, on_box) {
        (Some(tri), Some(b)) if b.cos > tri.cos + V::Real::from_f64(SWITCH_COS) => b,
        (Some(tri), _) => tri,
        (None, Some(b)) => b,
        (None, None) => return (0, tol),
    };
    let count = if reference.is_a {
        clip_and_pair(&reference, &face[..len], &ids[..len], n, (V::Real::ZERO, V::Real::ZERO), prediction, tol, out)
    } else {
        clip_and_pair(&reference, &t, &[0, 1, 2], n, (V::Real::ZERO, V::Real::ZERO), prediction, tol, out)
    };
    (count, tol)
}

/// The contacts (probe frame) of the capsule of core `p0 p1` and radius `r` against the triangle `t` for the unit
/// normal `n`, as [`box_triangle`]: the segment clipped to the triangle's side planes (up to two points, kept when
/// within the prediction: both when the capsule lies flat, one when it stands), or the triangle clipped to the
/// segment when the segment is the reference (see the module's notes).
pub(crate) fn segment_triangle<V: Vector>(
    t: [V; 3],
    (p0, p1): (V, V),
    r: V::Real,
    n: V,
    prediction: V::Real,
    out: &mut [Contact<V>; TRIANGLE_CLIP],
) -> (usize, V::Real) {
    let segment = [p0, p1];
    let tol = tolerance_of(&t, &segment);
    let radii = (V::Real::ZERO, r);
    let count = match (triangle_reference(t, n), segment_reference(p0, p1, n)) {
        (Some(tri), Some(seg)) if seg.cos > tri.cos + V::Real::from_f64(SWITCH_COS) => {
            clip_and_pair(&seg, &t, &[0, 1, 2], n, radii, prediction, tol, out)
        }
        (Some(tri), _) => clip_and_pair(&tri, &segment, &[0, 1], n, radii, prediction, tol, out),
        (None, Some(seg)) => clip_and_pair(&seg, &t, &[0, 1, 2], n, radii, prediction, tol, out),
        (None, None) => 0,
    };
    (count, tol)
}

/// The segment `p0 p1` as B's reference edge for the normal `n`, facing −n by the part of −n across it (at least
/// [`MIN_COS`]: a segment nearly along n, a capsule standing on the triangle, is none). Its plane holds the segment
/// and that part; only points carried onto its line count (see [`clip_and_pair`]).
fn segment_reference<V: Vector>(p0: V, p1: V, n: V) -> Option<Reference<V>> {
    let e = p1 - p0;
    let ee = e.length_squared();
    if !(ee > V::Real::ZERO) {
        return None;
    }
    let across = -n - e * ((-n).dot(e) / ee);
    if !(across.length() >= V::Real::from_f64(MIN_COS)) {
        return None;
    }
    let normal = across.normalize_or_zero();
    let cos = -normal.dot(n);
    let corners = [p0, p1, V::zero(), V::zero()];
    (cos >= V::Real::from_f64(MIN_COS)).then_some(Reference {
        corners,
        len: 2,
        normal,
        cos,
        toward: -n,
        is_a: false,
        id: 0,
    })
}

/// The triangle as A's reference face for the normal `n`, if it faces n within 60°.
fn triangle_reference<V: Vector>(t: [V; 3], n: V) -> Option<Reference<V>> {
    let normal = facet_normal(&t)?;
    let normal = if normal.dot(n) < V::Real::ZERO { -normal } else { normal };
    let cos = normal.dot(n);
    let corners = [t[0], t[1], t[2], V::zero()];
    (cos >= V::Real::from_f64(MIN_COS)).then_some(Reference {
        corners,
        len: 3,
        normal,
        cos,
        toward: n,
        is_a: true,
        id: 0,
    })
}

/// The box face `face` (id `face_id`, across axis `face_id / 2`) as B's reference for the normal `n`, unless it is
/// flat (a box of zero width across it).
fn box_reference<V: Vector>(h: V, n: V, face: [V; 4], face_id: u32) -> Option<Reference<V>> {
    let k = face_id as usize / 2;
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    if !(h.get(i) > V::Real::ZERO && h.get(j) > V::Real::ZERO) {
        return None;
    }
    let normal = if face_id & 1 == 1 { V::axis(k) } else { -V::axis(k) };
    let cos = -normal.dot(n);
    // The face supports −n along its largest component, so cos ≥ 1/√3 for a unit n; a NaN normal fails here.
    (cos >= V::Real::from_f64(MIN_COS)).then_some(Reference {
        corners: face,
        len: 4,
        normal,
        cos,
        toward: -n,
        is_a: false,
        id: face_id,
    })
}

/// Clips the incident feature (`points` with vertex ids `ids`: a polygon from three points, else a segment) to
/// the prism over `reference` along its `toward`, and writes the contacts of the clipped points within
/// `prediction` of the reference plane (the radii `ra`, `rb` of A and B taken off their separation) to `out`;
/// returns how many. A reference edge (a segment) keeps only the points carried onto its line.
#[allow(clippy::too_many_arguments)]
fn clip_and_pair<V: Vector>(
    reference: &Reference<V>,
    points: &[V],
    ids: &[u32],
    n: V,
    (ra, rb): (V::Real, V::Real),
    prediction: V::Real,
    tol: V::Real,
    out: &mut [Contact<V>; TRIANGLE_CLIP],
) -> usize {
    // The buffers live here, so that building the clipper does not copy them.
    let mut bufs = [[ClipPoint::default(); TRIANGLE_CLIP]; 2];
    let mut poly = Clipping::new(&mut bufs, points, ids, reference);
    poly.clip_to_prism(reference);
    let clipped = poly.points();
    let (origin, along) = (reference.corners[0], reference.toward);
    let mut seen = [V::zero(); TRIANGLE_CLIP];
    let mut count = 0;
    for q in clipped {
        // How far q lies above the reference plane along the normal, less the radius.
        let sep = reference.normal.dot(q.p - origin) / reference.cos;
        let gap = sep - ra - rb;
        if gap > prediction {
            continue;
        }
        let on_reference = q.p - along * sep;
        if !reference.holds(on_reference, tol) || seen[..count].iter().any(|p| (*p - q.p).max_abs() <= tol) {
            // Off a reference edge's line, or a repeat (a point just outside a side plane clips to two crossings
            // beside it).
            continue;
        }
        seen[count] = q.p;
        let (core_a, core_b) = if reference.is_a { (on_reference, q.p) } else { (q.p, on_reference) };
        let id = (u64::from(!reference.is_a) << 63) | ((u64::from(reference.id) & 0xffff) << 47) | q.id;
        out[count] = Contact { point_a: core_a + n * ra, point_b: core_b - n * rb, depth: -gap.to_f64(), id };
        count += 1;
    }
    count
}

/// The incident feature being clipped: a polygon (closed, from three points) or a segment, going back and forth
/// between two stack buffers (`cur` holds it).
struct Clipping<'b, V: Vector> {
    bufs: &'b mut [[ClipPoint<V>; TRIANGLE_CLIP]; 2],
    cur: usize,
    len: usize,
    closed: bool,
    /// Points this far outside a plane count as inside (1e-12 of the reference's coordinates, as the general
    /// clipper allows), so a corner exactly on a side plane survives rounding.
    slack: V::Real,
}

impl<'b, V: Vector> Clipping<'b, V> {
    fn new(
        bufs: &'b mut [[ClipPoint<V>; TRIANGLE_CLIP]; 2],
        points: &[V],
        ids: &[u32],
        reference: &Reference<V>,
    ) -> Self {
        for (o, (p, id)) in bufs[0].iter_mut().zip(points.iter().zip(ids)) {
            *o = ClipPoint { p: *p, id: vertex_id(*id) };
        }
        let scale = reference.corners[..reference.len].iter().fold(V::Real::ZERO, |m, p| m.max(p.max_abs()));
        let slack = V::Real::from_f64(1e-12) * scale;
        Self { bufs, cur: 0, len: points.len().min(TRIANGLE_CLIP), closed: points.len() >= 3, slack }
    }

    /// The clipped points.
    fn points(&self) -> &[ClipPoint<V>] {
        &self.bufs[self.cur][..self.len]
    }

    /// Keeps the part inside the plane through `a` of outward unit normal `s` (the `plane`-th, for the ids).
    fn clip(&mut self, a: V, s: V, plane: usize) -> usize {
        // Wholly inside (the usual case: a side plane of a large face), the polygon stays as it is: `clip_plane`
        // would copy every point over unchanged (same heights, same test).
        let slack = self.slack;
        if self.points().iter().all(|q| s.dot(q.p - a) - slack <= V::Real::ZERO) {
            return self.len;
        }
        let [x, y] = &mut *self.bufs;
        let (src, dst) = if self.cur == 0 { (x, y) } else { (y, x) };
        self.len = clip_plane(&src[..self.len], self.closed, a, s, self.slack, plane, &mut dst[..]);
        self.cur ^= 1;
        self.len
    }

    /// Clips to the side planes of `reference` along its `toward`, then to the caps of its corners under 26° (a
    /// triangle's: a box face has none), as the general clipper does.
    fn clip_to_prism(&mut self, reference: &Reference<V>) {
        let r = &reference.corners[..reference.len];
        let along = reference.toward;
        if r.len() == 2 {
            // An edge: the planes through its ends, across it (along's part taken out).
            for (k, (a, s)) in [(r[0], r[0] - r[1]), (r[1], r[1] - r[0])].into_iter().enumerate() {
                self.clip(a, (s - along * s.dot(along)).normalize_or_zero(), k);
            }
            return;
        }
        // Edge × along points out of the face when its corners turn counter-clockwise about along.
        let turn = cross(r[1] - r[0], r[2] - r[0]).dot(along);
        let outward = if turn < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
        for k in 0..r.len() {
            let (a, b) = (r[k], r[if k + 1 == r.len() { 0 } else { k + 1 }]);
            let side = cross(b - a, along);
            if !(side.length_squared() > V::Real::ZERO) {
                // A zero edge (a degenerate face's) bounds nothing.
                continue;
            }
            if self.clip(a, side.normalize_or_zero() * outward, k) == 0 {
                return;
            }
        }
        if r.len() == 3 {
            for k in 0..3 {
                let Some(cap) = sharp_corner_cap(r, k, along) else { continue };
                if self.clip(r[k], cap, 3 + k) == 0 {
                    return;
                }
            }
        }
    }
}

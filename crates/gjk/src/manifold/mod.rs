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

use crate::epa::penetration;
use crate::gjk::Status;
use crate::math::{Iso, Real, Vector};
use crate::shape::{Feature, SupportMap};
use clip::{clip_to_reference, ClipPoint, MAX_CLIP};

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
    let mut m = Manifold {
        normal: p.normal,
        contacts: [Contact::default(); MAX_CONTACTS],
        len: 0,
        distance: p.distance,
        status: p.status,
    };
    if p.distance > prediction {
        return m;
    }
    // Everything below is in A's frame (the pair frame), where the numbers are small.
    let rel = pose_a.relative(pose_b);
    let n = pose_a.inverse_transform_vector(p.normal);
    let mut fa = Feature::default();
    a.support_feature(n, &mut fa);
    let mut fb = Feature::default();
    b.support_feature(rel.inverse_transform_vector(-n), &mut fb);
    fb.map(|q| rel.transform_point(q));
    let mut found = [Contact::default(); MAX_CLIP];
    let count = if fa.len >= 2 && fb.len >= 2 {
        clipped_contacts(&fa, &fb, n, a.radius(), b.radius(), prediction, &mut found)
    } else {
        0
    };
    if count == 0 {
        // A vertex (or a curved point) touches: the penetration query's points are the contact.
        m.contacts[0] = Contact {
            point_a: p.point_a,
            point_b: p.point_b,
            depth: p.depth.to_f64() - (p.distance.max(V::Real::ZERO)).to_f64(),
            id: 0,
        };
        m.len = 1;
        return m;
    }
    let max = if V::DIM == 2 { 2 } else { MAX_CONTACTS };
    let kept = reduce(&mut found[..count], max);
    for (slot, c) in m.contacts.iter_mut().zip(&found[..kept]) {
        *slot =
            Contact { point_a: pose_a.transform_point(c.point_a), point_b: pose_a.transform_point(c.point_b), ..*c };
    }
    m.len = kept;
    m
}

/// Clips the incident feature to the reference one and turns the clipped points within reach into contacts
/// (pair frame). Returns how many were written.
fn clipped_contacts<V: Vector>(
    fa: &Feature<V>,
    fb: &Feature<V>,
    n: V,
    ra: V::Real,
    rb: V::Real,
    prediction: V::Real,
    out: &mut [Contact<V>; MAX_CLIP],
) -> usize {
    let ref_is_a = fa.len >= fb.len;
    let (reference, incident) = if ref_is_a { (fa, fb) } else { (fb, fa) };
    // The reference plane's normal points from the reference shape toward the incident one.
    let toward = if ref_is_a { n } else { -n };
    let nr = if reference.len >= 3 {
        V::facet_normal(&reference.points[..3])
            .map(|f| if f.dot(toward) < V::Real::ZERO { -f } else { f })
            .unwrap_or(toward)
    } else {
        toward
    };
    let mut buf = [ClipPoint::default(); MAX_CLIP];
    let len = clip_to_reference(reference, incident, &mut buf);
    let origin = reference.points[0];
    let mut count = 0;
    for q in &buf[..len] {
        // Signed distance of the incident point above the reference plane, less the radii.
        let sep = nr.dot(q.p - origin);
        let gap = sep - ra - rb;
        if gap > prediction {
            continue;
        }
        let on_reference = q.p - nr * sep;
        let (core_a, core_b) = if ref_is_a { (on_reference, q.p) } else { (q.p, on_reference) };
        let id = (u64::from(!ref_is_a) << 63) | ((u64::from(reference.id) & 0xffff) << 47) | q.id;
        out[count] = Contact { point_a: core_a + n * ra, point_b: core_b - n * rb, depth: -gap.to_f64(), id };
        count += 1;
    }
    count
}

/// Keeps at most `max` contacts: the deepest, the one farthest from it, then (3D) the ones that widen the area
/// most. Returns how many are kept, at the front.
fn reduce<V: Vector>(c: &mut [Contact<V>], max: usize) -> usize {
    if c.len() <= max {
        return c.len();
    }
    let pick = |c: &mut [Contact<V>], start: usize, score: &dyn Fn(&Contact<V>) -> f64| {
        let best = (start..c.len()).fold(start, |b, i| if score(&c[i]) > score(&c[b]) { i } else { b });
        c.swap(start, best);
    };
    pick(c, 0, &|x| x.depth);
    let p0 = c[0].point_a;
    pick(c, 1, &|x| (x.point_a - p0).length_squared().to_f64());
    if max > 2 {
        let p1 = c[1].point_a;
        // Twice the triangle's area, squared: |u|²|v|² − (u·v)² (Lagrange's identity, any dimension).
        let area = |p: V, q: V, r: V| {
            let (u, v) = (q - p, r - p);
            (u.length_squared() * v.length_squared() - u.dot(v) * u.dot(v)).to_f64()
        };
        pick(c, 2, &|x| area(p0, p1, x.point_a));
        let p2 = c[2].point_a;
        pick(c, 3, &|x| area(p0, p1, x.point_a) + area(p1, p2, x.point_a) + area(p2, p0, x.point_a));
    }
    max
}

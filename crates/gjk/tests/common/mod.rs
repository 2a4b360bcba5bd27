//! Helpers shared by the reference suites: a seeded RNG and random poses, the f32/f64 casts that let one check run
//! in both precisions, conversions to parry's types, and the exact references (point–box, segment–segment and the
//! brute-force distance to the convex hull of a point set) that the suites compare GJK against.
//!
//! Every reference here is computed without GJK, in f64, from the inputs exactly as the queries see them.

use gjk::math::{DQuat, DVec2, DVec3, Iso, Quat, Rot2, Vec2, Vec3, Vector2, Vector3};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub mod pairs;

/// A shape that forwards its support function, features and box but none of its shortcut hooks (point, segment
/// and box cores, a polygon's vertex cycle): the queries then take the general path on it (GJK and EPA, the general
/// clipper), for comparison with their closed forms and walks.
pub struct Opaque<'a, S: ?Sized>(pub &'a S);

impl<V: gjk::math::Vector, S: gjk::shape::SupportMap<V> + ?Sized> gjk::shape::SupportMap<V> for Opaque<'_, S> {
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    fn radius(&self) -> V::Real {
        self.0.radius()
    }
    fn center(&self) -> V {
        self.0.center()
    }
    fn polyhedral(&self) -> bool {
        self.0.polyhedral()
    }
    fn support_feature(&self, dir: V, out: &mut gjk::shape::Feature<V>) {
        self.0.support_feature(dir, out)
    }
    fn local_aabb(&self) -> gjk::shape::Aabb<V> {
        self.0.local_aabb()
    }
}

/// The deterministic generator of every randomised suite (one fixed seed per test, so a failure reproduces).
pub fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

/// Uniform in [lo, hi).
pub fn uniform(rng: &mut SmallRng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.gen::<f64>()
}

/// Log-uniform in [lo, hi): as many gaps near 1e-6 as near 1e-3.
pub fn log_uniform(rng: &mut SmallRng, lo: f64, hi: f64) -> f64 {
    (lo.ln() + (hi.ln() - lo.ln()) * rng.gen::<f64>()).exp()
}

/// A uniformly distributed unit quaternion (Shoemake's method).
pub fn unit_quat(rng: &mut SmallRng) -> DQuat {
    let (u1, u2, u3): (f64, f64, f64) = (rng.gen(), rng.gen(), rng.gen());
    let tau = std::f64::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    DQuat::from_xyzw(a * (tau * u2).sin(), a * (tau * u2).cos(), b * (tau * u3).sin(), b * (tau * u3).cos())
}

/// A uniform angle in [−π, π).
pub fn angle(rng: &mut SmallRng) -> f64 {
    uniform(rng, -std::f64::consts::PI, std::f64::consts::PI)
}

/// A uniformly distributed unit vector in 3D.
pub fn unit3(rng: &mut SmallRng) -> DVec3 {
    let z = uniform(rng, -1.0, 1.0);
    let phi = angle(rng);
    let s = (1.0 - z * z).max(0.0).sqrt();
    DVec3::new(s * phi.cos(), s * phi.sin(), z)
}

/// A uniformly distributed unit vector in 2D.
pub fn unit2(rng: &mut SmallRng) -> DVec2 {
    let phi = angle(rng);
    DVec2::new(phi.cos(), phi.sin())
}

/// A point uniform in the cube [−s, s]³.
pub fn in_cube3(rng: &mut SmallRng, s: f64) -> DVec3 {
    DVec3::new(uniform(rng, -s, s), uniform(rng, -s, s), uniform(rng, -s, s))
}

/// A point uniform in the square [−s, s]².
pub fn in_square2(rng: &mut SmallRng, s: f64) -> DVec2 {
    DVec2::new(uniform(rng, -s, s), uniform(rng, -s, s))
}

/// A random rotation with a translation uniform in [−spread, spread]³.
pub fn pose3(rng: &mut SmallRng, spread: f64) -> Iso<DVec3> {
    Iso::new(unit_quat(rng), in_cube3(rng, spread))
}

/// A random rotation with a translation uniform in [−spread, spread]².
pub fn pose2(rng: &mut SmallRng, spread: f64) -> Iso<DVec2> {
    Iso::new(Rot2::from_angle(angle(rng)), in_square2(rng, spread))
}

/// `pose` moved by `offset` (the offset is added to the translation, rounding it as a user's input would be).
pub fn shifted<V: gjk::math::Vector>(pose: &Iso<V>, offset: V) -> Iso<V> {
    Iso::new(pose.rotation, pose.translation + offset)
}

/// h(d): how far the posed shape reaches along the unit world direction `d` (its core's support point along d,
/// dotted with d, plus its radius), in f64. The shape's supporting plane with outward normal d is x·d = h(d).
pub fn support_value<V: gjk::math::Vector>(shape: &dyn gjk::shape::SupportMap<V>, pose: &Iso<V>, d: V) -> f64 {
    use gjk::math::Real;
    let core = pose.transform_point(shape.support(pose.inverse_transform_vector(d)));
    (core.dot(d) + shape.radius()).to_f64()
}

/// A 3D vector type the checks run in: f32 (`Vec3`) or f64 (`DVec3`). Scenarios are drawn in f64 and cast, and
/// the references are computed in f64 from the cast values, so they describe exactly what the query was given.
pub trait Space3: Vector3 {
    /// Name for messages.
    const NAME: &'static str;
    fn from64(v: DVec3) -> Self;
    fn to64(self) -> DVec3;
    fn pose_from64(p: &Iso<DVec3>) -> Iso<Self>;
    fn pose_to64(p: &Iso<Self>) -> Iso<DVec3>;
}

impl Space3 for DVec3 {
    const NAME: &'static str = "f64";
    fn from64(v: DVec3) -> Self {
        v
    }
    fn to64(self) -> DVec3 {
        self
    }
    fn pose_from64(p: &Iso<DVec3>) -> Iso<Self> {
        *p
    }
    fn pose_to64(p: &Iso<Self>) -> Iso<DVec3> {
        *p
    }
}

impl Space3 for Vec3 {
    const NAME: &'static str = "f32";
    fn from64(v: DVec3) -> Self {
        v.as_vec3()
    }
    fn to64(self) -> DVec3 {
        self.as_dvec3()
    }
    fn pose_from64(p: &Iso<DVec3>) -> Iso<Self> {
        Iso::new(p.rotation.as_quat(), p.translation.as_vec3())
    }
    fn pose_to64(p: &Iso<Self>) -> Iso<DVec3> {
        // Renormalised in f64: the f32 quaternion is unit only to f32 rounding.
        let q: Quat = p.rotation;
        Iso::new(q.as_dquat().normalize(), p.translation.as_dvec3())
    }
}

/// The 2D counterpart of [`Space3`].
pub trait Space2: Vector2 {
    const NAME: &'static str;
    fn from64(v: DVec2) -> Self;
    fn to64(self) -> DVec2;
    fn pose_from64(p: &Iso<DVec2>) -> Iso<Self>;
    fn pose_to64(p: &Iso<Self>) -> Iso<DVec2>;
}

impl Space2 for DVec2 {
    const NAME: &'static str = "f64";
    fn from64(v: DVec2) -> Self {
        v
    }
    fn to64(self) -> DVec2 {
        self
    }
    fn pose_from64(p: &Iso<DVec2>) -> Iso<Self> {
        *p
    }
    fn pose_to64(p: &Iso<Self>) -> Iso<DVec2> {
        *p
    }
}

impl Space2 for Vec2 {
    const NAME: &'static str = "f32";
    fn from64(v: DVec2) -> Self {
        v.as_vec2()
    }
    fn to64(self) -> DVec2 {
        self.as_dvec2()
    }
    fn pose_from64(p: &Iso<DVec2>) -> Iso<Self> {
        Iso::new(Rot2 { cos: p.rotation.cos as f32, sin: p.rotation.sin as f32 }, p.translation.as_vec2())
    }
    fn pose_to64(p: &Iso<Self>) -> Iso<DVec2> {
        let (c, s) = (p.rotation.cos as f64, p.rotation.sin as f64);
        let n = (c * c + s * s).sqrt();
        Iso::new(Rot2 { cos: c / n, sin: s / n }, p.translation.as_dvec2())
    }
}

// ---------------------------------------------------------------------------------------------------------------
// parry (glam 0.33 through glamx: converted component by component).

pub fn parry_vec3(v: DVec3) -> parry3d_f64::math::Vector {
    parry3d_f64::math::Vector::new(v.x, v.y, v.z)
}

pub fn parry_pose3(p: &Iso<DVec3>) -> parry3d_f64::math::Pose {
    let q = p.rotation;
    let rot = parry3d_f64::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w);
    parry3d_f64::math::Pose::from_parts(parry_vec3(p.translation), rot)
}

pub fn parry_vec2(v: DVec2) -> parry2d_f64::math::Vector {
    parry2d_f64::math::Vector::new(v.x, v.y)
}

pub fn parry_pose2(p: &Iso<DVec2>) -> parry2d_f64::math::Pose {
    let rot = parry2d_f64::math::Rotation::from_cos_sin_unchecked(p.rotation.cos, p.rotation.sin);
    parry2d_f64::math::Pose::from_parts(parry_vec2(p.translation), rot)
}

// ---------------------------------------------------------------------------------------------------------------
// Exact references.

/// Closest point of the box [−h, h] to `p` (both in the box's frame) and the distance: clamp each coordinate.
pub fn point_box3(p: DVec3, h: DVec3) -> (DVec3, f64) {
    let q = p.clamp(-h, h);
    (q, (p - q).length())
}

/// [`point_box3`] in 2D.
pub fn point_box2(p: DVec2, h: DVec2) -> (DVec2, f64) {
    let q = p.clamp(-h, h);
    (q, (p - q).length())
}

/// Closest point of segment `ab` to `p`.
pub fn point_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// Closest points of segments p1q1 and p2q2 (Ericson, *Real-Time Collision Detection*, §5.1.9): the unconstrained
/// parameters of the two lines, clamped to the segments, each recomputed from the other after clamping. Parallel
/// segments take s = 0 and let the clamps pick a valid pair. Returns (point on the first, point on the second).
pub fn segment_segment(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (DVec3, DVec3) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(r);
    let (s, t);
    if a == 0.0 && e == 0.0 {
        return (p1, p2);
    }
    if a == 0.0 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e == 0.0 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let s0 = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

/// Weight tolerance of the brute-force projections (weights are dimensionless).
const BRUTE_WEIGHT_TOL: f64 = 1e-12;
/// Supporting-plane tolerance of the brute force, times the squared scale of the points.
const BRUTE_PLANE_TOL: f64 = 1e-12;

/// Exact distance from the origin to the convex hull of `p` (3D), without GJK; see [`brute_closest3`].
pub fn brute_distance3(p: &[DVec3]) -> f64 {
    brute_closest3(p).map_or(0.0, |x| x.length())
}

/// The point of the convex hull of `p` (3D) closest to the origin, `None` when the origin is in the hull.
///
/// Every subset of 1, 2 or 3 points is tried: the origin is projected onto the subset's affine hull (for a pair,
/// the 1×1 Gram system; for a triple, its closed form x = n (n·p₀)/|n|² with n the triangle's normal, whose
/// |n|² is the Gram determinant — singular subsets, |n| ≤ 1e-12·scale², are skipped: their hull is covered by
/// the pairs). A projection whose barycentric weights are all ≥ −1e-12 lies in the hull, and it is the closest
/// point iff the hull lies beyond the plane through it perpendicular to it: p·x ≥ |x|² for every p (up to
/// 1e-12·scale²). The closest point of a hull always lies in the relative interior of a simplex of ≤ 3 of its
/// points (Carathéodory on the face holding it), so it is among the candidates; the answer is the accepted
/// candidate of smallest norm, or none when nothing but possibly x = 0 is accepted (the origin is in the hull).
pub fn brute_closest3(p: &[DVec3]) -> Option<DVec3> {
    let scale = p.iter().fold(0.0f64, |m, q| m.max(q.length()));
    if scale == 0.0 {
        return Some(DVec3::ZERO);
    }
    let plane_tol = BRUTE_PLANE_TOL * scale * scale;
    let mut best = (f64::INFINITY, DVec3::ZERO);
    let consider = |x: DVec3, best: &mut (f64, DVec3)| {
        let xx = x.length_squared();
        if xx.sqrt() < best.0 && p.iter().all(|q| q.dot(x) >= xx - plane_tol) {
            *best = (xx.sqrt(), x);
        }
    };
    for &q in p {
        consider(q, &mut best);
    }
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let t = p[j] - p[i];
            let tt = t.length_squared();
            if tt <= (1e-12 * scale).powi(2) {
                continue;
            }
            let mu = -p[i].dot(t) / tt;
            if (-BRUTE_WEIGHT_TOL..=1.0 + BRUTE_WEIGHT_TOL).contains(&mu) {
                consider(p[i] + t * mu, &mut best);
            }
        }
    }
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let e1 = p[j] - p[i];
            for k in j + 1..p.len() {
                let n = e1.cross(p[k] - p[i]);
                let nn = n.length_squared();
                if nn <= (1e-12 * scale * scale).powi(2) {
                    continue;
                }
                let x = n * (p[i].dot(n) / nn);
                // Barycentric weights from the sub-triangles' signed areas along n.
                let wi = (p[j] - x).cross(p[k] - x).dot(n) / nn;
                let wj = (p[k] - x).cross(p[i] - x).dot(n) / nn;
                let wk = (p[i] - x).cross(p[j] - x).dot(n) / nn;
                if wi >= -BRUTE_WEIGHT_TOL && wj >= -BRUTE_WEIGHT_TOL && wk >= -BRUTE_WEIGHT_TOL {
                    consider(x, &mut best);
                }
            }
        }
    }
    // An accepted x = 0 is the origin inside (or on) the hull as well.
    (best.0.is_finite() && best.0 > 0.0).then_some(best.1)
}

/// Exact distance from the origin to the convex hull of `p` (2D), without GJK; see [`brute_closest2`].
pub fn brute_distance2(p: &[DVec2]) -> f64 {
    brute_closest2(p).map_or(0.0, |x| x.length())
}

/// [`brute_closest3`] in 2D: subsets of 1 and 2 points.
pub fn brute_closest2(p: &[DVec2]) -> Option<DVec2> {
    let scale = p.iter().fold(0.0f64, |m, q| m.max(q.length()));
    if scale == 0.0 {
        return Some(DVec2::ZERO);
    }
    let plane_tol = BRUTE_PLANE_TOL * scale * scale;
    let mut best = (f64::INFINITY, DVec2::ZERO);
    let consider = |x: DVec2, best: &mut (f64, DVec2)| {
        let xx = x.length_squared();
        if xx.sqrt() < best.0 && p.iter().all(|q| q.dot(x) >= xx - plane_tol) {
            *best = (xx.sqrt(), x);
        }
    };
    for &q in p {
        consider(q, &mut best);
    }
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let t = p[j] - p[i];
            let tt = t.length_squared();
            if tt <= (1e-12 * scale).powi(2) {
                continue;
            }
            let mu = -p[i].dot(t) / tt;
            if (-BRUTE_WEIGHT_TOL..=1.0 + BRUTE_WEIGHT_TOL).contains(&mu) {
                consider(p[i] + t * mu, &mut best);
            }
        }
    }
    // An accepted x = 0 is the origin inside (or on) the hull as well.
    (best.0.is_finite() && best.0 > 0.0).then_some(best.1)
}

/// All differences a − b (world points), the Minkowski difference's generating points.
pub fn differences<T: Copy + std::ops::Sub<Output = T>>(a: &[T], b: &[T]) -> Vec<T> {
    a.iter().flat_map(|&x| b.iter().map(move |&y| x - y)).collect()
}

/// Relative error of `got` against `want`, relative to max(|want|, size).
pub fn rel_err(got: f64, want: f64, size: f64) -> f64 {
    (got - want).abs() / want.abs().max(size)
}

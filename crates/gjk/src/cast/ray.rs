use super::{shape_cast, CastOptions};
use crate::gjk::Status;
#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use crate::math::{Iso, Real, Vector};
use crate::shape::{Point, Scaled, SupportMap};

/// The answer of [`ray_cast`].
///
/// Every field is finite on a hit, and `toi` is always in [0, max_toi].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayCast<V: Vector> {
    /// True when the ray meets the shape within [0, max_toi].
    pub hit: bool,
    /// The time of impact, in units of the ray's direction: `point = origin + toi · direction`. On a miss,
    /// `max_toi` (the ray is clear all along), or 0 with [`Status::Stalled`] for input that is not a number.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_impls::time"))]
    pub toi: V::Real,
    /// Unit outward normal of the shape at the hit (zero for a solid hit from inside, where there is no surface).
    pub normal: V,
    /// `origin + toi · direction` (computed along the unit direction, so it stays exact where the time does not).
    pub point: V,
    /// Advancement steps of the GJK path (0 on an exact fast path).
    pub iterations: u32,
    /// How the query ended.
    pub status: Status,
}

impl<V: Vector> RayCast<V> {
    fn miss(toi: V::Real, iterations: u32, status: Status) -> Self {
        Self { hit: false, toi, normal: V::zero(), point: V::zero(), iterations, status }
    }
}

/// Casts the ray `origin + t · direction`, t in [0, max_toi], against `shape` at `pose`.
///
/// `direction` need not be unit length. A `solid` shape is hit at t = 0 by a ray starting inside (or on) it; a
/// hollow one is hit where the ray leaves it. Balls, boxes, capsules, cylinders, cones, ellipsoids and polytopes
/// with volume have exact fast paths (so do `Posed` and `Scaled` wrappers of them); every other shape goes
/// through a GJK cast of a point, which agrees with them.
///
/// A direction whose square would over- or underflow (1e-200, 1e154) is cast along its unit vector and the time
/// divided back by its length, so directions of any size give the same answer; shapes and distances beyond the squares' range of the
/// precision (a sphere of radius 1e308) are scaled by a power of two first. A zero direction is a point that
/// never moves: a solid shape containing it is hit at t = 0, anything else is a miss (a hollow shape is never
/// left). Input that is not a number (NaN, infinities, a negative or NaN max_toi) gives a miss with
/// [`Status::Stalled`] and toi 0.
///
/// ```
/// use gjk::cast::ray_cast;
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::{Ball, ConvexPolytope};
/// let ball = Ball::new(1.0).unwrap();
/// let r = ray_cast(&ball, &Iso::identity(), DVec3::new(-5.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0), 10.0, true);
/// assert!(r.hit && (r.toi - 2.0).abs() < 1e-15 && r.normal == -DVec3::X);
/// // The same ray against an octahedron, through the GJK path.
/// let octa = ConvexPolytope::new(&[DVec3::X, -DVec3::X, DVec3::Y, -DVec3::Y, DVec3::Z, -DVec3::Z]).unwrap();
/// let r = ray_cast(&octa, &Iso::identity(), DVec3::new(-5.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0), 10.0, true);
/// assert!(r.hit && (r.toi - 2.0).abs() < 1e-12);
/// ```
pub fn ray_cast<V, S>(shape: &S, pose: &Iso<V>, origin: V, direction: V, max_toi: V::Real, solid: bool) -> RayCast<V>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    let zero = V::Real::ZERO;
    // x · 0 is 0 for a finite x and NaN otherwise: one sum tells whether every coordinate is a number.
    let probe = origin * zero + direction * zero + pose.translation * zero;
    if !(probe == V::zero() && crate::math::Rotation::is_finite(&pose.rotation) && max_toi >= zero) {
        return RayCast::miss(zero, 0, Status::Stalled);
    }
    if direction == V::zero() {
        return still_ray(shape, pose, origin, max_toi, solid);
    }
    let dd = direction.length_squared();
    if crate::shape::square_in_range(dd) {
        // The common case: the direction as given.
        return unit_ray_cast(shape, pose, origin, direction, max_toi, solid);
    }
    let m = direction.max_abs();
    // A direction whose square would over- or underflow: as (largest coordinate m) × (a vector of length in
    // [1, √DIM]), cast along its unit vector, with times converted back through both factors.
    let scaled = direction * (V::Real::ONE / m);
    let scaled_length = scaled.length();
    let unit = scaled * (V::Real::ONE / scaled_length);
    let to_time = |s: V::Real| (s / m / scaled_length).min(max_toi);
    // The unit ray's cut-off (infinite if the product overflows: the cut-off is then beyond any hit).
    let max_s = max_toi * m * scaled_length;
    let r = unit_ray_cast(shape, pose, origin, unit, max_s, solid);
    if !r.hit {
        let toi = if r.status == Status::Converged { max_toi } else { to_time(r.toi) };
        return RayCast::miss(toi, r.iterations, r.status);
    }
    RayCast { toi: to_time(r.toi), point: origin + unit * r.toi, ..r }
}

/// A ray that does not move: a point. A solid shape containing it is hit at once (no surface crossed: no
/// normal); a hollow one is never left, and a point outside never arrives.
fn still_ray<V, S>(shape: &S, pose: &Iso<V>, origin: V, max_toi: V::Real, solid: bool) -> RayCast<V>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    let point = Point { at: V::zero() };
    if solid && crate::gjk::intersects(&point, &Iso::from_translation(origin), shape, pose) {
        return RayCast {
            hit: true,
            toi: V::Real::ZERO,
            normal: V::zero(),
            point: origin,
            iterations: 0,
            status: Status::Converged,
        };
    }
    RayCast::miss(max_toi, 0, Status::Converged)
}

/// [`ray_cast`] along a direction of comfortable length: the shape's exact fast path if it has one, else the GJK
/// path, scaled by a power of two when the sizes involved would over- or underflow their squares.
fn unit_ray_cast<V, S>(shape: &S, pose: &Iso<V>, origin: V, dir: V, max_s: V::Real, solid: bool) -> RayCast<V>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    let (o, d) = (pose.inverse_transform_point(origin), pose.inverse_transform_vector(dir));
    if let Some(fast) = shape.ray_cast_local(o, d, max_s, solid) {
        return match fast {
            Some((toi, normal)) => RayCast {
                hit: true,
                toi,
                normal: pose.transform_vector(normal),
                point: origin + dir * toi,
                iterations: 0,
                status: Status::Converged,
            },
            None => RayCast::miss(max_s, 0, Status::Converged),
        };
    }
    // The GJK path works on squares of the shape's coordinates and of the distances: out of their range, cast in
    // a frame scaled by a power of two (exact), where the same ray meets the scaled shape at the scaled time.
    let size = shape_size(shape).max(o.max_abs());
    let Some(k) = rescale::<V::Real>(size) else {
        return gjk_ray_cast(shape, pose, origin, dir, max_s, solid);
    };
    let inv = V::Real::ONE / k;
    let scaled = Scaled::new(shape, V::from_fn(|_| inv)).expect("a power of two is finite");
    // About the ray's origin, so that a tiny shape far off is not scaled out of range.
    let pose_k = Iso::new(pose.rotation, (pose.translation - origin) * inv);
    let r = gjk_ray_cast(&scaled, &pose_k, V::zero(), dir, max_s * inv, solid);
    RayCast { toi: r.toi * k, point: origin + dir * (r.toi * k), ..r }
}

/// The largest coordinate of the shape's bounding box, without forming its (possibly overflowing) diameter.
pub(crate) fn shape_size<V: Vector, S: SupportMap<V> + ?Sized>(shape: &S) -> V::Real {
    let b = shape.local_aabb();
    b.min.max_abs().max(b.max.max_abs())
}

/// The power of two that brings `size` near 1, when `size` is out of the comfortable range of the precision
/// (its square would over- or underflow); `None` when it is in range (or zero, or not a number).
pub(crate) fn rescale<R: Real>(size: R) -> Option<R> {
    if crate::shape::comfortable(size) || !(size > R::ZERO) || !size.is_finite() {
        return None;
    }
    // 2^⌊log₂ size⌋, within the exponents whose inverse is a normal number too.
    let (lowest, highest) = if R::EPSILON.to_f64() < 1e-10 { (-1022.0, 1023.0) } else { (-126.0, 127.0) };
    let e = size.to_f64().log2().floor().clamp(lowest, highest);
    Some(R::from_f64(2f64.powi(e as i32)))
}

/// The GJK path: a point moving along the ray, cast against the shape. A ray that starts on or in the shape is
/// resolved by casting its whole line from beyond the bounding box both ways (entry and exit).
fn gjk_ray_cast<V, S>(shape: &S, pose: &Iso<V>, origin: V, direction: V, max_toi: V::Real, solid: bool) -> RayCast<V>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    let zero = V::Real::ZERO;
    let c = cast_point(shape, pose, origin, direction, max_toi);
    if !c.hit {
        // Clear all along, or (rarely) undecided beyond the time reached.
        return RayCast::miss(c.toi, c.iterations, c.status);
    }
    let answer = |toi: V::Real, normal: V, iterations, status| RayCast {
        hit: true,
        toi,
        normal,
        point: origin + direction * toi,
        iterations,
        status,
    };
    if c.toi > zero {
        // The cast's normal points from the ray's point into the shape: the outward normal is its opposite.
        return answer(c.toi, -c.normal, c.iterations, c.status);
    }
    // The ray starts on or in the shape. Cast the whole line from beyond the bounding box in both directions:
    // the first contact coming forward is where the line enters (t ≤ 0), the first coming back is where it leaves
    // (t ≥ 0), each with the surface's own normal. The box is grown to hold the origin: the origin touches the
    // shape, but it can lie outside the box by the box's rounding (a ray from a polygon's leftmost vertex, 2.2e-16
    // left of its turned box, was then "never in the box" behind it and answered as a miss: gjk-fuzz seed 1 case
    // 4505). From a box holding the origin both exit times are ≥ 0, and the casts start a margin beyond them so
    // that they meet the surface, not a contact at their start: at least 1024 ulps of the box's coordinates away,
    // past their rounding. A cast that starts touching reports the contact at its start with no surface normal: an
    // f32 ray from the end of a segment 2e5 long started its cast back 1e-3 away, within the 0.03 of the end's
    // rounding, and left with a normal that does not support the segment (gjk-fuzz seed 57 case 3464).
    //
    // The margin is a distance, so it is divided by the direction's length: a floor of 1e-6 in time, as it was,
    // started the casts 550 away from a shape 2.7e-8 wide when the direction was 5.5e8 long, and the exit time,
    // a difference of numbers that large, came out an ulp of 1e-6 off — the hit point 1.1e-13 past the surface
    // (gjk-fuzz seed 52 case 3976). Only a shape that is a point at the origin, cast from there, has no rounding
    // to go by: its margin is one unit.
    let bounds = shape.local_aabb().transformed(pose);
    let bounds = bounds.merged(&crate::shape::Aabb::new(origin, origin));
    let coords = bounds.min.max_abs().max(bounds.max.max_abs());
    let rounding = V::Real::from_f64(1024.0) * V::Real::EPSILON * coords;
    let length = direction.length();
    let pad = if rounding > zero { rounding / length } else { V::Real::ONE / length };
    let margin = |t: V::Real| t * V::Real::from_f64(1.0 + 1e-6) + pad;
    let (ahead, behind) =
        (margin(exit_time(&bounds, origin, direction)), margin(exit_time(&bounds, origin, -direction)));
    let leave = cast_point(shape, pose, origin + direction * ahead, -direction, ahead + behind);
    let enter = cast_point(shape, pose, origin - direction * behind, direction, ahead + behind);
    if !(leave.hit && enter.hit) {
        let iterations = c.iterations + leave.iterations + enter.iterations;
        // An undecided cast of the whole line: say so. Decided ones miss only a line that grazes the shape at
        // the ray's start: the ray touches it there and nowhere else.
        let status = if leave.status != Status::Converged { leave.status } else { enter.status };
        if status != Status::Converged {
            return RayCast::miss(zero, iterations, status);
        }
        return if solid {
            answer(zero, grazing_normal(shape, pose, origin, direction, coords, -c.normal), iterations, status)
        } else {
            RayCast::miss(max_toi, iterations, status)
        };
    }
    let (t_exit, t_entry) = (ahead - leave.toi, enter.toi - behind);
    let iterations = c.iterations + leave.iterations + enter.iterations;
    // Times are differences of numbers as large as the box, from start points rounded to the coordinates: trust
    // them to a few ulps of both.
    let tol = V::Real::from_f64(64.0) * V::Real::EPSILON * (ahead.max(behind) + coords / length);
    if t_entry >= -tol {
        // On the surface, heading in (or grazing): the ray meets the shape right here. Where the line only grazes
        // it — leaving no later than it enters, to the times' rounding — the entering cast arrived tangentially and
        // its normal may not be the surface's there (see `grazing_normal`).
        let normal = if t_exit <= t_entry + tol {
            grazing_normal(shape, pose, origin, direction, coords, -enter.normal)
        } else {
            -enter.normal
        };
        return answer(zero, normal, iterations, Status::Converged);
    }
    if solid {
        // Inside a solid: hit at once; on the surface heading out the surface is there, else there is none.
        let normal = if t_exit <= tol { -leave.normal } else { V::zero() };
        return answer(zero, normal, iterations, Status::Converged);
    }
    if t_exit > max_toi {
        return RayCast::miss(max_toi, iterations, Status::Converged);
    }
    answer(t_exit.max(zero), -leave.normal, iterations, Status::Converged)
}

/// The outward normal where a line grazes the shape at the ray's origin and nowhere else: a proximal normal, from
/// the shape's point c nearest q = origin + τ·u (u the unit direction, q just outside), n = (q − c) / |q − c|.
/// Of it and the cast's normal `cast`, the one whose plane through the origin is nearer the shape's supporting
/// plane (the cast's where q is not outside: the line enters the shape after all, a chord within the casts'
/// rounding, as in f32). The proximal one can be the worse: τ across a disc 1e-12 thick, 0.25 from the origin.
///
/// n supports the shape at c, and c is within τ of the origin: on a face through the origin n·(c − origin) is 0,
/// on a curved surface about τ² × the curvature, and where q is in the origin's normal cone c is the origin
/// itself; only a face beyond a feature closer than τ could be up to τ off. GJK gives n to θ = ε·size / τ, which
/// moves the plane through the origin by θ·τ = ε·size on faces, but by r·θ²/2 where the origin is on a rim of
/// radius r (n leaving the fan of the rim's normals): τ = ε^(2/3) of the coordinates keeps both small (θ = ε^(1/3),
/// 6e-6 in f64; in f32 τ = √ε put a box's faces 2e-3 off).
///
/// The casts' normals are no surface normals there: a cast that starts touching reports none (see above), and one
/// that arrives tangentially only the direction it came from — a ray leaving a cone's base rim down and inward had
/// the entering cast's +y, whose plane through the hit is 1.23 from the cone's supporting plane (gjk-fuzz seed 78
/// case 3751, the cone as a custom support function).
fn grazing_normal<V, S>(shape: &S, pose: &Iso<V>, origin: V, direction: V, coords: V::Real, cast: V) -> V
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    // ε^(2/3) of the coordinates (f64 3.7e-11, f32 2.4e-5).
    let rel = if V::Real::EPSILON.to_f64() < 1e-10 { 3.7e-11 } else { 2.4e-5 };
    let tau = V::Real::from_f64(rel) * coords.max(V::Real::MIN_POSITIVE);
    let q = origin + direction.normalize_or_zero() * tau;
    let d = crate::gjk::distance(shape, pose, &Point { at: V::zero() }, &Iso::from_translation(q));
    if d.intersecting || !d.normal.is_finite() || d.normal == V::zero() {
        return cast;
    }
    // How far the plane of a unit n through the origin lies inside the shape's supporting plane along n.
    let off = |n: V| {
        let far = pose.transform_point(shape.support(pose.inverse_transform_vector(n)));
        ((far - origin).dot(n) + shape.radius()).abs()
    };
    if cast == V::zero() || off(d.normal) <= off(cast) {
        d.normal
    } else {
        cast
    }
}

/// The first contact of a point launched from `from` along `velocity`, within `max_toi`.
fn cast_point<V, S>(shape: &S, pose: &Iso<V>, from: V, velocity: V, max_toi: V::Real) -> super::Cast<V>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    let point = Point { at: V::zero() };
    let opts = CastOptions { max_toi, ..CastOptions::default() };
    shape_cast(&point, &Iso::from_translation(from), velocity, shape, pose, V::zero(), &opts)
}

/// When the ray leaves the box that holds its origin (slab method): finite and ≥ 0 for a non-zero direction.
fn exit_time<V: Vector>(b: &crate::shape::Aabb<V>, origin: V, direction: V) -> V::Real {
    let mut exit = V::Real::INFINITY;
    for i in 0..V::DIM {
        let (o, d) = (origin.get(i), direction.get(i));
        if d != V::Real::ZERO {
            let (t1, t2) = ((b.min.get(i) - o) / d, (b.max.get(i) - o) / d);
            exit = exit.min(t1.max(t2));
        }
    }
    exit.max(V::Real::ZERO)
}

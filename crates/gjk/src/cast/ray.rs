use super::{shape_cast, CastOptions};
use crate::gjk::Status;
use crate::math::{Iso, Real, Vector};
use crate::shape::{Point, SupportMap};

/// The answer of [`ray_cast`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayCast<V: Vector> {
    /// True when the ray meets the shape within [0, max_toi].
    pub hit: bool,
    /// The time of impact, in units of the ray's direction: `point = origin + toi · direction`.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_impls::time"))]
    pub toi: V::Real,
    /// Unit outward normal of the shape at the hit (zero for a solid hit from inside, where there is no surface).
    pub normal: V,
    /// `origin + toi · direction`.
    pub point: V,
    /// Advancement steps of the GJK path (0 on an exact fast path).
    pub iterations: u32,
    /// How the query ended.
    pub status: Status,
}

impl<V: Vector> RayCast<V> {
    fn miss(iterations: u32, status: Status) -> Self {
        Self { hit: false, toi: V::Real::INFINITY, normal: V::zero(), point: V::zero(), iterations, status }
    }
}

/// Casts the ray `origin + t · direction`, t in [0, max_toi], against `shape` at `pose`.
///
/// `direction` need not be unit length. A `solid` shape is hit at t = 0 by a ray starting inside (or on) it; a
/// hollow one is hit where the ray leaves it. Balls and boxes have exact fast paths; every other shape goes
/// through a GJK cast of a point, which agrees with them.
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
    let (o, d) = (pose.inverse_transform_point(origin), pose.inverse_transform_vector(direction));
    if let Some(fast) = shape.ray_cast_local(o, d, max_toi, solid) {
        return match fast {
            Some((toi, normal)) => RayCast {
                hit: true,
                toi,
                normal: pose.transform_vector(normal),
                point: origin + direction * toi,
                iterations: 0,
                status: Status::Converged,
            },
            None => RayCast::miss(0, Status::Converged),
        };
    }
    gjk_ray_cast(shape, pose, origin, direction, max_toi, solid)
}

/// The GJK path: a point moving along the ray, cast against the shape. A ray that starts on or in the shape is
/// resolved by casting its whole line from beyond the bounding box both ways (entry and exit).
fn gjk_ray_cast<V, S>(shape: &S, pose: &Iso<V>, origin: V, direction: V, max_toi: V::Real, solid: bool) -> RayCast<V>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    let zero = V::Real::ZERO;
    let Some(c) = cast_point(shape, pose, origin, direction, max_toi) else {
        return RayCast::miss(0, Status::Converged);
    };
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
    // (t ≥ 0), each with the surface's own normal.
    let bounds = shape.local_aabb().transformed(pose);
    let (Some(ahead), Some(behind)) = (exit_time(&bounds, origin, direction), exit_time(&bounds, origin, -direction))
    else {
        return RayCast::miss(c.iterations, c.status);
    };
    let margin = |t: V::Real| t * V::Real::from_f64(1.0 + 1e-6) + V::Real::from_f64(1e-6);
    let (ahead, behind) = (margin(ahead), margin(behind));
    let leave = cast_point(shape, pose, origin + direction * ahead, -direction, ahead + behind);
    let enter = cast_point(shape, pose, origin - direction * behind, direction, ahead + behind);
    let (Some(leave), Some(enter)) = (leave, enter) else {
        return RayCast::miss(c.iterations, c.status);
    };
    let (t_exit, t_entry) = (ahead - leave.toi, enter.toi - behind);
    let iterations = c.iterations + leave.iterations + enter.iterations;
    // Times are differences of numbers as large as the box: trust them to a few ulps of that.
    let tol = V::Real::from_f64(64.0) * V::Real::EPSILON * ahead.max(behind);
    if t_entry >= -tol {
        // On the surface, heading in (or grazing): the ray meets the shape right here.
        return answer(zero, -enter.normal, iterations, Status::Converged);
    }
    if solid {
        // Inside a solid: hit at once; on the surface heading out the surface is there, else there is none.
        let normal = if t_exit <= tol { -leave.normal } else { V::zero() };
        return answer(zero, normal, iterations, Status::Converged);
    }
    if t_exit > max_toi {
        return RayCast::miss(iterations, Status::Converged);
    }
    answer(t_exit.max(zero), -leave.normal, iterations, Status::Converged)
}

/// The first contact of a point launched from `from` along `velocity`, within `max_toi`.
fn cast_point<V, S>(shape: &S, pose: &Iso<V>, from: V, velocity: V, max_toi: V::Real) -> Option<super::Cast<V>>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    let point = Point { at: V::zero() };
    let opts = CastOptions { max_toi, ..CastOptions::default() };
    let c = shape_cast(&point, &Iso::from_translation(from), velocity, shape, pose, V::zero(), &opts);
    c.hit.then_some(c)
}

/// When the ray leaves the box (slab method); `None` if it never is inside it at t ≥ 0.
fn exit_time<V: Vector>(b: &crate::shape::Aabb<V>, origin: V, direction: V) -> Option<V::Real> {
    let mut exit = V::Real::INFINITY;
    for i in 0..V::DIM {
        let (o, d) = (origin.get(i), direction.get(i));
        if d != V::Real::ZERO {
            let (t1, t2) = ((b.min.get(i) - o) / d, (b.max.get(i) - o) / d);
            exit = exit.min(t1.max(t2));
        }
    }
    (exit.is_finite() && exit >= V::Real::ZERO).then_some(exit)
}

use super::{contact_normal, pair_scale, Cast, CastOptions};
use crate::gjk::{distance_with, DistanceOptions, Status, WarmStart};
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;

/// The angular velocity type of `V`'s space (a vector in 3D, a scalar in 2D).
pub type Angular<V> = <<V as Vector>::Rotation as Rotation<V>>::Angular;

/// A rigid motion at constant linear and angular velocity (both in world coordinates; the rotation turns about
/// the shape's local origin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<V: Vector> {
    /// The pose at t = 0.
    pub pose: Iso<V>,
    /// Velocity of the local origin.
    pub linear: V,
    /// Angular velocity (radians per unit time).
    pub angular: Angular<V>,
}

impl<V: Vector> Motion<V> {
    /// A motion from its pose and velocities.
    pub fn new(pose: Iso<V>, linear: V, angular: Angular<V>) -> Self {
        Self { pose, linear, angular }
    }
    /// The pose at time `t`.
    pub fn at(&self, t: V::Real) -> Iso<V> {
        Iso::new(self.pose.rotation.integrate(self.angular, t), self.pose.translation + self.linear * t)
    }
}

/// Largest distance of a point of the shape from its local origin (bounds how fast a rotation moves its points).
fn bounding_radius<V: Vector, S: SupportMap<V> + ?Sized>(s: &S) -> V::Real {
    let b = s.local_aabb();
    b.min.abs_elem().max_elem(b.max.abs_elem()).length()
}

/// First time in [0, max_toi] at which two shapes under rigid motions (with rotation) come within the target
/// distance, by conservative advancement. It never steps past a contact (no tunnelling); it converges linearly, so
/// the default tolerance is 1e-10 of the shapes' size (f64) and the iteration cap 256.
///
/// ```
/// use gjk::cast::{time_of_impact, CastOptions, Motion};
/// use gjk::math::{DVec2, Iso, Rot2};
/// use gjk::shape::Cuboid;
/// // A 2 × 0.1 plank spinning about its centre, and a small square 0.5 to its right.
/// let plank = Cuboid::new(DVec2::new(1.0, 0.05)).unwrap();
/// let square = Cuboid::new(DVec2::splat(0.1)).unwrap();
/// let spin = Motion::new(Iso::new(Rot2::from_angle(std::f64::consts::FRAC_PI_2), DVec2::ZERO), DVec2::ZERO, 1.0);
/// let still = Motion::new(Iso::from_translation(DVec2::new(0.5, 0.0)), DVec2::ZERO, 0.0);
/// let hit = time_of_impact(&plank, &spin, &square, &still, &CastOptions { max_toi: 3.0, ..CastOptions::default() });
/// assert!(hit.hit && hit.toi > 0.0 && hit.toi < 1.6);
/// ```
pub fn time_of_impact<V, A, B>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Real>,
) -> Cast<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let scale = pair_scale(a, b);
    let radii = a.radius() + b.radius();
    let rel_tol = V::Real::from_f64(1e-10).max(V::Real::from_f64(64.0) * V::Real::EPSILON);
    let tol = options.tolerance.unwrap_or(rel_tol * scale);
    let spin = V::Rotation::angular_speed(motion_a.angular) * bounding_radius(a)
        + V::Rotation::angular_speed(motion_b.angular) * bounding_radius(b);
    let dopts = DistanceOptions::default();
    let mut cache = WarmStart::default();
    let mut t = V::Real::ZERO;
    let mut previous = None;
    let approach = motion_b.linear - motion_a.linear;
    let hit = |t: V::Real, iterations: u32, status: Status, previous: Option<V>| {
        let (pa, pb) = (motion_a.at(t), motion_b.at(t));
        let d = distance_with(a, &pa, b, &pb, &dopts, None, &mut ());
        Cast {
            hit: true,
            toi: t,
            normal: contact_normal(&d, radii, previous, approach, scale),
            point_a: d.point_a,
            point_b: d.point_b,
            iterations,
            status,
        }
    };
    for iteration in 1..=options.max_iterations {
        let (pa, pb) = (motion_a.at(t), motion_b.at(t));
        let d = distance_with(a, &pa, b, &pb, &dopts, Some(&mut cache), &mut ());
        let gap = d.distance - options.target_distance;
        // Along the current normal no point of B closes on A faster than this.
        let bound = d.normal.dot(motion_a.linear - motion_b.linear) + spin;
        if d.intersecting || gap <= tol {
            let initial = t == V::Real::ZERO;
            if initial && options.ignore_initial_overlap_when_separating {
                // Overlapping: the distance query's normal means nothing; the penetration normal decides whether
                // the bodies move apart faster than their spin could bring any points together.
                let n = if d.intersecting { crate::epa::penetration(a, &pa, b, &pb).normal } else { d.normal };
                if n.dot(motion_a.linear - motion_b.linear) + spin <= V::Real::ZERO {
                    return Cast::miss(iteration, Status::Converged);
                }
            }
            return hit(t, iteration, Status::Converged, previous);
        }
        if !(bound > V::Real::ZERO) {
            // The separation along this normal can never shrink: they never meet.
            return Cast::miss(iteration, Status::Converged);
        }
        let next = t + gap / bound;
        if next > options.max_toi || !next.is_finite() {
            return Cast::miss(iteration, Status::Converged);
        }
        if next == t {
            return hit(t, iteration, d.status, Some(d.normal));
        }
        previous = Some(d.normal);
        t = next;
    }
    // Out of steps: t is still a time before any contact, the safe answer for continuous collision.
    hit(t, options.max_iterations, Status::MaxIterations, previous)
}

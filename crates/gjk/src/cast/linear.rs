use super::ray::rescale;
use super::{
    checked_contact_normal, contact_normal, initial_overlap, pair_scale, pair_size, scaled_options, touch_tolerance,
    unit_or, valid_motion, Cast, CastOptions,
};
use crate::gjk::{distance_with, Distance, DistanceOptions, Status, WarmStart};
use crate::math::{Iso, Real, Vector};
use crate::shape::{Scaled, SupportMap};

/// First time in [0, max_toi] at which `a` (at `pose_a`, moving at `velocity_a`) and `b` (at `pose_b`, moving at
/// `velocity_b`) come within `target_distance`; the witness points are world positions at that time.
///
/// On a miss `toi` is `max_toi` (the shapes are apart all along), or, if the rare cap on steps is reached, the
/// time reached with status [`Status::MaxIterations`] (see [`Cast`]).
///
/// ```
/// use gjk::cast::{shape_cast, CastOptions};
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::{Ball, Cuboid};
/// let wall = Cuboid::new(DVec3::new(0.01, 5.0, 5.0)).unwrap();
/// let bullet = Ball::new(0.005).unwrap();
/// // A bullet 10 m from a 2 cm wall at 1000 m/s: it must hit, not tunnel.
/// let hit = shape_cast(
///     &bullet, &Iso::from_translation(DVec3::new(-10.0, 0.0, 0.0)), DVec3::new(1000.0, 0.0, 0.0),
///     &wall, &Iso::identity(), DVec3::ZERO,
///     &CastOptions { max_toi: 1.0 / 60.0, ..CastOptions::default() },
/// );
/// assert!(hit.hit);
/// assert!((hit.toi - (10.0 - 0.015) / 1000.0).abs() < 1e-12);
/// assert_eq!(hit.normal, DVec3::X);
/// ```
pub fn shape_cast<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    velocity_a: V,
    b: &B,
    pose_b: &Iso<V>,
    velocity_b: V,
    options: &CastOptions<V::Real>,
) -> Cast<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !valid_motion(pose_a, velocity_a, options) || !valid_motion(pose_b, velocity_b, options) {
        return Cast::undecided(V::Real::ZERO, 0, Status::Stalled);
    }
    // Out of the squares' range (a sphere of radius 1e308, shapes 1e200 apart), cast in a frame scaled by a power
    // of two: exact, and the same times.
    let offset = (pose_b.translation - pose_a.translation).max_abs();
    let sizes = pair_size(a, b);
    let size = sizes.extent.max(offset).max(options.target_distance);
    if let Some(k) = rescale::<V::Real>(size) {
        let inv = V::Real::ONE / k;
        let s = V::from_fn(|_| inv);
        let (sa, sb) = (Scaled::new(a, s).expect("finite"), Scaled::new(b, s).expect("finite"));
        // About A's origin, so that far-off poses of a tiny pair are not scaled out of range.
        let origin = pose_a.translation;
        let shrink = |p: &Iso<V>| Iso::new(p.rotation, (p.translation - origin) * inv);
        let opts = scaled_options(options, inv);
        let (pa, pb) = (shrink(pose_a), shrink(pose_b));
        let c = shape_cast_in_range(
            (&sa, &pa, velocity_a * inv),
            (&sb, &pb, velocity_b * inv),
            &opts,
            pair_scale(&sa, &sb),
        );
        return c.unscaled(k, origin);
    }
    shape_cast_in_range((a, pose_a, velocity_a), (b, pose_b, velocity_b), options, sizes.scale)
}

/// [`shape_cast`] on sizes whose squares the precision holds (each shape with its pose and velocity); `scale` is
/// the pair's size.
fn shape_cast_in_range<V, A, B>(
    (a, pose_a, velocity_a): (&A, &Iso<V>, V),
    (b, pose_b, velocity_b): (&B, &Iso<V>, V),
    options: &CastOptions<V::Real>,
    scale: V::Real,
) -> Cast<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    // Pair frame: A fixed at the identity, B moving at the relative velocity seen from A.
    let rel = pose_a.relative(pose_b);
    let v_rel = pose_a.inverse_transform_vector(velocity_b - velocity_a);
    let radii = a.radius() + b.radius();
    let tol = touch_tolerance(options, scale).max(options.target_distance * V::Real::from_f64(1e-12));
    let dopts = DistanceOptions::default();
    let mut cache = WarmStart::default();
    let mut t = V::Real::ZERO;
    let mut previous: Option<V> = None;
    let identity = Iso::identity();
    // A's pose at time t: the pair frame's map to the world then.
    let frame_at = |t: V::Real| Iso::new(pose_a.rotation, pose_a.translation + velocity_a * t);
    // The answer at time t, moved from the pair frame (A's frame at t) to the world.
    // `t_d` is the time of the distance `d`, `t` the time of the hit (the same, or a step at the resolution of t).
    let hit = |d: &Distance<V>, previous: Option<V>, t: V::Real, t_d: V::Real, iterations: u32| {
        let b_pose = Iso::new(rel.rotation, rel.translation + v_rel * t_d);
        let shapes = (a, b, &b_pose);
        let normal = unit_or(checked_contact_normal(shapes, d, radii, previous, v_rel, scale), -v_rel);
        let at_toi = frame_at(t);
        Cast {
            hit: true,
            toi: t,
            normal: at_toi.transform_vector(normal),
            point_a: at_toi.transform_point(d.point_a),
            point_b: at_toi.transform_point(d.point_b),
            iterations,
            // The contact is decided (the gap is within the tolerance) whatever way the last distance query ended.
            status: Status::Converged,
        }
    };
    for iteration in 1..=options.max_iterations {
        let pose_b_t = Iso::new(rel.rotation, rel.translation + v_rel * t);
        let d = distance_with(a, &identity, b, &pose_b_t, &dopts, Some(&mut cache), &mut ());
        let gap = d.distance - options.target_distance;
        if d.intersecting || gap <= tol {
            if t == V::Real::ZERO {
                // Already within the target: a hit at once, unless the options let a body moving apart (or along
                // the surface: the distance is convex in t, so it then never shrinks) slide out.
                let c = initial_overlap(a, &identity, b, &pose_b_t, &d, v_rel, iteration);
                if options.ignore_initial_overlap_when_separating && c.normal.dot(v_rel) >= V::Real::ZERO {
                    return Cast::miss(options.max_toi, iteration);
                }
                let world = frame_at(t);
                return Cast {
                    normal: world.transform_vector(c.normal),
                    point_a: world.transform_point(c.point_a),
                    point_b: world.transform_point(c.point_b),
                    ..c
                };
            }
            return hit(&d, previous, t, t, iteration);
        }
        // The distance falls at most as fast as B closes in along the normal (convexity in t): Newton's step.
        // Close to contact the normal comes from the final facet of A − B when there is one (exact there).
        let normal = contact_normal(&d, radii, previous, v_rel, scale);
        let closing = -normal.dot(v_rel);
        if !(closing > V::Real::ZERO) {
            return Cast::miss(options.max_toi, iteration);
        }
        let next = t + gap / closing;
        if next > options.max_toi || !next.is_finite() {
            return Cast::miss(options.max_toi, iteration);
        }
        if next - t <= V::Real::from_f64(64.0) * V::Real::EPSILON * t {
            // The step is at the resolution of t: this is the contact time to machine precision.
            return hit(&d, Some(normal), next, t, iteration);
        }
        previous = Some(normal);
        t = next;
    }
    // Out of steps (Newton's steps converge quadratically: rare): the closest pair at the time reached goes with it.
    let pose_b_t = Iso::new(rel.rotation, rel.translation + v_rel * t);
    let d = distance_with(a, &identity, b, &pose_b_t, &dopts, Some(&mut cache), &mut ());
    Cast::undecided(t, options.max_iterations, Status::MaxIterations).at_closest(&d, &frame_at(t))
}

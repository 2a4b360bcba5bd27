use super::ray::rescale;
use super::{
    contact_normal, initial_overlap, pair_scale, pair_size, scaled_options, unit_or, valid_motion, Cast, CastOptions,
};
use crate::gjk::{distance_with, Distance, DistanceOptions, Status, WarmStart};
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::{length_unscaled, Scaled, SupportMap};

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

/// One body of a rotating cast: how far its core reaches from the centre it turns about, and its spin.
struct Body<'m, V: Vector> {
    motion: &'m Motion<V>,
    /// [`SupportMap::farthest_core_distance`] from the local origin, raised by a few ulps so that its rounding
    /// never makes a bound too small.
    reach: V::Real,
    /// |ω|.
    speed: V::Real,
    /// The quarter turn about ω: it maps v to v∥ + ω̂ × v, which gives ω × v without naming ω's type.
    quarter: V::Rotation,
}

impl<'m, V: Vector> Body<'m, V> {
    fn new<S: SupportMap<V> + ?Sized>(shape: &S, motion: &'m Motion<V>) -> Self {
        let speed = V::Rotation::angular_speed(motion.angular);
        let quarter = if speed > V::Real::ZERO {
            let quarter_turn = V::Real::from_f64(core::f64::consts::FRAC_PI_2) / speed;
            V::Rotation::identity().integrate(motion.angular, quarter_turn)
        } else {
            V::Rotation::identity()
        };
        let reach =
            shape.farthest_core_distance(V::zero()) * (V::Real::ONE + V::Real::from_f64(8.0) * V::Real::EPSILON);
        Self { motion, reach, speed, quarter }
    }

    /// ω × v: the velocity that the spin gives a point at v from the centre. A quarter turn Q about ω̂ sends v to
    /// v∥ + ω̂ × v and twice sends it to v∥ − v⊥, so v∥ = (v + Q²v) / 2 and ω̂ × v = Qv − v∥.
    fn cross(&self, v: V) -> V {
        if !(self.speed > V::Real::ZERO) {
            return V::zero();
        }
        let once = self.quarter.rotate(v);
        let along = (v + self.quarter.rotate(once)) * V::Real::HALF;
        (once - along) * self.speed
    }
}

/// First time in [0, max_toi] at which two shapes under rigid motions (with rotation) come within the target
/// distance, by conservative advancement: each step is one no contact can happen within, so it never tunnels.
///
/// A step is certified along the current separating direction n (the distance query's normal) by the largest of
/// three bounds, each a lower bound on the separation along n that the step keeps above the target:
/// * first order: no point closes along n faster than the linear closing speed plus |ω × n| times the body's
///   reach ([`SupportMap::farthest_core_distance`] about its centre: zero for a ball turning about its centre, so
///   two balls moving together never get closer);
/// * second order: each point's approach along n is its present one plus its present rate (the support function
///   along n + δ·(ω × n) gives the largest, exactly), plus at most |ω| |ω × n| reach · δ² / 2 — near contact this
///   is Newton's step, and the cast converges in a few steps instead of creeping;
/// * the bounding balls: no contact before the two balls of radius reach + radius about the centres meet.
///
/// When the cast runs out of steps (`max_iterations`) or a step falls below the resolution of t, it stops
/// undecided: a miss with status [`Status::MaxIterations`] or [`Status::Stalled`] whose `toi` is the time reached —
/// nothing touches before it — and whose normal and points are the closest pair there. The touching tolerance is
/// 1e-10 of the shapes' size in f64 (64 ulps of it in f32) unless the options give one.
///
/// ```
/// use gjk::cast::{time_of_impact, CastOptions, Motion};
/// use gjk::math::{DVec2, Iso, Rot2};
/// use gjk::shape::Cuboid;
/// // A 2 × 0.1 plank spinning about its centre, and a small square 0.5 to its right.
/// let plank = Cuboid::new(DVec2::new(1.0, 0.05)).unwrap();
/// let square = Cuboid::new(DVec2::splat(0.1)).unwrap();
/// let spin = Motion::new(Iso::new(Rot2::from_angle(core::f64::consts::FRAC_PI_2), DVec2::ZERO), DVec2::ZERO, 1.0);
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
    let zero = V::Real::ZERO;
    let angular_ok = |m: &Motion<V>| V::Rotation::angular_is_finite(m.angular);
    if !valid_motion(&motion_a.pose, motion_a.linear, options)
        || !valid_motion(&motion_b.pose, motion_b.linear, options)
        || !angular_ok(motion_a)
        || !angular_ok(motion_b)
    {
        return Cast::undecided(zero, 0, Status::Stalled);
    }
    // Out of the squares' range, cast in a frame scaled by a power of two (see `shape_cast`): the turns are the same.
    let offset = (motion_b.pose.translation - motion_a.pose.translation).max_abs();
    let sizes = pair_size(a, b);
    let size = sizes.extent.max(offset).max(options.target_distance);
    if let Some(k) = rescale::<V::Real>(size) {
        let inv = V::Real::ONE / k;
        let s = V::from_fn(|_| inv);
        let (sa, sb) = (Scaled::new(a, s).expect("finite"), Scaled::new(b, s).expect("finite"));
        // About A's origin, so that far-off poses of a tiny pair are not scaled out of range.
        let origin = motion_a.pose.translation;
        let shrink = |m: &Motion<V>| {
            Motion::new(Iso::new(m.pose.rotation, (m.pose.translation - origin) * inv), m.linear * inv, m.angular)
        };
        let (ma, mb) = (shrink(motion_a), shrink(motion_b));
        let c = cast_in_range((&sa, &ma), (&sb, &mb), &scaled_options(options, inv), pair_scale(&sa, &sb));
        return representable(c.unscaled(k, origin));
    }
    representable(cast_in_range((a, motion_a), (b, motion_b), options, sizes.scale))
}

/// A hit whose time or points the precision cannot hold (bodies that ran out of the number range before they met,
/// e.g. an advance to t = 1e37 at 1e7 per unit of time) is not an answer: it becomes an undecided miss that
/// proves nothing (reached 0, [`Status::Stalled`]).
fn representable<V: Vector>(c: Cast<V>) -> Cast<V> {
    let finite = c.toi.is_finite() && c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite();
    if c.hit && !finite {
        return Cast::undecided(V::Real::ZERO, c.iterations, Status::Stalled);
    }
    c
}

/// [`time_of_impact`] on sizes whose squares the precision holds; `scale` is the pair's size.
fn cast_in_range<V, A, B>(
    (a, motion_a): (&A, &Motion<V>),
    (b, motion_b): (&B, &Motion<V>),
    options: &CastOptions<V::Real>,
    scale: V::Real,
) -> Cast<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let zero = V::Real::ZERO;
    let radii = a.radius() + b.radius();
    let rel_tol = V::Real::from_f64(1e-10).max(V::Real::from_f64(64.0) * V::Real::EPSILON);
    let tol = options.tolerance.unwrap_or(rel_tol * scale);
    let (body_a, body_b) = (Body::new(a, motion_a), Body::new(b, motion_b));
    let frame = Frame { a, b, body_a: &body_a, body_b: &body_b, radii };
    let dopts = DistanceOptions::default();
    let mut cache = WarmStart::default();
    let mut t = zero;
    let mut previous = None;
    let approach = motion_b.linear - motion_a.linear;
    for iteration in 1..=options.max_iterations {
        let (pa, pb) = drifting_poses(motion_a, motion_b, t);
        let d = distance_with(a, &pa, b, &pb, &dopts, Some(&mut cache), &mut ());
        let gap = d.distance - options.target_distance;
        if d.intersecting || gap <= tol {
            if t == zero {
                return initial(&frame, &pa, &pb, &d, options, iteration);
            }
            let normal = unit_or(contact_normal(&d, radii, previous, approach, scale), -approach);
            let drift = motion_a.linear * t;
            let (point_a, point_b) = (d.point_a + drift, d.point_b + drift);
            return Cast {
                hit: true,
                toi: t,
                normal,
                point_a,
                point_b,
                iterations: iteration,
                status: Status::Converged,
            };
        }
        // Keep the separation along the normal above target + tol / 2: the next distance then lands in the
        // tolerance band instead of creeping towards its edge.
        let keep = options.target_distance + tol * V::Real::HALF;
        let remaining = options.max_toi - t;
        let facet = contact_normal(&d, radii, previous, approach, scale);
        let step = frame.certified_step(&pa, &pb, [facet, d.normal], keep, remaining, t);
        if step >= remaining {
            return Cast::miss(options.max_toi, iteration);
        }
        let next = t + step;
        if !(next > t) {
            // No step this precision can represent: stop undecided at the time reached.
            let drift = Iso::from_translation(motion_a.linear * t);
            return Cast::undecided(t, iteration, Status::Stalled).at_closest(&d, &drift);
        }
        previous = Some(d.normal);
        t = next;
    }
    // Out of steps: nothing touches before t, and nothing is known after it; the closest pair there goes with it.
    let (pa, pb) = drifting_poses(motion_a, motion_b, t);
    let d = distance_with(a, &pa, b, &pb, &dopts, Some(&mut cache), &mut ());
    let drift = Iso::from_translation(motion_a.linear * t);
    Cast::undecided(t, options.max_iterations, Status::MaxIterations).at_closest(&d, &drift)
}

/// The two poses at time t in the frame that moves with A's linear velocity: A's centre where it starts, B's
/// moved by the relative velocity. Distances, normals and turns are those of the world poses, and the centres
/// keep their digits: two bodies moving together at 2e8 per unit time would stand at 3e18 by t = 1.3e10, where
/// the world positions' rounding (hundreds) swamps a gap of 6e4 between them (gjk-fuzz seed 41 case 5828). The
/// answer's points are moved back by A's drift.
fn drifting_poses<V: Vector>(motion_a: &Motion<V>, motion_b: &Motion<V>, t: V::Real) -> (Iso<V>, Iso<V>) {
    let (mut pa, mut pb) = (motion_a.at(t), motion_b.at(t));
    pa.translation = motion_a.pose.translation;
    pb.translation = motion_b.pose.translation + (motion_b.linear - motion_a.linear) * t;
    (pa, pb)
}

/// The answer when the shapes are within the target distance at t = 0: a hit at once, with the penetration's
/// normal and deepest points when they overlap, unless the options ignore an initial overlap and no point can
/// close in along that normal (the first-order bound of a step is not positive).
fn initial<V, A, B>(
    f: &Frame<'_, V, A, B>,
    pa: &Iso<V>,
    pb: &Iso<V>,
    d: &Distance<V>,
    options: &CastOptions<V::Real>,
    iterations: u32,
) -> Cast<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let approach = f.body_b.motion.linear - f.body_a.motion.linear;
    let c = initial_overlap(f.a, pa, f.b, pb, d, approach, iterations);
    if options.ignore_initial_overlap_when_separating && !(f.first_order_rate(c.normal) > V::Real::ZERO) {
        return Cast::miss(options.max_toi, iterations);
    }
    c
}

/// The two shapes and bodies of a rotating cast, for the step bounds.
struct Frame<'f, V: Vector, A: ?Sized, B: ?Sized> {
    a: &'f A,
    b: &'f B,
    body_a: &'f Body<'f, V>,
    body_b: &'f Body<'f, V>,
    radii: V::Real,
}

impl<V, A, B> Frame<'_, V, A, B>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    /// The fastest any point can close in along the unit direction n (from A toward B): the linear closing speed
    /// plus, for each body, |ω × n| times its reach (a point at r from the centre moves along n at n·(ω × r),
    /// which is at most |ω × n| |r|).
    fn first_order_rate(&self, n: V) -> V::Real {
        let linear = n.dot(self.body_a.motion.linear - self.body_b.motion.linear);
        linear + self.body_a.cross(n).length() * self.body_a.reach + self.body_b.cross(n).length() * self.body_b.reach
    }

    /// The largest step from time t (poses `pa`, `pb`) within which the separation along a unit normal stays
    /// above `keep`, so no contact closer than `keep` can happen: the largest of the three certified bounds of
    /// [`time_of_impact`], along the better of the two `normals` given (zero ones are skipped). Returns
    /// `remaining` or more when the whole rest of the cast is certified.
    fn certified_step(
        &self,
        pa: &Iso<V>,
        pb: &Iso<V>,
        normals: [V; 2],
        keep: V::Real,
        remaining: V::Real,
        t: V::Real,
    ) -> V::Real {
        let zero = V::Real::ZERO;
        let (ma, mb) = (self.body_a.motion, self.body_b.motion);
        // Centres' offset, from the poses at t = 0 (subtracted first, to keep digits far from the origin).
        let offset = (mb.pose.translation - ma.pose.translation) + (mb.linear - ma.linear) * t;
        let balls = self.balls_meet(offset, keep);
        // Of the candidate normals, the one along which the shapes are the farthest apart now (near contact the
        // facet normal of the final simplex is exact where the distance query's direction is rounding noise).
        let mut best = None;
        for n in normals {
            if n == V::zero() {
                continue;
            }
            let excess = self.separation(pa, pb, offset, n) - keep;
            if best.is_none_or(|(_, e)| excess > e) {
                best = Some((n, excess));
            }
        }
        let Some((n, excess)) = best else { return balls };
        if !(excess > zero) {
            return balls;
        }
        // The support terms in each body's frame: A's reach along n and B's along −n.
        let (na, nb) = (pa.inverse_transform_vector(n), pb.inverse_transform_vector(-n));
        let (sa, sb) = (self.a.support(na), self.b.support(nb));
        let (ha, hb) = (sa.dot(na), sb.dot(nb));
        // First order: a straight line down at the fastest closing rate.
        let rate = self.first_order_rate(n);
        let first = if rate > zero { excess / rate } else { V::Real::INFINITY };
        // Second order, along n held still or turning with A or with B: the frame whose optimistic root is the
        // farthest (its tangent parabola's root, an upper bound on the certified step) is solved.
        let mut chosen: Option<(Turning<V>, V::Real, V::Real)> = None;
        for turn in [Turn::Still, Turn::WithA, Turn::WithB] {
            let Some(frame) = self.turning(turn, pa, pb, n, offset) else { continue };
            let slope = frame.linear - sa.dot(frame.ua) - sb.dot(frame.ub);
            let hope = parabola_root(excess, slope, frame.m0);
            if chosen.as_ref().is_none_or(|c| hope > c.2) {
                chosen = Some((frame, slope, hope));
            }
        }
        let Some((f, slope, _)) = chosen else { return first.max(balls) };
        // g(δ) = excess + δ·linear − [H_A(δ) − H_A(0)] − [H_B(δ) − H_B(0)] − (m0 + m1 δ) δ² / 2, with H the
        // support function along the turned direction, linearised (n + δ u): for each point, its present
        // separation plus its present rate, less a bound on its acceleration. g is concave, so it is positive
        // between 0 and its root, and above its chords there.
        let g = |delta: V::Real| {
            let (mut value, mut slope) = (excess + delta * f.linear, f.linear);
            if f.ua != V::zero() {
                let da = na + f.ua * delta;
                let p = self.a.support(da);
                value -= p.dot(da) - ha;
                slope -= p.dot(f.ua);
            }
            if f.ub != V::zero() {
                let db = nb + f.ub * delta;
                let p = self.b.support(db);
                value -= p.dot(db) - hb;
                slope -= p.dot(f.ub);
            }
            let m = f.m0 + f.m1 * delta;
            value -= m * delta * delta * V::Real::HALF;
            slope -= (f.m0 + f.m1 * delta * V::Real::from_f64(1.5)) * delta;
            (value, slope)
        };
        let second = concave_root(g, excess, slope, remaining);
        first.max(second).max(balls)
    }

    /// The second-order bound's terms along n turning as `turn` says, or `None` when that frame repeats another (a
    /// body that does not spin turns like the still frame).
    ///
    /// Along a direction n(s) turning at Ω, a point x of a body with centre c, spin ω and velocity v approaches
    /// at n·(x' − Ω × x) = n·(v − Ω × c) + n·((ω − Ω) × (x − c)): the centres' part gives `linear` (the two
    /// bodies' difference), the rest is linear in the point, so its largest value over a body is the support
    /// function along n + δ·u with u = ∓(ω − Ω) × n. Turning with a body freezes that body's extent (u = 0) —
    /// exact for a contact near its centre, where the still frame sees its far corners sweep. The acceleration of
    /// a point relative to a centre moving straight, seen along a direction turning at Ω, is x'' − 2Ω × x' +
    /// Ω × (Ω × x) (x relative to that centre), bounded by `m0 + m1·δ` over a step of length δ.
    fn turning(&self, turn: Turn, pa: &Iso<V>, pb: &Iso<V>, n: V, offset: V) -> Option<Turning<V>> {
        let (a, b) = (self.body_a, self.body_b);
        let dv = b.motion.linear - a.motion.linear;
        let (speed_dv, speed_dc) = (dv.length(), offset.length());
        let (ua, ub, linear, m0, m1) = match turn {
            Turn::Still => {
                let (ca, cb) = (a.cross(n), b.cross(n));
                // |n·(ω × (ω × y))| ≤ |ω| |ω × n| |y|.
                let m = a.speed * ca.length() * a.reach + b.speed * cb.length() * b.reach;
                (-ca, cb, n.dot(dv), m, V::Real::ZERO)
            }
            Turn::WithA | Turn::WithB => {
                let (fixed, moving) = if turn == Turn::WithA { (a, b) } else { (b, a) };
                if !(fixed.speed > V::Real::ZERO) {
                    return None;
                }
                // The turning body's extent is frozen; the other turns at its spin less the frame's.
                let relative = moving.cross(n) - fixed.cross(n);
                let (ua, ub) = if turn == Turn::WithA { (V::zero(), relative) } else { (-relative, V::zero()) };
                let linear = n.dot(dv - fixed.cross(offset));
                let (w, wf, r) = (moving.speed, fixed.speed, moving.reach);
                let m0 = w * w * r + V::Real::TWO * wf * (speed_dv + w * r) + wf * wf * (speed_dc + r);
                (ua, ub, linear, m0, wf * wf * speed_dv)
            }
        };
        let raise = V::Real::ONE + V::Real::from_f64(16.0) * V::Real::EPSILON;
        Some(Turning {
            ua: pa.inverse_transform_vector(ua),
            ub: pb.inverse_transform_vector(ub),
            linear,
            m0: m0 * raise,
            m1: m1 * raise,
        })
    }

    /// The separation of the shapes along the unit direction n (from A toward B) at poses `pa`, `pb` whose
    /// centres are `offset` apart: how far B's nearest extent along n is beyond A's farthest, radii included. It
    /// is a lower bound on the distance.
    fn separation(&self, pa: &Iso<V>, pb: &Iso<V>, offset: V, n: V) -> V::Real {
        let (na, nb) = (pa.inverse_transform_vector(n), pb.inverse_transform_vector(-n));
        n.dot(offset) - self.a.support(na).dot(na) - self.b.support(nb).dot(nb) - self.radii
    }

    /// The time until the balls of radius reach + radius about the two centres come within `keep` of each other
    /// (infinite if they never do, zero if they already are): no contact can happen before it.
    fn balls_meet(&self, offset: V, keep: V::Real) -> V::Real {
        let zero = V::Real::ZERO;
        let (ma, mb) = (self.body_a.motion, self.body_b.motion);
        let reach = self.body_a.reach + self.body_b.reach + self.radii + keep;
        let w = mb.linear - ma.linear;
        // |offset + s w| = reach, solved without cancellation; scaled by the offset's size against overflow.
        let size = length_unscaled(offset).max(reach);
        if !(size > zero) || !size.is_finite() {
            return zero;
        }
        let (p, r) = (offset * (V::Real::ONE / size), reach / size);
        let c = p.length_squared() - r * r;
        if !(c > zero) {
            return zero;
        }
        let w = w * (V::Real::ONE / size);
        let (aa, bb) = (w.length_squared(), p.dot(w));
        if !(bb < zero) {
            return V::Real::INFINITY;
        }
        let disc = bb * bb - aa * c;
        if disc < zero {
            return V::Real::INFINITY;
        }
        // The smaller root, c / (−b + √disc), in the form that does not cancel.
        c / (-bb + disc.sqrt())
    }
}

/// The frames the second-order bound may hold its direction in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// Still in the world.
    Still,
    /// Turning with A.
    WithA,
    /// Turning with B.
    WithB,
}

/// The terms of a second-order bound (see [`Frame::turning`]): the linearised turn of each body's support
/// direction in its own frame, the centres' approach rate along n, and the acceleration bound m0 + m1·δ.
struct Turning<V: Vector> {
    ua: V,
    ub: V,
    linear: V::Real,
    m0: V::Real,
    m1: V::Real,
}

/// The positive root of excess + slope·δ − m δ² / 2 (infinite when the parabola never reaches zero): an upper
/// bound on the root of the concave g it is tangent to, used to choose a frame.
fn parabola_root<R: Real>(excess: R, slope: R, m: R) -> R {
    if m > R::ZERO {
        // (slope + √(slope² + 2 m excess)) / m, in the form that does not cancel when slope < 0.
        let disc = (slope * slope + R::TWO * m * excess).sqrt();
        if slope >= R::ZERO {
            (slope + disc) / m
        } else {
            R::TWO * excess / (disc - slope)
        }
    } else if slope < R::ZERO {
        -excess / slope
    } else {
        R::INFINITY
    }
}

/// The root of a concave function g on [0, end] from a point where it is positive: g(0) = `g0` > 0 with slope
/// `slope0`, `g(δ)` returning (value, slope). Returns `end` when g stays non-negative up to `end` — a concave
/// function is smallest at an end of an interval — else a δ with g(δ) ≥ 0 close below the root: the tangent from
/// a point left of the root overshoots it (concavity), the chord from there to a point right of it undershoots it,
/// and a few rounds of both close in. An infinite `end` is first replaced by a point where g is negative, found by
/// doubling (g is then certified up to the last point tried, if it never is).
fn concave_root<R: Real>(g: impl Fn(R) -> (R, R), g0: R, slope0: R, end: R) -> R {
    let zero = R::ZERO;
    let end = if end.is_finite() { end } else { negative_point(&g, g0, slope0) };
    let (g_end, _) = g(end);
    if !(g_end < zero) {
        return end;
    }
    let (mut lo, mut g_lo, mut slope_lo) = (zero, g0, slope0);
    let (mut hi, mut g_hi) = (end, g_end);
    for _ in 0..6 {
        // The tangent at lo overshoots the root: a new right end (or, by rounding, a safe new left one).
        if slope_lo < zero {
            let tangent = lo - g_lo / slope_lo;
            if tangent > lo && tangent < hi {
                let (v, s) = g(tangent);
                if v < zero {
                    (hi, g_hi) = (tangent, v);
                } else {
                    (lo, g_lo, slope_lo) = (tangent, v, s);
                    continue;
                }
            }
        }
        // The chord from (lo, g_lo) to (hi, g_hi) lies under g: its root is a new left end.
        let chord = lo + g_lo * (hi - lo) / (g_lo - g_hi);
        if !(chord > lo && chord < hi) {
            break;
        }
        let (v, s) = g(chord);
        if v >= zero {
            (lo, g_lo, slope_lo) = (chord, v, s);
        } else {
            (hi, g_hi) = (chord, v);
        }
        if hi - lo <= R::from_f64(1e-3) * hi {
            break;
        }
    }
    lo
}

/// A point where the concave g is negative, doubling from the first-order guess; the last point tried if none is
/// within 200 doublings.
fn negative_point<R: Real>(g: &impl Fn(R) -> (R, R), g0: R, slope0: R) -> R {
    let mut probe = if slope0 < R::ZERO { -g0 / slope0 } else { g0 };
    if !(probe > R::ZERO) {
        probe = R::EPSILON;
    }
    for _ in 0..200 {
        let next = probe * R::TWO;
        if !(g(probe).0 >= R::ZERO) || !next.is_finite() {
            break;
        }
        probe = next;
    }
    probe
}

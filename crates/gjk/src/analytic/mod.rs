//! Closed forms for pairs whose closest points need no iteration: a point core (ball, point) against a box or a
//! segment core (capsule, segment), in either order; and two balls (`balls.rs`: two point cores at their shapes'
//! origins, answered in world coordinates, where no rotation enters).
//!
//! GJK on such a pair converges to the same closest points after a few support calls; here they are computed
//! directly, in the frame of the shape that is not a point (the point carried into it, so a box's faces are its
//! coordinate planes), and the one vector between them is rotated back into the pair frame. The answer then goes
//! through the same finishing code as a GJK run ([`crate::gjk`]'s point path): the radii are added there, the
//! touching threshold and the `max_distance` stop are the loop's own rules applied to the exact distance, so the
//! status, the error bound (zero: both bounds are the distance) and the witness (one point of A − B, weight 1)
//! mean what they mean after a run.
//!
//! The penetration query has its closed form too (`depth.rs`): apart, the same closest points; a point inside a
//! box, the nearest face (what EPA finds there).
//!
//! The queries take this path whether or not an observer watches: no GJK (or EPA) step runs, so `iterations` is 0
//! and the observer sees no step, and an observed query answers exactly what an unobserved one does. Which cores a shape has comes from [`SupportMap`] hooks with `None` defaults
//! ([`SupportMap::point_core`], [`SupportMap::cuboid_half_extents`], [`SupportMap::segment_core`]): a generic
//! `distance` on any support maps reaches the closed form without the caller naming it.

mod balls;
mod depth;
mod point;

pub(crate) use balls::Centres;
pub(crate) mod triangle;

use crate::epa::Penetration;
use crate::gjk::run::{touch_distance, Outcome, Params, PointRun};
use crate::gjk::{DiffVertex, Status};
use crate::math::{Iso, Real, Vector};
use crate::shape::SupportMap;

/// A core that has a closed form against a point.
#[derive(Clone, Copy)]
enum Target<V> {
    /// A box centred on its frame's origin, with these half-extents.
    Cuboid(V),
    /// The segment between two points of its frame.
    Segment(V, V),
}

impl<V: Vector> Target<V> {
    /// The closed-form core of `shape`, if it has one.
    #[inline(always)]
    fn of<S: SupportMap<V> + ?Sized>(shape: &S) -> Option<Self> {
        if let Some(h) = shape.cuboid_half_extents() {
            return Some(Target::Cuboid(h));
        }
        shape.segment_core().map(|(a, b)| Target::Segment(a, b))
    }

    /// The point of the core nearest `p` (both in the core's frame), and the magnitude of the numbers GJK would
    /// handle on this pair (the largest coordinate of `p` less a vertex), which scales its touching threshold.
    #[inline(always)]
    fn closest(self, p: V) -> (V, V::Real) {
        match self {
            Target::Cuboid(h) => (point::on_cuboid(p, h), (p.abs_elem() + h).max_abs()),
            Target::Segment(a, b) => (point::on_segment(p, a, b), (p - a).max_abs().max((p - b).max_abs())),
        }
    }
}

/// The closest points of the pair's cores in closed form, as the run GJK would have ended with, or `None` when the
/// pair has no closed form (then GJK runs). `pair_rel` is B's pose in A's frame.
#[inline(always)]
pub(crate) fn closest_cores<V, A, B>(a: &A, b: &B, pair_rel: &Iso<V>, params: &Params<V::Real>) -> Option<PointRun<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if params.max_iterations == 0 {
        return None;
    }
    if let Some(p) = a.point_core() {
        // A is the point: solve in B's frame, bring the difference back with B's rotation.
        let target = Target::of(b)?;
        let p_b = pair_rel.inverse_transform_point(p);
        let (c, scale) = target.closest(p_b);
        let w = pair_rel.transform_vector(p_b - c);
        return finish(p, p - w, w, scale, params);
    }
    if let Some(q) = b.point_core() {
        // B is the point: A's frame is the pair frame.
        let target = Target::of(a)?;
        let q_a = pair_rel.transform_point(q);
        let (c, scale) = target.closest(q_a);
        return finish(c, q_a, c - q_a, scale, params);
    }
    None
}

/// The penetration query's answer (signed distance, normal, deepest points) in the pair frame, in closed form, or
/// `None` when the pair has none (or the point sits on a segment core: EPA decides).
#[inline(always)]
pub(crate) fn penetration<V, A, B>(a: &A, b: &B, pair_rel: &Iso<V>, radii: (V::Real, V::Real)) -> Option<Penetration<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if let Some(p) = a.point_core() {
        let target = Target::of(b)?;
        return depth::signed(pair_rel.inverse_transform_point(p), target, depth::PointIs::A, pair_rel, radii);
    }
    let q = b.point_core()?;
    let target = Target::of(a)?;
    depth::signed(pair_rel.transform_point(q), target, depth::PointIs::B, &Iso::identity(), radii)
}

/// The run for closest core points `core_a`, `core_b` with `w = core_a − core_b` (computed where it is accurate):
/// the loop's touching test on |w|, then its `max_distance` stop, else converged with both bounds at |w|.
#[inline(always)]
fn finish<V: Vector>(core_a: V, core_b: V, w: V, scale: V::Real, params: &Params<V::Real>) -> Option<PointRun<V>> {
    if !w.is_finite() || !core_a.is_finite() || !core_b.is_finite() {
        return None;
    }
    let zero = V::Real::ZERO;
    let v2 = w.length_squared();
    let vlen = v2.sqrt();
    let touch = touch_distance(scale);
    let dir = if v2 > zero { -w } else { V::axis(0) };
    let run = |lower, outcome, status| PointRun {
        vertex: DiffVertex { w, a: core_a, b: core_b, dir },
        lower,
        outcome,
        status,
        iterations: 0,
        touch,
    };
    if vlen <= params.stop_below + touch {
        return Some(run(zero, Outcome::Intersecting, Status::Converged));
    }
    if params.stop_above.is_some_and(|above| vlen > above) {
        return Some(run(vlen, Outcome::Separated, Status::Converged));
    }
    // Both bounds are |w|: the duality gap is zero, within any tolerance.
    Some(run(vlen, Outcome::Closest, Status::Converged))
}

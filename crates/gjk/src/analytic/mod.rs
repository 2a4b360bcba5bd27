//! Closed forms for pairs whose closest points need no iteration: a point core (ball, point) against a box or a
//! segment core (capsule, segment), in either order, two balls (two point cores at their shapes' origins), and
//! two segment cores (two capsules).
//!
//! GJK on such a pair converges to the same closest points after a few support calls; here they are computed
//! directly (`closest.rs`), in world coordinates: two balls' centres are their poses' translations; a point against
//! a box or a segment is carried into that shape's own frame (so a box's faces are its coordinate planes), and the
//! one vector between the closest points is rotated back out. The answer is stated as after a run: the radii are
//! added at the end, the touching threshold and the `max_distance` stop are the loop's own rules applied to the
//! exact distance, so the status, the error bound (zero: both bounds are the distance) and the witness (one point
//! of A − B, weight 1) mean what they mean after a run.
//!
//! The penetration query has its closed form too (`depth.rs`): apart, the same closest points; a point inside a
//! box, the nearest face (what EPA finds there). Two segment cores have it only while apart: crossing cores have
//! no closest-point direction, and EPA decides.
//!
//! The queries take this path whether or not an observer watches: no GJK (or EPA) step runs, so `iterations` is 0
//! and the observer sees no step, and an observed query answers exactly what an unobserved one does. Which cores a
//! shape has comes from [`SupportMap`] hooks with `None` defaults ([`SupportMap::point_core`],
//! [`SupportMap::cuboid_half_extents`], [`SupportMap::segment_core`]): a generic `distance` on any support maps
//! reaches the closed form without the caller naming it.

mod closest;
mod depth;
mod point;
mod segments;

pub(crate) use segments::apart_along_centres;

pub(crate) use closest::Closest;
pub(crate) mod triangle;

use crate::epa::Penetration;
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

/// The penetration query's answer (signed distance, normal, deepest points) in world coordinates, in closed form,
/// or `None` when the pair has none (or the point sits on a segment core, or two balls are concentric: EPA
/// decides). Two balls farther apart than `max_distance` (when given) answer `Some(None)`: the general path's
/// give-up.
#[inline(always)]
pub(crate) fn penetration<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    radii: (V::Real, V::Real),
    max_distance: Option<V::Real>,
) -> Option<Option<Penetration<V>>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (core_a, core_b) = (a.point_core(), b.point_core());
    if let (Some(ca), Some(cb)) = (core_a, core_b) {
        if ca == V::zero() && cb == V::zero() {
            return Closest::of(a, pose_a, b, pose_b)?.apart_penetration(radii, max_distance);
        }
    }
    if core_a.is_none() && core_b.is_none() {
        // Two segment cores apart: their closest points (crossing or touching cores go to EPA).
        return Closest::of(a, pose_a, b, pose_b)?.apart_penetration(radii, max_distance);
    }
    if let Some(p) = core_a {
        let target = Target::of(b)?;
        return depth::signed(closest::in_frame(p, pose_a, pose_b), target, depth::PointIs::A, pose_b, radii).map(Some);
    }
    let target = Target::of(a)?;
    depth::signed(closest::in_frame(core_b?, pose_b, pose_a), target, depth::PointIs::B, pose_a, radii).map(Some)
}

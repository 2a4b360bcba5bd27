//! The closed forms' answers in world coordinates: the closest points of the two cores and their difference.
//!
//! Two balls (two cores that are their shapes' origins): A − B is the single point w = c_A − c_B, the centres'
//! difference, and each centre is its pose's translation: no rotation enters the answer. The pair frame would
//! rotate the difference into A's frame and every result back out of it (five quaternion rotations and a
//! quaternion product in 3D, most of a two-ball query); here the one subtraction is rounded once, as accurate as
//! the pair frame's (which subtracts the translations first too) and as accurate at 1e6 from the origin as at the
//! origin.
//!
//! A point core against a box or a segment core: the point is carried into the core's own frame (translations
//! subtracted first, one inverse rotation), its nearest point found there, and the difference rotated out (one
//! rotation); the point's world position is exact for a ball, and the core's closest point is the point less the
//! difference. The pair frame's product of rotations, and the rotations of every result out of it, are not needed.
//!
//! Two segment cores (capsules, segments): B's segment is carried into A's frame the same way, the closest points
//! found there (`segments`), and the difference rotated out.
//!
//! Both bounds on the core distance are |w|, so the error bound is zero; the touching threshold is the loop's rule
//! on |w| (`touch_distance` of the numbers GJK would handle on the pair).

use super::depth::across;
use super::{segments, Target};
use crate::epa::Penetration;
use crate::gjk::run::{touch_distance, Outcome, Params};
use crate::gjk::{Distance, Status, WarmStart, WitnessSimplex, Witnesses};
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;

/// The closest points of two cores in world coordinates, `a` of A's and `b` of B's, and `w = a − b` (computed
/// where it is accurate).
#[derive(Clone, Copy)]
pub(crate) struct Closest<V: Vector> {
    a: V,
    b: V,
    /// The one point of A − B's cores nearest the origin.
    w: V,
    /// |w|.
    len: V::Real,
    /// The distance under which the cores count as touching.
    touch: V::Real,
}

/// The world position of a shape's point core `core` at `pose`: the translation itself for a core at the shape's
/// origin (a ball's), with no rounding.
#[inline(always)]
fn placed<V: Vector>(core: V, pose: &Iso<V>) -> V {
    if core == V::zero() {
        pose.translation
    } else {
        pose.transform_point(core)
    }
}

/// The point core `core` of a shape at `pose` in the frame of the pose `frame`: the translations subtracted first
/// (as accurate far from the origin as near it), then the core's offset, then one inverse rotation.
#[inline(always)]
pub(super) fn in_frame<V: Vector>(core: V, pose: &Iso<V>, frame: &Iso<V>) -> V {
    let mut d = pose.translation - frame.translation;
    if core != V::zero() {
        d += pose.rotation.rotate(core);
    }
    frame.rotation.inverse_rotate(d)
}

impl<V: Vector> Closest<V> {
    /// The closest points of `a` at `pose_a` and `b` at `pose_b` in closed form: two balls, a point core against
    /// a box or a segment core, or two segment cores. `None` when the pair has none, or the numbers are not finite (the general path then
    /// decides, as for any other pair).
    #[inline(always)]
    pub fn of<A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>) -> Option<Self>
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let (core_a, core_b) = (a.point_core(), b.point_core());
        let out = match (core_a, core_b) {
            (Some(ca), Some(cb)) if ca == V::zero() && cb == V::zero() => {
                let (pa, pb) = (pose_a.translation, pose_b.translation);
                let w = pa - pb;
                Self::new(pa, pb, w, w.max_abs())
            }
            // A is the point: solved in B's frame, the difference rotated out by B's rotation. On a segment core the
            // difference is made perpendicular to it (`across`): at touching distance its part along the segment
            // is the rounding of the foot, and the direction is what a cast or a contact takes as its normal (a
            // ray from a point of a 7.6-long segment came back 2.7e-9 rad off perpendicular: gjk-fuzz seed 43
            // case 8421).
            (Some(ca), _) => {
                let target = Target::of(b)?;
                let p = in_frame(ca, pose_a, pose_b);
                let (c, scale) = target.closest(p);
                let w = pose_b.rotation.rotate(across(p - c, c, target));
                let pa = placed(ca, pose_a);
                Self::new(pa, pa - w, w, scale)
            }
            // B is the point: solved in A's frame.
            (None, Some(cb)) => {
                let target = Target::of(a)?;
                let q = in_frame(cb, pose_b, pose_a);
                let (c, scale) = target.closest(q);
                let w = pose_a.rotation.rotate(-across(q - c, c, target));
                let pb = placed(cb, pose_b);
                Self::new(pb + w, pb, w, scale)
            }
            // Two segment cores: solved in A's frame, the difference rotated out by A's rotation.
            (None, None) => {
                let (sa, sb) = (a.segment_core()?, b.segment_core()?);
                let sb = (in_frame(sb.0, pose_b, pose_a), in_frame(sb.1, pose_b, pose_a));
                let (ca, _, w) = segments::closest(sa, sb);
                let pa = pose_a.transform_point(ca);
                let w = pose_a.rotation.rotate(w);
                Self::new(pa, pa - w, w, segments::scale(sa, sb))
            }
        };
        (out.a.is_finite() && out.b.is_finite() && out.w.is_finite()).then_some(out)
    }

    #[inline(always)]
    fn new(a: V, b: V, w: V, scale: V::Real) -> Self {
        Self { a, b, w, len: w.length(), touch: touch_distance(scale) }
    }

    /// How the loop would end on these cores with `params`: touching within the radii (`stop_below`), beyond
    /// `stop_above`, or at the closest point. `None` when no iteration is allowed (the general path answers).
    #[inline(always)]
    pub fn outcome(&self, params: &Params<V::Real>) -> Option<Outcome> {
        if params.max_iterations == 0 {
            return None;
        }
        Some(if self.len <= params.stop_below + self.touch {
            Outcome::Intersecting
        } else if params.stop_above.is_some_and(|above| self.len > above) {
            Outcome::Separated
        } else {
            Outcome::Closest
        })
    }

    /// The unit vector from A's centre toward B's (zero for concentric balls).
    #[inline(always)]
    fn normal(&self) -> V {
        if self.len > V::Real::ZERO {
            -self.w * (V::Real::ONE / self.len)
        } else {
            V::zero()
        }
    }

    /// The distance query's answer (radii `ra`, `rb`), as [`crate::gjk::distance_with`] states it: the closest
    /// points on the line of centres, A's deepest point along the normal when the balls overlap, the one vertex w
    /// with weight 1 as the witness simplex. `None` as [`Closest::outcome`].
    #[inline(always)]
    pub fn distance(&self, (ra, rb): (V::Real, V::Real), params: &Params<V::Real>) -> Option<Distance<V>> {
        let outcome = self.outcome(params)?;
        let zero = V::Real::ZERO;
        let n = self.normal();
        // With `Separated` the distance is a lower bound, here the distance itself.
        let gap = (self.len - (ra + rb)).max(zero);
        let (distance, status) = match outcome {
            Outcome::Intersecting => (zero, Status::Converged),
            Outcome::Separated => (gap, Status::AboveBound),
            Outcome::Closest => (gap, Status::Converged),
        };
        let mut points = [V::zero(); 4];
        let mut weights = [zero; 4];
        points[0] = self.w;
        weights[0] = V::Real::ONE;
        Some(Distance {
            intersecting: outcome == Outcome::Intersecting,
            distance,
            point_a: self.a + n * ra,
            point_b: self.b - n * rb,
            normal: n,
            simplex: WitnessSimplex { points, weights, len: 1 },
            iterations: 0,
            status,
            error_bound: zero,
        })
    }

    /// The penetration query's answer for two balls or two segment cores: the cores' distance less the radii along
    /// the line of their closest points. `None` for cores within the touching threshold of each other (no
    /// direction: EPA decides, as after the loop), `Some(None)` beyond `max_distance` (the signed distance bound
    /// `penetration_within` gives up at).
    #[inline(always)]
    pub fn apart_penetration(
        &self,
        (ra, rb): (V::Real, V::Real),
        max_distance: Option<V::Real>,
    ) -> Option<Option<Penetration<V>>> {
        if !(self.len > self.touch) {
            return None;
        }
        let distance = self.len - ra - rb;
        if max_distance.is_some_and(|m| self.len > m + ra + rb) {
            return Some(None);
        }
        let n = self.normal();
        Some(Some(Penetration::closed_form(distance, self.touch, n, self.a + n * ra, self.b - n * rb)))
    }

    /// The points of A's and B's cores behind the answer's one vertex.
    pub fn witnesses(&self) -> Witnesses<V> {
        let (mut points_a, mut points_b) = ([V::zero(); 4], [V::zero(); 4]);
        points_a[0] = self.a;
        points_b[0] = self.b;
        Witnesses { points_a, points_b, len: 1 }
    }

    /// Keeps the answer's one search direction for the next query, in the pair frame as the loop keeps it: from
    /// A − B's point toward the origin, turned into A's frame.
    pub fn store(&self, cache: &mut WarmStart<V>, pose_a: &Iso<V>) {
        let dir = if self.len > V::Real::ZERO { pose_a.rotation.inverse_rotate(-self.w) } else { V::axis(0) };
        cache.store_direction(dir);
    }
}

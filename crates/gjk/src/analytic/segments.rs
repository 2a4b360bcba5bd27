//! The closest points of two segment cores (capsules, segments), in the frame of the first.
//!
//! Their squared distance is a convex function of the two segments' parameters (s, t) ∈ [0, 1]². Where its
//! minimum over all (s, t) — the lines' closest points — lies inside the square, it is the answer; otherwise the
//! answer lies on the square's boundary, where one parameter is 0 or 1: an end of one segment against the other
//! segment. So the answer is the lines' closest pair when both of its parameters fall inside, and else the best of
//! the four end–segment pairs, each a point against a segment (`point::on_segment`).
//!
//! The lines' parameters are taken from cross products of the unit directions (3D): with n = u₁ × u₂ and r the
//! vector between the first ends, s = n·(u₂ × r) / |n|² and t = n·(u₁ × r) / |n|² (Binet–Cauchy turns the usual
//! normal equations into these). |n|² is sin²θ computed to a few ulps, where the normal equations' determinant
//! `(u₁·u₁)(u₂·u₂) − (u₁·u₂)²` cancels to ε / sin²θ relative error on nearly parallel segments; and the
//! difference of the closest points is taken as n (n·r) / |n|², exactly perpendicular to both lines, rather than
//! as a difference of two rounded points. Unit directions keep |n|² in range in f32 for any segment length. In 2D
//! two lines meet unless parallel, so the lines' pair is inside the square only when the segments cross (the
//! orientation tests, strictly): the distance is then zero.

use super::depth::across;
use super::point::on_segment;
use super::Target;
use crate::gjk::run::stall_rounding;
use crate::math::{Iso, PerDimension, Real, Rotation, Vector, Vector2, Vector3};

/// The closest points of the segments `a` and `b` (ends in one frame), and `w`, A's point less B's, computed where
/// it is accurate.
#[inline(always)]
pub(super) fn closest<V: Vector>(a: (V, V), b: (V, V)) -> (V, V, V) {
    if let Some(inside) = V::by_dimension(Lines { a, b }) {
        return inside;
    }
    // An end of A against B, or an end of B against A (w from A's point to B's, so negated for B's ends).
    let end_of_a = |p: V| {
        let c = on_segment(p, b.0, b.1);
        (p, c, across(p - c, c, Target::Segment(b.0, b.1)))
    };
    let end_of_b = |q: V| {
        let c = on_segment(q, a.0, a.1);
        (c, q, -across(q - c, c, Target::Segment(a.0, a.1)))
    };
    let candidates = [end_of_a(a.0), end_of_a(a.1), end_of_b(b.0), end_of_b(b.1)];
    let mut best = candidates[0];
    for c in &candidates[1..] {
        if c.2.length_squared() < best.2.length_squared() {
            best = *c;
        }
    }
    best
}

/// The magnitude of the numbers GJK would handle on the pair (the largest coordinate of a vertex of A − B's
/// cores), which scales the touching threshold.
#[inline(always)]
pub(super) fn scale<V: Vector>(a: (V, V), b: (V, V)) -> V::Real {
    let m = |p: V, q: V| (p - q).max_abs();
    m(a.0, b.0).max(m(a.0, b.1)).max(m(a.1, b.0)).max(m(a.1, b.1))
}

/// The lines' closest pair when both of its parameters fall strictly inside the segments (see the module docs).
struct Lines<V> {
    a: (V, V),
    b: (V, V),
}

/// `p0 + (p1 − p0) f`, from the nearer end (so a point near `p1` of a long segment is measured from `p1`).
#[inline(always)]
fn at<V: Vector>(p0: V, p1: V, f: V::Real) -> V {
    let half = V::Real::from_f64(0.5);
    if f <= half {
        p0 + (p1 - p0) * f
    } else {
        p1 - (p1 - p0) * (V::Real::ONE - f)
    }
}

impl<V: Vector> PerDimension<V> for Lines<V> {
    type Output = Option<(V, V, V)>;

    fn in_2d(self) -> Self::Output
    where
        V: Vector2,
    {
        let zero = V::Real::ZERO;
        let ((a0, a1), (b0, b1)) = (self.a, self.b);
        let (d1, d2) = (a1 - a0, b1 - b0);
        // Each segment's ends strictly on either side of the other's line.
        let (o1, o2) = (d1.perp_dot(b0 - a0), d1.perp_dot(b1 - a0));
        let (o3, o4) = (d2.perp_dot(a0 - b0), d2.perp_dot(a1 - b0));
        let crossing =
            (o1 < zero && o2 > zero || o1 > zero && o2 < zero) && (o3 < zero && o4 > zero || o3 > zero && o4 < zero);
        if !crossing {
            return None;
        }
        // Where B's line cuts A: o3 and o4 are A's ends' signed distances from it (times |d2|).
        let p = at(a0, a1, o3 / (o3 - o4));
        p.is_finite().then_some((p, p, V::zero()))
    }

    fn in_3d(self) -> Self::Output
    where
        V: Vector3,
    {
        let (zero, one) = (V::Real::ZERO, V::Real::ONE);
        let ((a0, a1), (b0, b1)) = (self.a, self.b);
        let (d1, d2) = (a1 - a0, b1 - b0);
        let (l1, l2) = (d1.length(), d2.length());
        if !(l1 > zero && l2 > zero) {
            return None;
        }
        let (u1, u2) = (d1 * (one / l1), d2 * (one / l2));
        let n = u1.cross(u2);
        let nn = n.length_squared();
        if !(nn > zero) || !nn.is_finite() {
            return None;
        }
        let r = a0 - b0;
        // The lengths along each line from its first end, as fractions of the segments.
        let s = n.dot(u2.cross(r)) / nn / l1;
        let t = n.dot(u1.cross(r)) / nn / l2;
        if !(s > zero && s < one && t > zero && t < one) {
            return None;
        }
        // n is perpendicular to both lines, but its rounding (ε absolute, against a length of sin θ) tilts it
        // towards them by ε / sin θ: 2.4e-6 rad on two segments 0.5 long and 1e-11 rad from parallel, which put
        // the planes along the normal 1.2e-6 apart on the wrong side for a distance of 3.9e-12 (gjk-fuzz seed 66
        // case 3550). Its parts along the two directions are taken out, each to rounding, so that w's direction is
        // perpendicular to both lines to a few ulps (a part left across them, of the same size, tilts the planes
        // only by that size times sin θ).
        let n = n - u1 * n.dot(u1);
        let n = n - u2 * n.dot(u2);
        let nn = n.length_squared();
        if !(nn > zero) {
            return None;
        }
        let w = n * (n.dot(r) / nn);
        Some((at(a0, a1, s), at(b0, b1, t), w))
    }
}

/// True when two segment cores `sa` of A and `sb` of B (ends in their shapes' frames), at `pose_a` and `pose_b`, are
/// proven farther apart than `radii` — by more than the rounding of the numbers — by the two planes across the line
/// of their midpoints: along the unit d of that line a segment reaches |h·d| either side of its midpoint (h its
/// half-length vector), so the cores are at least |c_B − c_A| − |h_A·d| − |h_B·d| apart. MPR's first test, here
/// without a support call; the boolean query takes it before the closest points, which it would only confirm
/// (they are exact to rounding, and the margin is 1024 ulps of the largest number in play).
#[inline(always)]
pub(crate) fn apart_along_centres<V: Vector>(
    sa: (V, V),
    pose_a: &Iso<V>,
    sb: (V, V),
    pose_b: &Iso<V>,
    radii: V::Real,
) -> bool {
    let half = V::Real::from_f64(0.5);
    let (mid_a, mid_b) = ((sa.0 + sa.1) * half, (sb.0 + sb.1) * half);
    let (h_a, h_b) = (pose_a.rotation.rotate((sa.1 - sa.0) * half), pose_b.rotation.rotate((sb.1 - sb.0) * half));
    // Translations subtracted first, as everywhere in the pair frame.
    // A capsule's core is centred on its origin: no rotation to place its midpoint.
    let placed = |mid: V, pose: &Iso<V>| if mid == V::zero() { mid } else { pose.rotation.rotate(mid) };
    let d = pose_b.translation - pose_a.translation + placed(mid_b, pose_b) - placed(mid_a, pose_a);
    let len = d.length();
    if !(len > V::Real::ZERO) || !len.is_finite() {
        return false;
    }
    let gap = len - (h_a.dot(d).abs() + h_b.dot(d).abs()) / len - radii;
    let scale = d.max_abs().max(h_a.max_abs()).max(h_b.max_abs()).max(radii).max(mid_a.max_abs()).max(mid_b.max_abs());
    gap > stall_rounding(scale)
}

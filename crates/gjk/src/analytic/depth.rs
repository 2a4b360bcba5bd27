//! The signed distance of a point core and a box or segment core (the penetration query), in closed form.
//!
//! Apart, the cores' closest points give it exactly, as GJK's run would (the radii subtracted). A point inside a
//! box is pushed out through the nearest face: the depth is that face's distance plus the radii, along the face's
//! normal — the face of A − B nearest the origin, which is what EPA finds there. A point exactly on a segment
//! core has no direction of its own: it goes to EPA (`None`).

use super::point::on_cuboid;
use super::Target;
use crate::epa::Penetration;
use crate::gjk::run::touch_distance;
use crate::math::{Iso, Real, Vector};

/// Which of A and B is the point.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PointIs {
    A,
    B,
}

/// The answer in the world for the point `p` and the core `target`, both in the target's frame, whose pose is
/// `frame`. `None`: let EPA decide.
#[inline(always)]
pub(super) fn signed<V: Vector>(
    p: V,
    target: Target<V>,
    point_is: PointIs,
    frame: &Iso<V>,
    (ra, rb): (V::Real, V::Real),
) -> Option<Penetration<V>> {
    let zero = V::Real::ZERO;
    let (c, scale) = target.closest(p);
    let touch = touch_distance(scale);
    // A's core point, B's core point and the normal from A toward B, in the target's frame.
    let (core_a, core_b, normal, core_distance) = if c != p {
        let d = across(p - c, c, target);
        let len = d.length();
        if !(len > zero) || !len.is_finite() {
            return None;
        }
        let out = d * (V::Real::ONE / len);
        match point_is {
            PointIs::A => (p, c, -out, len),
            PointIs::B => (c, p, out, len),
        }
    } else {
        let Target::Cuboid(h) = target else { return None };
        let (axis, depth) = nearest_face(p, h);
        let out = if p.get(axis) < zero { -V::axis(axis) } else { V::axis(axis) };
        let face = p + out * depth;
        match point_is {
            PointIs::A => (p, face, -out, -depth),
            PointIs::B => (face, p, out, -depth),
        }
    };
    if !core_a.is_finite() || !core_b.is_finite() {
        return None;
    }
    let distance = core_distance - ra - rb;
    let normal_pair = frame.transform_vector(normal);
    let point_a = frame.transform_point(core_a) + normal_pair * ra;
    let point_b = frame.transform_point(core_b) - normal_pair * rb;
    Some(Penetration::closed_form(distance, touch, normal_pair, point_a, point_b))
}

/// The vector `d` from the core's point `c` to the point, made exactly perpendicular to a segment core where `c`
/// is inside the segment (it is, to rounding: the foot of the perpendicular). A point within rounding of the
/// segment is `d` of rounding size whose direction is noise: a ball centred 2e-12 from a capsule's core got a
/// normal 2.3e-5 rad off the core's perpendicular, and along it the capsule reached 2.6e-5 farther than the depth
/// said (gjk-fuzz seed 31 cases 17896, 6972, 17496). Any direction perpendicular to the segment supports it at
/// `c`, and the ball is round: the depth is the same along each, and exact along the one kept.
#[inline(always)]
pub(super) fn across<V: Vector>(d: V, c: V, target: Target<V>) -> V {
    let Target::Segment(a, b) = target else { return d };
    let e = b - a;
    let ee = e.length_squared();
    if c == a || c == b || !(ee > V::Real::ZERO) {
        return d;
    }
    let perpendicular = d - e * (d.dot(e) / ee);
    // (Rounding can leave nothing of a `d` along the segment only where `d` is zero to rounding.)
    if perpendicular == V::zero() {
        d
    } else {
        perpendicular
    }
}

/// The face of the box `[−h, h]` nearest the point `p` inside it: its axis (the lowest on ties) and distance.
#[inline(always)]
fn nearest_face<V: Vector>(p: V, h: V) -> (usize, V::Real) {
    debug_assert!(on_cuboid(p, h) == p);
    let mut best = (0, h.get(0) - p.get(0).abs());
    for i in 1..V::DIM {
        let d = h.get(i) - p.get(i).abs();
        if d < best.1 {
            best = (i, d);
        }
    }
    best
}

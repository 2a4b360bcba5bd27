//! The point of a box or a segment nearest a given point, in the shape's own frame.

use crate::math::{Real, Vector};

/// The point of the box `[−h, h]` nearest `p`: each coordinate clamped to its slab. Outside the box this is the
/// nearest point of the face, edge or corner whose region holds `p`; inside, `p` itself (the cores overlap).
/// Clamping is exact, so `p − c` is exact in every coordinate that was clamped to `±h` within a factor of two of
/// it, and `|p − c|` is the distance to within an ulp or two even for a slab of 1e-9 or a point on a face.
#[inline(always)]
pub(super) fn on_cuboid<V: Vector>(p: V, h: V) -> V {
    p.max_elem(-h).min_elem(h)
}

/// The point of the segment `ab` nearest `p`: the foot of the perpendicular, clamped to the ends. A segment of
/// zero length answers `a`. The parameter is taken from the end `p` is nearer to, so a point near `b` of a long
/// segment is measured from `b` (its foot is `b − t (b − a)` with a small `t`, not `a + (1 − ε)(b − a)`).
#[inline(always)]
pub(super) fn on_segment<V: Vector>(p: V, a: V, b: V) -> V {
    let zero = V::Real::ZERO;
    let e = b - a;
    let ee = e.length_squared();
    let from_a = (p - a).dot(e);
    if !(ee > zero) || from_a <= zero {
        return a;
    }
    let from_b = (b - p).dot(e);
    if from_b <= zero {
        return b;
    }
    if from_a <= from_b {
        a + e * (from_a / ee)
    } else {
        b - e * (from_b / ee)
    }
}

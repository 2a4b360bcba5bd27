//! The 2D specifics of the simplex solver. In the plane a triangle is the full simplex: the signed-area test of
//! [`super::solve_triangle`] with the origin as its own projection decides containment directly.

use super::{solve_triangle, Barycentric};
use crate::math::{Real, Vector, Vector2};

/// In the plane a triangle's "plane" is the whole space: the origin projects onto itself, and the coordinate
/// axes are the projection axes.
#[inline]
pub fn triangle_projection<V: Vector2>(_a: V, _b: V, _c: V) -> (V, usize, usize) {
    (V::zero(), 0, 1)
}

/// Closest point of a 2D triangle to the origin; every weight positive means the origin is inside.
pub fn solve_triangle_full<V: Vector>(a: V, b: V, c: V) -> Barycentric<V::Real> {
    solve_triangle(a, b, c)
}

/// Unit normal of the segment `p[0] p[1]` (either sign); `None` unless exactly two distinct points.
pub fn facet_normal<V: Vector2>(p: &[V]) -> Option<V> {
    let [a, b] = p else { return None };
    let n = (*b - *a).perp().normalize_or_zero();
    (n.length_squared() > V::Real::ZERO).then_some(n)
}

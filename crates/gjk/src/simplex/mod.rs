//! The closest point of a simplex to the origin, by the signed-volumes method of Montanari, Petrinic and Barbieri,
//! "Improving the GJK algorithm for faster and more reliable distance queries between convex objects",
//! ACM TOG 36(3), 2017.
//!
//! Johnson's sub-algorithm decides the Voronoi region of the origin from dot products of edge vectors, which
//! cancel catastrophically on thin or nearly flat simplices. The signed-volumes method instead compares the signs
//! of sub-simplex volumes (areas, lengths) measured in the coordinate frame where the simplex is largest, so a
//! sign is trusted only where it is well conditioned. The segment and triangle cases are written once for 2D and
//! 3D; the full simplex (the tetrahedron) and the choice of projection plane live in [`dim3`] and [`dim2`], picked by
//! the vector type in `dimension.rs`.

pub mod dim2;
pub mod dim3;
mod dimension;

pub use dimension::facet_normal;
pub(crate) use dimension::{solve_full, triangle_projection};

use crate::math::{Real, Vector};

/// Barycentric coordinates of the closest point: which input vertices support it (`mask`, bit `i` for vertex
/// `i`) and their weights (`lambda[i]`, zero where the bit is clear).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Barycentric<R> {
    /// Bit `i` set when vertex `i` is kept.
    pub mask: u8,
    /// Weight of each vertex; weights of kept vertices sum to one.
    pub lambda: [R; 4],
}

impl<R: Real> Barycentric<R> {
    /// The single vertex `i`.
    #[inline]
    pub fn vertex(i: usize) -> Self {
        let mut lambda = [R::ZERO; 4];
        lambda[i] = R::ONE;
        Self { mask: 1 << i, lambda }
    }

    /// Σ λᵢ pᵢ over the kept vertices.
    #[inline]
    pub fn combine<V: Vector<Real = R>>(&self, p: &[V]) -> V {
        let mut out = V::zero();
        for (i, q) in p.iter().enumerate() {
            if self.mask & (1 << i) != 0 {
                out += *q * self.lambda[i];
            }
        }
        out
    }

    /// Re-indexes a result computed on a subset: `map[k]` is the index in the parent of the subset's vertex `k`.
    fn lift(self, map: &[usize]) -> Self {
        let mut out = Self { mask: 0, lambda: [R::ZERO; 4] };
        for (k, &parent) in map.iter().enumerate() {
            if self.mask & (1 << k) != 0 {
                out.mask |= 1 << parent;
                out.lambda[parent] = self.lambda[k];
            }
        }
        out
    }
}

/// Same strict sign: both positive or both negative. A zero never agrees, so a point exactly on a boundary is
/// handed to the lower-dimensional case, which finds the same closest point with fewer vertices.
#[inline]
pub(crate) fn same_sign<R: Real>(a: R, b: R) -> bool {
    (a > R::ZERO && b > R::ZERO) || (a < R::ZERO && b < R::ZERO)
}

/// Closest point of the simplex `p` (1 to DIM+1 points) to the origin.
///
/// ```
/// use gjk::math::DVec2;
/// use gjk::simplex::closest_to_origin;
/// // The origin projects onto the middle of this segment.
/// let bc = closest_to_origin(&[DVec2::new(-1.0, 1.0), DVec2::new(1.0, 1.0)]);
/// assert_eq!(bc.mask, 0b11);
/// assert_eq!(bc.lambda[0], 0.5);
/// ```
pub fn closest_to_origin<V: Vector>(p: &[V]) -> Barycentric<V::Real> {
    solve(p).0
}

/// A solved simplex: the barycentric coordinates of the closest point and, when that point lies inside a triangle
/// (3D), the point itself as the solver found it on the way, the origin's projection onto the triangle's plane.
/// GJK wants that projection rather than Σ λᵢ pᵢ, which carries the rounding of a thin triangle's small area.
pub(crate) type Solved<V> = (Barycentric<<V as Vector>::Real>, Option<V>);

/// [`closest_to_origin`] with the projection of [`Solved`].
pub(crate) fn solve<V: Vector>(p: &[V]) -> Solved<V> {
    match p.len() {
        1 => (Barycentric::vertex(0), None),
        2 => (solve_segment(p[0], p[1]), None),
        3 => triangle(p[0], p[1], p[2]),
        _ => solve_full(&[p[0], p[1], p[2], p[3]]),
    }
}

/// Segment `ab` (S1D). The origin's projection on the line is located by its coordinate along the axis where the
/// segment is longest, which is the best-conditioned of the one-dimensional projections.
pub fn solve_segment<V: Vector>(a: V, b: V) -> Barycentric<V::Real> {
    let t = b - a;
    let tt = t.length_squared();
    if tt <= V::Real::ZERO {
        // A repeated point: the segment is the point itself.
        return Barycentric::vertex(1);
    }
    // Projection of the origin onto the line through a and b.
    let p0 = a - t * (a.dot(t) / tt);
    let axis = (0..V::DIM).fold(0, |best, i| if t.get(i).abs() > t.get(best).abs() { i } else { best });
    let mu = a.get(axis) - b.get(axis);
    // Signed lengths of the sub-segments: the weight of `a` grows with the distance of p0 from `b`, and vice versa.
    let c_a = p0.get(axis) - b.get(axis);
    let c_b = a.get(axis) - p0.get(axis);
    if same_sign(mu, c_a) && same_sign(mu, c_b) {
        let mut lambda = [V::Real::ZERO; 4];
        lambda[0] = c_a / mu;
        lambda[1] = c_b / mu;
        Barycentric { mask: 0b11, lambda }
    } else if same_sign(mu, c_a) {
        // p0 lies beyond `a`: a's Voronoi region.
        Barycentric::vertex(0)
    } else {
        Barycentric::vertex(1)
    }
}

/// Triangle `abc` (S2D). The origin is projected onto the triangle's plane and located by signed areas in the
/// coordinate plane where the triangle's shadow is largest; where a sub-area disagrees in sign with the whole,
/// the origin lies beyond the opposite edge and that edge is solved instead.
pub fn solve_triangle<V: Vector>(a: V, b: V, c: V) -> Barycentric<V::Real> {
    triangle(a, b, c).0
}

/// [`solve_triangle`] with the projection of [`Solved`] when the origin projects inside the triangle.
///
/// The plane's normal, the projection and the signed areas share the triangle's edges and their squared lengths,
/// computed once; a signed area in the coordinate plane that drops axis k is component k of a cross product,
/// written out per axis so that the areas read no coordinate at a run-time index (the axis is matched once).
pub(crate) fn triangle<V: Vector>(a: V, b: V, c: V) -> Solved<V> {
    // Signed areas of shadows, each as the cross product of an edge with a vector from one of its ends: the edge
    // is a difference of two nearby vertices, exact to a few ulps of its own length, so an area's rounding is
    // ε × its edge × the other vector, not ε × the squared size of the triangle. On a sliver (two vertices close
    // together, the third far away, as GJK builds when it converges onto a curved surface) the areas spanning the
    // short edge then keep their digits. `e[i]` is the edge opposite vertex i, from `start[i]`.
    let e = [c - b, a - c, b - a];
    let start = [b, c, a];
    let len2 = [e[0].length_squared(), e[1].length_squared(), e[2].length_squared()];
    let long = if len2[0] >= len2[1] && len2[0] >= len2[2] {
        0
    } else if len2[1] >= len2[2] {
        1
    } else {
        2
    };
    // The two shorter edges, in cyclic order after the long one: the long edges of a sliver are nearly parallel
    // and their cross product would keep few digits (e0×e1 = e1×e2 = e2×e0).
    let short = |l: usize| match l {
        0 => (e[1], e[2]),
        1 => (e[2], e[0]),
        _ => (e[0], e[1]),
    };
    let (p0, k, mu) = if V::DIM == 3 {
        // The plane's normal, from the two shortest edges as `dim3::triangle_normal` takes them (its tie rule
        // prefers the edge opposite b as the long one), and the coordinate plane where the shadow is largest:
        // the axis dropped is the normal's largest component (`dim3::triangle_projection`, the same numbers).
        let normal_long = if len2[1] >= len2[2] && len2[1] >= len2[0] {
            1
        } else if len2[2] >= len2[0] {
            2
        } else {
            0
        };
        let (u, w) = short(normal_long);
        let n = V::from_fn(|i| cross_component(u, w, i));
        let p0 = dim3::plane_foot(a, n);
        let (n0, n1, n2) = (n.get(0).abs(), n.get(1).abs(), n.get(2).abs());
        let (k01, n01) = if n1 > n0 { (1, n1) } else { (0, n0) };
        let k = if n2 > n01 { 2 } else { k01 };
        // The whole area: the normal's component k when both took the same two edges.
        let mu = if normal_long == long { n.get(k) } else { cross_component(short(long).0, short(long).1, k) };
        (p0, k, mu)
    } else {
        // In the plane the origin is its own projection and the shadow is the triangle (axis "2" dropped).
        let (u, w) = short(long);
        (V::zero(), 2, cross_component(u, w, 2))
    };
    let sub = areas(&e, &[p0 - start[0], p0 - start[1], p0 - start[2]], k);
    if same_sign(mu, sub[0]) && same_sign(mu, sub[1]) && same_sign(mu, sub[2]) {
        let mut lambda = [V::Real::ZERO; 4];
        for i in 0..3 {
            lambda[i] = sub[i] / mu;
        }
        // The weight of the vertex opposite the longest edge is the least accurate (its area spans that edge);
        // it is taken as the complement of the other two instead. Weights that did not sum to one, renormalised,
        // would move the combination along the long edges by the error of that one weight (2.4e-9 on an
        // ellipsoid–triangle pair, test `ellipsoid_triangle_sliver_witnesses_meet_the_normal`); the complement's
        // error only slides the point along the short edge.
        lambda[long] = (V::Real::ONE - (lambda[(long + 1) % 3] + lambda[(long + 2) % 3])).max(V::Real::ZERO);
        return (Barycentric { mask: 0b111, lambda }, Some(p0));
    }
    // The closest point is on an edge: try each edge whose opposite sub-area has the wrong sign (all three
    // when the triangle is degenerate and no sign can be trusted) and keep the nearest.
    let degenerate = !(mu.abs() > V::Real::ZERO);
    let pts = [a, b, c];
    best_of_faces(
        &pts,
        &TRIANGLE_EDGES,
        0,
        degenerate,
        |skip| !same_sign(mu, sub[skip]),
        |q: &[V; 2]| (solve_segment(q[0], q[1]), None),
    )
}

/// The edges of a triangle, each listed at the index of the vertex it leaves out.
const TRIANGLE_EDGES: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Component `k` of u × w: the signed area of the shadows of u and w on the coordinate plane that drops axis k,
/// its axes (k + 1, k + 2) in cyclic order (in 2D, k = 2: the plane itself). The products are glam's `cross`.
#[inline(always)]
pub(crate) fn cross_component<V: Vector>(u: V, w: V, k: usize) -> V::Real {
    match k {
        0 => u.get(1) * w.get(2) - u.get(2) * w.get(1),
        1 => u.get(2) * w.get(0) - u.get(0) * w.get(2),
        _ => u.get(0) * w.get(1) - u.get(1) * w.get(0),
    }
}

/// Component k of `e[i] × q[i]` for each i, the axis matched once for all three.
#[inline(always)]
fn areas<V: Vector>(e: &[V; 3], q: &[V; 3], k: usize) -> [V::Real; 3] {
    match k {
        0 => core::array::from_fn(|i| cross_component(e[i], q[i], 0)),
        1 => core::array::from_fn(|i| cross_component(e[i], q[i], 1)),
        _ => core::array::from_fn(|i| cross_component(e[i], q[i], 2)),
    }
}

/// Runs `solve` on every facet (the simplex without vertex `skip`: its vertices `faces[skip]`, in order) that the
/// origin lies beyond (`beyond(skip)`, or every facet when the simplex is `degenerate` and no sign can be trusted)
/// and keeps the result nearest the origin. Facet `first` is tried first, then the others in order.
///
/// A facet the origin lies beyond whose solution keeps all its vertices ends the search at once: the simplex lies
/// wholly behind that facet's plane (line in 2D), so none of its points is nearer the origin than the origin's
/// projection onto the plane, which is inside the facet. That point is the answer whatever the other facets hold,
/// and solving them would only find points as far or farther. (Not so for a facet whose solution is an edge or a
/// vertex: another facet may hold a nearer point.) In GJK two or three facets of the tetrahedron usually face the
/// origin (the new vertex lies nearly in the old triangle's plane), so this spares a third of the triangle solves.
pub(crate) fn best_of_faces<V: Vector, const N: usize, const M: usize>(
    pts: &[V; N],
    faces: &[[usize; M]; N],
    first: usize,
    degenerate: bool,
    beyond: impl Fn(usize) -> bool,
    solve: impl Fn(&[V; M]) -> Solved<V>,
) -> Solved<V> {
    let mut best: Option<(V::Real, Solved<V>)> = None;
    for t in 0..N {
        // `first`, then the others in order.
        let skip = if t == 0 {
            first
        } else if t <= first {
            t - 1
        } else {
            t
        };
        if !(degenerate || beyond(skip)) {
            continue;
        }
        let map = &faces[skip];
        let (bc, projected) = solve(&map.map(|i| pts[i]));
        if !degenerate && bc.mask.count_ones() as usize == M {
            return (bc.lift(map), projected);
        }
        let bc = bc.lift(map);
        let d2 = bc.combine(pts).length_squared();
        if best.as_ref().is_none_or(|(bd, _)| d2 < *bd) {
            best = Some((d2, (bc, projected)));
        }
    }
    // Unreachable in practice (some sign must disagree when the origin is outside); the last vertex is a valid
    // answer all the same.
    best.map_or((Barycentric::vertex(N - 1), None), |(_, solved)| solved)
}

//! Which of a shape's input points hold a witness point: a distance answer's [`Witnesses`] named by index.
//!
//! [`distance_with_witnesses`](crate::distance_with_witnesses) gives GJK's final simplex: each vertex of A − B
//! with its weight and the points of A's and B's cores that made it (world frame). A support point of a polytope,
//! a box, a segment or a triangle is one of its vertices, so each point is matched back to the shape's vertices
//! ([`ShapeVertices`], in the shape's own frame, numbered as the shape's description lists them). A point that is
//! not a vertex (on a curved surface, a Minkowski sum's) keeps the index `None`, except the one closed-form point
//! a box or a segment core gives against a point core: it is written as the box corners (at most DIM + 1, the
//! Kuhn simplex holding it) or the segment ends whose weighted sum it is. [`name_points`] does one side,
//! [`name_simplices`] both.
//!
//! Nothing here runs inside a query: it allocates (the points it names) and is meant for front ends that are
//! asked for the simplices.

use alloc::{boxed::Box, vec, vec::Vec};

use crate::gjk::{Distance, Witnesses};
use crate::math::{Iso, Real, Vector};

/// A shape's vertices in its own frame, numbered as its description lists them: what a witness point is matched
/// against.
///
/// ```
/// use gjk::math::DVec3;
/// use gjk::ShapeVertices;
///
/// // Corner i of a box has coordinate k at +half_extents[k] when bit k of i is set.
/// let cube = ShapeVertices::Box(DVec3::new(1.0, 2.0, 3.0));
/// assert_eq!(cube.count(), 8);
/// assert_eq!(cube.vertex(0b101), Some(DVec3::new(1.0, -2.0, 3.0)));
/// assert_eq!(cube.matching(DVec3::new(1.0, -2.0, 3.0), 0.0), Some(0b101));
///
/// // A point on a face: the corners of the Kuhn simplex holding it, with weights ≥ 0 summing to one.
/// let parts = cube.decompose(DVec3::new(1.0, 0.0, 1.5)).unwrap();
/// let sum: DVec3 = parts.iter().map(|&(i, t)| cube.vertex(i).unwrap() * t).sum();
/// assert!((sum - DVec3::new(1.0, 0.0, 1.5)).length() < 1e-15);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeVertices<V: Vector> {
    /// A box of these half extents: corner `i` has coordinate k at `+half_extents[k]` when bit k of `i` is set,
    /// else at `−half_extents[k]`.
    Box(V),
    /// A segment core (a segment's `a`, `b`; a capsule's ends at −half_height and +half_height along its axis):
    /// ends 0 and 1.
    Segment([V; 2]),
    /// Points given one by one (a convex point set's points, a triangle's corners, a point or a ball's centre).
    List(Vec<V>),
    /// A shape placed by a pose inside its description: its inner shape's vertices, numbered as the inner shape
    /// numbers them, placed by the pose.
    Posed(Box<ShapeVertices<V>>, Iso<V>),
    /// No vertices (a curved surface, a Minkowski sum).
    None,
}

impl<V: Vector> ShapeVertices<V> {
    /// Vertex `i` (in the shape's frame), or `None` past the last.
    pub fn vertex(&self, i: usize) -> Option<V> {
        if i >= self.count() {
            return None;
        }
        Some(match self {
            ShapeVertices::Box(h) => V::from_fn(|k| if i & (1 << k) != 0 { h.get(k) } else { -h.get(k) }),
            ShapeVertices::Segment(ends) => ends[i],
            ShapeVertices::List(points) => points[i],
            ShapeVertices::Posed(inner, pose) => pose.transform_point(inner.vertex(i)?),
            ShapeVertices::None => return None,
        })
    }

    /// How many vertices: 2^DIM corners of a box, 2 ends of a segment, the points of a list.
    pub fn count(&self) -> usize {
        match self {
            ShapeVertices::Box(_) => 1 << V::DIM,
            ShapeVertices::Segment(_) => 2,
            ShapeVertices::List(points) => points.len(),
            ShapeVertices::Posed(inner, _) => inner.count(),
            ShapeVertices::None => 0,
        }
    }

    /// The vertex nearest `p` (shape frame) if it is `p` up to the rounding of numbers of size `scale` (the
    /// largest coordinate `p` went through on its way here, e.g. the poses' translations) or of the vertices' and
    /// `p`'s own.
    pub fn matching(&self, p: V, scale: V::Real) -> Option<usize> {
        let (mut best, mut best_d2) = (None, V::Real::INFINITY);
        let mut size = scale.max(p.max_abs());
        for (i, v) in (0..self.count()).filter_map(|i| Some((i, self.vertex(i)?))) {
            size = size.max(v.max_abs());
            let d2 = (v - p).length_squared();
            if d2 < best_d2 {
                (best, best_d2) = (Some(i), d2);
            }
        }
        // A world point went through two poses and the pair frame: a few roundings of the largest number, ε·size
        // each. 1024 ε is far above that and far below any real gap between two distinct vertices that matters
        // at the accuracy of the answers.
        let tol = V::Real::from_f64(1024.0) * V::Real::EPSILON * size;
        best.filter(|_| best_d2.sqrt() <= tol)
    }

    /// `p` (shape frame, a point of the shape) as the weighted vertices it is a convex combination of: for a box
    /// the corners of the simplex of the Kuhn triangulation holding it (at most DIM + 1), for a segment its two
    /// ends; `None` for the other shapes. A point outside is taken to the nearest point of the box (segment).
    pub fn decompose(&self, p: V) -> Option<Vec<(usize, f64)>> {
        match self {
            ShapeVertices::Segment([a, b]) => {
                let e = *b - *a;
                let ee = e.length_squared().to_f64();
                let t = if ee > 0.0 { ((p - *a).dot(e).to_f64() / ee).clamp(0.0, 1.0) } else { 0.0 };
                Some(vec![(0, 1.0 - t), (1, t)])
            }
            ShapeVertices::Box(h) => {
                // Coordinate k of p as a fraction t_k of the way from the −h_k face to the +h_k face. Sorting the
                // axes by decreasing t, the corners 0, then that corner with the first axis set, then the first
                // two, … hold p with weights 1 − t₁, t₁ − t₂, …, t_DIM (the Kuhn simplex containing p).
                let t: Vec<f64> = (0..V::DIM)
                    .map(|k| {
                        let (hk, pk) = (h.get(k).to_f64(), p.get(k).to_f64());
                        if hk > 0.0 {
                            ((pk + hk) / (2.0 * hk)).clamp(0.0, 1.0)
                        } else {
                            0.0
                        }
                    })
                    .collect();
                let mut order: Vec<usize> = (0..V::DIM).collect();
                order.sort_by(|&i, &j| t[j].total_cmp(&t[i]));
                let mut out = Vec::with_capacity(V::DIM + 1);
                let (mut corner, mut previous) = (0usize, 1.0);
                for &k in &order {
                    out.push((corner, previous - t[k]));
                    corner |= 1 << k;
                    previous = t[k];
                }
                out.push((corner, previous));
                Some(out)
            }
            ShapeVertices::Posed(inner, pose) => inner.decompose(pose.inverse_transform_point(p)),
            ShapeVertices::List(_) | ShapeVertices::None => None,
        }
    }
}

/// One point of a named witness simplex.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedPoint<P> {
    /// The point's index among the shape's vertices ([`ShapeVertices`]), or `None` where it is not one of them.
    pub index: Option<usize>,
    /// The point (world frame): the vertex placed by the shape's pose where it is one.
    pub point: P,
    /// Its weight.
    pub weight: f64,
}

/// One shape's witness simplex as named points, each index once: Σ weight · point is its core's closest point.
///
/// ```
/// use gjk::NamedSimplex;
/// let mut s = NamedSimplex::new();
/// s.add(Some(3), [1.0, 2.0], 0.25);
/// s.add(Some(3), [1.0, 2.0], 0.5); // the same vertex again: one point, the weights add up
/// s.add(None, [0.0, 1.0], 0.25);
/// s.add(Some(1), [5.0, 5.0], 0.0); // weight 0: left out
/// let weights: Vec<f64> = s.points().iter().map(|p| p.weight).collect();
/// assert_eq!(weights, [0.75, 0.25]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct NamedSimplex<P> {
    points: Vec<NamedPoint<P>>,
}

impl<P: PartialEq> Default for NamedSimplex<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: PartialEq> NamedSimplex<P> {
    /// No points.
    pub fn new() -> Self {
        Self { points: Vec::new() }
    }

    /// Adds `point` of index `index` and weight `weight`. A weight ≤ 0 is left out (a vertex the solver kept at
    /// weight 0; a NaN is kept, for the caller's finiteness check to see); a point whose index is already there
    /// (or, without an index, whose position is) adds its weight to it: vertices of A − B that share a point of
    /// one shape are one point of its simplex.
    pub fn add(&mut self, index: Option<usize>, point: P, weight: f64) {
        if weight <= 0.0 {
            return;
        }
        let same = |q: &&mut NamedPoint<P>| match index {
            Some(_) => q.index == index,
            None => q.index.is_none() && q.point == point,
        };
        match self.points.iter_mut().find(same) {
            Some(q) => q.weight += weight,
            None => self.points.push(NamedPoint { index, point, weight }),
        }
    }

    /// The points, in the order they were first added.
    pub fn points(&self) -> &[NamedPoint<P>] {
        &self.points
    }

    /// The points, in the order they were first added.
    pub fn into_points(self) -> Vec<NamedPoint<P>> {
        self.points
    }
}

/// One shape's witness simplex from the points of its core behind the simplex's vertices (`points`, world) and
/// their `weights`: each point matched to one of the shape's `vertices` (placed by `pose`) up to the rounding of
/// numbers of size `scale` (see [`ShapeVertices::matching`]), and a lone point that matches none written as the
/// box corners or segment ends whose weighted sum it is ([`ShapeVertices::decompose`]).
///
/// ```
/// use gjk::math::{DVec2, Iso};
/// use gjk::witness::{name_points, ShapeVertices};
/// let square = ShapeVertices::Box(DVec2::splat(1.0));
/// let pose = Iso::from_translation(DVec2::new(10.0, 0.0));
/// // The corner (+1, −1) of the square, placed at (11, −1): corner 0b01.
/// let s = name_points(&square, &pose, &[DVec2::new(11.0, -1.0)], &[1.0], 10.0);
/// assert_eq!(s.points()[0].index, Some(0b01));
/// // The middle of its right side: corners 0b01 and 0b11, half each.
/// let s = name_points(&square, &pose, &[DVec2::new(11.0, 0.0)], &[1.0], 10.0);
/// let named: Vec<_> = s.points().iter().map(|p| (p.index, p.weight)).collect();
/// assert_eq!(named, [(Some(0b01), 0.5), (Some(0b11), 0.5)]);
/// ```
pub fn name_points<V: Vector>(
    vertices: &ShapeVertices<V>,
    pose: &Iso<V>,
    points: &[V],
    weights: &[V::Real],
    scale: V::Real,
) -> NamedSimplex<V> {
    let mut named = NamedSimplex::new();
    // The vertex as given, placed by the pose: the point the index names.
    let add_vertex = |named: &mut NamedSimplex<V>, i: usize, w: f64| {
        if let Some(v) = vertices.vertex(i) {
            named.add(Some(i), pose.transform_point(v), w);
        }
    };
    for (&p, &w) in points.iter().zip(weights) {
        let (local, w) = (pose.inverse_transform_point(p), w.to_f64());
        match vertices.matching(local, scale) {
            Some(i) => add_vertex(&mut named, i, w),
            None => match vertices.decompose(local).filter(|_| points.len() == 1) {
                Some(parts) => {
                    for (i, t) in parts {
                        add_vertex(&mut named, i, w * t);
                    }
                }
                None => named.add(None, p, w),
            },
        }
    }
    named
}

/// Both witness simplices of a distance run `d` with its witnesses `w` (from
/// [`distance_with_witnesses`](crate::distance_with_witnesses)) between shapes of vertices `va` and `vb` at the
/// poses `pose_a` and `pose_b` the run used, by [`name_points`] on each side with the same `scale`.
///
/// ```
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::{Cuboid, Segment};
/// use gjk::witness::{name_simplices, ShapeVertices};
/// let (cube, stick) = (Cuboid::new(DVec3::splat(1.0)).unwrap(), Segment::new(DVec3::ZERO, DVec3::Y).unwrap());
/// let (pa, pb) = (Iso::identity(), Iso::from_translation(DVec3::new(3.0, 0.5, 0.5)));
/// let (d, w) = gjk::distance_with_witnesses(&cube, &pa, &stick, &pb, &Default::default());
/// let va = ShapeVertices::Box(DVec3::splat(1.0));
/// let vb = ShapeVertices::Segment([DVec3::ZERO, DVec3::Y]);
/// let (sa, sb) = name_simplices(&d, &w, (&va, &pa), (&vb, &pb), 3.0);
/// // Each side's weighted points are its closest point.
/// let at = |s: &gjk::NamedSimplex<DVec3>| s.points().iter().map(|p| p.point * p.weight).sum::<DVec3>();
/// assert!((at(&sa) - d.point_a).length() < 1e-12 && (at(&sb) - d.point_b).length() < 1e-12);
/// assert!(sa.points().iter().all(|p| p.index.is_some()));
/// ```
pub fn name_simplices<V: Vector>(
    d: &Distance<V>,
    w: &Witnesses<V>,
    (va, pose_a): (&ShapeVertices<V>, &Iso<V>),
    (vb, pose_b): (&ShapeVertices<V>, &Iso<V>),
    scale: V::Real,
) -> (NamedSimplex<V>, NamedSimplex<V>) {
    let s = &d.simplex;
    let len = s.len.min(w.len).min(V::DIM + 1);
    (
        name_points(va, pose_a, &w.points_a[..len], &s.weights[..len], scale),
        name_points(vb, pose_b, &w.points_b[..len], &s.weights[..len], scale),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3};

    /// A few thousand points of the box [−h, h] (a small LCG: the same points every run), faces and corners
    /// included.
    fn points_in(h: DVec3, n: usize) -> Vec<DVec3> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|_| {
                DVec3::from_array(core::array::from_fn(|k| {
                    // One coordinate in four on a face: the points GJK's closed forms give.
                    let u = next();
                    let x = if u < 0.125 {
                        -1.0
                    } else if u < 0.25 {
                        1.0
                    } else {
                        2.0 * next() - 1.0
                    };
                    x * h[k]
                }))
            })
            .collect()
    }

    #[test]
    fn box_corner_i_has_bit_k_set_for_plus_half_extent_k() {
        let h = DVec3::new(1.0, 2.0, 3.0);
        let b = ShapeVertices::Box(h);
        assert_eq!(b.count(), 8);
        for i in 0..8 {
            let v = b.vertex(i).unwrap();
            for k in 0..3 {
                assert_eq!(v[k], if i & (1 << k) != 0 { h[k] } else { -h[k] }, "corner {i} axis {k}");
            }
            assert_eq!(b.matching(v, 0.0), Some(i));
        }
        assert_eq!(b.vertex(8), None);
        let square = ShapeVertices::Box(DVec2::new(1.0, 2.0));
        assert_eq!(square.count(), 4);
        assert_eq!(square.vertex(0b10), Some(DVec2::new(-1.0, 2.0)));
    }

    #[test]
    fn kuhn_decomposition_reproduces_the_point_with_convex_weights() {
        for h in [DVec3::new(1.0, 2.0, 3.0), DVec3::new(1e-9, 1.0, 1e5), DVec3::new(0.0, 1.0, 1.0)] {
            let b = ShapeVertices::Box(h);
            for p in points_in(h, 2000) {
                let parts = b.decompose(p).unwrap();
                assert!(parts.len() <= 4);
                assert!(parts.iter().all(|&(_, t)| t >= 0.0), "{p}: {parts:?}");
                let sum: f64 = parts.iter().map(|&(_, t)| t).sum();
                assert!((sum - 1.0).abs() <= 4.0 * f64::EPSILON, "{p}: weights sum to {sum}");
                let at: DVec3 = parts.iter().map(|&(i, t)| b.vertex(i).unwrap() * t).sum();
                for k in 0..3 {
                    assert!((at[k] - p[k]).abs() <= 8.0 * f64::EPSILON * h[k], "{p}: got {at}");
                }
            }
        }
    }

    #[test]
    fn segment_decomposition_is_the_two_ends() {
        let (a, b) = (DVec2::new(-1.0, 0.0), DVec2::new(3.0, 0.0));
        let s = ShapeVertices::Segment([a, b]);
        assert_eq!(s.decompose(DVec2::new(0.0, 0.0)), Some(vec![(0, 0.75), (1, 0.25)]));
        // A degenerate segment: all on its first end.
        let dot = ShapeVertices::Segment([a, a]);
        assert_eq!(dot.decompose(a), Some(vec![(0, 1.0), (1, 0.0)]));
        assert_eq!(ShapeVertices::List(vec![a, b]).decompose(a), None);
    }

    #[test]
    fn a_point_one_ulp_off_a_vertex_matches_one_1e_6_off_does_not() {
        let v = DVec3::new(0.3, -7.0, 1e4);
        let set = ShapeVertices::List(vec![DVec3::ZERO, v, DVec3::ONE]);
        assert_eq!(set.matching(v, 0.0), Some(1));
        let ulp = DVec3::new(v.x.next_up(), v.y.next_down(), v.z.next_up());
        assert_eq!(set.matching(ulp, 0.0), Some(1));
        assert_eq!(set.matching(v + DVec3::new(1e-6, 0.0, 0.0), 0.0), None);
        // A point placed far away and back carries the roundings of that scale: it matches within them.
        let far = 1e5;
        assert_eq!(set.matching(v + DVec3::new(1e-10, 0.0, 0.0), far), Some(1));
        assert_eq!(set.matching(v + DVec3::new(1e-6, 0.0, 0.0), far), None);
        assert_eq!(ShapeVertices::<DVec3>::None.matching(v, 0.0), None);
    }

    #[test]
    fn a_posed_shape_numbers_and_decomposes_as_its_inner_shape() {
        let pose = Iso::from_translation(DVec2::new(5.0, 5.0));
        let posed = ShapeVertices::Posed(Box::new(ShapeVertices::Box(DVec2::ONE)), pose);
        assert_eq!(posed.vertex(0b11), Some(DVec2::new(6.0, 6.0)));
        assert_eq!(posed.matching(DVec2::new(4.0, 6.0), 5.0), Some(0b10));
        assert_eq!(posed.decompose(DVec2::new(6.0, 5.0)), Some(vec![(0b00, 0.0), (0b01, 0.5), (0b11, 0.5)]));
    }

    #[test]
    fn named_points_merge_by_index_and_split_a_lone_box_point_only() {
        let b = ShapeVertices::Box(DVec2::ONE);
        let id = Iso::identity();
        // Two vertices of A − B on the same corner of A: one point, weights added.
        let corner = DVec2::new(1.0, 1.0);
        let s = name_points(&b, &id, &[corner, corner], &[0.25, 0.75], 0.0);
        assert_eq!(s.points(), [NamedPoint { index: Some(0b11), point: corner, weight: 1.0 }]);
        // Several points that are not corners keep no index (only a lone point is a closed form's).
        let mid = [DVec2::new(1.0, 0.0), DVec2::new(0.0, 1.0)];
        let s = name_points(&b, &id, &mid, &[0.5, 0.5], 0.0);
        assert!(s.points().iter().all(|p| p.index.is_none()));
        assert_eq!(s.points().len(), 2);
    }
}

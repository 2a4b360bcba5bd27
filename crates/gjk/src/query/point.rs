//! Point queries on any shape: the closest point and whether the point is inside.

use super::dispatch::{Kind, Shape};
use super::distance::point_shape;
use crate::bvh::point_box_distance_squared;
use crate::composite::{Composite, HalfSpace};
use crate::gjk;
use crate::math::{Iso, Real, Vector};
use crate::shape::SupportMap;

/// The answer of [`project_point`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection<V: Vector> {
    /// The point of the shape closest to the query point (the query point itself when inside).
    pub point: V,
    /// True when the query point is in the shape (on it, or inside a solid shape).
    pub inside: bool,
    /// Distance from the query point to `point`.
    pub distance: V::Real,
    /// The leaf holding `point` (for a point inside a solid mesh: the leaf nearest it); `None` for convex shapes and
    /// half-spaces.
    pub part: Option<u32>,
}

/// The point of `shape` (at `pose`) closest to `point`, and whether `point` is inside. Convex shapes go through GJK
/// against the point, composites through their tree (exact point–triangle projections for meshes); a point inside
/// a closed mesh is told by the pseudo-normal of its closest feature.
///
/// ```
/// use gjk::composite::TriMesh;
/// use gjk::math::{DVec2, Iso};
/// use gjk::query::project_point;
/// // A closed counter-clockwise square: a solid polygon.
/// let square = TriMesh::polyline(vec![DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y], true).unwrap();
/// assert!(square.is_solid());
/// let p = project_point(&square, &Iso::identity(), DVec2::new(0.5, 2.0));
/// assert!(!p.inside && p.point == DVec2::new(0.5, 1.0) && p.distance == 1.0);
/// assert!(project_point(&square, &Iso::identity(), DVec2::new(0.5, 0.4)).inside);
/// ```
pub fn project_point<V, S>(shape: &S, pose: &Iso<V>, point: V) -> Projection<V>
where
    V: Vector,
    S: Shape<V> + ?Sized,
{
    shape.visit(PointQuery { pose, point })
}

/// Whether `point` is in `shape` at `pose` (on its surface, or inside a solid shape).
pub fn contains_point<V, S>(shape: &S, pose: &Iso<V>, point: V) -> bool
where
    V: Vector,
    S: Shape<V> + ?Sized,
{
    project_point(shape, pose, point).inside
}

struct PointQuery<'p, V: Vector> {
    pose: &'p Iso<V>,
    point: V,
}

impl<V: Vector> Kind<V> for PointQuery<'_, V> {
    type Output = Projection<V>;

    fn convex<S: SupportMap<V> + ?Sized>(self, s: &S) -> Projection<V> {
        let d = gjk::distance(s, self.pose, &point_shape(), &Iso::from_translation(self.point));
        if d.intersecting {
            Projection { point: self.point, inside: true, distance: V::Real::ZERO, part: None }
        } else {
            Projection { point: d.point_a, inside: false, distance: d.distance, part: None }
        }
    }

    fn half_space(self, h: &HalfSpace<V>) -> Projection<V> {
        let n = self.pose.transform_vector(h.normal());
        let s = n.dot(self.point - self.pose.translation);
        if s <= V::Real::ZERO {
            Projection { point: self.point, inside: true, distance: V::Real::ZERO, part: None }
        } else {
            Projection { point: self.point - n * s, inside: false, distance: s, part: None }
        }
    }

    fn composite<C: Composite<V>>(self, c: &C) -> Projection<V> {
        let p = self.pose.inverse_transform_point(self.point);
        let mut best: Option<(V, u32, V::Real)> = None;
        c.bvh().closest_first(
            V::Real::INFINITY,
            |b| point_box_distance_squared(p, b),
            |id, bound| {
                let q = c.leaf_closest_point(id, p);
                let d = (q - p).length_squared();
                (d <= bound).then(|| {
                    best = Some((q, id, d));
                    d
                })
            },
        );
        let Some((q, id, d2)) = best else {
            return Projection { point: self.point, inside: false, distance: V::Real::INFINITY, part: None };
        };
        if d2 == V::Real::ZERO || (c.is_solid() && c.contains_local(p)) {
            return Projection { point: self.point, inside: true, distance: V::Real::ZERO, part: Some(id) };
        }
        Projection { point: self.pose.transform_point(q), inside: false, distance: d2.sqrt(), part: Some(id) }
    }
}

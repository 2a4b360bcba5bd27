//! Where the solver differs between 2D and 3D: each function here runs [`dim2`]'s or [`dim3`]'s version,
//! whichever dimension the vector type has ([`Vector::by_dimension`], static dispatch).

use super::{dim2, dim3, Solved};
use crate::math::{PerDimension, Vector, Vector2, Vector3};

/// Where the plane of triangle `abc` meets the perpendicular from the origin, and the two coordinate axes onto
/// which the triangle projects with the largest area (signed volumes, Montanari et al. 2017, §3.2).
#[inline]
pub(crate) fn triangle_projection<V: Vector>(a: V, b: V, c: V) -> (V, usize, usize) {
    struct Projection<V>(V, V, V);
    impl<V: Vector> PerDimension<V> for Projection<V> {
        type Output = (V, usize, usize);
        #[inline]
        fn in_2d(self) -> Self::Output
        where
            V: Vector2,
        {
            dim2::triangle_projection(self.0, self.1, self.2)
        }
        #[inline]
        fn in_3d(self) -> Self::Output
        where
            V: Vector3,
        {
            dim3::triangle_projection(self.0, self.1, self.2)
        }
    }
    V::by_dimension(Projection(a, b, c))
}

/// Closest point to the origin of a full-dimensional simplex (a triangle in 2D: the first three points; a
/// tetrahedron in 3D), with the projection onto the face holding it when that is a triangle (3D).
#[inline]
pub(crate) fn solve_full<V: Vector>(p: &[V; 4]) -> Solved<V> {
    struct Full<'p, V>(&'p [V; 4]);
    impl<V: Vector> PerDimension<V> for Full<'_, V> {
        type Output = Solved<V>;
        #[inline]
        fn in_2d(self) -> Self::Output
        where
            V: Vector2,
        {
            (dim2::solve_triangle_full(self.0[0], self.0[1], self.0[2]), None)
        }
        #[inline]
        fn in_3d(self) -> Self::Output
        where
            V: Vector3,
        {
            dim3::tetrahedron(self.0)
        }
    }
    V::by_dimension(Full(p))
}

/// Unit normal (either sign) of a facet given by DIM points — a segment in 2D, a triangle in 3D — computed from
/// the facet's edges, so it stays exact when the facet passes within rounding of the origin. `None` for another
/// count of points or a degenerate facet.
///
/// ```
/// use gjk::math::{DVec2, DVec3};
/// use gjk::simplex::facet_normal;
/// let n = facet_normal(&[DVec2::new(0.0, 1.0), DVec2::new(2.0, 1.0)]).unwrap();
/// assert_eq!(n.x, 0.0);
/// assert_eq!(n.y.abs(), 1.0);
/// let m = facet_normal(&[DVec3::X, DVec3::Y, DVec3::ZERO]).unwrap();
/// assert_eq!(m.z.abs(), 1.0);
/// assert!(facet_normal(&[DVec3::X, DVec3::Y]).is_none());
/// ```
#[inline]
pub fn facet_normal<V: Vector>(points: &[V]) -> Option<V> {
    struct Facet<'p, V>(&'p [V]);
    impl<V: Vector> PerDimension<V> for Facet<'_, V> {
        type Output = Option<V>;
        #[inline]
        fn in_2d(self) -> Self::Output
        where
            V: Vector2,
        {
            dim2::facet_normal(self.0)
        }
        #[inline]
        fn in_3d(self) -> Self::Output
        where
            V: Vector3,
        {
            dim3::facet_normal(self.0)
        }
    }
    V::by_dimension(Facet(points))
}

//! The one place EPA differs between 2D and 3D, the polytope it grows: [`expand`] runs [`dim2::expand`] (a
//! polygon) or [`dim3::expand`] (a triangulated polyhedron), whichever dimension the vector type has
//! ([`Vector::by_dimension`], static dispatch).

use super::{dim2, dim3, Expansion, Flat, Report};
use crate::gjk::DiffVertex;
use crate::math::{PerDimension, Vector, Vector2, Vector3};

/// EPA from GJK's final simplex `start`: see [`dim2::expand`] and [`dim3::expand`].
#[inline]
pub(crate) fn expand<V: Vector>(
    start: &[DiffVertex<V>],
    support: &mut dyn FnMut(V) -> DiffVertex<V>,
    max_iterations: u32,
    rel_tol: V::Real,
    report: Report<'_, V>,
    curved: bool,
) -> Result<Expansion<V>, Flat<V>> {
    struct Expand<'s, 'r, V: Vector> {
        start: &'s [DiffVertex<V>],
        support: &'s mut dyn FnMut(V) -> DiffVertex<V>,
        max_iterations: u32,
        rel_tol: V::Real,
        report: Report<'r, V>,
        curved: bool,
    }
    impl<V: Vector> PerDimension<V> for Expand<'_, '_, V> {
        type Output = Result<Expansion<V>, Flat<V>>;
        #[inline]
        fn in_2d(self) -> Self::Output
        where
            V: Vector2,
        {
            dim2::expand(self.start, self.support, self.max_iterations, self.rel_tol, self.report, self.curved)
        }
        #[inline]
        fn in_3d(self) -> Self::Output
        where
            V: Vector3,
        {
            dim3::expand(self.start, self.support, self.max_iterations, self.rel_tol, self.report, self.curved)
        }
    }
    V::by_dimension(Expand { start, support, max_iterations, rel_tol, report, curved })
}

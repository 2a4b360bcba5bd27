use super::{check_point, length_unscaled, Aabb, ShapeError, SupportMap};
use crate::math::Vector;

/// A single point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point<V> {
    /// Its position in the local frame.
    pub at: V,
}

impl<V: Vector> Point<V> {
    /// A point at `at`; errors on non-finite coordinates.
    pub fn new(at: V) -> Result<Self, ShapeError> {
        Ok(Self { at: check_point("point", at)? })
    }
}

impl<V: Vector> SupportMap<V> for Point<V> {
    #[inline]
    fn support(&self, _dir: V) -> V {
        self.at
    }
    fn center(&self) -> V {
        self.at
    }
    #[inline]
    fn point_core(&self) -> Option<V> {
        Some(self.at)
    }
    fn local_aabb(&self) -> Aabb<V> {
        Aabb::new(self.at, self.at)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        length_unscaled(self.at - from)
    }
}

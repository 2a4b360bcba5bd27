use super::{check_size, Feature, ShapeError, SupportMap};
use crate::math::Vector;

/// A shape grown by a margin: every point within `radius` of `shape` (a rounded box, a thick polygon). Kept as
/// core + radius, so queries run GJK on the core and add the radius exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Rounded<S, R> {
    /// The core shape.
    pub shape: S,
    /// The margin.
    pub radius: R,
}

impl<S, R: crate::math::Real> Rounded<S, R> {
    /// `shape` grown by `radius`; errors on a negative or non-finite radius.
    pub fn new(shape: S, radius: R) -> Result<Self, ShapeError> {
        Ok(Self { shape, radius: check_size("radius", radius)? })
    }
}

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for Rounded<S, V::Real> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.shape.support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.shape.support_hinted(dir, hint)
    }
    #[inline]
    fn radius(&self) -> V::Real {
        self.shape.radius() + self.radius
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        self.shape.polyhedral()
    }
    #[inline]
    fn fixed_edges(&self) -> bool {
        self.shape.fixed_edges()
    }
    fn center(&self) -> V {
        self.shape.center()
    }
    #[inline]
    fn point_core(&self) -> Option<V> {
        self.shape.point_core()
    }
    #[inline]
    fn segment_core(&self) -> Option<(V, V)> {
        self.shape.segment_core()
    }
    #[inline]
    fn polygon_cycle(&self) -> Option<&[V]> {
        self.shape.polygon_cycle()
    }
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        self.shape.support_feature(dir, out)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // The margin adds to the radius, not to the core.
        self.shape.farthest_core_distance(from)
    }
}

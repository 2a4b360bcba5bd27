use super::{Feature, SupportMap};
use crate::math::{Iso, Vector};

/// A shape placed at a pose inside another shape's frame (for compound descriptions such as a Minkowski sum of
/// posed parts). Queries take the top-level poses themselves; this wrapper is for poses nested inside a shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Posed<S, V: Vector> {
    /// The shape.
    pub shape: S,
    /// Where its local frame sits.
    pub pose: Iso<V>,
}

impl<S, V: Vector> Posed<S, V> {
    /// `shape` moved by `pose`.
    pub fn new(shape: S, pose: Iso<V>) -> Self {
        Self { shape, pose }
    }
}

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for Posed<S, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // Rotate the direction into the shape's frame, answer there, and carry the point back.
        self.pose.transform_point(self.shape.support(self.pose.inverse_transform_vector(dir)))
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.pose.transform_point(self.shape.support_hinted(self.pose.inverse_transform_vector(dir), hint))
    }
    #[inline]
    fn radius(&self) -> V::Real {
        self.shape.radius()
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
        self.pose.transform_point(self.shape.center())
    }
    #[inline]
    fn point_core(&self) -> Option<V> {
        self.shape.point_core().map(|p| self.pose.transform_point(p))
    }
    #[inline]
    fn segment_core(&self) -> Option<(V, V)> {
        self.shape.segment_core().map(|(a, b)| (self.pose.transform_point(a), self.pose.transform_point(b)))
    }
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        self.shape.support_feature(self.pose.inverse_transform_vector(dir), out);
        out.map(|p| self.pose.transform_point(p));
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        // The ray in the shape's frame meets it at the same t; its normal comes back rotated.
        let (o, d) = (self.pose.inverse_transform_point(o), self.pose.inverse_transform_vector(d));
        let hit = self.shape.ray_cast_local(o, d, max_toi, solid)?;
        Some(hit.map(|(t, n)| (t, self.pose.transform_vector(n))))
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // A rigid motion keeps distances: measure from `from` carried into the shape's frame.
        self.shape.farthest_core_distance(self.pose.inverse_transform_point(from))
    }
}

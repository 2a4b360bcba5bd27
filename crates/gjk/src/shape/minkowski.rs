use super::{core_box_reach, SupportMap};
use crate::math::{Real, Vector};

/// The Minkowski sum A ⊕ B = { a + b }: its support is the sum of the supports, and its radius the sum of the
/// radii (a segment ⊕ a ball is a capsule).
#[derive(Clone, Debug, PartialEq)]
pub struct MinkowskiSum<A, B> {
    /// First summand.
    pub a: A,
    /// Second summand.
    pub b: B,
}

impl<A, B> MinkowskiSum<A, B> {
    /// A ⊕ B.
    pub fn new(a: A, b: B) -> Self {
        Self { a, b }
    }
}

impl<V: Vector, A: SupportMap<V>, B: SupportMap<V>> SupportMap<V> for MinkowskiSum<A, B> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.a.support(dir) + self.b.support(dir)
    }
    #[inline]
    fn radius(&self) -> V::Real {
        self.a.radius() + self.b.radius()
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        // The sum of two polytopes is a polytope; a radius of either is carried apart, as the sum's radius.
        self.a.polyhedral() && self.b.polyhedral()
    }
    #[inline]
    fn fixed_edges(&self) -> bool {
        // A − B's edges are those of either part, swept along the other.
        self.a.fixed_edges() || self.b.fixed_edges()
    }
    fn center(&self) -> V {
        self.a.center() + self.b.center()
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // |a + b − from| ≤ |a − from| + |b| (a bound), or the bounding box's farthest corner if that is smaller.
        let sum = self.a.farthest_core_distance(from) + self.b.farthest_core_distance(V::zero());
        sum.min(core_box_reach(self, from))
    }
}

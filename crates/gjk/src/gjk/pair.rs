//! The Minkowski difference A − B of a pair, seen from A's local frame.

use crate::math::{Iso, Vector};
use crate::shape::SupportMap;

/// A point of A − B with the points of A and B that made it, and the direction that found it (kept so a warm
/// start can ask for the same support points again under new poses).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiffVertex<V> {
    /// w = a − b.
    pub w: V,
    /// The point of A (pair frame).
    pub a: V,
    /// The point of B (pair frame).
    pub b: V,
    /// The search direction that produced it.
    pub dir: V,
}

/// Two shapes in the pair-local frame: A at the identity, B at `rel`, the pose of B relative to A. Working here
/// rather than in the world keeps the numbers small when both shapes are far from the origin.
pub(crate) struct Pair<'s, V: Vector, A: ?Sized, B: ?Sized> {
    pub a: &'s A,
    pub b: &'s B,
    pub rel: Iso<V>,
    pub hint_a: u32,
    pub hint_b: u32,
}

impl<'s, V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized> Pair<'s, V, A, B> {
    /// The pair seen from A: B's pose relative to A's, hints fresh.
    pub fn new(a: &'s A, pose_a: &Iso<V>, b: &'s B, pose_b: &Iso<V>) -> Self {
        Self { a, b, rel: pose_a.relative(pose_b), hint_a: 0, hint_b: 0 }
    }

    /// s_{A−B}(d) = s_A(d) − s_B(−d), with B's support asked in B's own frame.
    #[inline]
    pub fn support(&mut self, dir: V) -> DiffVertex<V> {
        let a = self.a.support_hinted(dir, &mut self.hint_a);
        let b_local = self.b.support_hinted(self.rel.inverse_transform_vector(-dir), &mut self.hint_b);
        let b = self.rel.transform_point(b_local);
        DiffVertex { w: a - b, a, b, dir }
    }

    /// A − B's centre, from the shapes' centres: the first search direction points from it toward the origin.
    pub fn center(&self) -> V {
        self.a.center() - self.rel.transform_point(self.b.center())
    }

    /// The two radii (the queries run on the cores and account for these at the end).
    pub fn radii(&self) -> (V::Real, V::Real) {
        (self.a.radius(), self.b.radius())
    }
}

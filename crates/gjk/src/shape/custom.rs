use super::SupportMap;
use crate::math::{Real, Vector};

/// A shape given by a user's support function (a closure returning the farthest point along a direction), with
/// an optional rounding radius.
///
/// ```
/// use gjk::math::DVec2;
/// use gjk::shape::{SupportFn, SupportMap};
/// // The unit diamond |x| + |y| ≤ 1.
/// let diamond = SupportFn::new(|d: DVec2| {
///     if d.x.abs() >= d.y.abs() { DVec2::new(d.x.signum(), 0.0) } else { DVec2::new(0.0, d.y.signum()) }
/// });
/// assert_eq!(diamond.support(DVec2::new(0.3, 2.0)), DVec2::Y);
/// ```
pub struct SupportFn<F, R> {
    f: F,
    radius: R,
}

impl<F, R: Real> SupportFn<F, R> {
    /// A shape with support function `f` and no radius.
    pub fn new(f: F) -> Self {
        Self { f, radius: R::ZERO }
    }
    /// A shape with core support function `f` rounded by `radius`.
    pub fn rounded(f: F, radius: R) -> Self {
        Self { f, radius }
    }
}

impl<V: Vector, F: Fn(V) -> V> SupportMap<V> for SupportFn<F, V::Real> {
    #[inline]
    fn support(&self, dir: V) -> V {
        (self.f)(dir)
    }
    fn radius(&self) -> V::Real {
        self.radius
    }
}

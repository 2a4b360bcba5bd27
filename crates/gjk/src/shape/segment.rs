use super::{check_point, length_unscaled, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// The segment between two points (they may coincide).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<V> {
    /// First end.
    pub a: V,
    /// Second end.
    pub b: V,
}

impl<V: Vector> Segment<V> {
    /// The segment `ab`; errors on non-finite coordinates.
    pub fn new(a: V, b: V) -> Result<Self, ShapeError> {
        Ok(Self { a: check_point("segment end a", a)?, b: check_point("segment end b", b)? })
    }
}

impl<V: Vector> SupportMap<V> for Segment<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // Ties (dir perpendicular to the segment) go to `a`, deterministically.
        if dir.dot(self.b - self.a) > V::Real::ZERO {
            self.b
        } else {
            self.a
        }
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        true
    }
    fn center(&self) -> V {
        (self.a + self.b) * V::Real::HALF
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // The distance to a point is convex along the segment: largest at an end.
        length_unscaled(self.a - from).max(length_unscaled(self.b - from))
    }
    #[inline]
    fn segment_core(&self) -> Option<(V, V)> {
        Some((self.a, self.b))
    }
    fn support_feature(&self, _dir: V, out: &mut Feature<V>) {
        out.reset(0);
        out.push(self.a, 0);
        out.push(self.b, 1);
    }
}

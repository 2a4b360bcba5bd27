use super::{check_size, Aabb, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// A capsule (3D) or stadium (2D) along the local y axis: the segment from (0, −half_height) to
/// (0, +half_height) as its core, swept by a ball of `radius`. Capsule queries are segment queries plus a radius,
/// exact and without EPA.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule<R> {
    /// Half the length of the core segment.
    pub half_height: R,
    /// Radius around the segment.
    pub radius: R,
}

impl<R: Real> Capsule<R> {
    /// A capsule; errors on negative or non-finite sizes.
    pub fn new(half_height: R, radius: R) -> Result<Self, ShapeError> {
        Ok(Self { half_height: check_size("half_height", half_height)?, radius: check_size("radius", radius)? })
    }
}

impl<V: Vector> SupportMap<V> for Capsule<V::Real> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let h = if dir.get(1) < V::Real::ZERO { -self.half_height } else { self.half_height };
        V::axis(1) * h
    }
    #[inline]
    fn radius(&self) -> V::Real {
        self.radius
    }
    fn center(&self) -> V {
        V::zero()
    }
    fn support_feature(&self, _dir: V, out: &mut Feature<V>) {
        // The whole core segment: clipping keeps the end(s) within reach, so a capsule lying flat gives two contacts
        // and a standing one gives one.
        out.reset(0);
        out.push(V::axis(1) * -self.half_height, 0);
        out.push(V::axis(1) * self.half_height, 1);
    }
    fn local_aabb(&self) -> Aabb<V> {
        let h = V::axis(1) * self.half_height;
        Aabb::new(-h, h).loosened(self.radius)
    }
}

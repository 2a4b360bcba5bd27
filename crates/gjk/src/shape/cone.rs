use super::cylinder::rim;
use super::{check_size, length_unscaled, Aabb, ShapeError, SupportMap};
use crate::math::{Real, Vector3};

/// A 3D cone along the local y axis: apex at (0, +half_height, 0), base disc of `radius` at y = −half_height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone<R> {
    /// Half the height along y.
    pub half_height: R,
    /// Radius of the base.
    pub radius: R,
}

impl<R: Real> Cone<R> {
    /// A cone; errors on negative or non-finite sizes.
    pub fn new(half_height: R, radius: R) -> Result<Self, ShapeError> {
        Ok(Self { half_height: check_size("half_height", half_height)?, radius: check_size("radius", radius)? })
    }
}

impl<V: Vector3> SupportMap<V> for Cone<V::Real> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // The farthest point is the apex or a point of the base rim, whichever reaches further along dir.
        let apex = V::new3(V::Real::ZERO, self.half_height, V::Real::ZERO);
        let (x, z) = rim(dir, self.radius);
        let base = V::new3(x, -self.half_height, z);
        if apex.dot(dir) >= base.dot(dir) {
            apex
        } else {
            base
        }
    }
    fn center(&self) -> V {
        V::zero()
    }
    fn local_aabb(&self) -> Aabb<V> {
        let h = V::new3(self.radius, self.half_height, self.radius);
        Aabb::new(-h, h)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // The apex, or the point of the base rim opposite `from`'s radial offset.
        let zero = V::Real::ZERO;
        let apex = length_unscaled(from - V::new3(zero, self.half_height, zero));
        let radial = length_unscaled(V::new3(from.get(0), zero, from.get(2)));
        let rim = length_unscaled(V::new3(radial + self.radius, from.get(1) + self.half_height, zero));
        apex.max(rim)
    }
}

use super::{check_sizes, core_box_reach, length_unscaled, Aabb, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// An ellipse (2D) or ellipsoid (3D) centred on the origin with semi-axes `radii` along the local axes. Zero radii
/// are valid (a flat ellipse, a segment, a point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipsoid<V> {
    /// Semi-axis lengths.
    pub radii: V,
}

impl<V: Vector> Ellipsoid<V> {
    /// An ellipsoid; errors on negative or non-finite radii.
    pub fn new(radii: V) -> Result<Self, ShapeError> {
        Ok(Self { radii: check_sizes("radii", radii)? })
    }
}

impl<V: Vector> SupportMap<V> for Ellipsoid<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // The ellipsoid is the unit ball under D = diag(radii); its support is D·s_ball(D·dir) = D²dir / |D dir|.
        // Scaling dir by its largest component first keeps |D dir| from under- or overflowing.
        let m = dir.max_abs();
        if !(m > V::Real::ZERO) {
            return V::zero();
        }
        let dd = (dir * (V::Real::ONE / m)).mul_elem(self.radii);
        let len = dd.length();
        if len > V::Real::ZERO {
            dd.mul_elem(self.radii) * (V::Real::ONE / len)
        } else {
            V::zero()
        }
    }
    fn center(&self) -> V {
        V::zero()
    }
    fn local_aabb(&self) -> Aabb<V> {
        Aabb::new(-self.radii, self.radii)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // From the centre: the longest semi-axis. Elsewhere a bound: the centre's distance plus that, or the
        // bounding box's farthest corner, whichever is smaller.
        let longest = self.radii.abs_elem().max_abs();
        if from == V::zero() {
            return longest;
        }
        (length_unscaled(from) + longest).min(core_box_reach(self, from))
    }
}

use crate::math::{Iso, Real, Vector};

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb<V: Vector> {
    /// Lowest corner.
    pub min: V,
    /// Highest corner.
    pub max: V,
}

impl<V: Vector> Aabb<V> {
    /// The box between two corners.
    pub fn new(min: V, max: V) -> Self {
        Self { min, max }
    }
    /// Centre of the box.
    pub fn center(&self) -> V {
        (self.min + self.max) * V::Real::HALF
    }
    /// Half the size along each axis.
    pub fn half_extents(&self) -> V {
        (self.max - self.min) * V::Real::HALF
    }
    /// The box grown by `r` on every side.
    pub fn loosened(&self, r: V::Real) -> Self {
        let d = V::from_fn(|_| r);
        Self { min: self.min - d, max: self.max + d }
    }
    /// True when the two boxes overlap or touch.
    pub fn intersects(&self, other: &Self) -> bool {
        (0..V::DIM).all(|i| self.min.get(i) <= other.max.get(i) && other.min.get(i) <= self.max.get(i))
    }
    /// The smallest box containing both.
    pub fn merged(&self, other: &Self) -> Self {
        Self { min: self.min.min_elem(other.min), max: self.max.max_elem(other.max) }
    }
    /// A box containing this box after the motion `pose` (bounds the rotated box).
    pub fn transformed(&self, pose: &Iso<V>) -> Self {
        let c = pose.transform_point(self.center());
        let h = self.half_extents();
        // Each world axis i extends by Σ_j |R_ij| h_j: the rotated box's support along that axis.
        let ext = V::from_fn(|i| {
            (0..V::DIM).fold(V::Real::ZERO, |acc, j| acc + pose.transform_vector(V::axis(j)).get(i).abs() * h.get(j))
        });
        Self { min: c - ext, max: c + ext }
    }
    /// Length of the diagonal: the shape's scale, used to make tolerances relative.
    pub fn diameter(&self) -> V::Real {
        (self.max - self.min).length()
    }
}

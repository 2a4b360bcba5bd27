use super::ray_span::direction;
use super::{check_point, core_box_reach, length_unscaled, support_full, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// A shape scaled along its local axes by `scale` (non-uniform; a zero factor flattens it, a negative one
/// mirrors it).
///
/// A uniform scale keeps a rounded shape's core and radius; a non-uniform one turns a ball into an ellipsoid, so
/// the scaled shape is then treated as a whole, with no radius.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled<S, V> {
    /// The shape.
    pub shape: S,
    /// Factor per axis.
    pub scale: V,
    uniform: bool,
}

impl<S, V: Vector> Scaled<S, V> {
    /// `shape` scaled by `scale`; errors on non-finite factors.
    pub fn new(shape: S, scale: V) -> Result<Self, ShapeError> {
        check_point("scale", scale)?;
        let s0 = scale.get(0).abs();
        let uniform = (1..V::DIM).all(|i| scale.get(i).abs() == s0);
        Ok(Self { shape, scale, uniform })
    }
}

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for Scaled<S, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // For the linear map S = diag(scale): max over x of d·Sx = max over x of (S d)·x, reached at x = s(S d).
        let inner = dir.mul_elem(self.scale);
        let p = if self.uniform { self.shape.support(inner) } else { support_full(&self.shape, inner) };
        p.mul_elem(self.scale)
    }
    #[inline]
    fn radius(&self) -> V::Real {
        if self.uniform {
            self.shape.radius() * self.scale.get(0).abs()
        } else {
            V::Real::ZERO
        }
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        // A linear map keeps a polytope a polytope; a non-uniform one folds the radius into the core (a ball
        // becomes an ellipsoid), which is then curved.
        self.shape.polyhedral() && (self.uniform || self.shape.radius() == V::Real::ZERO)
    }
    #[inline]
    fn fixed_edges(&self) -> bool {
        // A linear map takes straight lines to straight lines, fixed ones to fixed ones.
        self.shape.fixed_edges()
    }
    fn center(&self) -> V {
        self.shape.center().mul_elem(self.scale)
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        // S x = o + t d  ⟺  x = S⁻¹o + t S⁻¹d: the same t on the inner shape (the whole of it, rounding included,
        // which is what S scales). Normals are covectors: S⁻¹n, renormalised. A zero factor has no S⁻¹.
        if (0..V::DIM).any(|i| self.scale.get(i) == V::Real::ZERO) {
            return None;
        }
        let inv = V::from_fn(|i| V::Real::ONE / self.scale.get(i));
        let hit = self.shape.ray_cast_local(o.mul_elem(inv), d.mul_elem(inv), max_toi, solid)?;
        Some(hit.map(|(t, n)| (t, direction(n.mul_elem(inv)))))
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // |S p − c| = |S (p − S⁻¹ c)| ≤ max |sᵢ| · |p − S⁻¹ c|, with equality for a uniform scale (S is then |s|
        // times a reflection); a non-uniform one scales the whole inner shape, rounding included. A zero factor has
        // no S⁻¹: the bounding box's farthest corner answers, as it also does when smaller.
        let largest = self.scale.abs_elem().max_abs();
        let boxed = core_box_reach(self, from);
        if (0..V::DIM).any(|i| self.scale.get(i) == V::Real::ZERO) {
            return if largest == V::Real::ZERO { length_unscaled(from) } else { boxed };
        }
        let inner_from = V::from_fn(|i| from.get(i) / self.scale.get(i));
        let inner = self.shape.farthest_core_distance(inner_from);
        if self.uniform {
            largest * inner
        } else {
            (largest * (inner + self.shape.radius())).min(boxed)
        }
    }
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        if self.uniform || self.shape.radius() == V::Real::ZERO {
            // A linear map sends faces to faces: the face supporting S·d, scaled.
            self.shape.support_feature(dir.mul_elem(self.scale), out);
            out.map(|p| p.mul_elem(self.scale));
        } else {
            out.single(self.support(dir), 0);
        }
    }
}

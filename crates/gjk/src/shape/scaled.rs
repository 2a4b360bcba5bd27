use super::{check_point, support_full, Feature, ShapeError, SupportMap};
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
    fn center(&self) -> V {
        self.shape.center().mul_elem(self.scale)
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

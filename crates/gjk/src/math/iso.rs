use super::{Rotation, Vector};

/// A rigid motion (rotation, then translation): where a shape sits in the world.
///
/// ```
/// use gjk::math::{DVec3, DQuat, Iso};
/// let pose = Iso::new(DQuat::from_rotation_z(core::f64::consts::FRAC_PI_2), DVec3::new(1.0, 0.0, 0.0));
/// let p = pose.transform_point(DVec3::X);
/// assert!((p - DVec3::new(1.0, 1.0, 0.0)).length() < 1e-12);
/// assert!((pose.inverse_transform_point(p) - DVec3::X).length() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iso<V: Vector> {
    /// Rotation about the shape's local origin.
    pub rotation: V::Rotation,
    /// Position of the shape's local origin in the world.
    pub translation: V,
}

impl<V: Vector> Default for Iso<V> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<V: Vector> Iso<V> {
    /// The identity pose.
    pub fn identity() -> Self {
        Self { rotation: V::Rotation::identity(), translation: V::zero() }
    }
    /// A pose from a rotation and a translation.
    pub fn new(rotation: V::Rotation, translation: V) -> Self {
        Self { rotation, translation }
    }
    /// A pure translation.
    pub fn from_translation(translation: V) -> Self {
        Self { rotation: V::Rotation::identity(), translation }
    }
    /// Local point to world.
    #[inline]
    pub fn transform_point(&self, p: V) -> V {
        self.rotation.rotate(p) + self.translation
    }
    /// Local direction to world.
    #[inline]
    pub fn transform_vector(&self, v: V) -> V {
        self.rotation.rotate(v)
    }
    /// World point to local.
    #[inline]
    pub fn inverse_transform_point(&self, p: V) -> V {
        self.rotation.inverse_rotate(p - self.translation)
    }
    /// World direction to local.
    #[inline]
    pub fn inverse_transform_vector(&self, v: V) -> V {
        self.rotation.inverse_rotate(v)
    }
    /// `self` after `other`.
    pub fn compose(&self, other: &Self) -> Self {
        Self { rotation: self.rotation.compose(&other.rotation), translation: self.transform_point(other.translation) }
    }
    /// The inverse motion.
    pub fn inverse(&self) -> Self {
        let rotation = self.rotation.inverse();
        Self { rotation, translation: -rotation.rotate(self.translation) }
    }
    /// The pose of `other` seen from the frame of `self`: `self⁻¹ ∘ other`.
    ///
    /// The translations are subtracted before rotating, so two poses far from the origin (1e6) but close to each
    /// other give a relative pose as accurate as two poses near the origin. This is the pair-local frame every
    /// query works in.
    ///
    /// Inlined so that the pose stays in registers for the query that reads it: returned through memory, an f64
    /// quaternion written as scalars and read back as vector pairs stalls on store forwarding (profiled at a third
    /// of a 3D f64 sphere intersection).
    #[inline]
    pub fn relative(&self, other: &Self) -> Self {
        Self {
            rotation: self.rotation.inverse().compose(&other.rotation),
            translation: self.rotation.inverse_rotate(other.translation - self.translation),
        }
    }
    /// True when every parameter is finite.
    pub fn is_finite(&self) -> bool {
        self.rotation.is_finite() && self.translation.is_finite()
    }
}

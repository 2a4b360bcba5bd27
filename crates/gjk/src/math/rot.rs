use core::fmt::Debug;

use super::{Real, Vector};

/// A rotation of the space of `V`: a unit quaternion in 3D, [`Rot2`] in 2D.
pub trait Rotation<V: Vector>: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// An angular velocity: radians per unit time about the world axis (a vector in 3D, a scalar in 2D).
    type Angular: Copy + Debug + Default + PartialEq + Send + Sync + 'static;
    /// No rotation.
    fn identity() -> Self;
    /// Rotates a vector.
    fn rotate(&self, v: V) -> V;
    /// Rotates a vector by the inverse rotation.
    fn inverse_rotate(&self, v: V) -> V;
    /// `self` after `other`: `(self * other).rotate(v) == self.rotate(other.rotate(v))`.
    fn compose(&self, other: &Self) -> Self;
    /// The inverse rotation.
    fn inverse(&self) -> Self;
    /// True when every parameter is finite.
    fn is_finite(&self) -> bool;
    /// Re-normalises a rotation whose parameters drifted (or were given) off unit length. Returns `None` for a
    /// zero or non-finite rotation.
    fn normalized(&self) -> Option<Self>;
    /// This rotation after turning for time `t` at the world-frame angular velocity `w`: exp(t·w) · self.
    fn integrate(&self, w: Self::Angular, t: V::Real) -> Self;
    /// The rate |w| in radians per unit time.
    fn angular_speed(w: Self::Angular) -> V::Real;
    /// True when every component of `w` is finite.
    fn angular_is_finite(w: Self::Angular) -> bool;
}

/// A 2D rotation stored as `(cos θ, sin θ)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rot2<R> {
    /// cos θ.
    pub cos: R,
    /// sin θ.
    pub sin: R,
}

impl<R: Real> Rot2<R> {
    /// The rotation by `angle` radians, counter-clockwise.
    pub fn from_angle(angle: R) -> Self {
        Self { cos: angle.cos(), sin: angle.sin() }
    }
}

macro_rules! impl_rot2 {
    ($v:ty, $r:ty) => {
        impl Rotation<$v> for Rot2<$r> {
            type Angular = $r;
            fn integrate(&self, w: $r, t: $r) -> Self {
                Rot2::from_angle(w * t).compose(self)
            }
            fn angular_speed(w: $r) -> $r {
                w.abs()
            }
            fn angular_is_finite(w: $r) -> bool {
                w.is_finite()
            }
            #[inline]
            fn identity() -> Self {
                Self { cos: 1.0, sin: 0.0 }
            }
            #[inline]
            fn rotate(&self, v: $v) -> $v {
                <$v>::new(self.cos * v.x - self.sin * v.y, self.sin * v.x + self.cos * v.y)
            }
            #[inline]
            fn inverse_rotate(&self, v: $v) -> $v {
                <$v>::new(self.cos * v.x + self.sin * v.y, -self.sin * v.x + self.cos * v.y)
            }
            #[inline]
            fn compose(&self, o: &Self) -> Self {
                Self { cos: self.cos * o.cos - self.sin * o.sin, sin: self.sin * o.cos + self.cos * o.sin }
            }
            #[inline]
            fn inverse(&self) -> Self {
                Self { cos: self.cos, sin: -self.sin }
            }
            #[inline]
            fn is_finite(&self) -> bool {
                self.cos.is_finite() && self.sin.is_finite()
            }
            fn normalized(&self) -> Option<Self> {
                let n2 = self.cos * self.cos + self.sin * self.sin;
                if n2.is_normal() {
                    let n = n2.sqrt();
                    return Some(Self { cos: self.cos / n, sin: self.sin / n });
                }
                // A squared length that under- or overflows (components of 1e-200 or 1e200): divided by the
                // largest component first.
                let m = self.cos.abs().max(self.sin.abs());
                if !(m > 0.0 && Rotation::<$v>::is_finite(self)) {
                    return None;
                }
                let (c, s) = (self.cos / m, self.sin / m);
                let n = (c * c + s * s).sqrt();
                Some(Self { cos: c / n, sin: s / n })
            }
        }
    };
}

macro_rules! impl_quat {
    ($v:ty, $q:ty) => {
        impl Rotation<$v> for $q {
            type Angular = $v;
            fn integrate(&self, w: $v, t: <$v as Vector>::Real) -> Self {
                let angle = w.length() * t;
                if angle == 0.0 {
                    return *self;
                }
                (<$q>::from_axis_angle(w.normalize(), angle) * *self).normalize()
            }
            fn angular_speed(w: $v) -> <$v as Vector>::Real {
                w.length()
            }
            fn angular_is_finite(w: $v) -> bool {
                w.is_finite()
            }
            #[inline]
            fn identity() -> Self {
                <$q>::IDENTITY
            }
            #[inline]
            fn rotate(&self, v: $v) -> $v {
                *self * v
            }
            #[inline]
            fn inverse_rotate(&self, v: $v) -> $v {
                self.conjugate() * v
            }
            #[inline]
            fn compose(&self, o: &Self) -> Self {
                *self * *o
            }
            #[inline]
            fn inverse(&self) -> Self {
                self.conjugate()
            }
            #[inline]
            fn is_finite(&self) -> bool {
                <$q>::is_finite(*self)
            }
            fn normalized(&self) -> Option<Self> {
                let n2 = self.length_squared();
                if n2.is_normal() {
                    return Some(*self / n2.sqrt());
                }
                // A squared length that under- or overflows (components of 1e-200 or 1e200): divided by the
                // largest component first.
                let m = self.x.abs().max(self.y.abs()).max(self.z.abs()).max(self.w.abs());
                if !(m > 0.0 && <$q>::is_finite(*self)) {
                    return None;
                }
                let q = *self / m;
                Some(q / q.length())
            }
        }
    };
}

impl_rot2!(glam::Vec2, f32);
impl_rot2!(glam::DVec2, f64);
impl_quat!(glam::Vec3, glam::Quat);
impl_quat!(glam::DVec3, glam::DQuat);

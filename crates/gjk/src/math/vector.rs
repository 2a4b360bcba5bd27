use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use super::rot::{Rot2, Rotation};
use super::Real;

/// A point or direction in 2D or 3D: the one abstraction every algorithm is written against.
///
/// Implemented for glam's `Vec2`, `Vec3` (f32) and `DVec2`, `DVec3` (f64). The few places where 2D and 3D
/// differ are written beside their algorithm (`simplex::dim2` and `dim3`, `epa::dim2` and `dim3`) and reached
/// through [`Vector::by_dimension`], so this trait knows coordinates only and names no algorithm.
pub trait Vector:
    Copy
    + Debug
    + Default
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<<Self as Vector>::Real, Output = Self>
    + AddAssign
    + SubAssign
{
    /// The scalar type.
    type Real: Real;
    /// The rotation type of this space (a unit quaternion in 3D, [`Rot2`] in 2D).
    type Rotation: Rotation<Self>;
    /// Number of coordinates.
    const DIM: usize;

    /// The zero vector.
    fn zero() -> Self;
    /// Builds a vector coordinate by coordinate.
    fn from_fn(f: impl FnMut(usize) -> Self::Real) -> Self;
    /// Coordinate `i` (`i < DIM`).
    fn get(self, i: usize) -> Self::Real;
    /// Dot product.
    fn dot(self, other: Self) -> Self::Real;

    /// Unit vector along axis `i`.
    #[inline]
    fn axis(i: usize) -> Self {
        Self::from_fn(|k| if k == i { Self::Real::ONE } else { Self::Real::ZERO })
    }
    /// Squared Euclidean length.
    #[inline]
    fn length_squared(self) -> Self::Real {
        self.dot(self)
    }
    /// Euclidean length.
    #[inline]
    fn length(self) -> Self::Real {
        self.dot(self).sqrt()
    }
    /// The vector with its squared length in the precision's range: `(self, |self|²)` when |self|² is a positive
    /// normal number, else `(m, |m|²)` with m = self / max|selfᵢ|, whose largest component is 1 (|m|² between 1 and
    /// DIM), or `(0, 0)` for a zero or non-finite vector.
    ///
    /// A cross product's squared length is the fourth power of the size: in f32 it overflows for edges past ~1e9
    /// and underflows below ~1e-10, where a normal, a projection or a normalisation computed from |n|² comes out 0.
    /// Whatever divides by |n|² takes it from here: m has n's direction, and in range the numbers are n's own, bit
    /// for bit.
    #[inline]
    fn in_square_range(self) -> (Self, Self::Real) {
        let len2 = self.length_squared();
        if len2 >= Self::Real::MIN_POSITIVE && len2.is_finite() {
            return (self, len2);
        }
        let big = self.max_abs();
        if !(big > Self::Real::ZERO && big.is_finite()) {
            return (Self::zero(), Self::Real::ZERO);
        }
        let m = self * (Self::Real::ONE / big);
        (m, m.length_squared())
    }
    /// Unit vector in the same direction, or zero for a zero (or non-finite) vector.
    ///
    /// A vector whose squared length leaves the precision's range (in f32: components past ~1e19, as the cross
    /// product of two 1e10 edges has, or below ~1e-19) is first scaled to a largest component of 1
    /// ([`Vector::in_square_range`]), so it still has a direction; elsewhere the result is |v|⁻¹ v as computed
    /// directly.
    #[inline]
    fn normalize_or_zero(self) -> Self {
        let (m, mm) = self.in_square_range();
        if mm > Self::Real::ZERO {
            m * (Self::Real::ONE / mm.sqrt())
        } else {
            Self::zero()
        }
    }
    /// Componentwise product.
    #[inline]
    fn mul_elem(self, other: Self) -> Self {
        Self::from_fn(|i| self.get(i) * other.get(i))
    }
    /// Componentwise minimum.
    #[inline]
    fn min_elem(self, other: Self) -> Self {
        Self::from_fn(|i| self.get(i).min(other.get(i)))
    }
    /// Componentwise maximum.
    #[inline]
    fn max_elem(self, other: Self) -> Self {
        Self::from_fn(|i| self.get(i).max(other.get(i)))
    }
    /// Componentwise absolute value.
    #[inline]
    fn abs_elem(self) -> Self {
        Self::from_fn(|i| self.get(i).abs())
    }
    /// Largest absolute coordinate (the infinity norm).
    #[inline]
    fn max_abs(self) -> Self::Real {
        (0..Self::DIM).fold(Self::Real::ZERO, |m, i| m.max(self.get(i).abs()))
    }
    /// True when every coordinate is finite.
    #[inline]
    fn is_finite(self) -> bool {
        (0..Self::DIM).all(|i| self.get(i).is_finite())
    }
    /// Converts to f64 coordinates (the first `DIM` entries are meaningful).
    #[inline]
    fn to_f64_array(self) -> [f64; 3] {
        let mut out = [0.0; 3];
        for (i, o) in out.iter_mut().enumerate().take(Self::DIM) {
            *o = self.get(i).to_f64();
        }
        out
    }
    /// Builds from f64 coordinates (reads the first `DIM` entries).
    #[inline]
    fn from_f64_slice(c: &[f64]) -> Self {
        Self::from_fn(|i| Self::Real::from_f64(c.get(i).copied().unwrap_or(0.0)))
    }

    /// Runs the 2D or the 3D half of `code`, whichever dimension this vector type has: [`PerDimension::in_2d`]
    /// for `Vec2` and `DVec2`, [`PerDimension::in_3d`] for `Vec3` and `DVec3`. Static dispatch: each vector type
    /// compiles to a direct call of its half.
    fn by_dimension<C: PerDimension<Self>>(code: C) -> C::Output;
}

/// Code with a 2D and a 3D version, run on a generic vector type by [`Vector::by_dimension`]: the way generic code
/// reaches [`Vector2`]- or [`Vector3`]-only geometry (a perpendicular, a cross product) without naming a dimension.
/// The value carries the arguments; each half sees them with the extra trait in scope.
///
/// ```
/// use gjk::math::{DVec2, DVec3, PerDimension, Vector, Vector2, Vector3};
///
/// /// Twice the signed area (2D) or the area vector (3D length) of the triangle 0, `u`, `v`, as a length.
/// struct Area<V>(V, V);
/// impl<V: Vector> PerDimension<V> for Area<V> {
///     type Output = V::Real;
///     fn in_2d(self) -> V::Real where V: Vector2 {
///         self.0.perp_dot(self.1)
///     }
///     fn in_3d(self) -> V::Real where V: Vector3 {
///         self.0.cross(self.1).length()
///     }
/// }
/// fn area<V: Vector>(u: V, v: V) -> V::Real {
///     V::by_dimension(Area(u, v))
/// }
/// assert_eq!(area(DVec2::new(2.0, 0.0), DVec2::new(0.0, 3.0)), 6.0);
/// assert_eq!(area(DVec3::new(2.0, 0.0, 0.0), DVec3::new(0.0, 0.0, 3.0)), 6.0);
/// ```
pub trait PerDimension<V: Vector> {
    /// What both halves return.
    type Output;
    /// The 2D version.
    fn in_2d(self) -> Self::Output
    where
        V: Vector2;
    /// The 3D version.
    fn in_3d(self) -> Self::Output
    where
        V: Vector3;
}

/// Operations that exist only in 2D.
pub trait Vector2: Vector {
    /// Builds `(x, y)`.
    fn new2(x: Self::Real, y: Self::Real) -> Self;
    /// The vector turned a quarter turn counter-clockwise: `(-y, x)`.
    fn perp(self) -> Self;
    /// The z component of the 3D cross product: `self.x * other.y - self.y * other.x`.
    fn perp_dot(self, other: Self) -> Self::Real;
}

/// Operations that exist only in 3D.
pub trait Vector3: Vector {
    /// Builds `(x, y, z)`.
    fn new3(x: Self::Real, y: Self::Real, z: Self::Real) -> Self;
    /// Cross product.
    fn cross(self, other: Self) -> Self;
}

macro_rules! impl_vector2 {
    ($v:ty, $r:ty) => {
        impl Vector for $v {
            type Real = $r;
            type Rotation = Rot2<$r>;
            const DIM: usize = 2;
            #[inline]
            fn zero() -> Self {
                <$v>::ZERO
            }
            #[inline]
            fn from_fn(mut f: impl FnMut(usize) -> $r) -> Self {
                <$v>::new(f(0), f(1))
            }
            #[inline]
            fn get(self, i: usize) -> $r {
                self[i]
            }
            #[inline]
            fn dot(self, other: Self) -> $r {
                <$v>::dot(self, other)
            }
            #[inline]
            fn by_dimension<C: PerDimension<Self>>(code: C) -> C::Output {
                code.in_2d()
            }
        }
        impl Vector2 for $v {
            #[inline]
            fn new2(x: $r, y: $r) -> Self {
                <$v>::new(x, y)
            }
            #[inline]
            fn perp(self) -> Self {
                <$v>::perp(self)
            }
            #[inline]
            fn perp_dot(self, other: Self) -> $r {
                <$v>::perp_dot(self, other)
            }
        }
    };
}

macro_rules! impl_vector3 {
    ($v:ty, $r:ty, $q:ty) => {
        impl Vector for $v {
            type Real = $r;
            type Rotation = $q;
            const DIM: usize = 3;
            #[inline]
            fn zero() -> Self {
                <$v>::ZERO
            }
            #[inline]
            fn from_fn(mut f: impl FnMut(usize) -> $r) -> Self {
                <$v>::new(f(0), f(1), f(2))
            }
            #[inline]
            fn get(self, i: usize) -> $r {
                self[i]
            }
            #[inline]
            fn dot(self, other: Self) -> $r {
                <$v>::dot(self, other)
            }
            #[inline]
            fn by_dimension<C: PerDimension<Self>>(code: C) -> C::Output {
                code.in_3d()
            }
        }
        impl Vector3 for $v {
            #[inline]
            fn new3(x: $r, y: $r, z: $r) -> Self {
                <$v>::new(x, y, z)
            }
            #[inline]
            fn cross(self, other: Self) -> Self {
                <$v>::cross(self, other)
            }
        }
    };
}

impl_vector2!(glam::Vec2, f32);
impl_vector2!(glam::DVec2, f64);
impl_vector3!(glam::Vec3, f32, glam::Quat);
impl_vector3!(glam::DVec3, f64, glam::DQuat);

use core::fmt::{Debug, Display};
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// A floating-point scalar: `f32` or `f64`.
///
/// The tolerances that the queries use are derived from [`Real::EPSILON`], so one algorithm serves both
/// precisions.
pub trait Real:
    Copy
    + Debug
    + Display
    + Default
    + PartialEq
    + PartialOrd
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// 0.5.
    const HALF: Self;
    /// 2.
    const TWO: Self;
    /// Machine epsilon (distance from 1 to the next representable number).
    const EPSILON: Self;
    /// Positive infinity.
    const INFINITY: Self;
    /// The smallest positive normal number: below it a product has lost digits to underflow.
    const MIN_POSITIVE: Self;
    /// Converts from f64 (rounding to nearest for f32).
    fn from_f64(x: f64) -> Self;
    /// Converts to f64 (exact).
    fn to_f64(self) -> f64;
    /// Square root.
    fn sqrt(self) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// Larger of two (the non-NaN one if one is NaN).
    fn max(self, other: Self) -> Self;
    /// Smaller of two (the non-NaN one if one is NaN).
    fn min(self, other: Self) -> Self;
    /// True unless NaN or infinite.
    fn is_finite(self) -> bool;
    /// Sine.
    fn sin(self) -> Self;
    /// Cosine.
    fn cos(self) -> Self;
    /// `self * a + b`, rounded once.
    fn mul_add(self, a: Self, b: Self) -> Self;
}

// The float functions that `core` lacks come from the platform with `std` and from `libm` without it (the macro's
// arguments name libm's functions for the type: `sqrt` or `sqrtf`, ...).
macro_rules! impl_real {
    ($t:ty, $sqrt:ident, $sin:ident, $cos:ident, $fma:ident) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const HALF: Self = 0.5;
            const TWO: Self = 2.0;
            const EPSILON: Self = <$t>::EPSILON;
            const INFINITY: Self = <$t>::INFINITY;
            const MIN_POSITIVE: Self = <$t>::MIN_POSITIVE;
            #[inline]
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn sqrt(self) -> Self {
                #[cfg(feature = "std")]
                return <$t>::sqrt(self);
                #[cfg(not(feature = "std"))]
                return libm::$sqrt(self);
            }
            #[inline]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline]
            fn max(self, other: Self) -> Self {
                <$t>::max(self, other)
            }
            #[inline]
            fn min(self, other: Self) -> Self {
                <$t>::min(self, other)
            }
            #[inline]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline]
            fn sin(self) -> Self {
                #[cfg(feature = "std")]
                return <$t>::sin(self);
                #[cfg(not(feature = "std"))]
                return libm::$sin(self);
            }
            #[inline]
            fn cos(self) -> Self {
                #[cfg(feature = "std")]
                return <$t>::cos(self);
                #[cfg(not(feature = "std"))]
                return libm::$cos(self);
            }
            #[inline]
            fn mul_add(self, a: Self, b: Self) -> Self {
                #[cfg(feature = "std")]
                return <$t>::mul_add(self, a, b);
                #[cfg(not(feature = "std"))]
                return libm::$fma(self, a, b);
            }
        }
    };
}

impl_real!(f32, sqrtf, sinf, cosf, fmaf);
impl_real!(f64, sqrt, sin, cos, fma);

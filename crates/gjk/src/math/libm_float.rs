//! The float methods that `core` lacks, from `libm`, for builds without `std`.
//!
//! With `std` (the default) this module is not compiled and `x.sqrt()` is the inherent method, so the default
//! build's code is unchanged. Without `std`, a file that calls one of these on an `f64` imports
//! [`LibmFloat`] under `#[cfg(not(feature = "std"))]`; method resolution then finds the trait's method because
//! no inherent one exists. `sqrt`, `floor` and `round` are exact in both (IEEE 754 correct rounding); the
//! transcendental functions may differ from the platform's in the last bit, and are the same bits on every target.

/// `f64` methods that need `std`, from `libm`.
pub(crate) trait LibmFloat {
    /// Square root (correctly rounded).
    fn sqrt(self) -> Self;
    /// Largest integer not above.
    fn floor(self) -> Self;
    /// Smallest integer not below.
    fn ceil(self) -> Self;
    /// Nearest integer, halves away from zero (as `f64::round`).
    fn round(self) -> Self;
    /// Integer power.
    fn powi(self, n: i32) -> Self;
    /// Base-2 logarithm.
    fn log2(self) -> Self;
    /// `sqrt(self² + other²)` without undue overflow.
    fn hypot(self, other: Self) -> Self;
    /// Arc cosine.
    fn acos(self) -> Self;
    /// Four-quadrant arc tangent of `self / other` (the serde model's 2D angles).
    #[cfg(feature = "serde")]
    fn atan2(self, other: Self) -> Self;
}

impl LibmFloat for f64 {
    #[inline]
    fn sqrt(self) -> Self {
        libm::sqrt(self)
    }
    #[inline]
    fn floor(self) -> Self {
        libm::floor(self)
    }
    #[inline]
    fn ceil(self) -> Self {
        libm::ceil(self)
    }
    #[inline]
    fn round(self) -> Self {
        libm::round(self)
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        libm::pow(self, f64::from(n))
    }
    #[inline]
    fn log2(self) -> Self {
        libm::log2(self)
    }
    #[inline]
    fn hypot(self, other: Self) -> Self {
        libm::hypot(self, other)
    }
    #[inline]
    fn acos(self) -> Self {
        libm::acos(self)
    }
    #[inline]
    #[cfg(feature = "serde")]
    fn atan2(self, other: Self) -> Self {
        libm::atan2(self, other)
    }
}

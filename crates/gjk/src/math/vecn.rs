//! [`VecN`]: a point or direction of ℝᴺ with N fixed at compile time, for the any-dimension queries of
//! [`crate::nd`]. A plain array of f64 with the few operations GJK needs; no rotation (poses past 3D are
//! translations).

use core::ops::{Add, AddAssign, Index, IndexMut, Mul, Neg, Sub, SubAssign};

/// A vector of ℝᴺ (f64 coordinates).
///
/// ```
/// use gjk::math::VecN;
/// let a = VecN([1.0, 2.0, 3.0, 4.0]);
/// let b = VecN::splat(1.0);
/// assert_eq!(a.dot(b), 10.0);
/// assert_eq!((a - b)[3], 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VecN<const N: usize>(pub [f64; N]);

impl<const N: usize> Default for VecN<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const N: usize> VecN<N> {
    /// The zero vector.
    pub const ZERO: Self = Self([0.0; N]);

    /// Every coordinate `x`.
    #[inline]
    pub fn splat(x: f64) -> Self {
        Self([x; N])
    }

    /// Unit vector along axis `i` (the zero vector when `i ≥ N`).
    #[inline]
    pub fn axis(i: usize) -> Self {
        let mut v = Self::ZERO;
        if i < N {
            v.0[i] = 1.0;
        }
        v
    }

    /// From a slice of exactly N coordinates (`None` for another length).
    pub fn from_slice(c: &[f64]) -> Option<Self> {
        <[f64; N]>::try_from(c).ok().map(Self)
    }

    /// Dot product.
    #[inline]
    pub fn dot(self, other: Self) -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            s += self.0[i] * other.0[i];
        }
        s
    }

    /// Squared Euclidean length.
    #[inline]
    pub fn length_squared(self) -> f64 {
        self.dot(self)
    }

    /// Euclidean length.
    #[inline]
    pub fn length(self) -> f64 {
        crate::math::Real::sqrt(self.dot(self))
    }

    /// Largest absolute coordinate (0 for N = 0).
    #[inline]
    pub fn max_abs(self) -> f64 {
        self.0.iter().fold(0.0, |m: f64, x| m.max(x.abs()))
    }

    /// True when every coordinate is finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }

    /// `self + other · s`, coordinate by coordinate.
    #[inline]
    pub fn add_scaled(self, other: Self, s: f64) -> Self {
        let mut out = self;
        for i in 0..N {
            out.0[i] += other.0[i] * s;
        }
        out
    }
}

impl<const N: usize> Index<usize> for VecN<N> {
    type Output = f64;
    #[inline]
    fn index(&self, i: usize) -> &f64 {
        &self.0[i]
    }
}

impl<const N: usize> IndexMut<usize> for VecN<N> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut f64 {
        &mut self.0[i]
    }
}

impl<const N: usize> Add for VecN<N> {
    type Output = Self;
    #[inline]
    fn add(mut self, o: Self) -> Self {
        self += o;
        self
    }
}

impl<const N: usize> AddAssign for VecN<N> {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        for i in 0..N {
            self.0[i] += o.0[i];
        }
    }
}

impl<const N: usize> Sub for VecN<N> {
    type Output = Self;
    #[inline]
    fn sub(mut self, o: Self) -> Self {
        self -= o;
        self
    }
}

impl<const N: usize> SubAssign for VecN<N> {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        for i in 0..N {
            self.0[i] -= o.0[i];
        }
    }
}

impl<const N: usize> Neg for VecN<N> {
    type Output = Self;
    #[inline]
    fn neg(mut self) -> Self {
        for x in &mut self.0 {
            *x = -*x;
        }
        self
    }
}

impl<const N: usize> Mul<f64> for VecN<N> {
    type Output = Self;
    #[inline]
    fn mul(mut self, s: f64) -> Self {
        for x in &mut self.0 {
            *x *= s;
        }
        self
    }
}

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use super::rot::{Rot2, Rotation};
use super::Real;
use crate::epa::{Expansion, Flat, Report};
use crate::gjk::DiffVertex;
use crate::simplex::{dim2, dim3, Barycentric};

/// A point or direction in 2D or 3D: the one abstraction every algorithm is written against.
///
/// Implemented for glam's `Vec2`, `Vec3` (f32) and `DVec2`, `DVec3` (f64). Dimension-specific geometry (the
/// few places where 2D and 3D differ) hides behind the hidden methods, whose implementations live in
/// `simplex::dim2` and `simplex::dim3`.
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
    /// Unit vector in the same direction, or zero for a zero (or non-finite) vector.
    #[inline]
    fn normalize_or_zero(self) -> Self {
        let len = self.length();
        if len > Self::Real::ZERO && len.is_finite() {
            self * (Self::Real::ONE / len)
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

    /// Where the plane of triangle `abc` meets the perpendicular from the origin, and the two coordinate axes
    /// onto which the triangle projects with the largest area (signed volumes, Montanari et al. 2017, §3.2).
    #[doc(hidden)]
    fn triangle_projection(a: Self, b: Self, c: Self) -> (Self, usize, usize);
    /// Closest point to the origin of a full-dimensional simplex (a triangle in 2D, a tetrahedron in 3D), with the
    /// projection onto the face holding it when that is a triangle (3D).
    #[doc(hidden)]
    fn solve_full_simplex(p: &[Self; 4]) -> (Barycentric<Self::Real>, Option<Self>);
    /// Unit normal (either sign) of a facet given by DIM points — a segment in 2D, a triangle in 3D — computed from
    /// the facet's edges, so it stays exact when the facet passes within rounding of the origin. `None` for another
    /// count of points or a degenerate facet.
    #[doc(hidden)]
    fn facet_normal(points: &[Self]) -> Option<Self>;
    /// EPA from GJK's final simplex (see `epa::dim2` and `epa::dim3`).
    #[doc(hidden)]
    fn expand_polytope(
        start: &[DiffVertex<Self>],
        support: &mut dyn FnMut(Self) -> DiffVertex<Self>,
        max_iterations: u32,
        rel_tol: Self::Real,
        report: Report<'_, Self>,
        curved: bool,
    ) -> Result<Expansion<Self>, Flat<Self>>;
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
            fn triangle_projection(_a: Self, _b: Self, _c: Self) -> (Self, usize, usize) {
                // In the plane the triangle's "plane" is the whole space: the origin projects onto itself.
                (<$v>::ZERO, 0, 1)
            }
            #[inline]
            fn solve_full_simplex(p: &[Self; 4]) -> (Barycentric<$r>, Option<Self>) {
                (dim2::solve_triangle_full(p[0], p[1], p[2]), None)
            }
            fn expand_polytope(
                start: &[DiffVertex<Self>],
                support: &mut dyn FnMut(Self) -> DiffVertex<Self>,
                max_iterations: u32,
                rel_tol: $r,
                report: Report<'_, Self>,
                curved: bool,
            ) -> Result<Expansion<Self>, Flat<Self>> {
                crate::epa::dim2::expand(start, support, max_iterations, rel_tol, report, curved)
            }
            fn facet_normal(points: &[Self]) -> Option<Self> {
                dim2::facet_normal(points)
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
            fn triangle_projection(a: Self, b: Self, c: Self) -> (Self, usize, usize) {
                dim3::triangle_projection(a, b, c)
            }
            #[inline]
            fn solve_full_simplex(p: &[Self; 4]) -> (Barycentric<$r>, Option<Self>) {
                dim3::tetrahedron(p)
            }
            fn expand_polytope(
                start: &[DiffVertex<Self>],
                support: &mut dyn FnMut(Self) -> DiffVertex<Self>,
                max_iterations: u32,
                rel_tol: $r,
                report: Report<'_, Self>,
                curved: bool,
            ) -> Result<Expansion<Self>, Flat<Self>> {
                crate::epa::dim3::expand(start, support, max_iterations, rel_tol, report, curved)
            }
            fn facet_normal(points: &[Self]) -> Option<Self> {
                dim3::facet_normal(points)
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

//! The four spaces a shape can live in (2D or 3D, float32 or float64) and what the bindings need to know about
//! each: how its shapes are stored, how its rotations are read from numpy rows. Everything else is generic over
//! [`Space`], so one binding serves all four.

use std::sync::Arc;

use gjk::math::{DQuat, DVec2, DVec3, Quat, Real, Rot2, Rotation, Vec2, Vec3, Vector};
use gjk::shape::SupportMap;
use numpy::Element;

/// A convex shape of space `V`, shared between Python objects and worker threads.
pub type Convex<V> = Arc<dyn SupportMap<V> + Send + Sync>;

/// A shape's geometry in its space. Composite shapes (triangle meshes, compounds, height fields) will be new
/// variants of a second enum level here (`Geom::F64D3(Body::Composite(..))`), dispatched to their own queries; the
/// convex queries below match on `Convex` only.
#[derive(Clone)]
pub enum Geom {
    F64D3(Convex<DVec3>),
    F64D2(Convex<DVec2>),
    F32D3(Convex<Vec3>),
    F32D2(Convex<Vec2>),
}

impl Geom {
    /// "3D float64", for messages.
    pub fn space_name(&self) -> &'static str {
        match self {
            Geom::F64D3(_) => DVec3::NAME,
            Geom::F64D2(_) => DVec2::NAME,
            Geom::F32D3(_) => Vec3::NAME,
            Geom::F32D2(_) => Vec2::NAME,
        }
    }
    pub fn dim(&self) -> usize {
        match self {
            Geom::F64D3(_) | Geom::F32D3(_) => 3,
            Geom::F64D2(_) | Geom::F32D2(_) => 2,
        }
    }
    pub fn dtype(&self) -> &'static str {
        match self {
            Geom::F64D3(_) | Geom::F64D2(_) => "float64",
            Geom::F32D3(_) | Geom::F32D2(_) => "float32",
        }
    }
}

/// Calls `$body` with `V` bound to the vector type of `$geom`'s space (a generic function call per space).
macro_rules! with_space {
    ($geom:expr, $v:ident => $body:expr) => {
        match $geom {
            $crate::space::Geom::F64D3(_) => {
                type $v = gjk::math::DVec3;
                $body
            }
            $crate::space::Geom::F64D2(_) => {
                type $v = gjk::math::DVec2;
                $body
            }
            $crate::space::Geom::F32D3(_) => {
                type $v = gjk::math::Vec3;
                $body
            }
            $crate::space::Geom::F32D2(_) => {
                type $v = gjk::math::Vec2;
                $body
            }
        }
    };
}
pub(crate) use with_space;

/// What the bindings need of a space.
pub trait Space: Vector<Real = <Self as Space>::Scalar> {
    /// The numpy element type of the space's arrays.
    type Scalar: Real + Element;
    /// "3D float64".
    const NAME: &'static str;
    /// How many numbers a rotation takes in a pose row: a quaternion (x, y, z, w) in 3D, an angle in 2D.
    const ROTATION_LEN: usize;
    /// How many numbers an angular velocity takes: a vector in 3D, a scalar in 2D.
    const ANGULAR_LEN: usize;
    /// Largest |RᵀR − I| entry (and |‖q‖ − 1| for a quaternion) accepted as a rotation.
    const ROTATION_TOLERANCE: f64;

    /// The shape of this space, or `None` if `geom` lives in another.
    fn convex(geom: &Geom) -> Option<&Convex<Self>>;
    /// Wraps a shape of this space.
    fn geom(shape: Convex<Self>) -> Geom;
    /// A rotation from a row-major DIM × DIM matrix already checked orthonormal with a positive determinant.
    fn rotation_from_matrix(m: &[f64]) -> Option<Self::Rotation>;
    /// A rotation from its pose-row numbers (quaternion x, y, z, w in 3D; angle in 2D), checked.
    fn rotation_from_row(r: &[f64]) -> Result<Self::Rotation, String>;
    /// An angular velocity from `ANGULAR_LEN` numbers.
    fn angular(w: &[f64]) -> gjk::cast::Angular<Self>;
}

/// Checks that `q` is a unit quaternion within `tolerance` (normalising it is left to `Rotation::normalized`).
fn check_unit_quaternion(q: &[f64], tolerance: f64) -> Result<(), String> {
    let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if !((norm - 1.0).abs() <= tolerance) {
        return Err(format!(
            "quaternion (x, y, z, w) = {q:?} is not a unit quaternion (norm {norm}, tolerance {tolerance})"
        ));
    }
    Ok(())
}

macro_rules! space3 {
    ($v:ty, $q:ty, $r:ty, $name:literal, $tol:expr, $geom:ident) => {
        impl Space for $v {
            type Scalar = $r;
            const NAME: &'static str = $name;
            const ROTATION_LEN: usize = 4;
            const ANGULAR_LEN: usize = 3;
            const ROTATION_TOLERANCE: f64 = $tol;
            fn convex(geom: &Geom) -> Option<&Convex<Self>> {
                match geom {
                    Geom::$geom(s) => Some(s),
                    _ => None,
                }
            }
            fn geom(shape: Convex<Self>) -> Geom {
                Geom::$geom(shape)
            }
            fn rotation_from_matrix(m: &[f64]) -> Option<$q> {
                let cols = glam::DMat3::from_cols_array(&[m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]);
                let q = glam::DQuat::from_mat3(&cols);
                let q = <$q>::from_xyzw(q.x as $r, q.y as $r, q.z as $r, q.w as $r);
                Rotation::<$v>::normalized(&q)
            }
            fn rotation_from_row(r: &[f64]) -> Result<$q, String> {
                check_unit_quaternion(r, Self::ROTATION_TOLERANCE)?;
                let q = <$q>::from_xyzw(r[0] as $r, r[1] as $r, r[2] as $r, r[3] as $r);
                Rotation::<$v>::normalized(&q).ok_or_else(|| "quaternion is zero".to_string())
            }
            fn angular(w: &[f64]) -> $v {
                <$v>::new(w[0] as $r, w[1] as $r, w[2] as $r)
            }
        }
    };
}

macro_rules! space2 {
    ($v:ty, $r:ty, $name:literal, $tol:expr, $geom:ident) => {
        impl Space for $v {
            type Scalar = $r;
            const NAME: &'static str = $name;
            const ROTATION_LEN: usize = 1;
            const ANGULAR_LEN: usize = 1;
            const ROTATION_TOLERANCE: f64 = $tol;
            fn convex(geom: &Geom) -> Option<&Convex<Self>> {
                match geom {
                    Geom::$geom(s) => Some(s),
                    _ => None,
                }
            }
            fn geom(shape: Convex<Self>) -> Geom {
                Geom::$geom(shape)
            }
            fn rotation_from_matrix(m: &[f64]) -> Option<Rot2<$r>> {
                // [[cos, −sin], [sin, cos]]: the mean of the two readings of each, then normalised.
                let r = Rot2 { cos: (0.5 * (m[0] + m[3])) as $r, sin: (0.5 * (m[2] - m[1])) as $r };
                Rotation::<$v>::normalized(&r)
            }
            fn rotation_from_row(r: &[f64]) -> Result<Rot2<$r>, String> {
                Ok(Rot2::from_angle(r[0] as $r))
            }
            fn angular(w: &[f64]) -> $r {
                w[0] as $r
            }
        }
    };
}

space3!(DVec3, DQuat, f64, "3D float64", 1e-6, F64D3);
space3!(Vec3, Quat, f32, "3D float32", 1e-5, F32D3);
space2!(DVec2, f64, "2D float64", 1e-6, F64D2);
space2!(Vec2, f32, "2D float32", 1e-5, F32D2);

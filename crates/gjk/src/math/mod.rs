//! Scalar and vector abstraction: the algorithms are written once over [`Vector`], which glam's
//! `Vec2`, `Vec3` (f32) and `DVec2`, `DVec3` (f64) implement. This is the only module that names glam types.

mod interop_glam;
#[cfg(feature = "mint")]
mod interop_mint;
#[cfg(feature = "nalgebra")]
pub mod interop_nalgebra;
mod iso;
#[cfg(not(feature = "std"))]
pub(crate) mod libm_float;
mod real;
mod rot;
mod vecn;
mod vector;

pub use interop_glam::NotRigid;
pub use iso::Iso;
pub use real::Real;
pub use rot::{Rot2, Rotation};
pub use vecn::VecN;
pub use vector::{PerDimension, Vector, Vector2, Vector3};

/// 2D f32 vector.
pub type Vec2 = glam::Vec2;
/// 3D f32 vector.
pub type Vec3 = glam::Vec3;
/// 2D f64 vector.
pub type DVec2 = glam::DVec2;
/// 3D f64 vector.
pub type DVec3 = glam::DVec3;
/// 3D f32 rotation.
pub type Quat = glam::Quat;
/// 3D f64 rotation.
pub type DQuat = glam::DQuat;
/// 3D f32 affine transform (a pose converts from it when it is rigid: `Iso::try_from`).
pub type Affine3A = glam::Affine3A;
/// 3D f64 affine transform.
pub type DAffine3 = glam::DAffine3;
/// 2D f32 affine transform.
pub type Affine2 = glam::Affine2;
/// 2D f64 affine transform.
pub type DAffine2 = glam::DAffine2;

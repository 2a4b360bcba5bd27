//! Poses from glam's affine transforms (`Affine3A`, `DAffine3`, `Affine2`, `DAffine2`) — what Bevy's
//! `GlobalTransform::affine()` and most glam code hold.
//!
//! An affine map may scale or shear; a pose may not. The conversion takes the rotation from the linear part
//! (its columns must be orthonormal to within `1e-4` in f32 and `1e-10` in f64, and its determinant positive) and
//! refuses anything else with [`NotRigid`]: scale a shape with [`crate::shape::Scaled`] instead.
//!
//! ```
//! use gjk::math::{DAffine3, DQuat, DVec3, Iso};
//! let affine = DAffine3::from_rotation_translation(DQuat::from_rotation_y(0.3), DVec3::new(1.0, 2.0, 3.0));
//! let pose = Iso::try_from(affine).unwrap();
//! assert!((pose.transform_point(DVec3::X) - affine.transform_point3(DVec3::X)).length() < 1e-12);
//! assert!(Iso::<DVec3>::try_from(DAffine3::from_scale(DVec3::splat(2.0))).is_err());
//! ```

use super::{Iso, Rot2};

/// The affine transform is not a rigid motion (it scales, shears or mirrors, or is not finite).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotRigid;

impl core::fmt::Display for NotRigid {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the affine transform scales, shears or mirrors: it is not a rigid motion")
    }
}

impl core::error::Error for NotRigid {}

macro_rules! affine3 {
    ($affine:ty, $mat:ty, $quat:ty, $vec:ty, $tol:expr) => {
        impl TryFrom<$affine> for Iso<$vec> {
            type Error = NotRigid;
            fn try_from(a: $affine) -> Result<Self, NotRigid> {
                let m = <$mat>::from(a.matrix3);
                let t = <$vec>::from(a.translation);
                let gram = m.transpose() * m - <$mat>::IDENTITY;
                let off = gram.to_cols_array().iter().fold(0.0, |e: f64, x| e.max(f64::from(x.abs())));
                if !(off <= $tol) || !(m.determinant() > 0.0) || !t.is_finite() {
                    return Err(NotRigid);
                }
                Ok(Iso::new(<$quat>::from_mat3(&m).normalize(), t))
            }
        }
    };
}

affine3!(glam::Affine3A, glam::Mat3, glam::Quat, glam::Vec3, 1e-4);
affine3!(glam::DAffine3, glam::DMat3, glam::DQuat, glam::DVec3, 1e-10);

macro_rules! affine2 {
    ($affine:ty, $mat:ty, $vec:ty, $real:ty, $tol:expr) => {
        impl TryFrom<$affine> for Iso<$vec> {
            type Error = NotRigid;
            fn try_from(a: $affine) -> Result<Self, NotRigid> {
                let m = a.matrix2;
                let gram = m.transpose() * m - <$mat>::IDENTITY;
                let off = gram.to_cols_array().iter().fold(0.0, |e: f64, x| e.max(f64::from(x.abs())));
                if !(off <= $tol) || !(m.determinant() > 0.0) || !a.translation.is_finite() {
                    return Err(NotRigid);
                }
                // The first column is (cos θ, sin θ); renormalised so the rotation is exactly unit.
                let c = m.x_axis.normalize();
                Ok(Iso::new(Rot2::<$real> { cos: c.x, sin: c.y }, a.translation))
            }
        }
    };
}

affine2!(glam::Affine2, glam::Mat2, glam::Vec2, f32, 1e-4);
affine2!(glam::DAffine2, glam::DMat2, glam::DVec2, f64, 1e-10);

impl From<Iso<glam::DVec3>> for glam::DAffine3 {
    fn from(p: Iso<glam::DVec3>) -> Self {
        glam::DAffine3::from_rotation_translation(p.rotation, p.translation)
    }
}

impl From<Iso<glam::Vec3>> for glam::Affine3A {
    fn from(p: Iso<glam::Vec3>) -> Self {
        glam::Affine3A::from_rotation_translation(p.rotation, p.translation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Affine2, Affine3A, DAffine2, DAffine3, DQuat, DVec2, DVec3, Vec2, Vec3};

    #[test]
    fn rigid_affines_become_the_same_motion() {
        let q = DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.2, 2.5);
        let t = DVec3::new(1e4, -2.0, 0.5);
        let a = DAffine3::from_rotation_translation(q, t);
        let p = Iso::try_from(a).unwrap();
        for v in [DVec3::X, DVec3::new(0.3, -0.4, 2.0)] {
            assert!((p.transform_point(v) - a.transform_point3(v)).length() < 1e-11);
        }
        assert_eq!(DAffine3::from(p).translation, t);
        let a32 = Affine3A::from_rotation_translation(q.as_quat(), t.as_vec3());
        let p32 = Iso::try_from(a32).unwrap();
        assert!((p32.transform_point(Vec3::Y) - a32.transform_point3(Vec3::Y)).length() < 1e-2);
        let _ = Affine3A::from(p32);
        let a2 = DAffine2::from_angle_translation(2.9, DVec2::new(-3.0, 4.0));
        let p2 = Iso::try_from(a2).unwrap();
        assert!((p2.transform_point(DVec2::X) - a2.transform_point2(DVec2::X)).length() < 1e-12);
        let a2f = Affine2::from_angle_translation(-0.7, Vec2::new(1.0, 2.0));
        let p2f = Iso::try_from(a2f).unwrap();
        assert!((p2f.transform_point(Vec2::Y) - a2f.transform_point2(Vec2::Y)).length() < 1e-5);
    }

    #[test]
    fn scaled_sheared_mirrored_or_nan_affines_are_refused() {
        assert_eq!(Iso::<DVec3>::try_from(DAffine3::from_scale(DVec3::new(1.0, 1.0, 1.001))), Err(NotRigid));
        assert_eq!(Iso::<DVec3>::try_from(DAffine3::from_scale(DVec3::new(1.0, 1.0, -1.0))), Err(NotRigid));
        let shear = DAffine3::from_cols(DVec3::X, DVec3::new(0.1, 1.0, 0.0), DVec3::Z, DVec3::ZERO);
        assert_eq!(Iso::<DVec3>::try_from(shear), Err(NotRigid));
        assert_eq!(Iso::<DVec3>::try_from(DAffine3::from_translation(DVec3::NAN)), Err(NotRigid));
        assert_eq!(Iso::<DVec2>::try_from(DAffine2::from_scale(DVec2::new(-1.0, 1.0))), Err(NotRigid));
        assert_eq!(Iso::<Vec2>::try_from(Affine2::from_scale(Vec2::splat(3.0))), Err(NotRigid));
    }
}

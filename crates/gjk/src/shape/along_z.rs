//! Capsules, cylinders and cones along z, as robotics formats (URDF, FCL, coal, MuJoCo) define them.
//!
//! The shapes themselves keep one axis, local y, so that each has one support function and one exact ray path;
//! [`AlongZ::along_z`] wraps one in a [`Posed`] whose rotation (a quarter turn about x) carries local y onto z.
//! Every query sees through `Posed` (ray casts keep their exact paths), so a z-axis capsule answers exactly like
//! the y-axis one turned by hand.
//!
//! ```
//! use gjk::math::{DVec3, Iso};
//! use gjk::shape::{AlongZ, Capsule, SupportMap};
//! let upright = Capsule::new(1.0, 0.25).unwrap().along_z();
//! // The core's top is at z = +1.
//! assert!((upright.support(DVec3::Z) - DVec3::new(0.0, 0.0, 1.0)).length() < 1e-15);
//! let ball = gjk::shape::Ball::new(0.5).unwrap();
//! let d = gjk::distance(&upright, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(0.0, 0.0, 3.0)));
//! assert!((d.distance - 1.25).abs() < 1e-12);
//! ```

use super::{Capsule, Cone, Cylinder, Posed};
use crate::math::{DQuat, DVec3, Iso, Quat, Vec3, Vector};

/// A y-axis shape (capsule, cylinder, cone: the apex of a cone goes to +z) turned onto the z axis.
pub trait AlongZ: Sized {
    /// The 3D vector type of the shape's precision.
    type V: Vector;
    /// The same shape with its axis along local z (a [`Posed`] wrapper: a quarter turn about x).
    fn along_z(self) -> Posed<Self, Self::V>;
}

macro_rules! along_z {
    ($shape:ident, $r:ty, $v:ty, $q:ty) => {
        impl AlongZ for $shape<$r> {
            type V = $v;
            fn along_z(self) -> Posed<Self, $v> {
                let s = core::f64::consts::FRAC_1_SQRT_2 as $r;
                Posed::new(self, Iso::new(<$q>::from_xyzw(s, 0.0, 0.0, s), <$v>::ZERO))
            }
        }
    };
}

along_z!(Capsule, f64, DVec3, DQuat);
along_z!(Capsule, f32, Vec3, Quat);
along_z!(Cylinder, f64, DVec3, DQuat);
along_z!(Cylinder, f32, Vec3, Quat);
along_z!(Cone, f64, DVec3, DQuat);
along_z!(Cone, f32, Vec3, Quat);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{DVec3, Vec3};
    use crate::shape::SupportMap;

    #[test]
    fn z_axis_shapes_are_the_y_axis_ones_turned() {
        let cyl = Cylinder::new(2.0, 0.5).unwrap();
        let z = cyl.along_z();
        for d in [DVec3::Z, -DVec3::Z, DVec3::X, DVec3::new(0.3, -0.2, 0.9)] {
            // The quarter turn about x: world (x, y, z) is local (x, z, −y), local (x, y, z) is world (x, −z, y).
            let local = <Cylinder<f64> as SupportMap<DVec3>>::support(&cyl, DVec3::new(d.x, d.z, -d.y));
            let want = DVec3::new(local.x, -local.z, local.y);
            assert!((z.support(d) - want).length() < 1e-15, "{d}");
        }
        let cone = Cone::new(1.0f32, 0.5).unwrap().along_z();
        assert!((cone.support(Vec3::Z) - Vec3::Z).length() < 1e-6, "the apex goes to +z");
        let cap = Capsule::new(1.0f32, 0.1).unwrap().along_z();
        assert!((cap.support(-Vec3::Z) + Vec3::Z).length() < 1e-6);
    }
}

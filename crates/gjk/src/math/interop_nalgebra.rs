//! Conversions from and to `nalgebra` (feature `nalgebra`), for robotics code built on it. The orphan rule keeps
//! `From` impls between two foreign crates' types (glam's and nalgebra's vectors) out of reach, so those are
//! functions; poses are ours, so `Iso::from(isometry)` works for nalgebra's isometries in f32 and f64, 2D and 3D.

use super::{DQuat, DVec2, DVec3, Iso, Rot2};

/// nalgebra 3-vector → glam.
pub fn vec3_from_na(v: &nalgebra::Vector3<f64>) -> DVec3 {
    DVec3::new(v.x, v.y, v.z)
}

/// glam → nalgebra 3-vector.
pub fn vec3_to_na(v: DVec3) -> nalgebra::Vector3<f64> {
    nalgebra::Vector3::new(v.x, v.y, v.z)
}

/// nalgebra 2-vector → glam.
pub fn vec2_from_na(v: &nalgebra::Vector2<f64>) -> DVec2 {
    DVec2::new(v.x, v.y)
}

/// nalgebra 3D isometry → pose.
pub fn iso3_from_na(iso: &nalgebra::Isometry3<f64>) -> Iso<DVec3> {
    let q = iso.rotation.quaternion();
    Iso::new(DQuat::from_xyzw(q.i, q.j, q.k, q.w), vec3_from_na(&iso.translation.vector))
}

/// nalgebra 2D isometry → pose.
pub fn iso2_from_na(iso: &nalgebra::Isometry2<f64>) -> Iso<DVec2> {
    let r = iso.rotation;
    Iso::new(Rot2 { cos: r.re, sin: r.im }, vec2_from_na(&iso.translation.vector))
}

macro_rules! iso_from_na {
    ($r:ty, $v2:ty, $v3:ty, $q:ty) => {
        impl From<nalgebra::Isometry3<$r>> for Iso<$v3> {
            fn from(iso: nalgebra::Isometry3<$r>) -> Self {
                let (q, t) = (iso.rotation.quaternion(), iso.translation.vector);
                Iso::new(<$q>::from_xyzw(q.i, q.j, q.k, q.w), <$v3>::new(t.x, t.y, t.z))
            }
        }
        impl From<nalgebra::Isometry2<$r>> for Iso<$v2> {
            fn from(iso: nalgebra::Isometry2<$r>) -> Self {
                let t = iso.translation.vector;
                Iso::new(Rot2 { cos: iso.rotation.re, sin: iso.rotation.im }, <$v2>::new(t.x, t.y))
            }
        }
    };
}

iso_from_na!(f64, DVec2, DVec3, DQuat);
iso_from_na!(f32, glam::Vec2, glam::Vec3, glam::Quat);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nalgebra_isometry_rotates_like_ours() {
        let iso =
            nalgebra::Isometry3::new(nalgebra::Vector3::new(1.0, 2.0, 3.0), nalgebra::Vector3::new(0.1, 0.2, 0.3));
        let ours = iso3_from_na(&iso);
        let p = nalgebra::Point3::new(0.5, -0.7, 0.9);
        let theirs = iso * p;
        let mine = ours.transform_point(DVec3::new(0.5, -0.7, 0.9));
        assert!((mine - DVec3::new(theirs.x, theirs.y, theirs.z)).length() < 1e-12);
        let iso2 = nalgebra::Isometry2::new(nalgebra::Vector2::new(1.0, 2.0), 0.7);
        let q = iso2 * nalgebra::Point2::new(0.3, 0.4);
        let m = iso2_from_na(&iso2).transform_point(DVec2::new(0.3, 0.4));
        assert!((m - DVec2::new(q.x, q.y)).length() < 1e-12);
        assert_eq!(Iso::from(iso), ours);
        assert_eq!(Iso::from(iso2), iso2_from_na(&iso2));
        // f32: the same motion to f32 rounding.
        let iso32: nalgebra::Isometry3<f32> = iso.cast();
        let p32 = Iso::<glam::Vec3>::from(iso32).transform_point(glam::Vec3::new(0.5, -0.7, 0.9));
        assert!((p32.as_dvec3() - DVec3::new(theirs.x, theirs.y, theirs.z)).length() < 1e-5);
        let q32 = Iso::<glam::Vec2>::from(iso2.cast::<f32>()).transform_point(glam::Vec2::new(0.3, 0.4));
        assert!((q32.as_dvec2() - DVec2::new(q.x, q.y)).length() < 1e-5);
    }
}

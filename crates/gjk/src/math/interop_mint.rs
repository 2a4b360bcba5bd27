//! Conversions from `mint` types (feature `mint`), the interchange format most Rust math crates speak. glam's
//! vectors and quaternions already convert with `From`/`Into`; these build poses.

use super::{DQuat, DVec2, DVec3, Iso, Quat, Rot2, Vec2, Vec3};

macro_rules! iso3_from_mint {
    ($v:ty, $q:ty, $r:ty) => {
        impl Iso<$v> {
            /// A 3D pose from a mint translation and a mint quaternion (normalised).
            pub fn from_mint(translation: mint::Vector3<$r>, rotation: mint::Quaternion<$r>) -> Self {
                Iso::new(<$q>::from(rotation).normalize(), <$v>::from(translation))
            }
        }
    };
}

macro_rules! iso2_from_mint {
    ($v:ty, $r:ty) => {
        impl Iso<$v> {
            /// A 2D pose from a mint translation and an angle in radians.
            pub fn from_mint(translation: mint::Vector2<$r>, angle: $r) -> Self {
                Iso::new(Rot2::from_angle(angle), <$v>::from(translation))
            }
        }
    };
}

iso3_from_mint!(DVec3, DQuat, f64);
iso3_from_mint!(Vec3, Quat, f32);
iso2_from_mint!(DVec2, f64);
iso2_from_mint!(Vec2, f32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mint_pose_matches_glam_pose() {
        let t = mint::Vector3 { x: 1.0, y: 2.0, z: 3.0 };
        let q = mint::Quaternion { v: mint::Vector3 { x: 0.0, y: 0.0, z: 0.0 }, s: 2.0 };
        let pose = Iso::<DVec3>::from_mint(t, q);
        assert_eq!(pose, Iso::new(DQuat::IDENTITY, DVec3::new(1.0, 2.0, 3.0)));
    }
}

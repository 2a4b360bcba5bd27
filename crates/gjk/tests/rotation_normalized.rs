//! `Rotation::normalized` on rotations whose squared length under- or overflows: a quaternion written as
//! [0, 0, 1e-200, 1e-200] or [0, 0, 1e200, 1e200] is a valid rotation (a quarter turn about z) that the CLI once
//! refused as "zero" (1e-400 underflows to 0) or turned into NaN (1e400 overflows).

use gjk::math::{DQuat, DVec2, DVec3, Quat, Rot2, Rotation, Vec3};

#[test]
fn tiny_and_huge_quaternions_normalise_to_the_same_rotation() {
    let unit = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
    for scale in [1e-200, 1e-300, 5e-324, 1e200, 1e300, f64::MAX] {
        let q = DQuat::from_xyzw(0.0, 0.0, scale, scale);
        let n = Rotation::<DVec3>::normalized(&q).unwrap_or_else(|| panic!("{scale:e} refused"));
        assert!((n.length() - 1.0).abs() < 1e-15, "{scale:e}: {n:?}");
        assert!(n.abs_diff_eq(unit, 1e-15), "{scale:e}: {n:?}");
    }
    let q = Quat::from_xyzw(1e-30, 0.0, 0.0, 1e-30);
    assert!((Rotation::<Vec3>::normalized(&q).unwrap().length() - 1.0).abs() < 1e-6);
}

#[test]
fn zero_and_non_finite_rotations_are_refused() {
    assert!(Rotation::<DVec3>::normalized(&DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0)).is_none());
    assert!(Rotation::<DVec3>::normalized(&DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0)).is_none());
    assert!(Rotation::<DVec3>::normalized(&DQuat::from_xyzw(f64::INFINITY, 0.0, 0.0, 1.0)).is_none());
    assert!(Rotation::<DVec2>::normalized(&Rot2 { cos: 0.0, sin: 0.0 }).is_none());
}

#[test]
fn tiny_2d_rotations_normalise() {
    let r = Rotation::<DVec2>::normalized(&Rot2 { cos: 3e-200, sin: 4e-200 }).unwrap();
    assert!((r.cos - 0.6).abs() < 1e-15 && (r.sin - 0.8).abs() < 1e-15, "{r:?}");
}

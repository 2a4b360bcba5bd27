//! Invalid constructions return the typed `ShapeError` naming what is wrong (never a panic), and degenerate but
//! valid shapes measure correctly: each one in a distance query against a box with an answer known by hand.

use gjk::math::{DQuat, DVec2, DVec3, Iso, Vec3};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Frustum, Point, Rounded, Scaled, Segment,
    ShapeError, SupportMap, Triangle,
};
use std::f64::consts::FRAC_PI_2;

/// Values that are not finite.
const NON_FINITE: [f64; 3] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];

/// Asserts `NonFinite` naming a parameter for which `name_ok` holds.
#[track_caller]
fn assert_non_finite<T: std::fmt::Debug>(r: Result<T, ShapeError>, name_ok: impl Fn(&str) -> bool) {
    match r {
        Err(ShapeError::NonFinite(name)) => {
            assert!(name_ok(name), "NonFinite names {name:?}");
            let msg = ShapeError::NonFinite(name).to_string();
            assert!(msg.contains(name), "message {msg:?} does not name {name:?}");
        }
        other => panic!("expected NonFinite, got {other:?}"),
    }
}

/// Asserts `Negative(name)`.
#[track_caller]
fn assert_negative<T: std::fmt::Debug>(r: Result<T, ShapeError>, name: &str) {
    match r {
        Err(ShapeError::Negative(n)) => assert_eq!(n, name),
        other => panic!("expected Negative({name:?}), got {other:?}"),
    }
}

/// Asserts `Invalid(_)` with an explanation.
#[track_caller]
fn assert_invalid<T: std::fmt::Debug>(r: Result<T, ShapeError>) {
    match r {
        Err(ShapeError::Invalid(why)) => assert!(!why.is_empty()),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

/// A vector with `bad` in coordinate `i`.
fn poisoned(v: DVec3, i: usize, bad: f64) -> DVec3 {
    let mut v = v;
    v[i] = bad;
    v
}

// -------------------------------------------------------------------------------------------------------------
// Non-finite sizes and points.

#[test]
fn ball_with_non_finite_radius() {
    for bad in NON_FINITE {
        assert_non_finite(Ball::new(bad), |n| n == "radius");
        assert_non_finite(Ball::new(bad as f32), |n| n == "radius");
    }
}

#[test]
fn cuboid_with_non_finite_half_extent() {
    for bad in NON_FINITE {
        for i in 0..3 {
            assert_non_finite(Cuboid::new(poisoned(DVec3::ONE, i, bad)), |n| n == "half_extents");
            assert_non_finite(Cuboid::new(poisoned(DVec3::ONE, i, bad).as_vec3()), |n| n == "half_extents");
        }
        assert_non_finite(Cuboid::new(DVec2::new(1.0, bad)), |n| n == "half_extents");
    }
}

#[test]
fn capsule_with_non_finite_half_height_or_radius() {
    for bad in NON_FINITE {
        assert_non_finite(Capsule::new(bad, 1.0), |n| n == "half_height");
        assert_non_finite(Capsule::new(1.0, bad), |n| n == "radius");
    }
}

#[test]
fn cylinder_with_non_finite_half_height_or_radius() {
    for bad in NON_FINITE {
        assert_non_finite(Cylinder::new(bad, 1.0), |n| n == "half_height");
        assert_non_finite(Cylinder::new(1.0, bad), |n| n == "radius");
    }
}

#[test]
fn cone_with_non_finite_half_height_or_radius() {
    for bad in NON_FINITE {
        assert_non_finite(Cone::new(bad, 1.0), |n| n == "half_height");
        assert_non_finite(Cone::new(1.0, bad), |n| n == "radius");
    }
}

#[test]
fn ellipsoid_with_non_finite_radius() {
    for bad in NON_FINITE {
        for i in 0..3 {
            assert_non_finite(Ellipsoid::new(poisoned(DVec3::ONE, i, bad)), |n| n == "radii");
        }
        assert_non_finite(Ellipsoid::new(DVec2::new(bad, 1.0)), |n| n == "radii");
    }
}

#[test]
fn convex_polytope_with_a_non_finite_point() {
    let good = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    for bad in NON_FINITE {
        for (k, i) in [(0, 0), (2, 1), (3, 2)] {
            let mut pts = good.to_vec();
            pts[k] = poisoned(pts[k], i, bad);
            assert_non_finite(ConvexPolytope::new(&pts), |n| n.contains("point"));
        }
        assert_non_finite(ConvexPolytope::new(&[DVec2::ZERO, DVec2::new(bad, 0.0)]), |n| n.contains("point"));
    }
}

#[test]
fn segment_with_a_non_finite_end() {
    for bad in NON_FINITE {
        assert_non_finite(Segment::new(poisoned(DVec3::ZERO, 1, bad), DVec3::X), |n| n.ends_with('a'));
        assert_non_finite(Segment::new(DVec3::ZERO, poisoned(DVec3::X, 2, bad)), |n| n.ends_with('b'));
        assert_non_finite(Segment::new(DVec2::ZERO, DVec2::new(0.0, bad)), |n| n.ends_with('b'));
    }
}

#[test]
fn triangle_with_a_non_finite_corner() {
    for bad in NON_FINITE {
        let (a, b, c) = (DVec3::ZERO, DVec3::X, DVec3::Y);
        assert_non_finite(Triangle::new(poisoned(a, 0, bad), b, c), |n| n.ends_with('a'));
        assert_non_finite(Triangle::new(a, poisoned(b, 1, bad), c), |n| n.ends_with('b'));
        assert_non_finite(Triangle::new(a, b, poisoned(c, 2, bad)), |n| n.ends_with('c'));
    }
}

#[test]
fn point_with_a_non_finite_coordinate() {
    for bad in NON_FINITE {
        for i in 0..3 {
            assert_non_finite(Point::new(poisoned(DVec3::ZERO, i, bad)), |n| n == "point");
        }
        assert_non_finite(Point::new(Vec3::new(0.0, bad as f32, 0.0)), |n| n == "point");
    }
}

#[test]
fn rounded_with_non_finite_radius() {
    for bad in NON_FINITE {
        assert_non_finite(Rounded::new(Cuboid::new(DVec3::ONE).unwrap(), bad), |n| n == "radius");
    }
}

#[test]
fn scaled_with_a_non_finite_factor() {
    for bad in NON_FINITE {
        for i in 0..3 {
            let cube = Cuboid::new(DVec3::ONE).unwrap();
            assert_non_finite(Scaled::new(cube, poisoned(DVec3::ONE, i, bad)), |n| n == "scale");
        }
    }
}

#[test]
fn perspective_frustum_with_non_finite_parameters() {
    for bad in NON_FINITE {
        assert_non_finite(Frustum::<DVec3>::perspective(bad, 1.0, 0.1, 10.0), |n| n == "fov_y");
        assert_non_finite(Frustum::<DVec3>::perspective(1.0, bad, 0.1, 10.0), |n| n == "aspect");
        assert_non_finite(Frustum::<DVec3>::perspective(1.0, 1.0, bad, 10.0), |n| n == "near");
        assert_non_finite(Frustum::<DVec3>::perspective(1.0, 1.0, 0.1, bad), |n| n == "far");
    }
}

/// `ShapeError::NonFinite` is documented as the error for "a coordinate or size [that] is NaN or infinite", so an
/// orthographic frustum with a NaN or infinite bound must report it as such, whichever bound it is.
#[test]
fn orthographic_frustum_with_non_finite_bounds() {
    for bad in NON_FINITE {
        for i in 0..6 {
            let mut p = [-1.0, 1.0, -1.0, 1.0, 0.1, 10.0];
            p[i] = bad;
            let r = Frustum::<DVec3>::orthographic(p[0], p[1], p[2], p[3], p[4], p[5]);
            assert!(matches!(r, Err(ShapeError::NonFinite(_))), "bound {i} = {bad}: got {r:?}");
        }
    }
}

#[test]
fn frustum_from_corners_with_a_non_finite_corner() {
    let mut corners = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    corners[2].y = f64::NAN;
    assert_non_finite(Frustum::from_corners(&corners), |n| n.contains("point"));
}

// -------------------------------------------------------------------------------------------------------------
// Negative sizes, empty sets, impossible parameters.

#[test]
fn ball_with_negative_radius() {
    assert_negative(Ball::new(-1e-300), "radius");
    assert_negative(Ball::new(-1.0f32), "radius");
}

#[test]
fn cuboid_with_negative_half_extent() {
    for i in 0..3 {
        assert_negative(Cuboid::new(poisoned(DVec3::ONE, i, -0.5)), "half_extents");
    }
    assert_negative(Cuboid::new(DVec2::new(-1.0, 1.0)), "half_extents");
}

#[test]
fn capsule_with_negative_half_height_or_radius() {
    assert_negative(Capsule::new(-1.0, 0.5), "half_height");
    assert_negative(Capsule::new(1.0, -0.5), "radius");
}

#[test]
fn cylinder_with_negative_half_height_or_radius() {
    assert_negative(Cylinder::new(-1.0, 0.5), "half_height");
    assert_negative(Cylinder::new(1.0, -0.5), "radius");
}

#[test]
fn cone_with_negative_half_height_or_radius() {
    assert_negative(Cone::new(-1.0, 0.5), "half_height");
    assert_negative(Cone::new(1.0, -0.5), "radius");
}

#[test]
fn ellipsoid_with_negative_radius() {
    assert_negative(Ellipsoid::new(DVec3::new(1.0, -1.0, 1.0)), "radii");
}

#[test]
fn rounded_with_negative_radius() {
    assert_negative(Rounded::new(Cuboid::new(DVec3::ONE).unwrap(), -0.1), "radius");
    assert_negative(Rounded::new(Ball::new(1.0).unwrap(), -1e-9), "radius");
}

#[test]
fn frustum_with_negative_parameters() {
    assert_negative(Frustum::<DVec3>::perspective(-1.0, 1.0, 0.1, 10.0), "fov_y");
    assert_negative(Frustum::<DVec3>::perspective(1.0, -1.0, 0.1, 10.0), "aspect");
    assert_negative(Frustum::<DVec3>::perspective(1.0, 1.0, -0.1, 10.0), "near");
}

#[test]
fn convex_polytope_of_no_points() {
    assert_eq!(ConvexPolytope::<DVec3>::new(&[]), Err(ShapeError::Empty));
    assert_eq!(ConvexPolytope::<DVec2>::new(&[]), Err(ShapeError::Empty));
    assert_eq!(Frustum::<DVec3>::from_corners(&[]).err(), Some(ShapeError::Empty));
}

#[test]
fn frustum_with_near_beyond_far() {
    assert_invalid(Frustum::<DVec3>::perspective(1.0, 1.0, 10.0, 1.0));
    assert_invalid(Frustum::<DVec3>::orthographic(-1.0, 1.0, -1.0, 1.0, 10.0, 1.0));
}

#[test]
fn frustum_with_inverted_sides_or_a_field_of_view_of_pi() {
    assert_invalid(Frustum::<DVec3>::orthographic(1.0, -1.0, -1.0, 1.0, 0.1, 1.0));
    assert_invalid(Frustum::<DVec3>::orthographic(-1.0, 1.0, 1.0, -1.0, 0.1, 1.0));
    assert_invalid(Frustum::<DVec3>::perspective(std::f64::consts::PI, 1.0, 0.1, 1.0));
}

#[test]
fn frustum_from_planes_that_do_not_meet() {
    // Left and bottom planes parallel: the corners do not exist.
    let planes = [
        (DVec3::NEG_X, 1.0),
        (DVec3::X, 1.0),
        (DVec3::NEG_X, 1.0),
        (DVec3::Y, 1.0),
        (DVec3::Z, -0.1),
        (DVec3::NEG_Z, 10.0),
    ];
    assert_invalid(Frustum::from_planes(&planes));
}

// -------------------------------------------------------------------------------------------------------------
// Degenerate but valid shapes, against the box [−0.5, 0.5]³ at the origin.

fn unit_box() -> Cuboid<DVec3> {
    Cuboid::new(DVec3::splat(0.5)).unwrap()
}

/// Asserts the distance from `shape` at `pose` to the unit box, to 1e-12 (all answers here are exact in binary
/// up to a few roundings), and that the witness on the box is on its surface.
#[track_caller]
fn assert_distance_to_box<S: SupportMap<DVec3>>(shape: &S, pose: Iso<DVec3>, want: f64) {
    let d = gjk::distance(&unit_box(), &Iso::identity(), shape, &pose);
    assert!(d.distance.is_finite() && d.point_a.is_finite() && d.point_b.is_finite(), "{d:?}");
    assert!((d.distance - want).abs() <= 1e-12, "distance {} want {want}: {d:?}", d.distance);
    if want > 0.0 {
        assert!(!d.intersecting);
        assert!((d.point_a.abs().max_element() - 0.5).abs() <= 1e-12, "point_a {:?} not on the box", d.point_a);
        assert!(((d.point_b - d.point_a) - d.normal * d.distance).length() <= 1e-12);
    } else {
        assert!(d.intersecting);
    }
    // The boolean query agrees, both ways round.
    assert_eq!(gjk::intersects(shape, &pose, &unit_box(), &Iso::identity()), want == 0.0);
}

fn at(x: f64, y: f64, z: f64) -> Iso<DVec3> {
    Iso::from_translation(DVec3::new(x, y, z))
}

#[test]
fn zero_radius_ball_is_a_point() {
    let ball = Ball::new(0.0).unwrap();
    assert_distance_to_box(&ball, at(2.0, 0.1, -0.2), 1.5);
    assert_distance_to_box(&ball, at(1.5, 1.5, 0.0), 2f64.sqrt());
    assert_distance_to_box(&ball, at(0.2, 0.1, 0.0), 0.0);
}

#[test]
fn zero_half_extent_box_is_a_point_or_a_flat_box() {
    assert_distance_to_box(&Cuboid::new(DVec3::ZERO).unwrap(), at(0.0, 3.0, 0.25), 2.5);
    // Flat 2×2 square at y = 1.5, tilted about y (stays flat in its plane).
    let flat = Cuboid::new(DVec3::new(1.0, 0.0, 1.0)).unwrap();
    assert_distance_to_box(&flat, Iso::new(DQuat::from_rotation_y(0.7), DVec3::new(0.0, 1.5, 0.0)), 1.0);
    // A zero-size box touching the box's corner.
    assert_distance_to_box(&Cuboid::new(DVec3::ZERO).unwrap(), at(0.5, 0.5, 0.5), 0.0);
}

#[test]
fn capsule_with_zero_half_height_is_a_ball() {
    let capsule = Capsule::new(0.0, 0.25).unwrap();
    assert_distance_to_box(&capsule, Iso::new(DQuat::from_rotation_x(1.0), DVec3::new(0.0, 0.0, 2.0)), 1.25);
}

#[test]
fn capsule_with_zero_radius_is_a_segment() {
    // Lying along x at height 2: its core segment is 1.5 above the box's top face.
    let capsule = Capsule::new(3.0, 0.0).unwrap();
    assert_distance_to_box(&capsule, Iso::new(DQuat::from_rotation_z(FRAC_PI_2), DVec3::new(0.0, 2.0, 0.0)), 1.5);
}

#[test]
fn cylinder_and_cone_with_zero_radius_are_segments() {
    // Standing on the y axis, bottom end 0.75 above the box.
    assert_distance_to_box(&Cylinder::new(1.0, 0.0).unwrap(), at(0.1, 2.25, 0.0), 0.75);
    assert_distance_to_box(&Cone::new(1.0, 0.0).unwrap(), at(0.1, 2.25, 0.0), 0.75);
    // A flat cylinder (zero half height) is a disc: radius 1 at y = 1, lying over the box.
    assert_distance_to_box(&Cylinder::new(0.0, 1.0).unwrap(), at(0.3, 1.0, 0.0), 0.5);
}

#[test]
fn ellipsoid_with_zero_radii_is_a_point_or_a_segment() {
    assert_distance_to_box(&Ellipsoid::new(DVec3::ZERO).unwrap(), at(0.0, 0.0, -4.0), 3.5);
    // A segment along x of half length 2 at y = 1.
    assert_distance_to_box(&Ellipsoid::new(DVec3::new(2.0, 0.0, 0.0)).unwrap(), at(0.0, 1.0, 0.0), 0.5);
}

#[test]
fn convex_polytope_of_a_single_point() {
    let single = ConvexPolytope::new(&[DVec3::new(1.0, 1.0, 1.0)]).unwrap();
    // Nearest box point is the corner (0.5, 0.5, 0.5).
    assert_distance_to_box(&single, Iso::identity(), 0.5 * 3f64.sqrt());
}

#[test]
fn convex_polytope_of_collinear_points() {
    let pts: Vec<DVec3> = [-3.0, 1.0, -0.5, 2.0, 0.0].iter().map(|&x| DVec3::new(x, 0.0, 0.0)).collect();
    let line = ConvexPolytope::new(&pts).unwrap();
    assert_distance_to_box(&line, at(0.0, 2.0, 0.3), 1.5);
    // Along the x axis through the box.
    assert_distance_to_box(&line, at(0.0, 0.2, 0.3), 0.0);
}

#[test]
fn convex_polytope_of_coplanar_points() {
    let pts = [
        DVec3::new(-0.3, 0.0, -0.3),
        DVec3::new(0.3, 0.0, -0.3),
        DVec3::new(0.3, 0.0, 0.3),
        DVec3::new(-0.3, 0.0, 0.3),
        DVec3::new(0.0, 0.0, 0.1),
    ];
    let flat = ConvexPolytope::new(&pts).unwrap();
    assert_distance_to_box(&flat, at(0.2, 1.5, -0.1), 1.0);
    // Standing upright beside the box (rotated into the xy plane), 0.25 from its +x face.
    assert_distance_to_box(&flat, Iso::new(DQuat::from_rotation_z(FRAC_PI_2), DVec3::new(0.75, 0.0, 0.0)), 0.25);
}

#[test]
fn convex_polytope_with_duplicated_points() {
    let p = [
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(3.0, 0.0, 0.0),
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(2.5, 1.0, 0.0),
        DVec3::new(3.0, 0.0, 0.0),
        DVec3::new(2.5, 0.5, 1.0),
        DVec3::new(2.5, 0.5, 1.0),
    ];
    assert_distance_to_box(&ConvexPolytope::new(&p).unwrap(), Iso::identity(), 1.5);
}

#[test]
fn segment_with_equal_ends_is_a_point() {
    let p = DVec3::new(0.0, 0.0, 4.0);
    assert_distance_to_box(&Segment::new(p, p).unwrap(), Iso::identity(), 3.5);
    assert_distance_to_box(&Segment::new(DVec3::ZERO, DVec3::ZERO).unwrap(), at(0.1, 0.1, 0.1), 0.0);
}

#[test]
fn triangle_with_collinear_corners_is_a_segment() {
    // Corners on the line x = y at height z = 3 (the middle corner between the others).
    let t = Triangle::new(DVec3::new(-1.0, -1.0, 3.0), DVec3::new(2.0, 2.0, 3.0), DVec3::new(0.5, 0.5, 3.0)).unwrap();
    assert_distance_to_box(&t, Iso::identity(), 2.5);
    // All three corners equal.
    let q = DVec3::new(0.0, -2.0, 0.0);
    assert_distance_to_box(&Triangle::new(q, q, q).unwrap(), Iso::identity(), 1.5);
}

#[test]
fn rounded_with_zero_radius_is_its_shape() {
    let r = Rounded::new(Cuboid::new(DVec3::splat(0.5)).unwrap(), 0.0).unwrap();
    assert_distance_to_box(&r, at(0.3, 1.75, 0.0), 0.75);
}

#[test]
fn scaled_by_zero_flattens() {
    // The unit box flattened in y is a 1×1 square; at y = 2 it is 1.5 above the box.
    let flat = Scaled::new(unit_box(), DVec3::new(1.0, 0.0, 1.0)).unwrap();
    assert_distance_to_box(&flat, at(0.2, 2.0, 0.1), 1.5);
}

#[test]
fn frustum_with_near_equal_far_is_flat() {
    // Orthographic, near = far = 1: the square [−1, 1]² at z = −1 in its frame; placed at z = 2.5 it lies at 1.5.
    let f = Frustum::<DVec3>::orthographic(-1.0, 1.0, -1.0, 1.0, 1.0, 1.0).unwrap();
    assert_distance_to_box(&f, at(0.0, 0.0, 2.5), 1.0);
}

#[test]
fn degenerate_shapes_in_2d() {
    let rect = Cuboid::new(DVec2::splat(0.5)).unwrap();
    let o = Iso::<DVec2>::identity();
    let dist = |s: &dyn SupportMap<DVec2>, t: DVec2| gjk::distance(&rect, &o, s, &Iso::from_translation(t)).distance;
    assert!((dist(&Ball::new(0.0).unwrap(), DVec2::new(2.0, 0.0)) - 1.5).abs() <= 1e-12);
    assert!((dist(&Cuboid::new(DVec2::ZERO).unwrap(), DVec2::new(0.0, -3.0)) - 2.5).abs() <= 1e-12);
    let line = ConvexPolytope::new(&[DVec2::new(-2.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(0.0, 0.0)]).unwrap();
    assert!((dist(&line, DVec2::new(0.0, 1.25)) - 0.75).abs() <= 1e-12);
    let dup = ConvexPolytope::new(&[DVec2::ONE, DVec2::ONE]).unwrap();
    assert!((dist(&dup, DVec2::ZERO) - 0.5 * 2f64.sqrt()).abs() <= 1e-12);
    let seg = Segment::new(DVec2::new(0.0, 2.0), DVec2::new(0.0, 2.0)).unwrap();
    assert!((dist(&seg, DVec2::ZERO) - 1.5).abs() <= 1e-12);
    let capsule = Capsule::new(0.0, 0.25).unwrap();
    assert!((dist(&capsule, DVec2::new(-1.0, 0.0)) - 0.25).abs() <= 1e-12);
}

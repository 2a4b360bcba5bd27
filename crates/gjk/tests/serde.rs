//! The `serde` feature: every shape, pose and query result survives a JSON round trip, and reading goes through
//! the shapes' validating constructors (an invalid shape is an error naming the problem, never a panic).

use gjk::cast::{ray_cast, shape_cast, Cast, CastOptions, RayCast};
use gjk::manifold::{contact_manifold, Manifold};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2, Vec3};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Frustum, MinkowskiSum, Point, Posed, Rounded,
    Scaled, Segment, SupportMap, Triangle,
};
use gjk::{Distance, Intersection, Penetration, Status};
use serde::de::value::{Error as ValueError, MapDeserializer};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

fn round_trip<T: Serialize + DeserializeOwned>(x: &T) -> T {
    let text = serde_json::to_string(x).expect("serialises");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text} does not read back: {e}"))
}

/// Same support points along many directions: the shape read back is the shape written.
fn same_shape_3d(a: &dyn SupportMap<DVec3>, b: &dyn SupportMap<DVec3>) {
    same_shape_3d_within(a, b, 0.0);
}

fn same_shape_3d_within(a: &dyn SupportMap<DVec3>, b: &dyn SupportMap<DVec3>, tol: f64) {
    for i in 0..64 {
        let t = i as f64 * 2.399_963;
        let z = 1.0 - 2.0 * (i as f64 + 0.5) / 64.0;
        let d = DVec3::new((1.0 - z * z).sqrt() * t.cos(), (1.0 - z * z).sqrt() * t.sin(), z);
        assert!((a.support(d) - b.support(d)).length() <= tol, "direction {d}: {} vs {}", a.support(d), b.support(d));
    }
    assert_eq!(a.radius(), b.radius());
}

#[test]
fn every_3d_shape_round_trips() {
    let cube = Cuboid::new(DVec3::new(1.0, 2.0, 0.5)).unwrap();
    let hull = ConvexPolytope::new(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z, DVec3::splat(0.1)]).unwrap();
    let posed = Posed::new(cube, Iso::new(DQuat::from_rotation_y(0.3), DVec3::new(1.0, 2.0, 3.0)));
    same_shape_3d(&round_trip(&Ball::new(0.7).unwrap()), &Ball::new(0.7).unwrap());
    same_shape_3d(&round_trip(&cube), &cube);
    same_shape_3d(&round_trip(&Capsule::new(1.0, 0.25).unwrap()), &Capsule::new(1.0, 0.25).unwrap());
    same_shape_3d(&round_trip(&Cylinder::new(1.0, 0.25).unwrap()), &Cylinder::new(1.0, 0.25).unwrap());
    same_shape_3d(&round_trip(&Cone::new(1.0, 0.25).unwrap()), &Cone::new(1.0, 0.25).unwrap());
    let e = Ellipsoid::new(DVec3::new(1.0, 0.5, 0.25)).unwrap();
    same_shape_3d(&round_trip(&e), &e);
    let s = Segment::new(DVec3::X, DVec3::Y).unwrap();
    same_shape_3d(&round_trip(&s), &s);
    let t = Triangle::new(DVec3::X, DVec3::Y, DVec3::Z).unwrap();
    same_shape_3d(&round_trip(&t), &t);
    same_shape_3d(&round_trip(&Point::new(DVec3::X).unwrap()), &Point::new(DVec3::X).unwrap());
    same_shape_3d(&round_trip(&hull), &hull);
    let f = Frustum::perspective(1.0, 1.5, 0.1, 2.0).unwrap();
    same_shape_3d(&round_trip(&f), &f);
    let r = Rounded::new(cube, 0.1).unwrap();
    same_shape_3d(&round_trip(&r), &r);
    let m = MinkowskiSum::new(cube, Ball::new(0.2).unwrap());
    same_shape_3d(&round_trip(&m), &m);
    let sc = Scaled::new(cube, DVec3::new(2.0, 1.0, -1.0)).unwrap();
    same_shape_3d(&round_trip(&sc), &sc);
    // A pose's quaternion is normalised again on reading: an ulp may move.
    same_shape_3d_within(&round_trip(&posed), &posed, 1e-15);
}

#[test]
fn shapes_are_written_under_their_parameter_names() {
    assert_eq!(serde_json::to_value(Ball::new(0.5).unwrap()).unwrap(), json!({"radius": 0.5}));
    let t = Triangle::new(DVec2::X, DVec2::Y, DVec2::ZERO).unwrap();
    assert_eq!(serde_json::to_value(t).unwrap(), json!({"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [0.0, 0.0]}));
    let hull = ConvexPolytope::new(&[DVec2::ZERO, DVec2::X, DVec2::Y, DVec2::splat(0.1)]).unwrap();
    assert_eq!(serde_json::to_value(&hull).unwrap()["points"].as_array().unwrap().len(), 3);
    let r: Rounded<Segment<DVec2>, f64> =
        serde_json::from_value(json!({"shape": {"a": [0, 0], "b": [0, 2]}, "radius": 0.1})).unwrap();
    assert_eq!(r.shape.b, DVec2::new(0.0, 2.0));
    // f32 shapes use the same format.
    let c: Cuboid<Vec3> = serde_json::from_value(json!({"half_extents": [1, 2, 3]})).unwrap();
    assert_eq!(c.half_extents, Vec3::new(1.0, 2.0, 3.0));
}

fn error_of<T: DeserializeOwned + std::fmt::Debug>(v: Value) -> String {
    serde_json::from_value::<T>(v).expect_err("must be refused").to_string()
}

#[test]
fn invalid_shapes_are_errors_naming_the_problem() {
    assert_eq!(error_of::<Ball<f64>>(json!({"radius": -1})), "radius is negative");
    assert_eq!(error_of::<Cuboid<DVec3>>(json!({"half_extents": [1, -1, 1]})), "half_extents is negative");
    assert_eq!(error_of::<ConvexPolytope<DVec3>>(json!({"points": []})), "the point set is empty");
    assert!(error_of::<Ball<f64>>(json!({})).contains("missing field `radius`"));
    assert!(error_of::<Ball<f64>>(json!({"radius": "1"})).contains("invalid type"));
    assert!(error_of::<Cuboid<DVec3>>(json!({"half_extents": [1, 1]})).contains("invalid length"));
    assert!(error_of::<Rounded<Ball<f64>, f64>>(json!({"shape": {"radius": 1}, "radius": -0.5})).contains("negative"));
    assert!(error_of::<Frustum<DVec3>>(json!({"corners": []})).contains("empty"));
    // JSON cannot carry NaN; another format can, and the constructor still refuses it.
    let nan = MapDeserializer::<_, ValueError>::new([("radius", f64::NAN)].into_iter());
    assert_eq!(Ball::<f64>::deserialize(nan).unwrap_err().to_string(), "radius is not finite (NaN or infinite)");
    let inf = MapDeserializer::<_, ValueError>::new([("half_height", 1.0), ("radius", f64::INFINITY)].into_iter());
    assert!(Capsule::<f64>::deserialize(inf).is_err());
}

#[test]
fn poses_read_with_defaults_and_normalised_rotations() {
    let id: Iso<DVec3> = serde_json::from_value(json!({})).unwrap();
    assert_eq!(id, Iso::identity());
    for s in [1e-200, 1.0, 1e200] {
        let p: Iso<DVec3> =
            serde_json::from_value(json!({"translation": [1, 2, 3], "rotation": [0, 0, s, s]})).unwrap();
        assert!(p.rotation.abs_diff_eq(DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2), 1e-15), "{s:e}");
        assert_eq!(p.translation, DVec3::new(1.0, 2.0, 3.0));
    }
    assert!(error_of::<Iso<DVec3>>(json!({"rotation": [0, 0, 0, 0]})).contains("zero"));
    assert!(error_of::<Iso<DVec3>>(json!({"rotation": 0.5})).contains("invalid type"));
    let p2: Iso<DVec2> = serde_json::from_value(json!({"rotation": std::f64::consts::FRAC_PI_2})).unwrap();
    assert!((p2.rotation.sin - 1.0).abs() < 1e-15 && p2.rotation.cos.abs() < 1e-15);
    assert_eq!(serde_json::to_value(Rot2::from_angle(0.25f64)).unwrap(), json!(0.25));
    let pose = Iso::new(DQuat::from_rotation_x(0.5), DVec3::new(1.0, -2.0, 0.5));
    assert!(round_trip(&pose).rotation.abs_diff_eq(pose.rotation, 1e-15));
    assert_eq!(serde_json::to_value(pose).unwrap()["translation"], json!([1.0, -2.0, 0.5]));
}

#[test]
fn query_results_round_trip_with_snake_case_statuses() {
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let near = Iso::from_translation(DVec3::new(0.2, 0.9, 0.1));
    let far = Iso::from_translation(DVec3::new(3.0, 0.0, 0.0));
    let d = gjk::distance(&cube, &Iso::identity(), &cube, &far);
    assert_eq!(round_trip(&d), d);
    let v = serde_json::to_value(d).unwrap();
    assert_eq!(v["status"], "converged");
    assert_eq!(v["simplex"]["points"].as_array().unwrap().len(), d.simplex.len);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for k in
        ["intersecting", "distance", "point_a", "point_b", "normal", "simplex", "iterations", "status", "error_bound"]
    {
        assert!(keys.contains(&k), "{k} missing from {v}");
    }
    let p: Penetration<DVec3> = gjk::penetration(&cube, &Iso::identity(), &cube, &near);
    assert_eq!(round_trip(&p), p);
    let i: Intersection =
        gjk::intersection(&cube, &Iso::identity(), &cube, &near, &gjk::DistanceOptions::default(), None, &mut ());
    assert_eq!(round_trip(&i), i);
    let m: Manifold<DVec3> = contact_manifold(&cube, &Iso::identity(), &cube, &near, 0.0);
    assert!(m.len > 0);
    assert_eq!(round_trip(&m), m);
    assert_eq!(serde_json::to_value(m).unwrap()["contacts"].as_array().unwrap().len(), m.len);
    let hit: RayCast<DVec3> = ray_cast(&cube, &far, DVec3::ZERO, DVec3::X, 10.0, true);
    assert!(hit.hit);
    assert_eq!(round_trip(&hit), hit);
    // A miss reports the time up to which the ray is proven clear: max_toi, here unbounded.
    let miss: RayCast<DVec3> = ray_cast(&cube, &far, DVec3::ZERO, -DVec3::X, f64::INFINITY, true);
    assert!(!miss.hit && miss.toi == f64::INFINITY);
    // An infinite time: null in JSON, infinity again when read back.
    assert_eq!(serde_json::to_value(miss).unwrap()["toi"], Value::Null);
    assert_eq!(round_trip(&miss), miss);
    let c: Cast<DVec3> =
        shape_cast(&cube, &Iso::identity(), DVec3::X, &cube, &far, DVec3::ZERO, &CastOptions::default());
    assert!(c.hit);
    assert_eq!(round_trip(&c), c);
    for (s, name) in [
        (Status::Converged, "converged"),
        (Status::MaxIterations, "max_iterations"),
        (Status::Stalled, "stalled"),
        (Status::AboveBound, "above_bound"),
    ] {
        assert_eq!(serde_json::to_value(s).unwrap(), json!(name));
        assert_eq!(serde_json::from_value::<Status>(json!(name)).unwrap(), s);
        assert_eq!(s.as_str(), name, "the CLI's name and serde's agree");
    }
}

#[test]
fn hostile_result_lists_are_errors_not_panics() {
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let m = contact_manifold(&cube, &Iso::identity(), &cube, &Iso::from_translation(DVec3::new(0.0, 0.9, 0.0)), 0.0);
    let mut v = serde_json::to_value(m).unwrap();
    let c = v["contacts"][0].clone();
    v["contacts"] = json!([c, c, c, c, c]);
    assert!(serde_json::from_value::<Manifold<DVec3>>(v).is_err());
    let d: Distance<DVec3> = gjk::distance(&cube, &Iso::identity(), &cube, &Iso::from_translation(DVec3::X * 3.0));
    let mut v = serde_json::to_value(d).unwrap();
    v["simplex"]["weights"] = json!([1.0, 0.0, 0.0, 0.0, 0.0]);
    assert!(serde_json::from_value::<Distance<DVec3>>(v).is_err());
}

//! Tests of `gjk_cli::query`'s parts (integration tests rather than unit tests: the library is then built once, not
//! a second time for its own tests).

use gjk::cast::{ray_cast, shape_cast, CastOptions, RayCast};
use gjk::manifold::contact_manifold;
use gjk::math::DVec3;
use gjk::WitnessSimplex;
use gjk::{Distance, DistanceOptions, Status};
use gjk_cli::query::*;
use serde_json::Value;

/// If the library ever answered NaN or infinity, serde_json would write null into a numeric field: the line
/// must become an error that says so instead.
#[test]
fn a_non_finite_result_becomes_an_error_not_a_null() {
    let d = Distance {
        intersecting: false,
        distance: f64::INFINITY,
        point_a: DVec3::ZERO,
        point_b: DVec3::new(f64::NAN, 0.0, 0.0),
        normal: DVec3::X,
        simplex: WitnessSimplex { points: [DVec3::ZERO; 4], weights: [0.0; 4], len: 1 },
        iterations: 3,
        status: Status::Converged,
        error_bound: 0.0,
    };
    let e = Answer::distance(&d).err().expect("an error");
    assert!(e.contains("non-finite distance") && e.contains("converged"), "{e}");
    let r = RayCast {
        hit: true,
        toi: f64::INFINITY,
        normal: DVec3::X,
        point: DVec3::ZERO,
        iterations: 0,
        status: Status::Converged,
    };
    assert!(Answer::ray_cast(&r).is_err());
    // A miss's infinite time is not shown, so it is no error.
    let miss = RayCast { hit: false, ..r };
    assert!(Answer::ray_cast(&miss).is_ok());
}

/// The keys of a JSON object, in order.
fn keys(v: &Value) -> Vec<String> {
    v.as_object().expect("an object").keys().cloned().collect()
}

/// An answer's fields are the library result's serde fields, same names and order, less those the format
/// leaves out: the CLI's answers and the library's serde cannot drift apart.
#[test]
fn answers_are_the_library_results_less_the_documented_omissions() {
    use gjk::shape::Cuboid;
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let id = gjk::math::Iso::identity();
    let near = gjk::math::Iso::from_translation(DVec3::new(0.2, 0.9, 0.1));
    let check = |answer: Result<Answer, String>, library: Value, left_out: &[&str]| {
        let mut out = Vec::new();
        write_line(&mut out, &Value::Null, answer);
        let cli: Value = serde_json::from_slice(&out).unwrap();
        let mut want = keys(&library);
        want.retain(|k| !left_out.contains(&k.as_str()));
        want.insert(0, "id".into());
        assert_eq!(keys(&cli), want);
        for k in &want[1..] {
            if library[k].is_array() || library[k].is_string() || library[k].is_boolean() {
                assert_eq!(cli[k], library[k], "{k}");
            }
        }
    };
    let d = gjk::distance(&cube, &id, &cube, &near);
    check(Answer::distance(&d), serde_json::to_value(d).unwrap(), &["simplex", "error_bound"]);
    let p = gjk::penetration(&cube, &id, &cube, &near);
    check(Answer::penetration(&p), serde_json::to_value(p).unwrap(), &["error_bound"]);
    let i = gjk::intersection(&cube, &id, &cube, &near, &DistanceOptions::default(), None, &mut ());
    check(Ok(Answer::intersection(&i)), serde_json::to_value(i).unwrap(), &[]);
    let m = contact_manifold(&cube, &id, &cube, &near, 0.0);
    check(Answer::contact(&m), serde_json::to_value(m).unwrap(), &["distance"]);
    let r = ray_cast(&cube, &id, DVec3::new(-5.0, 0.1, 0.0), DVec3::X, 10.0, true);
    check(Answer::ray_cast(&r), serde_json::to_value(r).unwrap(), &["iterations"]);
    let c = shape_cast(&cube, &id, DVec3::X, &cube, &near, DVec3::ZERO, &CastOptions::default());
    check(Answer::shape_cast(&c), serde_json::to_value(c).unwrap(), &["iterations"]);
}

#[test]
fn negative_zeros_are_written_as_zeros() {
    let mut out = Vec::new();
    let r = RayCast {
        hit: true,
        toi: -0.0,
        normal: DVec3::new(-0.0, 1.0, 0.0),
        point: DVec3::ZERO,
        iterations: 0,
        status: Status::Converged,
    };
    write_line(&mut out, &Value::Null, Answer::ray_cast(&r));
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "{\"id\":null,\"hit\":true,\"toi\":0.0,\"normal\":[0.0,1.0,0.0],\"point\":[0.0,0.0,0.0],\"status\":\"converged\"}\n"
    );
}

//! The checks themselves can fail: each is shown a wrong answer (or a shape it must measure) and must say so.

use gjk::math::{DVec3, Iso};
use gjk::shape::{Ball, Cuboid};
use gjk_fuzz::cli::{check_answer, Expect, Line};
use gjk_fuzz::geom::{closed_form, depth_lower_bound, gap_along, outside_by, sample_directions};
use gjk_fuzz::space::Placed;
use gjk_fuzz::spec::{Pose, Rot, Shape};
use serde_json::json;

fn line(expect: Expect) -> Line {
    Line { bytes: br#"{"id":"x","query":"distance"}"#.to_vec(), id: Some(json!("x")), kind: "valid", expect }
}

/// A null in a numeric field, a lost id, an error for a valid line and an answer for a broken one are all caught.
#[test]
fn cli_answer_checks_catch_wrong_answers() {
    let names = |l: &Line, a: &str| check_answer(l, a).into_iter().map(|f| f.0).collect::<Vec<_>>();
    let good = r#"{"id":"x","intersecting":false,"distance":1.5,"point_a":[1,0,0],"point_b":[2.5,0,0],"normal":[1,0,0],"iterations":1,"status":"converged"}"#;
    assert!(names(&line(Expect::Answer), good).is_empty());
    assert!(names(&line(Expect::Answer), &good.replace("1.5", "null")).contains(&"cli.no_null_number"));
    assert!(names(&line(Expect::Answer), &good.replace("\"x\"", "null")).contains(&"cli.same_id"));
    assert!(names(&line(Expect::Answer), r#"{"id":"x","error":"no"}"#).contains(&"cli.answerable_line_answered"));
    assert!(names(&line(Expect::Error), good).contains(&"cli.broken_line_is_error"));
    assert!(names(&line(Expect::Answer), "{\"id\":\"x\"}\n{}").contains(&"cli.answer_is_json"));
    // A missed cast may carry nulls where docs/cli.md says so, a hit may not.
    let miss = r#"{"id":"x","hit":false,"toi":null,"normal":null,"point":null,"status":"converged"}"#;
    assert!(names(&line(Expect::Answer), miss).is_empty());
    assert!(names(&line(Expect::Answer), &miss.replace("false", "true")).contains(&"cli.no_null_number"));
}

/// The support-function bounds measure what they claim on a unit ball and a box.
#[test]
fn support_bounds_measure_distances() {
    let ball = Ball::new(1.0).unwrap();
    let a = Placed::<DVec3> { shape: &ball, pose: Iso::identity() };
    let dirs = sample_directions(3, 1, 1);
    assert!((outside_by(&a, &[2.0, 0.0, 0.0], &dirs, &[]) - 1.0).abs() < 1e-12);
    assert!(outside_by(&a, &[0.5, 0.0, 0.0], &dirs, &[]) < 0.0);
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let b = Placed::<DVec3> { shape: &cube, pose: Iso::from_translation(DVec3::new(3.0, 0.0, 0.0)) };
    assert!((gap_along(&a, &b, &[1.0, 0.0, 0.0]) - 1.5).abs() < 1e-12);
    // Two unit balls 1.5 apart overlap by 0.5: the hull bound is below that and close to it.
    let c = Placed::<DVec3> { shape: &ball, pose: Iso::from_translation(DVec3::new(1.5, 0.0, 0.0)) };
    let lower = depth_lower_bound(&a, &c, &[&[1.0, 0.0, 0.0]], 7).expect("the origin is inside A − B");
    assert!(lower <= 0.5 && lower > 0.49, "{lower}");
}

/// The closed forms: ball–ball and ball–box, outside and inside.
#[test]
fn closed_forms_are_right() {
    let mut c = gjk_fuzz::gen::case(3, 3);
    c.dim = 3;
    let at = |x: f64| Pose { translation: vec![x, 0.0, 0.0], rotation: Rot::Quat([0.0, 0.0, 0.0, 1.0]) };
    c.a = Shape::Ball { radius: 1.0 };
    c.pose_a = at(0.0);
    c.b = Shape::Cuboid { half_extents: vec![0.5, 2.0, 2.0] };
    c.pose_b = at(3.0);
    assert!((closed_form(&c).unwrap() - 1.5).abs() < 1e-15);
    c.pose_b = at(0.25);
    assert!((closed_form(&c).unwrap() + 1.25).abs() < 1e-15);
    c.b = Shape::Ball { radius: 0.5 };
    c.pose_b = at(1.0);
    assert!((closed_form(&c).unwrap() + 0.5).abs() < 1e-15);
}

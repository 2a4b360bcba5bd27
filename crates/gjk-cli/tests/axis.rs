//! `"axis": "z"` on capsules, cylinders and cones: the same shape as the y-axis one turned a quarter turn about x,
//! checked through whole query lines (distance, penetration, ray cast) on varied poses: distances, depths and
//! times of impact to 1e-9; points and normals to 1e-6, because on a curved surface (a cylinder's rim, a cone's)
//! the closest point is fixed only to about the square root of the distance's tolerance (moving it by δ along the
//! surface changes the distance by O(δ²)), and the two runs round the turn differently.

use gjk::math::DQuat;
use gjk_cli::query::answer_line;
use serde_json::{json, Value};

/// The quarter turn about x that carries local y onto z.
fn quarter_x() -> DQuat {
    DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2)
}

fn answer(line: &Value) -> Value {
    serde_json::from_str(&answer_line(&line.to_string())).unwrap()
}

/// Every number of two answers within `tol`, and their scalars (distance, depth, toi) within 1e-9; ids and
/// statuses equal.
fn assert_close(z: &Value, y: &Value, tol: f64, what: &str) {
    match (z, y) {
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            assert!((a - b).abs() <= tol, "{what}: {a} vs {b}");
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{what}");
            a.iter().zip(b).for_each(|(a, b)| assert_close(a, b, tol, what));
        }
        (Value::Object(a), Value::Object(b)) => {
            let keys = |o: &serde_json::Map<String, Value>| o.keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(a), keys(b), "{what}");
            // Iteration counts may differ with the rounding of the turn; everything geometric must not.
            for (k, v) in a.iter().filter(|(k, _)| *k != "iterations") {
                let tol = if v.is_number() { 1e-9 } else { tol };
                assert_close(v, &b[k], tol, &format!("{what} [{k}]"));
            }
        }
        _ => assert_eq!(z, y, "{what}"),
    }
}

/// A small deterministic generator (xorshift), so the cases are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    fn quat(&mut self) -> DQuat {
        let axis = gjk::math::DVec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
        DQuat::from_axis_angle(axis.try_normalize().unwrap_or(gjk::math::DVec3::X), self.range(-3.0, 3.0))
    }
}

fn q(r: DQuat) -> Value {
    json!([r.x, r.y, r.z, r.w])
}

#[test]
fn a_z_axis_shape_answers_as_the_y_axis_one_turned_a_quarter_about_x() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0;
    for case in 0..60 {
        let kind = ["capsule", "cylinder", "cone"][case % 3];
        let (h, r) = (rng.range(0.0, 2.0), rng.range(0.0, 1.0));
        let rot_a = rng.quat();
        let t_a = [rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)];
        let b = json!({"type": "box", "half_extents": [rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)]});
        let pose_b = json!({"translation": [rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)],
            "rotation": q(rng.quat())});
        let shape = |axis: Option<&str>| {
            let mut s = json!({"type": kind, "half_height": h, "radius": r});
            if let Some(axis) = axis {
                s["axis"] = json!(axis);
            }
            s
        };
        // The z shape at rot_a is the y shape at rot_a · (quarter turn about x).
        let pose_z = json!({"translation": t_a, "rotation": q(rot_a)});
        let pose_y = json!({"translation": t_a, "rotation": q(rot_a * quarter_x())});
        let origin = [rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)];
        let direction = [t_a[0] - origin[0], t_a[1] - origin[1] + rng.range(-0.5, 0.5), t_a[2] - origin[2]];
        for query in ["distance", "penetration", "ray_cast"] {
            let line = |a: Value, pose_a: &Value| match query {
                "ray_cast" => json!({"id": case, "query": query, "a": a, "pose_a": pose_a, "origin": origin,
                    "direction": direction, "max_toi": 10.0, "solid": true}),
                _ => json!({"id": case, "query": query, "a": a, "pose_a": pose_a, "b": b, "pose_b": pose_b}),
            };
            let z = answer(&line(shape(Some("z")), &pose_z));
            let y = answer(&line(shape(None), &pose_y));
            assert!(z.get("error").is_none(), "{z}");
            assert_close(&z, &y, 1e-6, &format!("{kind} {query} case {case}: {z} vs {y}"));
            // "y" is the default: the same line with it written out gives the same bits.
            assert_eq!(answer(&line(shape(Some("y")), &pose_y)), y);
            compared += 1;
        }
    }
    assert_eq!(compared, 180);
}

/// Closed form: a z capsule of half height 1 and radius 0.25 under a sphere of radius 0.5 centred at z = 3 is
/// 3 − 1 − 0.25 − 0.5 = 1.25 away, along +z.
#[test]
fn a_z_capsule_points_up_z() {
    let a = answer(&json!({"id": 0, "query": "distance",
        "a": {"type": "capsule", "half_height": 1, "radius": 0.25, "axis": "z"},
        "b": {"type": "sphere", "radius": 0.5}, "pose_b": {"translation": [0, 0, 3]}}));
    assert!((a["distance"].as_f64().unwrap() - 1.25).abs() < 1e-12, "{a}");
    assert!((a["normal"][2].as_f64().unwrap() - 1.0).abs() < 1e-12, "{a}");
}

/// Another axis, or z in a 2D line, is an error line with the id (never a silently y-axis shape).
#[test]
fn other_axes_and_2d_z_are_error_lines() {
    for (kind, axis) in [("capsule", "x"), ("cylinder", "Z"), ("cone", "")] {
        let a = answer(&json!({"id": 7, "query": "distance",
            "a": {"type": kind, "half_height": 1, "radius": 0.25, "axis": axis}, "b": {"type": "sphere", "radius": 1}}));
        assert_eq!(a["id"], 7);
        assert!(a["error"].as_str().unwrap().contains("unknown variant"), "{a}");
    }
    let a = answer(&json!({"id": 8, "query": "distance",
        "a": {"type": "capsule", "half_height": 1, "radius": 0.25, "axis": "z"}, "b": {"type": "circle", "radius": 1}}));
    assert_eq!(a["id"], 8);
    assert!(a["error"].as_str().unwrap().contains("only in 3D"), "{a}");
    let a = answer(&json!({"id": 9, "query": "distance",
        "a": {"type": "capsule", "half_height": 1, "radius": 0.25, "axis": 3}, "b": {"type": "sphere", "radius": 1}}));
    assert!(a["error"].is_string(), "{a}");
}

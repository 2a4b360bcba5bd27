//! The interactive page's engine: the `gjk` library compiled to WebAssembly. The page (`web/app.js`) describes
//! its two shapes as a query line in the `gjk query` format and calls [`scene`]; the answer carries everything the
//! page draws — the outlines of A, B and A − B from the shapes' support functions, each recorded GJK step and the
//! result — worked out by the same code as `gjk draw` ([`gjk_cli::draw::model`]), so the page, the pictures and
//! `gjk query` cannot disagree.
//!
//! ```
//! let line = r#"{"query": "distance", "a": {"type": "circle", "radius": 1},
//!                "b": {"type": "box", "half_extents": [1, 1]}, "pose_b": {"translation": [3, 0]}}"#;
//! let scene: serde_json::Value = serde_json::from_str(&gjk_web::scene(line)).unwrap();
//! assert_eq!(scene["answer"]["distance"], 1.0);
//! assert_eq!(scene["steps"].as_array().unwrap().len(), scene["answer"]["iterations"].as_u64().unwrap() as usize);
//! ```

use gjk_cli::draw::model::{self, decision_text, epa_decision_text, Drawing, P3};
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;

/// Answers one query line (`distance`, `intersect` or `penetration`, 2D or 3D) with what the page draws, as JSON:
/// `{"answer", "kind", "dim", "radii", "outlines", "start", "steps", "epa", "headline", "lines", "point_a",
/// "point_b", "normal"}`, or `{"error": "…"}`. `steps` are GJK's, `epa` the expanding polytope's iterations. `answer` is exactly the line `gjk query` prints for the same input. Points
/// are world coordinates, in the plane of x and y (a 3D query is seen along z).
#[wasm_bindgen]
pub fn scene(line: &str) -> String {
    match scene_value(line) {
        Ok(v) => v.to_string(),
        Err(e) => json!({ "error": e }).to_string(),
    }
}

/// The version of the library the page runs, for its footer.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

fn scene_value(line: &str) -> Result<Value, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let d = model::build(&v, &[])?;
    let answer: Value = serde_json::from_str(&d.answer_json).map_err(|e| e.to_string())?;
    Ok(to_json(&d, answer))
}

fn xy(p: P3) -> Value {
    json!([p[0], p[1]])
}

fn points(ps: &[P3]) -> Value {
    Value::Array(ps.iter().map(|p| xy(*p)).collect())
}

fn polygon(ps: &[[f64; 2]]) -> Value {
    Value::Array(ps.iter().map(|p| json!([p[0], p[1]])).collect())
}

fn to_json(d: &Drawing, answer: Value) -> Value {
    let outlines = &d.outlines[0];
    let steps: Vec<Value> = d
        .steps
        .iter()
        .map(|s| {
            let (decision, meaning) = decision_text(s.decision, d.dim);
            let simplex: Vec<P3> = s.simplex.iter().map(|(p, _)| *p).collect();
            let names: Vec<&str> = s.simplex.iter().map(|(_, n)| n.as_str()).collect();
            json!({
                "iteration": s.iteration,
                "direction": xy(s.direction),
                "support": xy(s.support),
                "support_a": xy(s.support_a),
                "support_b": xy(s.support_b),
                "before": points(&s.before),
                "simplex": points(&simplex),
                "names": names,
                "closest": xy(s.closest),
                "decision": decision,
                "meaning": meaning,
            })
        })
        .collect();
    let epa: Vec<Value> = d
        .epa
        .iter()
        .map(|e| {
            let (decision, meaning) = epa_decision_text(e.decision);
            json!({
                "iteration": e.iteration,
                "vertices": points(&e.vertices),
                "faces": e.faces,
                "nearest": e.nearest,
                "normal": xy(e.normal),
                "lower": e.lower,
                "support": xy(e.support),
                "upper": e.upper,
                "decision": decision,
                "meaning": meaning,
            })
        })
        .collect();
    let mut out = Map::new();
    out.insert("answer".into(), answer);
    out.insert("kind".into(), json!(d.kind.name()));
    out.insert("dim".into(), json!(d.dim));
    out.insert("radii".into(), json!([d.radii.0, d.radii.1]));
    out.insert(
        "outlines".into(),
        json!({
            "a": polygon(&outlines.a),
            "b": polygon(&outlines.b),
            "diff": polygon(&outlines.diff),
            "diff_core": outlines.diff_core.as_deref().map(polygon),
        }),
    );
    out.insert(
        "start".into(),
        json!({ "how": d.start.how, "direction": xy(d.start.direction), "support": xy(d.start.support) }),
    );
    out.insert("steps".into(), Value::Array(steps));
    out.insert("epa".into(), Value::Array(epa));
    out.insert("headline".into(), json!(d.answer.headline));
    out.insert("lines".into(), json!(d.answer.lines));
    out.insert("point_a".into(), json!(d.answer.point_a.map(xy)));
    out.insert("point_b".into(), json!(d.answer.point_b.map(xy)));
    out.insert("normal".into(), json!(d.answer.normal.map(xy)));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene_of(line: &str) -> Value {
        serde_json::from_str(&scene(line)).expect("scene is JSON")
    }

    /// The page's five shape kinds, in the form `web/app.js` writes them.
    const SHAPES: [&str; 5] = [
        r#"{"type": "polygon", "points": [[-0.8, -0.5], [0.9, -0.6], [0.3, 0.8], [-0.6, 0.5]]}"#,
        r#"{"type": "circle", "radius": 0.7}"#,
        r#"{"type": "box", "half_extents": [0.8, 0.5]}"#,
        r#"{"type": "capsule", "half_height": 0.6, "radius": 0.35}"#,
        r#"{"type": "ellipse", "radii": [0.9, 0.45]}"#,
    ];

    fn line(query: &str, a: &str, b: &str, x: f64, y: f64, angle: f64) -> String {
        format!(
            r#"{{"id": "page", "query": "{query}", "a": {a}, "pose_a": {{"translation": [0, 0], "rotation": 0.3}},
                "b": {b}, "pose_b": {{"translation": [{x}, {y}], "rotation": {angle}}}}}"#
        )
    }

    #[test]
    fn the_answer_is_the_one_gjk_query_prints() {
        for query in ["distance", "penetration", "intersect"] {
            for a in SHAPES {
                for b in SHAPES {
                    for (x, y, angle) in [(2.5, 0.4, 0.7), (0.4, 0.2, -1.1), (0.0, 0.0, 0.0)] {
                        let l = line(query, a, b, x, y, angle);
                        let s = scene_of(&l);
                        let want: Value = serde_json::from_str(&gjk_cli::query::answer_line(&l)).unwrap();
                        assert_eq!(s["answer"], want, "{l}");
                    }
                }
            }
        }
    }

    #[test]
    fn overlapping_cores_show_every_epa_iteration() {
        let s = scene_of(&line("penetration", SHAPES[0], SHAPES[2], 0.5, 0.2, 0.3));
        let (gjk, epa) = (s["steps"].as_array().unwrap(), s["epa"].as_array().unwrap());
        assert!(!epa.is_empty());
        assert_eq!((gjk.len() + epa.len()) as u64, s["answer"]["iterations"].as_u64().unwrap());
        let last = epa.last().unwrap();
        assert_eq!(last["decision"], "converged");
        assert!((last["lower"].as_f64().unwrap() - s["answer"]["depth"].as_f64().unwrap()).abs() < 1e-12);
        for e in epa {
            // A polygon: one edge per vertex, and the nearest is one of them.
            let n = e["vertices"].as_array().unwrap().len();
            assert_eq!(e["faces"].as_array().unwrap().len(), n);
            assert!(e["nearest"].as_u64().unwrap() < n as u64);
        }
    }

    #[test]
    fn one_step_is_drawn_per_gjk_iteration() {
        for a in SHAPES {
            for b in SHAPES {
                let s = scene_of(&line("distance", a, b, 1.9, -0.3, 0.4));
                let steps = s["steps"].as_array().unwrap();
                assert_eq!(steps.len() as u64, s["answer"]["iterations"].as_u64().unwrap());
                for step in steps {
                    // Simplex of at most three points in 2D, each named.
                    let n = step["simplex"].as_array().unwrap().len();
                    assert!((1..=3).contains(&n), "{step}");
                    assert_eq!(step["names"].as_array().unwrap().len(), n);
                }
            }
        }
    }

    #[test]
    fn separated_shapes_show_closest_points_a_distance_apart() {
        let s = scene_of(&line("distance", SHAPES[1], SHAPES[2], 3.0, 0.0, 0.0));
        assert_eq!(s["answer"]["intersecting"], false);
        let (pa, pb) = (&s["point_a"], &s["point_b"]);
        let gap = ((pb[0].as_f64().unwrap() - pa[0].as_f64().unwrap()).powi(2)
            + (pb[1].as_f64().unwrap() - pa[1].as_f64().unwrap()).powi(2))
        .sqrt();
        // Circle r 0.7 at the origin, box half-width 0.8 at x = 3 (unturned): 3 − 0.7 − 0.8.
        assert!((gap - 1.5).abs() < 1e-12, "{gap}");
        // The outline of A − B is a closed polygon: circle ⊕ box, 256 sampled directions.
        assert!(s["outlines"]["diff"].as_array().unwrap().len() >= 8);
    }

    #[test]
    fn overlapping_shapes_show_depth_and_normal() {
        let s = scene_of(&line("penetration", SHAPES[2], SHAPES[2], 1.0, 0.0, 0.0));
        assert_eq!(s["answer"]["intersecting"], true);
        let n = &s["normal"];
        let len = (n[0].as_f64().unwrap().powi(2) + n[1].as_f64().unwrap().powi(2)).sqrt();
        assert!((len - 1.0).abs() < 1e-12);
    }

    #[test]
    fn bad_lines_get_an_error_not_a_panic() {
        for bad in [
            "",
            "[]",
            r#"{"query": "ray_cast"}"#,
            r#"{"query": "distance", "a": {"type": "circle", "radius": -1}, "b": {"type": "circle", "radius": 1}}"#,
            r#"{"query": "distance", "a": {"type": "polygon", "points": []}, "b": {"type": "circle", "radius": 1}}"#,
        ] {
            let s = scene_of(bad);
            assert!(s["error"].is_string(), "{bad}: {s}");
        }
    }
}

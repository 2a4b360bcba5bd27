//! The interactive pages' engine: the `gjk` library compiled to WebAssembly. A page (`web/app.js` in 2D,
//! `web/app3d.js` in 3D) describes its two shapes as a query line in the `gjk query` format and calls [`scene`];
//! the answer carries everything the page draws — the outlines of A, B and A − B (2D) or their meshes (3D), all
//! from the shapes' support functions, each recorded GJK step and EPA iteration, and the result — worked out by
//! the same code as `gjk draw` ([`gjk_cli::draw::model`]), so the pages, the pictures and `gjk query` cannot
//! disagree. The pages compute nothing geometric themselves.
//!
//! ```
//! let line = r#"{"query": "distance", "a": {"type": "circle", "radius": 1},
//!                "b": {"type": "box", "half_extents": [1, 1]}, "pose_b": {"translation": [3, 0]}}"#;
//! let scene: serde_json::Value = serde_json::from_str(&gjk_web::scene(line)).unwrap();
//! assert_eq!(scene["answer"]["distance"], 1.0);
//! assert_eq!(scene["steps"].as_array().unwrap().len(), scene["answer"]["iterations"].as_u64().unwrap() as usize);
//! ```

use gjk_cli::draw::model::{self, decision_text, epa_decision_text, Drawing, Mesh, P3};
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;

/// Answers one query line (`distance`, `intersect` or `penetration`, 2D or 3D) with what the page draws, as JSON:
/// `{"answer", "kind", "dim", "radii", "start", "steps", "epa", "headline", "lines", "point_a", "point_b",
/// "normal"}` and, in 2D, `"outlines"` (polygons of A, B, A − B and A − B of the cores), in 3D `"meshes"` (the
/// same as triangle meshes: `{"vertices", "triangles"}`); or `{"error": "…"}`. `steps` are GJK's, `epa` the
/// expanding polytope's iterations. `answer` is exactly the line `gjk query` prints for the same input. Points
/// are world coordinates, `[x, y]` in 2D and `[x, y, z]` in 3D.
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
    let d = model::build_with_meshes(&v, &[])?;
    let answer: Value = serde_json::from_str(&d.answer_json).map_err(|e| e.to_string())?;
    Ok(to_json(&d, answer))
}

/// Writes points with as many coordinates as the query has dimensions.
struct Points {
    dim: usize,
}

impl Points {
    fn one(&self, p: P3) -> Value {
        json!(p[..self.dim])
    }
    fn all(&self, ps: &[P3]) -> Value {
        Value::Array(ps.iter().map(|p| self.one(*p)).collect())
    }
}

fn polygon(ps: &[[f64; 2]]) -> Value {
    Value::Array(ps.iter().map(|p| json!([p[0], p[1]])).collect())
}

fn mesh(m: &Mesh) -> Value {
    json!({ "vertices": m.vertices, "triangles": m.triangles })
}

fn to_json(d: &Drawing, answer: Value) -> Value {
    let pt = Points { dim: d.dim };
    let steps: Vec<Value> = d
        .steps
        .iter()
        .map(|s| {
            let (decision, meaning) = decision_text(s.decision, d.dim);
            let simplex: Vec<P3> = s.simplex.iter().map(|(p, _)| *p).collect();
            let names: Vec<&str> = s.simplex.iter().map(|(_, n)| n.as_str()).collect();
            json!({
                "iteration": s.iteration,
                "direction": pt.one(s.direction),
                "support": pt.one(s.support),
                "support_a": pt.one(s.support_a),
                "support_b": pt.one(s.support_b),
                "before": pt.all(&s.before),
                "simplex": pt.all(&simplex),
                "names": names,
                "closest": pt.one(s.closest),
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
                "vertices": pt.all(&e.vertices),
                "faces": e.faces,
                "nearest": e.nearest,
                "normal": pt.one(e.normal),
                "lower": e.lower,
                "support": pt.one(e.support),
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
    if let Some(m) = &d.meshes {
        out.insert(
            "meshes".into(),
            json!({
                "a": mesh(&m.a),
                "b": mesh(&m.b),
                "diff": mesh(&m.diff),
                "diff_core": m.diff_core.as_ref().map(mesh),
            }),
        );
    } else {
        let outlines = &d.outlines[0];
        out.insert(
            "outlines".into(),
            json!({
                "a": polygon(&outlines.a),
                "b": polygon(&outlines.b),
                "diff": polygon(&outlines.diff),
                "diff_core": outlines.diff_core.as_deref().map(polygon),
            }),
        );
    }
    out.insert(
        "start".into(),
        json!({
            "how": d.start.how,
            "direction": pt.one(d.start.direction),
            "support": pt.one(d.start.support),
            // The points of A and B that make the first support point, when known.
            "support_a": d.start.parts.map(|(a, _)| pt.one(a)),
            "support_b": d.start.parts.map(|(_, b)| pt.one(b)),
        }),
    );
    out.insert("steps".into(), Value::Array(steps));
    out.insert("epa".into(), Value::Array(epa));
    out.insert("headline".into(), json!(d.answer.headline));
    out.insert("lines".into(), json!(d.answer.lines));
    out.insert("point_a".into(), json!(d.answer.point_a.map(|p| pt.one(p))));
    out.insert("point_b".into(), json!(d.answer.point_b.map(|p| pt.one(p))));
    out.insert("normal".into(), json!(d.answer.normal.map(|p| pt.one(p))));
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

    /// The 3D page's seven shape kinds, in the form `web/app3d.js` writes them.
    const SHAPES_3D: [&str; 7] = [
        r#"{"type": "box", "half_extents": [0.7, 0.5, 0.4]}"#,
        r#"{"type": "sphere", "radius": 0.6}"#,
        r#"{"type": "capsule", "half_height": 0.5, "radius": 0.35}"#,
        r#"{"type": "cylinder", "half_height": 0.5, "radius": 0.5}"#,
        r#"{"type": "cone", "half_height": 0.6, "radius": 0.55}"#,
        r#"{"type": "ellipsoid", "radii": [0.8, 0.5, 0.4]}"#,
        r#"{"type": "convex", "points": [[0.8, 0, 0], [-0.4, 0.6, 0.1], [-0.3, -0.5, 0.5], [0.1, 0.1, -0.7], [0.2, 0.7, 0.5], [-0.6, -0.2, -0.4]]}"#,
    ];

    fn line3(query: &str, a: &str, b: &str, t: [f64; 3], q: [f64; 4]) -> String {
        format!(
            r#"{{"id": "page3d", "query": "{query}", "a": {a}, "pose_a": {{"translation": [0, 0, 0], "rotation": [0.1, 0.2, 0, 0.9746794344808963]}},
                "b": {b}, "pose_b": {{"translation": {t:?}, "rotation": {q:?}}}}}"#
        )
    }

    fn p3(v: &Value) -> [f64; 3] {
        let c: Vec<f64> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        [c[0], c[1], c[2]]
    }

    fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }

    fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// The mesh's triangles as (unit outward normal, offset) planes; every vertex lies behind every plane.
    fn planes(mesh: &Value) -> Vec<([f64; 3], f64)> {
        let v: Vec<[f64; 3]> = mesh["vertices"].as_array().unwrap().iter().map(p3).collect();
        let scale = v.iter().flatten().fold(1.0f64, |m, x| m.max(x.abs()));
        let mut out = Vec::new();
        for t in mesh["triangles"].as_array().unwrap() {
            let [i, j, k] = [0, 1, 2].map(|n| t[n].as_u64().unwrap() as usize);
            let n = cross(sub(v[j], v[i]), sub(v[k], v[i]));
            let len = dot(n, n).sqrt();
            assert!(len > 0.0, "a degenerate triangle in {t}");
            let n = n.map(|c| c / len);
            let off = dot(n, v[i]);
            for p in &v {
                assert!(dot(n, *p) <= off + 1e-9 * scale, "a vertex in front of a face: the mesh is not convex");
            }
            out.push((n, off));
        }
        out
    }

    #[test]
    fn in_3d_the_answer_is_gjk_querys_and_the_meshes_are_closed_convex_solids() {
        let poses = [([1.9, 0.3, -0.2], [0.0, 0.0, 0.0, 1.0]), ([0.5, 0.2, 0.1], [0.3, -0.1, 0.2, 0.9273618495495703])];
        for a in SHAPES_3D {
            for b in SHAPES_3D {
                for (t, q) in poses {
                    let l = line3("penetration", a, b, t, q);
                    let s = scene_of(&l);
                    let want: Value = serde_json::from_str(&gjk_cli::query::answer_line(&l)).unwrap();
                    assert_eq!(s["answer"], want, "{l}");
                    assert_eq!(s["dim"], 3);
                    assert!(s.get("outlines").is_none(), "3D scenes carry meshes, not outlines");
                    let diff = &s["meshes"]["diff"];
                    let faces = planes(diff);
                    planes(&s["meshes"]["a"]);
                    planes(&s["meshes"]["b"]);
                    // Closed: each edge is shared by exactly two triangles, once each way round.
                    let mut edges = std::collections::BTreeMap::new();
                    for tri in diff["triangles"].as_array().unwrap() {
                        let t: Vec<u64> = tri.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
                        for k in 0..3 {
                            *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
                        }
                    }
                    for (&(i, j), &n) in &edges {
                        assert_eq!((n, edges.get(&(j, i))), (1, Some(&1)), "edge {i}-{j} of A − B in {l}");
                    }
                    // The mesh of A − B holds the origin exactly when the query says the shapes intersect (it is
                    // inscribed in A − B, so only clear cases are compared: the origin a little inside or out).
                    let depth = s["answer"]["depth"].as_f64().unwrap();
                    let margin = faces.iter().map(|(_, off)| -off).fold(f64::NEG_INFINITY, f64::max);
                    if depth > 0.05 {
                        assert!(margin < 0.0, "the origin is inside A − B's mesh: {l}");
                    } else if depth < -0.05 {
                        assert!(margin > 0.0, "the origin is outside A − B's mesh: {l}");
                    }
                    for step in s["steps"].as_array().unwrap() {
                        let n = step["simplex"].as_array().unwrap().len();
                        assert!((1..=4).contains(&n), "a 3D simplex has 1 to 4 points: {step}");
                        assert_eq!(step["support"].as_array().unwrap().len(), 3);
                    }
                }
            }
        }
    }

    /// A polytope's mesh is exact: two boxes give A − B with the 8 corners of the box of summed half-extents.
    #[test]
    fn boxes_give_an_exact_mesh() {
        let a = r#"{"type": "box", "half_extents": [1, 0.5, 0.25]}"#;
        let l = format!(r#"{{"query": "distance", "a": {a}, "b": {a}, "pose_b": {{"translation": [5, 0, 0]}}}}"#);
        let s = scene_of(&l);
        let diff = &s["meshes"]["diff"];
        let mut v: Vec<[f64; 3]> = diff["vertices"].as_array().unwrap().iter().map(p3).collect();
        v.sort_by(|p, q| p.partial_cmp(q).unwrap());
        let mut want = Vec::new();
        for x in [-7.0, -3.0] {
            for y in [-1.0, 1.0] {
                for z in [-0.5, 0.5] {
                    want.push([x, y, z]);
                }
            }
        }
        assert_eq!(v, want);
        // Six rectangles, two triangles each.
        assert_eq!(diff["triangles"].as_array().unwrap().len(), 12);
        assert_eq!(s["answer"]["distance"], 3.0);
        // A sphere's mesh vertices are points of the sphere.
        let sphere = r#"{"type": "sphere", "radius": 0.5}"#;
        let s = scene_of(&format!(
            r#"{{"query": "distance", "a": {sphere}, "b": {sphere}, "pose_b": {{"translation": [2, 0, 0]}}}}"#
        ));
        for p in s["meshes"]["b"]["vertices"].as_array().unwrap().iter().map(p3) {
            let r = dot(sub(p, [2.0, 0.0, 0.0]), sub(p, [2.0, 0.0, 0.0])).sqrt();
            assert!((r - 0.5).abs() < 1e-12, "{r}");
        }
    }

    /// Flat and thin shapes are valid: a flat box's mesh is its rectangle both ways round, a segment's has no
    /// triangle, and nothing is lost on the way.
    #[test]
    fn degenerate_3d_shapes_give_flat_or_empty_meshes() {
        let flat = r#"{"type": "box", "half_extents": [1, 1, 0]}"#;
        let seg = r#"{"type": "segment", "a": [0, 0, 0], "b": [1, 0, 0]}"#;
        let s = scene_of(&format!(
            r#"{{"query": "distance", "a": {flat}, "b": {seg}, "pose_b": {{"translation": [0, 0, 2]}}}}"#
        ));
        assert_eq!(s["meshes"]["a"]["vertices"].as_array().unwrap().len(), 4);
        assert_eq!(s["meshes"]["a"]["triangles"].as_array().unwrap().len(), 4);
        assert_eq!(s["meshes"]["b"]["vertices"].as_array().unwrap().len(), 2);
        assert!(s["meshes"]["b"]["triangles"].as_array().unwrap().is_empty());
        assert_eq!(s["answer"]["distance"], 2.0);
    }
}

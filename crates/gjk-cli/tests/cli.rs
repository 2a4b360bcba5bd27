//! End-to-end tests of `gjk query`: the examples in docs/cli.md, the worked examples shared with us
//! (`shared/cli-examples.jsonl`, exact answers computed independently of GJK), and malformed input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

/// What `gjk query` prints for `input`, as text.
fn query_text(input: &str) -> String {
    query_text_with(&[], input)
}

/// What `gjk query ARGS` prints for `input`, as text.
fn query_text_with(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gjk"))
        .arg("query")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gjk runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("gjk ends");
    assert!(out.status.success(), "gjk query exited with {:?}", out.status);
    String::from_utf8(out.stdout).expect("utf-8")
}

fn run_query(input: &str) -> Vec<Value> {
    run_query_with(&[], input)
}

fn run_query_with(args: &[&str], input: &str) -> Vec<Value> {
    query_text_with(args, input)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("output is not JSON ({e}): {l}")))
        .collect()
}

/// Equal JSON, numbers to `tol` absolute.
fn assert_json_close(got: &Value, want: &Value, tol: f64, ctx: &str) {
    match (got, want) {
        (Value::Number(g), Value::Number(w)) => {
            let (g, w) = (g.as_f64().unwrap(), w.as_f64().unwrap());
            assert!((g - w).abs() <= tol, "{ctx}: {g} vs {w}");
        }
        (Value::Array(g), Value::Array(w)) => {
            assert_eq!(g.len(), w.len(), "{ctx}: array lengths");
            for (i, (g, w)) in g.iter().zip(w).enumerate() {
                assert_json_close(g, w, tol, &format!("{ctx}[{i}]"));
            }
        }
        (Value::Object(g), Value::Object(w)) => {
            let gk: Vec<&String> = g.keys().collect();
            let wk: Vec<&String> = w.keys().collect();
            assert_eq!(gk, wk, "{ctx}: fields (and their order)");
            for (k, wv) in w {
                if k == "iterations" {
                    // How many steps a query takes is the algorithm's business, not the contract: check the type.
                    assert!(g[k].is_u64(), "{ctx}.iterations is a count");
                    continue;
                }
                assert_json_close(&g[k], wv, tol, &format!("{ctx}.{k}"));
            }
        }
        _ => assert_eq!(got, want, "{ctx}"),
    }
}

/// The fenced blocks of docs/cli.md tagged `json input` and `json output`, paired in order.
fn doc_examples() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md");
    let text = std::fs::read_to_string(path).expect("docs/cli.md");
    let mut blocks: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(tag)) => current = Some((tag.trim().to_string(), String::new())),
            (Some(_), Some(_)) => blocks.push(current.take().expect("open block")),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    let mut pairs = Vec::new();
    let mut pending_input = None;
    for (tag, body) in blocks {
        match tag.as_str() {
            "json input" => pending_input = Some(body),
            "json output" => pairs.push((pending_input.take().expect("output block follows an input block"), body)),
            _ => {}
        }
    }
    pairs
}

#[test]
fn docs_cli_md_examples_give_the_documented_output() {
    let examples = doc_examples();
    assert!(examples.len() >= 5, "docs/cli.md lost its examples");
    for (input, output) in examples {
        let got = run_query(&input);
        let want: Vec<Value> = output.lines().map(|l| serde_json::from_str(l).expect("doc output is JSON")).collect();
        assert_eq!(got.len(), want.len(), "one output line per input line for:\n{input}");
        for (g, w) in got.iter().zip(&want) {
            assert_json_close(g, w, 1e-9, &format!("example {}", w["id"]));
        }
    }
}

/// Largest size parameter of the line's shapes: tolerances are relative to it.
fn shape_size(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap().abs(),
        Value::Array(a) => a.iter().map(shape_size).fold(0.0, f64::max),
        Value::Object(o) => {
            o.iter().filter(|(k, _)| k.as_str() != "path").map(|(_, v)| shape_size(v)).fold(0.0, f64::max)
        }
        _ => 0.0,
    }
}

fn shared_examples() -> Vec<Value> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // The shared folder beside the checkout is authoritative; the committed copy keeps the test runnable alone.
    let shared = manifest.join("../../../shared/cli-examples.jsonl");
    let path = if shared.exists() { shared } else { manifest.join("tests/data/cli-examples.jsonl") };
    let text = std::fs::read_to_string(path).expect("cli-examples.jsonl");
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("example is JSON")).collect()
}

#[test]
fn shared_examples_match_exact_answers() {
    let examples = shared_examples();
    assert!(examples.len() >= 20, "too few examples to mean anything");
    let input: String = examples.iter().map(|e| format!("{}\n", e["input"])).collect();
    let answers = run_query(&input);
    assert_eq!(answers.len(), examples.len());
    let mut checked = 0;
    for (ex, got) in examples.iter().zip(&answers) {
        let want = &ex["expect"];
        let id = &ex["input"]["id"];
        assert_eq!(&got["id"], id);
        assert!(got.get("error").is_none(), "{id}: {got}");
        // "to 1e-9 of the shapes' size": the largest size parameter of either shape.
        let size = shape_size(&ex["input"]["a"]).max(shape_size(&ex["input"]["b"]));
        let tol = 1e-9 * size;
        if let Some(hit) = want.get("hit") {
            assert_eq!(&got["hit"], hit, "{id}");
            if hit == true {
                let want_toi = want["toi"].as_f64().unwrap();
                let got_toi = got["toi"].as_f64().unwrap();
                // The time is in units of the velocity: its error is the distance error over the speed.
                assert!((got_toi - want_toi).abs() <= tol.max(1e-9 * want_toi), "{id}: toi {got_toi} vs {want_toi}");
                assert_json_close(&got["normal"], &want["normal"], 1e-9, &format!("{id} normal"));
            }
            checked += 1;
            continue;
        }
        let want_d = want["distance"].as_f64().unwrap();
        let got_d = got["distance"].as_f64().unwrap();
        assert!((got_d - want_d).abs() <= tol, "{id}: distance {got_d} vs {want_d} (tol {tol:e})");
        if want_d.abs() > tol {
            // Touching pairs (|distance| within the tolerance) may be called either way.
            assert_eq!(got["intersecting"], want["intersecting"], "{id}");
        }
        if let Some(depth) = want.get("depth") {
            assert!((got["depth"].as_f64().unwrap() - depth.as_f64().unwrap()).abs() <= tol, "{id} depth");
        }
        let has_direction = want_d.abs() > tol || ex["input"]["query"] == "penetration";
        if has_direction && want.get("normal").is_some() {
            for key in ["point_a", "point_b"] {
                assert_json_close(&got[key], &want[key], tol, &format!("{id} {key}"));
            }
            // The normal's error is the points' error over their separation (or exact from a face when touching).
            let n_tol = if want_d.abs() > tol { 2.0 * tol / want_d.abs() + 1e-12 } else { 1e-9 };
            assert_json_close(&got["normal"], &want["normal"], n_tol, &format!("{id} normal"));
        }
        checked += 1;
    }
    assert_eq!(checked, examples.len());
}

#[test]
fn every_line_gets_one_answer_in_order_even_when_malformed() {
    let lines = [
        r#"{"id": "a", "query": "distance", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [5, 0, 0]}}"#,
        r#"{"id": "nan", "query": "distance", "a": {"type": "sphere", "radius": "NaN"}, "b": {"type": "sphere", "radius": 1}}"#,
        r#"{"id": "big", "query": "distance", "a": {"type": "sphere", "radius": 1e999}, "b": {"type": "sphere", "radius": 1}}"#,
        r#"{"id": "neg", "query": "distance", "a": {"type": "box", "half_extents": [1, -1, 1]}, "b": {"type": "sphere", "radius": 1}}"#,
        r#"{"id": "empty", "query": "distance", "a": {"type": "convex", "points": []}, "b": {"type": "sphere", "radius": 1}}"#,
        r#"{"id": "type", "query": "distance", "a": {"type": "dodecahedron"}, "b": {"type": "sphere", "radius": 1}}"#,
        r#"{"id": "query", "query": "teleport", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}}"#,
        r#"{"id": "dims", "query": "distance", "a": {"type": "box", "half_extents": [1, 1]}, "b": {"type": "box", "half_extents": [1, 1, 1]}}"#,
        r#"{"id": "quat", "query": "distance", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"rotation": [0, 0, 0, 0]}}"#,
        r#"{"id": "cyl2d", "query": "distance", "a": {"type": "cylinder", "half_height": 1, "radius": 1}, "b": {"type": "circle", "radius": 1}, "pose_b": {"translation": [3, 0]}}"#,
        r#"{"id": "mesh", "query": "distance", "a": {"type": "mesh", "path": "/nonexistent.obj"}, "b": {"type": "sphere", "radius": 1}}"#,
        r#"[1, 2, 3]"#,
        r#"{"id": {"nested": true}, "query": "intersect", "a": {"type": "circle", "radius": 1}, "b": {"type": "circle", "radius": 1}, "pose_b": {"translation": [1.5, 0]}}"#,
    ];
    let answers = run_query(&lines.join("\n"));
    assert_eq!(answers.len(), lines.len(), "one answer per line");
    assert_eq!(answers[0]["id"], "a");
    assert_eq!(answers[0]["distance"].as_f64(), Some(3.0));
    for (i, ans) in answers.iter().enumerate().skip(1).take(11) {
        assert!(ans["error"].is_string(), "line {i} should be an error: {ans}");
    }
    assert_eq!(answers[1]["id"], "nan");
    assert!(answers[3]["error"].as_str().unwrap().contains("negative"));
    assert!(answers[4]["error"].as_str().unwrap().contains("empty"));
    assert!(answers[7]["error"].as_str().unwrap().contains("dimension"));
    assert_eq!(answers[11]["id"], Value::Null);
    assert_eq!(answers[12]["id"]["nested"], true);
    assert_eq!(answers[12]["intersecting"], true);
}

#[test]
fn mesh_files_are_read_as_the_hull_of_their_vertices() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gjk-cli-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let obj = dir.join("cube.obj");
    let mut text = String::new();
    for x in [-1, 1] {
        for y in [-1, 1] {
            for z in [-1, 1] {
                text.push_str(&format!("v {x} {y} {z}\n"));
            }
        }
    }
    text.push_str("v 0 0 0\nf 1 2 3\n");
    std::fs::write(&obj, text).unwrap();
    let line = r#"{"id": 1, "query": "distance", "a": {"type": "mesh", "path": "cube.obj"}, "b": {"type": "sphere", "radius": 0.5}, "pose_b": {"translation": [0, 3, 0]}}"#;
    let ans = run_query_with(&["--mesh-dir", dir.to_str().unwrap()], line);
    std::fs::remove_dir_all(&dir).ok();
    assert!((ans[0]["distance"].as_f64().unwrap() - 1.5).abs() < 1e-12, "{}", ans[0]);
}

/// Adversarial configurations (tests/data/adversarial.jsonl) with answers worked out by hand: one shape inside
/// another at the same centre, coplanar flat hulls, touching faces and vertices, a 1e5 offset, a needle through a
/// thin slab, a collinear hull, tiny shapes, hollow rays from inside, a ray along a box edge, a 2D capsule cap, a
/// touching cast sliding away, a cast at 1e5.
#[test]
fn adversarial_cases_match_hand_computed_answers() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/adversarial.jsonl");
    let input = std::fs::read_to_string(path).unwrap();
    let got = run_query(&input);
    let by_id = |id: &str| got.iter().find(|v| v["id"] == id).unwrap_or_else(|| panic!("no answer for {id}"));
    let num = |id: &str, key: &str| by_id(id)[key].as_f64().unwrap_or_else(|| panic!("{id}.{key}: {}", by_id(id)));
    let close = |id: &str, key: &str, want: f64, tol: f64| {
        let g = num(id, key);
        assert!((g - want).abs() <= tol, "{id}.{key} = {g}, want {want}");
    };
    // Same centre: the smaller half-extent sum along x (1 + 0.5) is the cheapest way out.
    close("same-centre-boxes", "depth", 1.5, 1e-12);
    close("same-centre-2d", "depth", 1.5, 1e-12);
    // Coplanar triangles overlapping in their plane: zero depth along the plane's normal.
    close("flat-coplanar", "depth", 0.0, 1e-15);
    assert!((by_id("flat-coplanar")["normal"][2].as_f64().unwrap().abs() - 1.0).abs() < 1e-12);
    close("touch-face", "depth", 0.0, 1e-15);
    assert!((by_id("touch-face")["normal"][1].as_f64().unwrap() - 1.0).abs() < 1e-12);
    close("touch-vertex", "depth", 0.0, 1e-15);
    // 1e5 offset: the overlap of 0.1 is known to the rounding of the inputs (ulp(1e5) ≈ 1.5e-11).
    close("offset-1e5", "depth", 0.1, 3e-11);
    // The segment pierces the slab: moving it sideways by 1 (the slab's half-width) frees it.
    close("needle-slab", "depth", 1.0, 1e-12);
    // Sphere centre (1, 1, 1.2) is √(2·(1/15)² + (2/15)²) from the segment (0,0,0)-(2,2,2).
    close("collinear-hull", "depth", 0.5 - (2.0 * (1.0f64 / 15.0).powi(2) + (2.0f64 / 15.0).powi(2)).sqrt(), 1e-12);
    close("point-in-box", "depth", 0.7, 1e-12);
    // Crossed capsules with the same centre: cores meet, so the depth is the sum of the radii.
    close("capsules-cross", "depth", 1.0, 1e-12);
    close("tiny", "depth", 1e-4, 1e-15);
    close("ray-inside-hollow-box", "toi", 0.5, 1e-12);
    close("ray-inside-hollow-hull", "toi", 0.5, 1e-12);
    close("ray-graze-edge", "toi", 4.0, 1e-12);
    // y = 1.2 meets the cap circle centred (0, 1), radius 0.5, at x = −√0.21.
    close("ray-2d-capsule", "toi", 5.0 - 0.21f64.sqrt(), 1e-12);
    let n = &by_id("ray-2d-capsule")["normal"];
    assert!(
        (n[0].as_f64().unwrap() + 0.21f64.sqrt() / 0.5).abs() < 1e-12 && (n[1].as_f64().unwrap() - 0.4).abs() < 1e-12
    );
    assert_eq!(by_id("cast-touching-slide")["hit"], false);
    close("cast-offset-1e5", "toi", 1.5, 3e-11);
}

/// Input numbers are read correctly rounded. serde_json's default float parser is fast but may be an ulp off
/// (1.942890293094024e-16 became 1.9428902930940242e-16), so a query would silently run on other coordinates than
/// its line writes; the `float_roundtrip` feature reads them exactly. A point's closest point is the point itself,
/// so the answer echoes the coordinate as it was read.
#[test]
fn input_numbers_are_read_exactly() {
    let line = r#"{"id": 1, "query": "distance", "a": {"type": "point", "at": [1.942890293094024e-16, 0.1]}, "b": {"type": "point", "at": [3, 7]}}"#;
    // As text: a JSON reader in this test could be as lossy as the one under test and read it back "right".
    let out = query_text(line);
    assert!(out.contains(r#""point_a":[1.942890293094024e-16,0.1]"#), "{out}");
}

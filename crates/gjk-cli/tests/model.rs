//! One definition of the format: the query model is the library's serde types, so a line's shapes written back
//! by serde and read again give the same answer, bit for bit. Run over every input of docs/cli.md, the shared
//! worked examples and the adversarial cases.

use std::path::PathBuf;

use gjk::math::{DVec2, DVec3};
use gjk_cli::model::{ShapeModel, Space};
use gjk_cli::parse::dimension;
use gjk_cli::query::answer_line;
use serde::Deserialize;
use serde_json::Value;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every query line the tests know: docs/cli.md's inputs, tests/data's examples and adversarial cases.
fn lines() -> Vec<String> {
    let docs = std::fs::read_to_string(manifest().join("../../docs/cli.md")).unwrap();
    let mut out: Vec<String> = Vec::new();
    let mut in_input = false;
    for line in docs.lines() {
        if line.starts_with("```") {
            in_input = line.trim() == "```json input";
        } else if in_input && line.starts_with('{') {
            out.push(line.to_string());
        }
    }
    let examples = std::fs::read_to_string(manifest().join("tests/data/cli-examples.jsonl")).unwrap();
    for l in examples.lines().filter(|l| !l.trim().is_empty()) {
        out.push(serde_json::from_str::<Value>(l).unwrap()["input"].to_string());
    }
    let adversarial = std::fs::read_to_string(manifest().join("tests/data/adversarial.jsonl")).unwrap();
    out.extend(adversarial.lines().filter(|l| !l.trim().is_empty()).map(String::from));
    out
}

/// The line with each shape read by the model and written back by serde.
fn rewritten<V: Space>(line: &Value) -> Value {
    let mut line = line.clone();
    for key in ["a", "b"] {
        if let Some(shape) = line.get(key) {
            let model = ShapeModel::<V>::deserialize(shape).unwrap_or_else(|e| panic!("{key} of {line}: {e}"));
            line[key] = serde_json::to_value(&model).expect("a shape serialises");
        }
    }
    line
}

#[test]
fn shapes_written_back_by_serde_give_the_same_answers() {
    let lines = lines();
    assert!(lines.len() > 40, "{} lines", lines.len());
    let mut checked = 0;
    for text in &lines {
        let line: Value = serde_json::from_str(text).unwrap();
        let want = answer_line(text);
        if want.contains("\"error\"") {
            continue;
        }
        let again = match dimension(line.as_object().unwrap()).unwrap() {
            2 => rewritten::<DVec2>(&line),
            _ => rewritten::<DVec3>(&line),
        };
        assert_eq!(answer_line(&again.to_string()), want, "{text}\nrewritten as {again}");
        checked += 1;
    }
    assert!(checked > 40, "{checked} lines checked");
}

#[test]
fn shapes_are_written_as_their_type_and_parameters() {
    let v: Value = serde_json::from_str(
        r#"{"type": "rounded", "shape": {"type": "segment", "a": [0, 0], "b": [0, 2]}, "radius": 0.1}"#,
    )
    .unwrap();
    let model = ShapeModel::<DVec2>::deserialize(&v).unwrap();
    assert_eq!(
        serde_json::to_string(&model).unwrap(),
        r#"{"type":"rounded","shape":{"type":"segment","a":[0.0,0.0],"b":[0.0,2.0]},"radius":0.1}"#
    );
    let v: Value = serde_json::from_str(r#"{"type": "ball", "radius": 2}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&ShapeModel::<DVec3>::deserialize(&v).unwrap()).unwrap(),
        r#"{"type":"sphere","radius":2.0}"#
    );
}

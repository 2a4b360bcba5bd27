//! Tests of `gjk_cli::stream`'s parts (integration tests rather than unit tests: the library is then built once, not
//! a second time for its own tests).

use gjk_cli::query::Settings;
use gjk_cli::stream::*;
use serde_json::Value;

fn run(input: &[u8], max: usize) -> Vec<Value> {
    let mut out = Vec::new();
    answer_stream(input, &mut out, &Settings::default(), Limits { max_line_bytes: max }).unwrap();
    String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const SPHERES: &str = r#"{"id": 1, "query": "distance", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [3, 0, 0]}}"#;

#[test]
fn line_breaks_of_every_kind_and_a_missing_last_one() {
    let input = format!("{SPHERES}\r\n{SPHERES}\r{SPHERES}\n\n  \r\n{SPHERES}");
    let got = run(input.as_bytes(), 1 << 20);
    assert_eq!(got.len(), 4);
    assert!(got.iter().all(|v| v["distance"] == 1.0));
}

#[test]
fn an_over_long_line_is_skipped_with_its_id_and_the_next_is_answered() {
    let long = format!("{{\"id\": \"long\", \"query\": \"distance\", \"pad\": \"{}\"}}", "x".repeat(300_000));
    let input = format!("{long}\n{SPHERES}\n");
    let got = run(input.as_bytes(), 100_000);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["id"], "long");
    assert!(got[0]["error"].as_str().unwrap().contains("over the limit of 100000"), "{}", got[0]);
    assert_eq!(got[1]["distance"], 1.0);
}

#[test]
fn the_limit_counts_bytes_across_read_blocks() {
    // Exactly at the limit is answered; one byte more is not.
    let at = SPHERES.len();
    assert_eq!(run(format!("{SPHERES}\n").as_bytes(), at)[0]["distance"], 1.0);
    assert!(run(format!("{SPHERES}\n").as_bytes(), at - 1)[0]["error"].is_string());
    let padded = format!("{}{SPHERES}", " ".repeat(3 * BLOCK));
    assert_eq!(run(padded.as_bytes(), padded.len())[0]["distance"], 1.0);
    assert!(run(padded.as_bytes(), padded.len() - 1)[0]["error"].is_string());
}

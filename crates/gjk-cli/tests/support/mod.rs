//! What the JSON Lines tests share: running `gjk query` on lines and reading the answers' numbers.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `gjk query` on `lines` (one JSON value per line) and returns its answers, checked to be one per line, in
/// order, with the same ids.
pub fn run(lines: &[Value]) -> Vec<Value> {
    run_with(&[], lines)
}

/// [`run`] with more arguments after `gjk query` (`--mesh-dir DIR`, …).
pub fn run_with(args: &[&str], lines: &[Value]) -> Vec<Value> {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gjk"))
        .arg("query")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gjk runs");
    // Written from another thread: gjk answers as it reads, so a long input would fill both pipes otherwise.
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).expect("write"));
    let out = child.wait_with_output().expect("gjk ends");
    writer.join().expect("input written");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), lines.len(), "one answer per line");
    for (l, a) in lines.iter().zip(&answers) {
        assert_eq!(l["id"], a["id"]);
    }
    answers
}

/// The numbers of a JSON array.
pub fn nums(v: &Value) -> Vec<f64> {
    v.as_array().unwrap_or_else(|| panic!("an array: {v}")).iter().map(|x| x.as_f64().unwrap()).collect()
}

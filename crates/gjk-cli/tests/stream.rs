//! `gjk query` as a stream, end to end (the binary is spawned): nothing lost, nothing blocked, nothing read that
//! should not be. Each test is named after the hostile input it guards against (issue 11, section 2).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

const SPHERES: &str = r#"{"id": "ok", "query": "distance", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [3, 0, 0]}}"#;

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gjk"))
        .arg("query")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gjk runs")
}

/// Runs `gjk query ARGS` on `input` (bytes), and fails the test if it takes longer than 30 s (a hang).
fn run_bytes(args: &[&str], input: &[u8]) -> Vec<Value> {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The child may stop reading early only by a bug; ignore a broken pipe and let the asserts say so.
        let _ = stdin.write_all(&input);
    });
    let (tx, rx) = mpsc::channel();
    let mut stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        let _ = tx.send(s);
    });
    let text = match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(s) => s,
        Err(_) => {
            let _ = child.kill();
            panic!("gjk query {args:?} did not finish within 30 s");
        }
    };
    writer.join().expect("writer");
    let status = child.wait().expect("gjk ends");
    assert!(status.success(), "gjk query exited with {status:?}");
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
}

fn run(args: &[&str], input: &str) -> Vec<Value> {
    run_bytes(args, input.as_bytes())
}

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or_else(|| panic!("expected an error line: {v}"))
}

/// Invalid UTF-8 used to end the stream with exit 1, losing every later line.
#[test]
fn invalid_utf8_is_an_error_line_and_the_stream_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"id\": \"bad\", \"query\": \"distance\", \"x\": \"\xff\xfe\"}\n");
    input.extend_from_slice(b"\xc3\x28\n");
    input.extend_from_slice(SPHERES.as_bytes());
    input.push(b'\n');
    let got = run_bytes(&[], &input);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["id"], "bad", "the id is read around the bad bytes");
    assert!(error_of(&got[0]).contains("invalid UTF-8"));
    assert_eq!(got[1]["id"], Value::Null);
    assert!(error_of(&got[1]).contains("invalid UTF-8"));
    assert_eq!(got[2]["distance"], 1.0);
}

#[test]
fn a_last_line_without_a_newline_is_answered() {
    let got = run(&[], &format!("{SPHERES}\n{SPHERES}"));
    assert_eq!(got.len(), 2);
    assert_eq!(got[1]["distance"], 1.0);
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let got = run(&[], &format!("\u{feff}{SPHERES}\n\u{feff}{SPHERES}\n"));
    assert_eq!(got.len(), 2);
    assert!(got.iter().all(|v| v["id"] == "ok" && v["distance"] == 1.0), "{got:?}");
}

/// Old Mac files end lines with a lone CR: each is a line of its own, not one long line.
#[test]
fn lone_cr_and_crlf_end_lines() {
    let got = run(&[], &format!("{SPHERES}\r{SPHERES}\r\n{SPHERES}\r\r\n\n{SPHERES}"));
    assert_eq!(got.len(), 4);
    assert!(got.iter().all(|v| v["distance"] == 1.0));
}

/// A line without an end used to grow memory until the process aborted. Over the limit, the line is skipped to
/// its end with only its first bytes kept: an error line with its id, and the next line is answered.
#[test]
fn an_over_long_line_is_skipped_with_its_id() {
    let long = format!(
        r#"{{"id": "long", "query": "distance", "a": {{"type": "convex", "points": [{}[0, 0, 0]]}}}}"#,
        "[1, 2, 3], ".repeat(50_000)
    );
    let got = run(&["--max-line-bytes", "100000"], &format!("{long}\n{SPHERES}\n"));
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["id"], "long");
    assert!(error_of(&got[0]).contains("over the limit of 100000"), "{}", got[0]);
    assert_eq!(got[1]["distance"], 1.0);
}

/// Peak memory of a process, from /proc (Linux).
#[cfg(target_os = "linux")]
fn peak_rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
    line.split_whitespace().nth(1).expect("a number").parse().expect("kB")
}

/// 200 MB on one line, with the default limit (16 MiB): the process must not hold it.
#[cfg(target_os = "linux")]
#[test]
fn a_200_mb_line_is_not_held_in_memory() {
    let mut child = spawn(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    stdin.write_all(br#"{"id": "huge", "pad": ""#).unwrap();
    let block = vec![b'x'; 1 << 20];
    for _ in 0..200 {
        stdin.write_all(&block).unwrap();
    }
    stdin.write_all(b"\"}\n").unwrap();
    stdin.write_all(SPHERES.as_bytes()).unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let mut first = String::new();
    let mut second = String::new();
    out.read_line(&mut first).unwrap();
    out.read_line(&mut second).unwrap();
    let peak = peak_rss_kb(child.id());
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["id"], "huge");
    assert!(error_of(&first).contains("over the limit"));
    assert!(second.contains("\"distance\":1.0"), "{second}");
    // The 16 MiB line limit bounds what is held; 200 MB were read.
    assert!(peak < 64 * 1024, "peak resident memory {peak} kB");
}

/// A client that sends one line and waits for its answer used to deadlock: answers were buffered until ~127 lines.
#[test]
fn one_line_then_wait_gets_its_answer() {
    let mut child = spawn(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("UTF-8 output")).is_err() {
                break;
            }
        }
    });
    for round in 0..3 {
        let line = SPHERES.replace("\"ok\"", &format!("\"round-{round}\""));
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let answer = rx.recv_timeout(Duration::from_secs(10)).unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("no answer to line {round} within 10 s while the client waits");
        });
        assert!(answer.contains(&format!("\"round-{round}\"")), "{answer}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// When the JSON parser rejects a line, the id is still read where it can be: numbers out of range, nesting over
/// serde_json's limit of 127.
#[test]
fn the_id_of_a_rejected_line_is_recovered() {
    let deep = format!(r#"{{"id": "deep", "query": "distance", "a": {}1{}}}"#, "[".repeat(200), "]".repeat(200));
    let lines = [
        r#"{"id": "big", "query": "distance", "a": {"type": "sphere", "radius": 1e400}, "b": {"type": "sphere", "radius": 1}}"#.to_string(),
        deep,
        r#"{"query": "distance", "id": {"run": 4, "case": [1, 2]}, "a": 1e999}"#.to_string(),
        r#"{"id": 1e400}"#.to_string(),
        "not json".to_string(),
    ];
    let got = run(&[], &lines.join("\n"));
    assert_eq!(got.len(), 5);
    assert_eq!(got[0]["id"], "big");
    assert_eq!(got[1]["id"], "deep");
    assert!(error_of(&got[1]).contains("recursion limit"));
    assert_eq!(got[2]["id"]["case"][1], 2);
    assert_eq!(got[3]["id"], Value::Null);
    assert_eq!(got[4]["id"], Value::Null);
    assert!(got.iter().all(|v| v["error"].is_string()));
}

fn line(id: &str, query: &str, rest: &str) -> String {
    format!(r#"{{"id": "{id}", "query": "{query}", {rest}}}"#)
}

/// Quaternions of any non-zero finite length are normalised (1e-300 once underflowed to "zero"); booleans and
/// lengths are checked alike in every query; a 2D shape name in a 3D line is an error, not a silent sphere.
#[test]
fn poses_flags_and_names_are_validated_alike() {
    let pair = r#""a": {"type": "box", "half_extents": [1, 1, 1]}, "b": {"type": "sphere", "radius": 0.5}"#;
    let lines = [
        line(
            "tiny-quat",
            "distance",
            &format!(r#"{pair}, "pose_b": {{"translation": [3, 0, 0], "rotation": [0, 0, 1e-300, 1e-300]}}"#),
        ),
        line(
            "huge-quat",
            "distance",
            &format!(
                r#"{pair}, "pose_a": {{"rotation": [0, 0, 1e300, 1e300]}}, "pose_b": {{"translation": [3, 0, 0]}}"#
            ),
        ),
        line("zero-quat", "distance", &format!(r#"{pair}, "pose_b": {{"rotation": [0, 0, 0, 0]}}"#)),
        line(
            "solid",
            "ray_cast",
            r#""a": {"type": "sphere", "radius": 1}, "origin": [0, 0, 0], "direction": [1, 0, 0], "solid": "no""#,
        ),
        line("ignore", "shape_cast", &format!(r#"{pair}, "ignore_initial_overlap": 1"#)),
        line(
            "ray-toi",
            "ray_cast",
            r#""a": {"type": "sphere", "radius": 1}, "origin": [0, 0, 0], "direction": [1, 0, 0], "max_toi": -1"#,
        ),
        line("cast-toi", "shape_cast", &format!(r#"{pair}, "max_toi": -1"#)),
        line("prediction", "contact", &format!(r#"{pair}, "prediction": -1"#)),
        line(
            "circle-3d",
            "distance",
            r#""a": {"type": "circle", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [3, 0, 0]}"#,
        ),
        line(
            "polygon-3d",
            "distance",
            r#""a": {"type": "polygon", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}, "b": {"type": "sphere", "radius": 1}"#,
        ),
        line(
            "cylinder-2d",
            "distance",
            r#""a": {"type": "cylinder", "half_height": 1, "radius": 1}, "b": {"type": "circle", "radius": 1}, "pose_b": {"translation": [3, 0]}"#,
        ),
    ];
    let got = run(&[], &lines.join("\n"));
    // A quarter turn about z of a unit cube does not change its distance to the sphere 3 away: 1.5.
    assert!((got[0]["distance"].as_f64().unwrap() - 1.5).abs() < 1e-12, "{}", got[0]);
    assert!((got[1]["distance"].as_f64().unwrap() - 1.5).abs() < 1e-12, "{}", got[1]);
    assert!(error_of(&got[2]).contains("zero"));
    assert!(error_of(&got[3]).starts_with("solid: invalid type"), "{}", got[3]);
    assert!(error_of(&got[4]).starts_with("ignore_initial_overlap: invalid type"), "{}", got[4]);
    assert_eq!(error_of(&got[5]), "max_toi must not be negative");
    assert_eq!(error_of(&got[6]), "max_toi must not be negative");
    assert_eq!(error_of(&got[7]), "prediction must not be negative");
    assert!(error_of(&got[8]).contains("\"circle\" is 2D"), "{}", got[8]);
    assert!(error_of(&got[9]).contains("\"polygon\" is 2D"), "{}", got[9]);
    assert!(error_of(&got[10]).contains("only in 3D"), "{}", got[10]);
}

/// Issue 11 §3's reproducers of nulls in numeric fields (overflowing squared lengths, a 1e308 sphere, a 1e154
/// direction, a zero direction from inside a hollow shape): whatever the library answers, a line carries numbers
/// where numbers belong, or is an error line.
#[test]
fn no_answer_has_a_null_number() {
    let lines = [
        line(
            "1e155",
            "distance",
            r#""a": {"type": "box", "half_extents": [1e155, 1e155, 1e155]}, "b": {"type": "box", "half_extents": [1e155, 1e155, 1e155]}, "pose_b": {"translation": [5e155, 0, 0]}"#,
        ),
        line(
            "ball-1e308",
            "ray_cast",
            r#""a": {"type": "sphere", "radius": 1e308}, "origin": [-1.5e308, 0, 0], "direction": [1, 0, 0]"#,
        ),
        line(
            "dir-1e154",
            "ray_cast",
            r#""a": {"type": "box", "half_extents": [1, 1, 1]}, "origin": [-5, 0, 0], "direction": [1e154, 0, 0]"#,
        ),
        line(
            "hollow-zero",
            "ray_cast",
            r#""a": {"type": "ellipsoid", "radii": [1, 2, 3]}, "origin": [0, 0, 0], "direction": [0, 0, 0], "solid": false"#,
        ),
        line(
            "cyl-1e308",
            "intersect",
            r#""a": {"type": "sphere", "radius": 1}, "b": {"type": "cylinder", "half_height": 1e308, "radius": 1e308}"#,
        ),
        line(
            "pen-1e300",
            "penetration",
            r#""a": {"type": "box", "half_extents": [1e300, 1e300, 1e300]}, "b": {"type": "box", "half_extents": [1e300, 1e300, 1e300]}, "pose_b": {"translation": [1.7e308, 0, 0]}"#,
        ),
        line(
            "cast-1e300",
            "shape_cast",
            r#""a": {"type": "sphere", "radius": 1e300}, "b": {"type": "sphere", "radius": 1e300}, "pose_b": {"translation": [1.7e308, 0, 0]}, "velocity_b": [-1e308, 0, 0]"#,
        ),
    ];
    let got = run(&[], &lines.join("\n"));
    assert_eq!(got.len(), lines.len());
    for v in &got {
        if v.get("error").is_some() {
            continue;
        }
        let missed = v["hit"] == false;
        for (key, field) in v.as_object().unwrap() {
            let nullable = missed && ["toi", "normal", "point", "point_a", "point_b"].contains(&key.as_str());
            if !nullable && key != "id" {
                assert!(!has_null(field), "{key} of {v}");
            }
        }
    }
}

fn has_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.iter().any(has_null),
        Value::Object(o) => o.values().any(has_null),
        _ => false,
    }
}

/// A folder of mesh files for the path tests, made fresh.
fn mesh_folder(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("meshes/parts")).unwrap();
    let cube: String = [-1, 1]
        .iter()
        .flat_map(|x| [-1, 1].iter().flat_map(move |y| [-1, 1].iter().map(move |z| format!("v {x} {y} {z}\n"))))
        .collect();
    std::fs::write(dir.join("meshes/parts/cube.obj"), &cube).unwrap();
    std::fs::write(dir.join("outside.obj"), &cube).unwrap();
    dir
}

fn mesh_line(id: &str, path: &str) -> String {
    let path = serde_json::to_string(path).unwrap();
    line(
        id,
        "distance",
        &format!(
            r#""a": {{"type": "mesh", "path": {path}}}, "b": {{"type": "sphere", "radius": 0.5}}, "pose_b": {{"translation": [0, 3, 0]}}"#
        ),
    )
}

/// Mesh paths used to reach any file: `/dev/stdin` swallowed the rest of the input, a FIFO blocked for ever,
/// `/dev/zero` grew memory until abort, `..` and absolute paths read anything, and errors quoted the file. Now a
/// path resolves inside the mesh folder, only regular files are opened, and none of these blocks.
#[cfg(unix)]
#[test]
fn mesh_paths_stay_in_their_folder_and_never_block() {
    use std::os::unix::fs::symlink;
    let dir = mesh_folder("mesh-paths");
    let meshes = dir.join("meshes");
    let fifo = meshes.join("pipe.obj");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    symlink("/dev/zero", meshes.join("zero.obj")).unwrap();
    symlink("/dev/stdin", meshes.join("stdin.obj")).unwrap();
    symlink(dir.join("outside.obj"), meshes.join("escape.obj")).unwrap();
    symlink("parts/cube.obj", meshes.join("inside.obj")).unwrap();
    std::fs::write(meshes.join("secret.obj"), "v 1 2 3\nv 4 s3cr3t-token 6\n").unwrap();
    std::fs::write(meshes.join("big.obj"), "v 0 0 0\n".repeat(100)).unwrap();
    std::fs::write(meshes.join("cube.txt"), "v 0 0 0\n").unwrap();
    let outside = dir.join("outside.obj");
    let cases = [
        ("relative", "parts/cube.obj"),
        ("link-inside", "inside.obj"),
        ("fifo", "pipe.obj"),
        ("dev-zero", "zero.obj"),
        ("dev-stdin", "stdin.obj"),
        ("link-outside", "escape.obj"),
        ("dotdot", "../outside.obj"),
        ("absolute", outside.to_str().unwrap()),
        ("secret", "secret.obj"),
        ("big", "big.obj"),
        ("extension", "cube.txt"),
        ("raw-dev", "/dev/zero"),
        ("folder", "parts.obj"),
    ];
    let mut input: Vec<String> = cases.iter().map(|(id, p)| mesh_line(id, p)).collect();
    input.push(SPHERES.to_string());
    let start = Instant::now();
    let got = run(&["--mesh-dir", meshes.to_str().unwrap(), "--max-mesh-bytes", "500"], &input.join("\n"));
    assert!(start.elapsed() < Duration::from_secs(20), "took {:?}", start.elapsed());
    assert_eq!(got.len(), cases.len() + 1, "every line answered; /dev/stdin swallowed nothing");
    let by_id = |id: &str| got.iter().find(|v| v["id"] == id).unwrap_or_else(|| panic!("no answer for {id}"));
    assert!((by_id("relative")["distance"].as_f64().unwrap() - 1.5).abs() < 1e-12);
    assert!((by_id("link-inside")["distance"].as_f64().unwrap() - 1.5).abs() < 1e-12);
    for id in ["fifo", "dev-zero", "dev-stdin", "link-outside", "dotdot", "absolute", "big", "extension", "raw-dev"] {
        assert!(by_id(id)["error"].is_string(), "{id}: {}", by_id(id));
    }
    assert!(error_of(by_id("fifo")).contains("not a regular file"));
    assert!(error_of(by_id("dev-zero")).contains("outside the mesh folder"));
    assert!(error_of(by_id("link-outside")).contains("outside the mesh folder"));
    assert!(error_of(by_id("dotdot")).contains("outside the mesh folder"));
    assert!(error_of(by_id("absolute")).contains("outside the mesh folder"));
    assert!(error_of(by_id("big")).contains("limit of 500 bytes"));
    assert!(error_of(by_id("extension")).contains("unknown extension"));
    assert!(!error_of(by_id("secret")).contains("s3cr3t"), "file contents must not be echoed");
    assert_eq!(got.last().unwrap()["distance"], 1.0);
    std::fs::remove_dir_all(&dir).ok();
}

/// The working directory is the default mesh folder.
#[test]
fn meshes_are_read_from_the_working_directory_by_default() {
    let dir = mesh_folder("mesh-cwd");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gjk"))
        .arg("query")
        .current_dir(dir.join("meshes"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!("{}\n{}\n", mesh_line("cwd", "parts/cube.obj"), mesh_line("up", "../outside.obj"));
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let got: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!((got[0]["distance"].as_f64().unwrap() - 1.5).abs() < 1e-12, "{}", got[0]);
    assert!(error_of(&got[1]).contains("outside the mesh folder"));
    std::fs::remove_dir_all(Path::new(&dir)).ok();
}

#[test]
fn bad_arguments_are_usage_errors() {
    for args in [&["--max-line-bytes", "lots"][..], &["--frobnicate"], &["a.jsonl", "b.jsonl"]] {
        let out = spawn(args).wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage: gjk query"), "{args:?}");
    }
}

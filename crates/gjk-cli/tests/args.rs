//! The command line itself: `--version`, `--help` on every command (`gjk query --help` once opened a file named
//! `--help`), `gjk help QUERY` with the query's fields from docs/cli.md, and usage errors (exit 2).

use std::process::{Command, Output, Stdio};

fn gjk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gjk")).args(args).stdin(Stdio::null()).output().expect("gjk runs")
}

fn stdout(args: &[&str]) -> String {
    let out = gjk(args);
    assert!(out.status.success(), "gjk {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn version() {
    let want = format!("gjk {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(stdout(&["--version"]), want);
    assert_eq!(stdout(&["-V"]), want);
}

#[test]
fn every_command_has_help() {
    for (command, first) in [
        ("query", "usage: gjk query"),
        ("demo", "usage: gjk demo"),
        ("draw", "usage: gjk draw"),
        ("serve", "usage: gjk serve"),
        ("help", "gjk: convex collision"),
    ] {
        for flag in ["--help", "-h"] {
            let text = stdout(&[command, flag]);
            assert!(text.starts_with(first), "gjk {command} {flag}: {text}");
        }
    }
    assert!(stdout(&["--help"]).contains("help [TOPIC]"));
    assert!(stdout(&["help"]).contains("query [FILE]"));
}

#[test]
fn help_on_a_query_gives_its_input_and_output_fields() {
    let text = stdout(&["help", "shape_cast"]);
    for field in ["velocity_a", "angular_velocity_b", "target_distance", "ignore_initial_overlap", "point_b", "toi"] {
        assert!(text.contains(field), "{field} missing from:\n{text}");
    }
    let text = stdout(&["help", "ray_cast"]);
    assert!(text.contains("\"origin\"") && text.contains("\"solid\"") && text.contains("hollow"), "{text}");
    let text = stdout(&["help", "contact"]);
    assert!(text.contains("\"prediction\"") && text.contains("stable across frames"), "{text}");
    assert!(stdout(&["help", "shapes"]).contains("| `capsule` |"));
    assert!(stdout(&["help", "limits"]).contains("--mesh-dir"));
}

#[test]
fn usage_errors_exit_2_with_the_usage() {
    for args in
        [&[][..], &["frobnicate"], &["help", "teleport"], &["query", "--bogus"], &["draw", "--out"], &["demo", "x"]]
    {
        let out = gjk(args);
        assert_eq!(out.status.code(), Some(2), "gjk {args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage"), "gjk {args:?}");
    }
}

/// A file that cannot be read is a failure (exit 1) with the reason, not a usage error.
#[test]
fn an_unreadable_query_file_is_a_failure() {
    let out = gjk(&["query", "/nonexistent/queries.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/queries.jsonl"));
}

#[test]
fn the_demo_runs() {
    let text = stdout(&["demo"]);
    assert!(text.contains("GJK on the textbook example") && text.contains("contact manifold"), "{text}");
}

//! The CLI half of the harness: query lines — valid ones from the library cases, slightly broken ones and hostile
//! ones (invalid UTF-8, 1e400, deep nesting, a BOM, CR, very long lines, wrong types, 2D/3D mixing, missing
//! fields, unknown shapes) — fed to `gjk_cli::query::answer_line`, and in batches through the `gjk query` binary
//! to check the stream: one output line per input line, same order, same id, no null in a numeric field, exit 0.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::ctx::{cli_line, least_time, Query, SLOW_SECONDS};
use crate::gen::Case;
use crate::report::{Failure, Report, Severity};
use crate::rng::Rng;

/// One generated input line (bytes: it may not be UTF-8) and the id it carries, if any.
#[derive(Clone, Debug)]
pub struct Line {
    pub bytes: Vec<u8>,
    /// The id the answer must carry (`None`: the line has none that a reader could recover).
    pub id: Option<Value>,
    /// What kind of line it is (statistics, classes).
    pub kind: &'static str,
    /// What the answer must be.
    pub expect: Expect,
}

/// What a line's answer must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A query answer (a valid line, or one whose oddity the CLI promises to absorb: a BOM, a CR, a quaternion
    /// of tiny length).
    Answer,
    /// An error line (the input is wrong).
    Error,
    /// Either is right (a hollow ray with a zero direction: an error or a miss).
    Either,
}

const QUERIES: [Query; 7] = [
    Query::Intersection,
    Query::Distance,
    Query::Penetration,
    Query::Contact,
    Query::RaySolid,
    Query::RayHollow,
    Query::TimeOfImpact,
];

/// The lines of one case: a valid line of a random query (when the CLI can express the shapes), and a broken or
/// hostile variant of it.
pub fn lines(case: &Case, seed: u64, index: u64) -> Vec<Line> {
    let mut rng = Rng::for_case(seed ^ 0xC11_11AE, index);
    let id = format!("{seed}:{index}");
    let q = rng.pick(&QUERIES);
    let q = if q == Query::TimeOfImpact && rng.chance(0.5) { Query::ShapeCast } else { q };
    let base = cli_line(case, q, false, &id).map(|s| s.split("   (f32").next().unwrap_or("").to_string());
    let base = base.unwrap_or_else(|| {
        // Shapes the CLI cannot write: a plain pair of the same dimension instead.
        let t = vec![1.5; case.dim];
        json!({"id": id, "query": "distance", "a": {"type": "sphere", "radius": 1}, "b": {"type": "box", "half_extents": vec![0.5; case.dim]}, "pose_b": {"translation": t}}).to_string()
    });
    let zero_ray = matches!(q, Query::RaySolid | Query::RayHollow) && case.ray_direction.iter().all(|&x| x == 0.0);
    let expect = if zero_ray { Expect::Either } else { Expect::Answer };
    let mut out = vec![Line { bytes: base.clone().into_bytes(), id: Some(json!(id)), kind: "valid", expect }];
    out.push(mutate(&mut rng, &base, &id, case.dim));
    out
}

/// A broken or hostile variant of a valid line.
fn mutate(rng: &mut Rng, base: &str, id: &str, dim: usize) -> Line {
    let v: Value = serde_json::from_str(base).expect("the harness writes valid JSON");
    let idv = Some(json!(id));
    let with = |f: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        f(&mut w);
        w.to_string()
    };
    let query = v["query"].as_str().unwrap_or("").to_string();
    let (kind, s, id): (&'static str, Vec<u8>, Option<Value>) = match rng.below(22) {
        0 => {
            // Invalid UTF-8 inside a string value: the line must get an error answer, the stream go on.
            let mut b = base.as_bytes().to_vec();
            let at = b.iter().position(|&c| c == b'q').unwrap_or(1);
            b.splice(at..at, [0xff, 0xfe, 0xc3]);
            ("invalid-utf8", b, None)
        }
        1 => (
            "huge-number-1e400",
            with(&|w| w["a"] = json!({"type": "sphere", "radius": 1}))
                .replacen("\"radius\":1", "\"radius\":1e400", 1)
                .into_bytes(),
            idv,
        ),
        2 => {
            let depth = 100 + rng.below(10_000);
            let nested = format!("{}0{}", "[".repeat(depth), "]".repeat(depth));
            ("deep-nesting", with(&|w| w["extra"] = json!(null)).replacen("null", &nested, 1).into_bytes(), idv)
        }
        3 => {
            let mut b = vec![0xEF, 0xBB, 0xBF];
            b.extend(base.as_bytes());
            ("bom", b, idv)
        }
        4 => ("trailing-cr", format!("{base}\r").into_bytes(), idv),
        5 => {
            // A very long line: a huge point list (valid JSON), 1–4 MB.
            let n = 20_000 + rng.below(60_000);
            let pts: Vec<Vec<f64>> =
                (0..n).map(|i| (0..dim).map(|k| ((i * 7 + k * 3) % 101) as f64 / 101.0).collect()).collect();
            ("very-long", with(&|w| w["a"] = json!({"type": "convex", "points": pts})).into_bytes(), idv)
        }
        6 => ("wrong-type-radius", with(&|w| w["a"] = json!({"type": "sphere", "radius": "1"})).into_bytes(), idv),
        7 => ("wrong-type-query", with(&|w| w["query"] = json!(7)).into_bytes(), idv),
        8 => {
            let other = if dim == 2 { vec![1.0, 2.0, 3.0] } else { vec![1.0, 2.0] };
            ("dimension-mix", with(&|w| w["pose_b"] = json!({"translation": other})).into_bytes(), idv)
        }
        9 => (
            "missing-b",
            with(&|w| {
                w.as_object_mut().map(|o| o.remove("b"));
            })
            .into_bytes(),
            idv,
        ),
        10 => (
            "missing-a",
            with(&|w| {
                w.as_object_mut().map(|o| o.remove("a"));
            })
            .into_bytes(),
            idv,
        ),
        11 => ("unknown-shape", with(&|w| w["a"] = json!({"type": "dodecahedron", "radius": 1})).into_bytes(), idv),
        12 => ("unknown-query", with(&|w| w["query"] = json!("teleport")).into_bytes(), idv),
        13 => {
            let k = base.len() / 2 + rng.below(base.len() / 2 + 1);
            ("truncated", base.as_bytes()[..k.min(base.len())].to_vec(), None)
        }
        14 => ("not-an-object", b"[1, 2, 3]".to_vec(), None),
        15 => {
            let big = rng.pick(&[1e154, 1e155, 1e200, 1e300, 1.7e308]);
            ("huge-finite", with(&|w| w["pose_b"] = json!({"translation": vec![big; dim]})).into_bytes(), idv)
        }
        16 => {
            let t = vec![0.0; dim];
            if dim == 2 {
                let angle = rng.pick(&[1e300, -1e-320, 1e17]);
                ("odd-angle", with(&|w| w["pose_a"] = json!({"translation": t, "rotation": angle})).into_bytes(), idv)
            } else {
                let k = rng.below(4);
                let q = [
                    [0.0, 0.0, 0.0, 0.0],
                    [1e-300, 0.0, 0.0, 1e-300],
                    [1e300, 1e300, 0.0, 1e300],
                    [0.0, 0.0, 0.0, 1e-320],
                ][k];
                let kind = if k == 0 { "zero-quaternion" } else { "odd-quaternion" };
                (kind, with(&|w| w["pose_a"] = json!({"translation": t, "rotation": q})).into_bytes(), idv)
            }
        }
        17 => {
            let r = rng.pick(&[1e308, 1e-308, 0.0, 5e-324]);
            ("extreme-radius", with(&|w| w["a"] = json!({"type": "sphere", "radius": r})).into_bytes(), idv)
        }
        18 => {
            // The shape the query reads: a ray cast has no `b` (an unknown field is ignored, by design).
            let name = if dim == 2 { "cylinder" } else { "circle" };
            let key = if query == "ray_cast" { "a" } else { "b" };
            (
                "other-dimension-shape",
                with(&|w| w[key] = json!({"type": name, "radius": 1, "half_height": 1})).into_bytes(),
                idv,
            )
        }
        19 => (
            "wrong-type-solid",
            with(&|w| {
                w["solid"] = json!("yes");
                w["ignore_initial_overlap"] = json!(1);
            })
            .into_bytes(),
            idv,
        ),
        20 => ("nan-literal", base.replacen("\"query\"", "\"nan\":NaN,\"query\"", 1).into_bytes(), idv),
        _ => {
            let zero = vec![0.0; dim];
            (
                "zero-direction",
                with(&|w| {
                    w["query"] = json!("ray_cast");
                    w["origin"] = json!(zero);
                    w["direction"] = json!(zero);
                    w["solid"] = json!(false);
                    w["max_toi"] = json!(10);
                })
                .into_bytes(),
                idv,
            )
        }
    };
    use Expect::*;
    let expect = match kind {
        "deep-nesting" | "very-long" | "huge-finite" | "zero-direction" => Either,
        // A sphere of radius 1e308 may put a time or a point past f64's range (a cast with a short direction from
        // its centre, a closest point beyond its centre): the CLI refuses that line rather than print a number it
        // cannot hold.
        "extreme-radius" if s.windows(4).any(|w| w == b"+308" || w == b"e308") => Either,
        "bom" | "trailing-cr" | "extreme-radius" | "odd-quaternion" | "odd-angle" => Answer,
        "missing-b" if query == "ray_cast" => Answer,
        "wrong-type-solid" if !matches!(query.as_str(), "ray_cast" | "shape_cast") => Either,
        "truncated" if s.len() == base.len() => Answer,
        _ => Error,
    };
    Line { bytes: s, id, kind, expect }
}

/// Fields that hold numbers (or vectors of numbers) in an answer; `null` is allowed only where docs/cli.md says
/// so (the time, normal and points of a cast that missed).
const NUMERIC: [&str; 9] =
    ["distance", "depth", "toi", "normal", "point", "point_a", "point_b", "iterations", "contacts"];

/// Checks one answer of `answer_line`: one line, a JSON object, the same id (when the input had one that can be
/// read), either an error string or an answer with no null or non-number where a number is due.
pub fn check_answer(line: &Line, answer: &str) -> Vec<(&'static str, Severity, String)> {
    let mut bad = Vec::new();
    if answer.contains('\n') || answer.contains('\r') {
        bad.push(("cli.one_line", Severity::Verdict, "the answer spans several lines".to_string()));
    }
    let v: Value = match serde_json::from_str(answer) {
        Ok(v) => v,
        Err(e) => {
            bad.push(("cli.answer_is_json", Severity::Verdict, format!("answer is not JSON ({e}): {}", clip(answer))));
            return bad;
        }
    };
    let Some(o) = v.as_object() else {
        bad.push(("cli.answer_is_object", Severity::Verdict, format!("answer is not an object: {}", clip(answer))));
        return bad;
    };
    if let Some(id) = &line.id {
        if o.get("id") != Some(id) {
            bad.push(("cli.same_id", Severity::Verdict, format!("id {:?} came back as {:?}", id, o.get("id"))));
        }
    }
    if o.contains_key("error") {
        if line.expect == Expect::Answer {
            bad.push((
                "cli.answerable_line_answered",
                Severity::Verdict,
                format!("a {} line got an error: {}", line.kind, clip(answer)),
            ));
        }
        if !o["error"].is_string() {
            bad.push(("cli.error_is_string", Severity::Verdict, format!("error is not a string: {}", clip(answer))));
        }
        return bad;
    }
    let missed = o.get("hit") == Some(&json!(false));
    for key in NUMERIC {
        let Some(x) = o.get(key) else { continue };
        if x.is_null() && missed && matches!(key, "toi" | "normal" | "point" | "point_a" | "point_b") {
            continue;
        }
        if !numeric(x) {
            bad.push((
                "cli.no_null_number",
                Severity::NonFinite,
                format!("{key} is {} in {}", clip(&x.to_string()), clip(answer)),
            ));
        }
    }
    if line.expect == Expect::Error {
        bad.push((
            "cli.broken_line_is_error",
            Severity::Verdict,
            format!("a {} line was answered: {}", line.kind, clip(answer)),
        ));
    }
    bad
}

/// A number, or an array/object holding only numbers (contacts: objects of numbers).
fn numeric(x: &Value) -> bool {
    match x {
        Value::Number(_) => true,
        Value::Array(a) => a.iter().all(numeric),
        Value::Object(o) => o.values().all(numeric),
        _ => false,
    }
}

fn clip(s: &str) -> String {
    if s.len() > 300 {
        format!(
            "{}… ({} bytes)",
            &s[..s.char_indices().take_while(|(i, _)| *i < 300).last().map_or(0, |(i, c)| i + c.len_utf8())],
            s.len()
        )
    } else {
        s.to_string()
    }
}

/// How a line is shown in a report: as text when it is UTF-8 and short, else escaped and clipped.
pub fn show(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let s = if s.len() > 400 {
        format!("{}… ({} bytes)", s.chars().take(200).collect::<String>(), bytes.len())
    } else {
        s.into_owned()
    };
    if std::str::from_utf8(bytes).is_ok() {
        s
    } else {
        format!("{s}   (bytes not UTF-8: shown lossily; the generator inserts FF FE C3 before the first 'q')")
    }
}

/// Answers the lines of one case through the library function, checking each answer. Lines that are not UTF-8
/// cannot be passed to a `&str` function: they are checked through the binary only.
pub fn check_lines(report: &mut Report, lines: &[Line], seed: u64, index: u64) {
    for line in lines {
        let Ok(text) = std::str::from_utf8(&line.bytes) else { continue };
        report.count(&format!("cli answer_line {}", if line.kind == "valid" { "valid" } else { "broken/hostile" }));
        // The bound grows with the line: 1 µs per byte (1 MB/s: a 4 MB hull of 80,000 points takes about 1 s
        // under load) on top of a query's bound.
        let limit = SLOW_SECONDS * (1.0 + 1e-6 * line.bytes.len() as f64);
        let (answer, seconds) = least_time(limit, || crate::ctx::guarded(|| gjk_cli::query::answer_line(text)));
        report.time("cli answer_line", seconds, seed, index, || show(&line.bytes));
        let fail = |report: &mut Report, check, severity, message: String| {
            report.add(Failure {
                check,
                severity,
                space: "cli",
                families: line.kind.to_string(),
                message,
                excess: 1.0,
                seed,
                index,
                cli: Some(show(&line.bytes)),
                rust: "gjk_cli::query::answer_line(<the cli line>)".into(),
            })
        };
        if seconds > limit {
            fail(
                report,
                "time.bounded",
                Severity::Slow,
                format!("answer_line took {seconds:.3} s for {} bytes", line.bytes.len()),
            );
        }
        match answer {
            Err(_) => fail(report, "no_panic", Severity::Panic, "answer_line panicked".into()),
            Ok(a) => {
                for (check, severity, message) in check_answer(line, &a) {
                    fail(report, check, severity, message);
                }
            }
        }
    }
}

/// Feeds `lines` to `gjk query` (the binary at `bin`) on stdin and checks the stream: exit 0, one output line per
/// non-blank input line, in order, each with its line's id. A time limit bounds the run.
pub fn check_binary(report: &mut Report, bin: &Path, lines: &[Line], seed: u64, first_index: u64, limit: Duration) {
    report.count("cli gjk query (subprocess batches)");
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for l in lines {
        input.extend(&l.bytes);
        input.push(b'\n');
        if !l.bytes.iter().all(|b| b.is_ascii_whitespace()) {
            expected.push(l);
        }
    }
    let fail = |report: &mut Report, check, severity, message: String| {
        report.add(Failure {
            check,
            severity,
            space: "cli-binary",
            families: "stream".into(),
            message,
            excess: 1.0,
            seed,
            index: first_index,
            cli: None,
            rust: format!(
                "gjk-fuzz --seed {seed} --emit-lines {first_index} {} | {} query",
                lines.len() / 2,
                bin.display()
            ),
        })
    };
    let child =
        Command::new(bin).arg("query").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            fail(report, "cli.binary_runs", Severity::Verdict, format!("cannot start {}: {e}", bin.display()));
            return;
        }
    };
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let _ = writer.join();
    let out = child.wait_with_output().map(|o| (o.stdout, o.stderr)).unwrap_or_default();
    let seconds = start.elapsed().as_secs_f64();
    report.time("cli gjk query (subprocess batch)", seconds, seed, first_index, || format!("{} lines", lines.len()));
    let Some(status) = status else {
        fail(
            report,
            "cli.stream_ends",
            Severity::Verdict,
            format!("gjk query did not finish {} lines in {:?}", lines.len(), limit),
        );
        return;
    };
    let text = String::from_utf8_lossy(&out.0);
    let answers: Vec<&str> = text.lines().collect();
    if !status.success() {
        fail(
            report,
            "cli.exit_zero",
            Severity::Verdict,
            format!("exit {status}, stderr: {}", clip(&String::from_utf8_lossy(&out.1))),
        );
    }
    if answers.len() != expected.len() {
        let first_lost =
            expected.get(answers.len()).map(|l| format!("{} line: {}", l.kind, show(&l.bytes))).unwrap_or_default();
        fail(
            report,
            "cli.one_answer_per_line",
            Severity::Verdict,
            format!(
                "{} input lines, {} answers; the first unanswered is the {first_lost}",
                expected.len(),
                answers.len()
            ),
        );
    }
    for (l, a) in expected.iter().zip(&answers) {
        let v: Value = serde_json::from_str(a).unwrap_or(Value::Null);
        if let Some(id) = &l.id {
            if v.get("id") != Some(id) {
                fail(
                    report,
                    "cli.stream_same_id_in_order",
                    Severity::Verdict,
                    format!("expected id {id} ({} line), got: {}", l.kind, clip(a)),
                );
                break;
            }
        }
    }
}

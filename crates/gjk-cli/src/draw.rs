//! `gjk draw`: pictures of every GJK step of one query, as an SVG sheet of small multiples (and a PNG of it).
//!
//! ```text
//! gjk draw [--out FILE.svg] [--png FILE.png] (QUERY_JSON_LINE | - | --example NAME)
//! ```
//!
//! The query is one line in the `gjk query` format (a `distance`, `intersect` or `penetration` query; `-` reads
//! it from stdin) or a built-in example. It runs through the library with a [`gjk::trace::Recorder`] watching;
//! the SVG goes to `--out` (stdout without it) and carries in its `<desc id="gjk-answer">` the answer line
//! `gjk query` prints for the same query, so a picture can be checked against it.

mod model;
mod png;
mod render;

use std::io::{self, Read, Write};

use serde_json::{Map, Value};

use model::P3;

/// A built-in example: its name, a title, what it shows (instead of the shapes' JSON), the query line, and the
/// first search directions (warm start).
struct Example {
    name: &'static str,
    title: &'static str,
    about: &'static [&'static str],
    line: &'static str,
    warm: &'static [P3],
}

const EXAMPLES: &[Example] = &[
    Example {
        name: "textbook",
        title: "GJK step by step: the textbook example",
        about: &[
            "A = triangle (0, 1) (1, −1) (−1, −1);  B = triangle (0, −1) (1, 1) (−1, 1);  distance query",
            "first search direction d₀ = (1, 0), given as a warm start (as in gjk demo)",
        ],
        line: r#"{"id": "textbook", "query": "distance", "a": {"type": "polygon", "points": [[0, 1], [1, -1], [-1, -1]]}, "b": {"type": "polygon", "points": [[0, -1], [1, 1], [-1, 1]]}}"#,
        warm: &[[1.0, 0.0, 0.0]],
    },
    Example {
        name: "circle-box",
        title: "GJK distance: a turned box and a circle, apart",
        about: &[],
        line: r#"{"id": "circle-box", "query": "distance", "a": {"type": "box", "half_extents": [1, 0.5]}, "pose_a": {"rotation": 0.4}, "b": {"type": "circle", "radius": 0.5}, "pose_b": {"translation": [2.5, 1.5]}}"#,
        warm: &[],
    },
    Example {
        name: "boxes-penetrating",
        title: "Penetration: two overlapping boxes (GJK steps drawn; EPA then finds the depth)",
        about: &[],
        line: r#"{"id": "boxes-penetrating", "query": "penetration", "a": {"type": "box", "half_extents": [1, 0.6]}, "b": {"type": "box", "half_extents": [0.7, 0.7]}, "pose_b": {"translation": [1.2, 0.9], "rotation": 0.5}}"#,
        warm: &[],
    },
    Example {
        name: "capsule-box-3d",
        title: "GJK distance in 3D: a capsule and a turned box, three orthographic views",
        about: &[],
        line: r#"{"id": "capsule-box-3d", "query": "distance", "a": {"type": "capsule", "half_height": 0.6, "radius": 0.3}, "pose_a": {"rotation": [0.2, 0, 0, 0.98]}, "b": {"type": "box", "half_extents": [0.5, 0.4, 0.3]}, "pose_b": {"translation": [1.6, 0.8, 0.4], "rotation": [0, 0, 0.38, 0.92]}}"#,
        warm: &[],
    },
];

const USAGE: &str = "usage: gjk draw [--out FILE.svg] [--png FILE.png] (QUERY_JSON_LINE | - | --example NAME)
  QUERY_JSON_LINE  one distance, intersect or penetration query in the gjk query format (docs/cli.md);
                   - reads it from stdin
  --example NAME   a built-in example: textbook, circle-box, boxes-penetrating, capsule-box-3d
  --out FILE.svg   write the SVG there (default: stdout)
  --png FILE.png   also write the picture as PNG";

fn usage_error(msg: &str) -> io::Error {
    io::Error::other(format!("{msg}\n{USAGE}"))
}

/// Runs `gjk draw` with the arguments after `draw`.
pub fn run(args: &[String]) -> io::Result<()> {
    let mut out: Option<&str> = None;
    let mut png: Option<&str> = None;
    let mut example: Option<&str> = None;
    let mut query: Option<&str> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            |flag: &str| it.next().map(String::as_str).ok_or_else(|| usage_error(&format!("{flag} needs a value")));
        match arg.as_str() {
            "--out" | "-o" => out = Some(value("--out")?),
            "--png" => png = Some(value("--png")?),
            "--example" => example = Some(value("--example")?),
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(());
            }
            s if s.starts_with("--") => return Err(usage_error(&format!("unknown option {s}"))),
            s if query.is_none() => query = Some(s),
            s => return Err(usage_error(&format!("one query only (also got {s:?})"))),
        }
    }
    let (line, ex): (String, Option<&Example>) = match (example, query) {
        (Some(name), None) => {
            let ex = EXAMPLES.iter().find(|e| e.name == name).ok_or_else(|| {
                let names: Vec<&str> = EXAMPLES.iter().map(|e| e.name).collect();
                usage_error(&format!("unknown example {name:?} (there are: {})", names.join(", ")))
            })?;
            (ex.line.to_string(), Some(ex))
        }
        (None, Some("-")) => {
            let mut s = String::new();
            io::stdin().read_to_string(&mut s)?;
            let line = s.lines().find(|l| !l.trim().is_empty()).unwrap_or("").to_string();
            (line, None)
        }
        (None, Some(q)) => (q.to_string(), None),
        (Some(_), Some(_)) => return Err(usage_error("give a query line or --example, not both")),
        (None, None) => return Err(usage_error("no query given")),
    };
    let svg = draw_line(&line, ex).map_err(io::Error::other)?;
    match out {
        Some(path) if path != "-" => std::fs::write(path, &svg)?,
        _ => {
            let mut stdout = io::stdout().lock();
            stdout.write_all(svg.as_bytes())?;
            stdout.flush()?;
        }
    }
    if let Some(path) = png {
        png::write(&svg, path).map_err(io::Error::other)?;
    }
    Ok(())
}

/// The SVG of one query line (with an example's warm start and words).
fn draw_line(line: &str, ex: Option<&Example>) -> Result<String, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let o: &Map<String, Value> = v.as_object().ok_or("a query line must be a JSON object")?;
    let mut drawing = model::build(o, ex.map_or(&[], |e| e.warm))?;
    if let Some(ex) = ex {
        drawing.title = ex.title.to_string();
        if !ex.about.is_empty() {
            drawing.about = ex.about.iter().map(|s| s.to_string()).collect();
        }
    }
    Ok(render::svg(&drawing))
}

//! `gjk draw`: pictures of every GJK step of one query, as an SVG sheet of small multiples (and a PNG of it).
//!
//! ```text
//! gjk draw [--out FILE.svg] [--png FILE.png] (QUERY_JSON_LINE | - | --example NAME)
//! ```
//!
//! The query is one line in the `gjk query` format (a `distance`, `intersect` or `penetration` query; `-` reads
//! it from stdin) or a built-in example; the picture itself is made by the library (`gjk_cli::draw`).

use std::io::{self, Read, Write};

use gjk_cli::draw::{draw_line, Example, EXAMPLES};

use crate::png;

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

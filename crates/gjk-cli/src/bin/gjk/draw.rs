//! `gjk draw`: pictures of every GJK step of one query, as an SVG sheet of small multiples (and a PNG of it, in a
//! build with the `png` feature).
//!
//! The query is one line in the `gjk query` format (a `distance`, `intersect` or `penetration` query; `-` reads
//! it from stdin) or a built-in example; the picture itself is made by the library (`gjk_cli::draw`).

use std::io::{self, Read, Write};

use gjk_cli::draw::{draw_line, Example, EXAMPLES};
use lexopt::prelude::*;

use crate::{help, usage, Failure};

/// The longest query line read from stdin (the same default as `gjk query --max-line-bytes`).
const MAX_STDIN_BYTES: u64 = gjk_cli::stream::DEFAULT_MAX_LINE_BYTES as u64;

/// Runs `gjk draw` with the arguments after `draw`.
pub fn run(mut args: lexopt::Parser) -> Result<(), Failure> {
    let bad = usage(help::DRAW);
    let fail = |msg: String| Failure::Usage(msg, help::DRAW);
    let mut out: Option<String> = None;
    let mut png: Option<String> = None;
    let mut example: Option<String> = None;
    let mut query: Option<String> = None;
    while let Some(arg) = args.next().map_err(&bad)? {
        match arg {
            Long("out") | Short('o') => out = Some(args.value().and_then(|v| v.string()).map_err(&bad)?),
            Long("png") => png = Some(args.value().and_then(|v| v.string()).map_err(&bad)?),
            Long("example") => example = Some(args.value().and_then(|v| v.string()).map_err(&bad)?),
            Short('h') | Long("help") => {
                println!("{}", help::DRAW);
                return Ok(());
            }
            Value(q) if query.is_none() => query = Some(q.string().map_err(&bad)?),
            Value(q) => return Err(fail(format!("one query only (also got {:?})", q.to_string_lossy()))),
            other => return Err(bad(other.unexpected())),
        }
    }
    if png.is_some() && !cfg!(feature = "png") {
        return Err(Failure::Run(
            "this gjk was built without PNG support (the `png` feature, off by default to keep the first build \
             short): install it with `cargo install --path crates/gjk-cli --features png`, or run \
             `cargo run --release --features png -- draw ...`; the SVG needs no feature"
                .into(),
        ));
    }
    let (line, ex): (String, Option<&Example>) = match (example, query) {
        (Some(name), None) => {
            let ex = EXAMPLES.iter().find(|e| e.name == name).ok_or_else(|| {
                let names: Vec<&str> = EXAMPLES.iter().map(|e| e.name).collect();
                fail(format!("unknown example {name:?} (there are: {})", names.join(", ")))
            })?;
            (ex.line.to_string(), Some(ex))
        }
        (None, Some(q)) if q == "-" => {
            let mut s = String::new();
            io::stdin().take(MAX_STDIN_BYTES).read_to_string(&mut s)?;
            let line = s.lines().find(|l| !l.trim().is_empty()).unwrap_or("").to_string();
            (line, None)
        }
        (None, Some(q)) => (q, None),
        (Some(_), Some(_)) => return Err(fail("give a query line or --example, not both".into())),
        (None, None) => return Err(fail("no query given".into())),
    };
    let svg = draw_line(&line, ex).map_err(Failure::Run)?;
    match out.as_deref() {
        Some(path) if path != "-" => std::fs::write(path, &svg)?,
        _ => {
            let mut stdout = io::stdout().lock();
            stdout.write_all(svg.as_bytes())?;
            stdout.flush()?;
        }
    }
    #[cfg(feature = "png")]
    if let Some(path) = png {
        crate::png::write(&svg, &path).map_err(Failure::Run)?;
    }
    Ok(())
}

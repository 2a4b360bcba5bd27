//! `gjk`: the command-line front end. `gjk query [FILE]` answers JSON Lines queries; `gjk demo` replays the
//! textbook example step by step and prints a table of queries across the shape families; `gjk draw` pictures
//! the steps of one query; `gjk serve` serves the interactive page.

mod demo;
mod draw;
mod png;
mod serve;

use gjk_cli::query;

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

const USAGE: &str = "usage:
  gjk query [FILE]   answer JSON Lines queries from FILE (or stdin), one output line per input line
  gjk demo           replay the textbook 2D example step by step, then query every shape family
  gjk draw [--out FILE.svg] [--png FILE.png] (QUERY_JSON_LINE | - | --example NAME)
                     draw every GJK step of one distance, intersect or penetration query
  gjk serve [--port N] [--no-build]
                     build the interactive page (WebAssembly) if needed and serve it on 127.0.0.1
  gjk help           this text
The query format is documented in docs/cli.md.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("query") => run_query(args.get(1).map(String::as_str)),
        Some("demo") => demo::run(&mut std::io::stdout().lock()),
        Some("draw") => draw::run(&args[1..]),
        Some("serve") => serve::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gjk: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads lines from FILE or stdin and answers each, in order. Blank lines are skipped; every other line gets
/// exactly one output line, an error object if it cannot be answered.
fn run_query(path: Option<&str>) -> std::io::Result<()> {
    let input: Box<dyn BufRead> = match path {
        Some("-") | None => Box::new(BufReader::new(std::io::stdin())),
        Some(p) => Box::new(BufReader::new(std::fs::File::open(p)?)),
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(out, "{}", query::answer_line(&line))?;
    }
    out.flush()
}

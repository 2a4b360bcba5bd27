//! `gjk`: the command-line front end. `gjk query [FILE]` answers JSON Lines queries; `gjk demo` replays the
//! textbook example step by step and prints a table of queries across the shape families; `gjk draw` pictures
//! the steps of one query; `gjk serve` serves the interactive page. `gjk help` says more.

mod demo;
mod draw;
mod help;
#[cfg(feature = "png")]
mod png;
mod serve;

use std::ffi::OsString;
use std::process::ExitCode;

use gjk_cli::query::Settings;
use gjk_cli::stream::{answer_stream, Limits};
use lexopt::prelude::*;

/// Why a command failed: a usage error (exit 2, with the command's help) or a failure while running (exit 1).
pub enum Failure {
    Usage(String, &'static str),
    Run(String),
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Self {
        Failure::Usage(e.to_string(), help::MAIN)
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Run(e.to_string())
    }
}

/// A usage error of a subcommand: its message and the subcommand's help.
pub fn usage(help: &'static str) -> impl Fn(lexopt::Error) -> Failure {
    move |e| Failure::Usage(e.to_string(), help)
}

fn main() -> ExitCode {
    match run(lexopt::Parser::from_env()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg, help)) => {
            eprintln!("gjk: {msg}\n\n{help}");
            ExitCode::from(2)
        }
        Err(Failure::Run(msg)) => {
            eprintln!("gjk: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(mut args: lexopt::Parser) -> Result<(), Failure> {
    let command = match args.next()? {
        None => return Err(Failure::Usage("no command given".into(), help::MAIN)),
        Some(Short('V') | Long("version")) => {
            println!("gjk {}", env!("CARGO_PKG_VERSION"));
            return Ok(());
        }
        Some(Short('h') | Long("help")) => {
            println!("{}", help::MAIN);
            return Ok(());
        }
        Some(Value(command)) => command.string()?,
        Some(other) => return Err(other.unexpected().into()),
    };
    match command.as_str() {
        "query" => query(args),
        "demo" => {
            if let Some(arg) = args.next()? {
                return match arg {
                    Short('h') | Long("help") => {
                        println!("{}", help::DEMO);
                        Ok(())
                    }
                    other => Err(usage(help::DEMO)(other.unexpected())),
                };
            }
            Ok(demo::run(&mut std::io::stdout().lock())?)
        }
        "draw" => draw::run(args),
        "serve" => serve::run(args),
        "help" => help_command(args),
        other => Err(Failure::Usage(format!("unknown command {other:?}"), help::MAIN)),
    }
}

/// `gjk help [TOPIC]`.
fn help_command(mut args: lexopt::Parser) -> Result<(), Failure> {
    let topic = match args.next()? {
        None => {
            println!("{}", help::MAIN);
            return Ok(());
        }
        Some(Value(topic)) => topic.string()?,
        Some(Short('h') | Long("help")) => {
            println!("{}", help::MAIN);
            return Ok(());
        }
        Some(other) => return Err(other.unexpected().into()),
    };
    match help::topic(&topic) {
        Some(text) => {
            println!("{text}");
            Ok(())
        }
        None => Err(Failure::Usage(format!("no help on {topic:?}"), help::MAIN)),
    }
}

/// `gjk query`: reads lines from FILE or stdin and answers each, in order (see `gjk_cli::stream`).
fn query(mut args: lexopt::Parser) -> Result<(), Failure> {
    let bad = usage(help::QUERY);
    let mut file: Option<OsString> = None;
    let mut limits = Limits::default();
    let mut settings = Settings::default();
    while let Some(arg) = args.next().map_err(&bad)? {
        match arg {
            Long("max-line-bytes") => {
                limits.max_line_bytes = args.value().and_then(|v| v.parse()).map_err(&bad)?;
            }
            Long("mesh-dir") => settings.meshes.root = Some(args.value().map_err(&bad)?.into()),
            Long("max-mesh-bytes") => {
                settings.meshes.max_bytes = args.value().and_then(|v| v.parse()).map_err(&bad)?;
            }
            Short('h') | Long("help") => {
                println!("{}", help::QUERY);
                return Ok(());
            }
            Value(path) if file.is_none() => file = Some(path),
            other => return Err(bad(other.unexpected())),
        }
    }
    let stdout = std::io::stdout().lock();
    match file {
        Some(path) if path != "-" => {
            let input = std::fs::File::open(&path)
                .map_err(|e| Failure::Run(format!("cannot read {}: {e}", path.to_string_lossy())))?;
            answer_stream(input, stdout, &settings, limits)?;
        }
        _ => answer_stream(std::io::stdin().lock(), stdout, &settings, limits)?,
    }
    Ok(())
}

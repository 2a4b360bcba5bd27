//! `gjk-fuzz`: runs the harness for a wall-clock budget and prints cases run per kind, the slowest query per kind
//! and every failure class with reproducers; exits 1 when an invariant failed.
//!
//! ```text
//! gjk-fuzz [--seconds S] [--seed N] [--threads T] [--cases N] [--gjk PATH] [--no-cli] [--no-lib] [--verbose]
//!          [--allow-known]   # exit 0 when every failure is a known open defect (gjk_fuzz::known)
//! gjk-fuzz --seed N --case I      # replay one case and print it with its failures
//! gjk-fuzz --seed N --case I --shrink CHECK [--budget S]   # shrink it while CHECK still fails
//! gjk-fuzz --seed N --emit-lines FIRST COUNT | gjk query   # replay a stream batch
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use gjk_fuzz::{gen, report::Report, run, run_case, shrink, Config};

const USAGE: &str = "usage: gjk-fuzz [--seconds S] [--seed N] [--threads T] [--cases N] [--first I] [--gjk PATH] \
[--no-cli] [--no-lib] [--verbose] [--allow-known] | --seed N --case I [--shrink CHECK [--budget S]] | --seed N --emit-lines FIRST COUNT";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cfg = Config { seed: seed_from_clock(), ..Config::default() };
    let mut case = None;
    let mut verbose = false;
    let mut allow_known = false;
    let mut shrink_check: Option<String> = None;
    let mut budget = 60.0;
    let mut i = 0;
    while i < args.len() {
        let value = |i: usize| args.get(i + 1).cloned().unwrap_or_default();
        let parsed = match args[i].as_str() {
            "--seconds" => value(i).parse().map(|v| cfg.seconds = v).is_ok(),
            "--seed" => value(i).parse().map(|v| cfg.seed = v).is_ok(),
            "--threads" => value(i).parse().map(|v| cfg.threads = v).is_ok(),
            "--cases" => value(i).parse().map(|v| cfg.max_cases = Some(v)).is_ok(),
            "--first" => value(i).parse().map(|v| cfg.first = v).is_ok(),
            "--case" => value(i).parse().map(|v| case = Some(v)).is_ok(),
            "--shrink" => {
                shrink_check = Some(value(i));
                true
            }
            "--budget" => value(i).parse().map(|v| budget = v).is_ok(),
            "--emit-lines" => {
                let (first, count) =
                    (value(i).parse().unwrap_or(0), args.get(i + 2).and_then(|c| c.parse().ok()).unwrap_or(1));
                let stdout = std::io::stdout();
                return match gjk_fuzz::emit_lines(cfg.seed, first, count, &mut stdout.lock()) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(_) => ExitCode::FAILURE,
                };
            }
            "--gjk" => {
                cfg.gjk_bin = Some(PathBuf::from(value(i)));
                true
            }
            "--no-cli" => {
                cfg.cli = false;
                i -= 1;
                true
            }
            "--no-lib" => {
                cfg.library = false;
                i -= 1;
                true
            }
            "--verbose" => {
                verbose = true;
                i -= 1;
                true
            }
            "--allow-known" => {
                allow_known = true;
                i -= 1;
                true
            }
            _ => false,
        };
        if !parsed {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
        i += 2;
    }
    if let (Some(index), Some(name)) = (case, &shrink_check) {
        let c = gen::case(cfg.seed, index);
        if !shrink::fails(&c, cfg.seed, index, name) {
            println!("seed {} case {index}: {name} does not fail", cfg.seed);
            return ExitCode::FAILURE;
        }
        let small = shrink::shrink(c, cfg.seed, index, name, std::time::Duration::from_secs_f64(budget));
        let mut report = shrink::check(&small, cfg.seed, index);
        report.failures.retain(|f| f.check == name);
        println!("seed {} case {index} shrunk for {name}: {small:?}", cfg.seed);
        print!("{}", report.render(true));
        return ExitCode::SUCCESS;
    }
    if let Some(index) = case {
        let c = gen::case(cfg.seed, index);
        println!("seed {} case {index}: {c:#?}", cfg.seed);
        let mut report = Report::default();
        run_case(&mut report, cfg.seed, index, cfg.library, cfg.cli);
        print!("{}", report.render(true));
        return if report.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE };
    }
    println!(
        "gjk-fuzz: seed {} for {} s on {} thread(s), library {}, cli {}, gjk query binary {}",
        cfg.seed,
        cfg.seconds,
        cfg.threads,
        cfg.library,
        cfg.cli,
        cfg.gjk_bin.as_ref().map_or("not run".into(), |p| p.display().to_string())
    );
    let report = run(&cfg);
    print!("{}", report.render(verbose));
    println!("\nreplay a case: gjk-fuzz --seed {} --case INDEX", cfg.seed);
    let unknown = report.failures.iter().filter(|f| gjk_fuzz::known::why(f).is_none()).count();
    let known = report.failures.len() - unknown;
    if allow_known && known > 0 {
        println!("{known} failure(s) are known open defects (gjk_fuzz::known), allowed by --allow-known");
    }
    if unknown == 0 && (allow_known || known == 0) {
        ExitCode::SUCCESS
    } else {
        println!("{unknown} failure(s) outside the known open defects");
        ExitCode::FAILURE
    }
}

/// A fresh seed when none is given (printed, so the run can be repeated).
fn seed_from_clock() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs())
}

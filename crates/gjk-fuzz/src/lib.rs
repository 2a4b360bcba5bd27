//! # gjk-fuzz — a seeded random fuzz harness for gjk and its CLI
//!
//! Case `i` of a run seeded `s` is a pair of shapes with poses, motions and a ray, generated from `(s, i)` alone
//! ([`gen::case`]), biased toward the configurations that break collision code. Every public query runs on it
//! — `intersects`, `intersection`, `distance` (cold, warm-started, bounded by `max_distance`), `penetration`,
//! `contact_manifold`, `ray_cast` (solid and hollow), `shape_cast`, `time_of_impact`, the batch calls — in the
//! case's space (2D or 3D, f32 or f64), and each answer is checked by named invariants ([`queries`]). The same
//! case also yields CLI lines, valid, broken and hostile, checked through `gjk_cli::query::answer_line` and in
//! batches through the `gjk query` binary ([`cli`]).
//!
//! A run is bounded by wall-clock time, not by a case count, so it ends on a loaded machine too; any failure
//! is reproduced by its seed and case index (`gjk-fuzz --seed S --case I`).

// `!(x <= tol)` is written on purpose throughout (as in the library): unlike `x > tol` it is also true for NaN,
// so a NaN answer fails its check instead of passing it.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod cli;
pub mod ctx;
pub mod gen;
pub mod geom;
pub mod known;
pub mod queries;
pub mod report;
pub mod rng;
pub mod shrink;
pub mod space;
pub mod spec;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gjk::math::{DVec2, DVec3, Vec2, Vec3};

use report::{Failure, Report, Severity};

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    /// Wall-clock budget of the run.
    pub seconds: f64,
    /// Stop after this many cases even if time remains (the smoke test's bound).
    pub max_cases: Option<u64>,
    /// The first case index.
    pub first: u64,
    pub threads: usize,
    /// Check the library queries.
    pub library: bool,
    /// Check CLI lines through `answer_line`.
    pub cli: bool,
    /// The `gjk` binary, for stream batches through `gjk query` (none: skipped).
    pub gjk_bin: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Self { seed: 1, seconds: 60.0, max_cases: None, first: 0, threads: 1, library: true, cli: true, gjk_bin: None }
    }
}

/// Runs and checks case `index` of the run seeded `seed` into `report`.
pub fn run_case(report: &mut Report, seed: u64, index: u64, library: bool, cli: bool) {
    let outcome = ctx::guarded(|| {
        let case = gen::case(seed, index);
        report.cases += 1;
        if library {
            match (case.dim, case.f32) {
                (2, true) => queries::check_case::<Vec2>(report, &case, seed, index),
                (2, false) => queries::check_case::<DVec2>(report, &case, seed, index),
                (_, true) => queries::check_case::<Vec3>(report, &case, seed, index),
                (_, false) => queries::check_case::<DVec3>(report, &case, seed, index),
            }
        }
        if cli {
            let lines = cli::lines(&case, seed, index);
            cli::check_lines(report, &lines, seed, index);
        }
    });
    if let Err(msg) = outcome {
        // A panic outside the queries' own guards: in the generator or a check (or a reference query the checks
        // call). Still a finding: the reference calls are library queries too.
        report.add(Failure {
            check: "no_panic",
            severity: Severity::Panic,
            space: "harness",
            families: "check or reference query".into(),
            message: format!("a panic outside the guarded queries (a reference query inside a check?): {msg}"),
            excess: 1.0,
            seed,
            index,
            cli: None,
            rust: format!("gjk-fuzz --seed {seed} --case {index}"),
        });
    }
}

/// Cases per `gjk query` batch (two lines each), how long one batch may take, and the first case index of the
/// batches (apart from the workers' indices, so a batch is replayed with `--emit-lines FIRST 100`).
pub const BATCH_CASES: u64 = 100;
pub const BATCH_FIRST: u64 = 1_000_000_000;
const BATCH_LIMIT: Duration = Duration::from_secs(60);

/// The CLI lines of cases `first..first + count`, one per line (bytes as generated: some are not UTF-8).
pub fn emit_lines(seed: u64, first: u64, count: u64, out: &mut impl std::io::Write) -> std::io::Result<()> {
    for i in first..first + count {
        for l in cli::lines(&gen::case(seed, i), seed, i) {
            out.write_all(&l.bytes)?;
            out.write_all(b"\n")?;
        }
    }
    Ok(())
}

/// The case a worker is on and since when (`None` between cases).
type Running = Option<(u64, Instant)>;

/// Runs the harness for the configured time on the configured threads; returns what it found.
pub fn run(cfg: &Config) -> Report {
    ctx::quiet_panics();
    let shared = Arc::new(Mutex::new(Report::default()));
    let next = Arc::new(AtomicU64::new(cfg.first));
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(cfg.seconds);
    let end_index = cfg.max_cases.map_or(u64::MAX, |n| cfg.first + n);
    // Which case each worker is on and since when, to name a case that never ends.
    let current: Arc<Mutex<Vec<Running>>> = Arc::new(Mutex::new(vec![None; cfg.threads.max(1)]));
    let mut handles = Vec::new();
    for w in 0..cfg.threads.max(1) {
        let (shared, next, current, cfg) = (shared.clone(), next.clone(), current.clone(), cfg.clone());
        handles.push(std::thread::spawn(move || loop {
            if Instant::now() >= deadline {
                break;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= end_index {
                break;
            }
            current.lock().expect("not poisoned")[w] = Some((index, Instant::now()));
            let mut local = Report::default();
            run_case(&mut local, cfg.seed, index, cfg.library, cfg.cli);
            current.lock().expect("not poisoned")[w] = None;
            shared.lock().expect("not poisoned").merge(local);
        }));
    }
    // The main thread feeds batches of lines to the binary while the workers run.
    let mut batch = 0u64;
    while handles.iter().any(|h| !h.is_finished()) {
        if let (Some(bin), true) = (&cfg.gjk_bin, cfg.cli) {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining > Duration::from_secs(2) || batch == 0 {
                let first = BATCH_FIRST + batch * BATCH_CASES;
                let lines: Vec<cli::Line> = (first..first + BATCH_CASES)
                    .flat_map(|i| cli::lines(&gen::case(cfg.seed, i), cfg.seed, i))
                    .collect();
                let mut local = Report::default();
                cli::check_binary(
                    &mut local,
                    bin,
                    &lines,
                    cfg.seed,
                    first,
                    BATCH_LIMIT.min(remaining.max(Duration::from_secs(20))),
                );
                shared.lock().expect("not poisoned").merge(local);
                batch += 1;
                continue;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
        if Instant::now() > deadline + Duration::from_secs(30) {
            // A case still running 30 s after the deadline does not end: report it and leave it behind.
            let stuck = current.lock().expect("not poisoned").clone();
            let mut report = shared.lock().expect("not poisoned");
            for (index, since) in stuck.into_iter().flatten() {
                report.add(Failure {
                    check: "time.case_ends",
                    severity: Severity::Slow,
                    space: "harness",
                    families: "case".into(),
                    message: format!("case still running after {:.0} s", since.elapsed().as_secs_f64()),
                    excess: since.elapsed().as_secs_f64(),
                    seed: cfg.seed,
                    index,
                    cli: None,
                    rust: format!("gjk-fuzz --seed {} --case {index}", cfg.seed),
                });
            }
            return std::mem::take(&mut *report);
        }
    }
    for h in handles {
        let _ = h.join();
    }
    let report = std::mem::take(&mut *shared.lock().expect("not poisoned"));
    report
}

//! `cargo run --release -p gjk-bench --bin report [-- OPTIONS]`: measures every benchmark cell with a simple timing
//! loop (median of batches, contenders interleaved) and writes `bench/RESULTS.md`.
//!
//! Options: `--out PATH` (default: `bench/RESULTS.md` of the workspace), `--filter TEXT` (only cells whose id
//! contains TEXT), `--batches N` (default 15), `--batch-ms MS` (default 6), `--pairs N` (default 64),
//! `--skip-batch`, `--skip-support`, `--broadphase-max N` (largest world of the broadphase curve, default 1e6; 0
//! skips it), `--broadphase-repeats R` (default 3), `--broadphase-only` (measures the broadphase curve alone and
//! puts its section in place of the old one in the existing report, leaving the rest as it was).
//!
//! `--profile ID [--who ours|parry|libccd-gjk|libccd-mpr] [--calls N]` measures nothing and writes nothing: it runs
//! one contender of the cell with that exact id (`3D-f64/sphere/separated/intersection`) N times (default 10,000),
//! for `perf stat` or `valgrind --tool=callgrind` to see where the time goes. `--profile broadphase/N` runs one
//! broadphase contender (`--who ours|parry`) on a world of N bodies for `--calls` frames (default 60);
//! `--profile scenes/build|rays|capsule|box|teddy-duck` one scene cell's whole set of items per call (give
//! `--calls`: the default 10,000 passes is minutes).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use gjk::math::{DVec2, DVec3, Vec3};
use gjk::shape::HILL_CLIMB_MIN_VERTICES;
use gjk_bench::accuracy::Accuracy;
use gjk_bench::batch::{self, BatchResult};
use gjk_bench::cells::{all_cells, Cell, Query, Who, QUERIES};
use gjk_bench::support::{self, QueryRow, Row};
use gjk_bench::timing::{interleaved, Plan, Timing};
use gjk_bench::workload::{self, Check, Kind, Regime, Rejected, KINDS_2D, KINDS_3D, PAIRS, REGIMES};

/// A rejected draw without its poses (2D and 3D alike): wanted, ours, our status, parry's.
struct RejectedDraw(f64, f64, &'static str, Option<f64>);

fn draws<M: gjk::math::Vector>(r: &[Rejected<M>]) -> Vec<RejectedDraw> {
    r.iter().map(|r| RejectedDraw(r.wanted, r.ours, r.status.as_str(), r.parry)).collect()
}

struct Options {
    out: PathBuf,
    filter: Option<String>,
    plan: Plan,
    pairs: usize,
    batch: bool,
    support: bool,
    broadphase_max: usize,
    broadphase_repeats: usize,
    broadphase_only: bool,
    profile: Option<(String, String, u64)>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        out: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/RESULTS.md"),
        filter: None,
        plan: Plan::default(),
        pairs: PAIRS,
        batch: true,
        support: true,
        broadphase_max: 1_000_000,
        broadphase_repeats: 3,
        broadphase_only: false,
        profile: None,
    };
    let (mut who, mut calls) = ("ours".to_string(), 10_000u64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--out" => o.out = PathBuf::from(value()?),
            "--filter" => o.filter = Some(value()?),
            "--batches" => o.plan.batches = value()?.parse().map_err(|e| format!("--batches: {e}"))?,
            "--batch-ms" => {
                let ms: f64 = value()?.parse().map_err(|e| format!("--batch-ms: {e}"))?;
                o.plan.batch = Duration::from_secs_f64(ms / 1e3);
            }
            "--pairs" => o.pairs = value()?.parse().map_err(|e| format!("--pairs: {e}"))?,
            "--skip-batch" => o.batch = false,
            "--skip-support" => o.support = false,
            "--broadphase-max" => o.broadphase_max = value()?.parse().map_err(|e| format!("--broadphase-max: {e}"))?,
            "--broadphase-repeats" => {
                o.broadphase_repeats = value()?.parse().map_err(|e| format!("--broadphase-repeats: {e}"))?
            }
            "--broadphase-only" => o.broadphase_only = true,
            "--profile" => o.profile = Some((value()?, String::new(), 0)),
            "--who" => who = value()?,
            "--calls" => calls = value()?.parse().map_err(|e| format!("--calls: {e}"))?,
            "-h" | "--help" => {
                println!(
                    "report [--out PATH] [--filter TEXT] [--batches N] [--batch-ms MS] [--pairs N] [--skip-batch] \
                     [--skip-support] [--broadphase-max N] [--broadphase-repeats R] [--broadphase-only]\n       report --profile CELL-ID [--who ours|parry|libccd-gjk|libccd-mpr] [--calls N]"
                );
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {a} (try --help)")),
        }
    }
    if let Some(p) = &mut o.profile {
        p.1 = who;
        p.2 = calls;
    }
    Ok(o)
}

/// What one cell measured.
struct Measured {
    space: &'static str,
    kind: Kind,
    regime: Regime,
    query: Query,
    iterations: f64,
    accuracy: Vec<(Who, Accuracy)>,
    reference_bracket: Option<f64>,
    times: BTreeMap<Who, Timing>,
}

impl Measured {
    fn ns(&self, who: Who) -> Option<f64> {
        self.times.get(&who).map(|t| t.median_ns)
    }
    fn ratio(&self, who: Who) -> Option<f64> {
        Some(self.ns(Who::Ours)? / self.ns(who)?)
    }
    fn id(&self) -> String {
        format!("{} {} {} {}", self.space, self.kind.name(), self.regime.name(), self.query.name())
    }
    fn accuracy(&self, who: Who) -> String {
        self.accuracy.iter().find(|a| a.0 == who).map_or("–".into(), |a| a.1.show())
    }
}

fn measure_cells(cells: Vec<Cell>, plan: &Plan) -> Vec<Measured> {
    let n = cells.len();
    cells
        .into_iter()
        .enumerate()
        .map(|(i, mut cell)| {
            let mut runs: Vec<&mut dyn FnMut()> = cell.contenders.iter_mut().map(|c| &mut *c.run as _).collect();
            let t = interleaved(&mut runs, cell.pairs, plan);
            let times: BTreeMap<Who, Timing> = cell.contenders.iter().map(|c| c.who).zip(t).collect();
            let m = Measured {
                space: cell.space,
                kind: cell.kind,
                regime: cell.regime,
                query: cell.query,
                iterations: cell.iterations,
                accuracy: cell.accuracy.clone(),
                reference_bracket: cell.reference_bracket,
                times,
            };
            eprintln!(
                "[{:>3}/{n}] {:<48} ours {:>9.1} ns  parry {:>9} ns  ratio {}",
                i + 1,
                m.id(),
                m.ns(Who::Ours).unwrap_or(f64::NAN),
                m.ns(Who::Parry).map_or("-".into(), |x| format!("{x:.1}")),
                m.ratio(Who::Parry).map_or("-".into(), |x| format!("{x:.3}"))
            );
            m
        })
        .collect()
}

/// A performance target (ours ÷ the other time at most `limit` in every cell it covers).
struct Target {
    name: &'static str,
    limit: f64,
    against: Against,
    covers: fn(&Measured) -> bool,
}

/// What a target's cells are compared with.
enum Against {
    /// Another library's time in the same cell.
    Lib(Who),
    /// Our time in the cell of this family with the same space, regime and query.
    Family(Kind),
}

impl Against {
    /// The cell's ratio (ours ÷ the other time), when both were measured.
    fn ratio(&self, m: &Measured, results: &[Measured]) -> Option<f64> {
        match self {
            Against::Lib(who) => m.ratio(*who),
            Against::Family(k) => {
                let base = results
                    .iter()
                    .find(|b| b.kind == *k && b.space == m.space && b.regime == m.regime && b.query == m.query)?;
                Some(m.ns(Who::Ours)? / base.ns(Who::Ours)?)
            }
        }
    }
}

/// Whether the cell's pair is one of spheres and boxes only, or a sphere or a box against another shape (the
/// closed forms of issue 14), GJK shadows excepted.
fn sphere_or_box(k: Kind) -> bool {
    use gjk_bench::mixed::Mixed;
    matches!(
        k,
        Kind::Sphere
            | Kind::Box
            | Kind::LongBox
            | Kind::Mixed(Mixed::SphereBox | Mixed::SphereCapsule | Mixed::BoxHull)
    )
}

fn targets() -> Vec<Target> {
    use Kind::*;
    vec![
        Target {
            name: "hull2048 distance, nearly touching ≤ 0.07",
            limit: 0.07,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Hull(2048) && m.query == Query::Distance && m.regime == Regime::Touching,
        },
        Target {
            name: "hull2048 contact ≤ 0.12 (every regime)",
            limit: 0.12,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Hull(2048) && m.query == Query::Contact,
        },
        Target {
            name: "hull256 ≤ 0.3 (distance and contact)",
            limit: 0.3,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Hull(256) && m.query != Query::Intersect,
        },
        Target {
            name: "hull32 ≤ 0.8 (distance and contact)",
            limit: 0.8,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Hull(32) && m.query != Query::Intersect,
        },
        Target {
            name: "capsule ≤ 0.05 nearly touching (distance and contact)",
            limit: 0.05,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Capsule && m.regime == Regime::Touching && m.query != Query::Intersect,
        },
        Target {
            name: "cylinder ≤ 0.5 (distance and contact)",
            limit: 0.5,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Cylinder && m.query != Query::Intersect,
        },
        Target {
            name: "box ≤ 0.8 (distance and contact)",
            limit: 0.8,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Box && m.query != Query::Intersect,
        },
        Target {
            name: "sphere ≤ 1.5 (distance and contact)",
            limit: 1.5,
            against: Against::Lib(Who::Parry),
            covers: |m| m.kind == Sphere && m.query != Query::Intersect,
        },
        Target {
            name: "boolean intersection ≤ 1.0 vs parry (every cell)",
            limit: 1.0,
            against: Against::Lib(Who::Parry),
            covers: |m| m.query == Query::Intersect,
        },
        Target {
            name: "boolean intersection not slower than libccd MPR",
            limit: 1.0,
            against: Against::Lib(Who::CcdMpr),
            covers: |m| m.query == Query::Intersect,
        },
        Target {
            name: "issue 14: curved (cylinder, cone) distance and contact ≤ 0.5× parry",
            limit: 0.5,
            against: Against::Lib(Who::Parry),
            covers: |m| matches!(m.kind, Cylinder | Cone) && m.query != Query::Intersect,
        },
        Target {
            name: "issue 14: every sphere/box cell ≤ 1.0× parry (sphere, box, longbox, sphere-box, sphere-capsule, \
                   box-hull32; every query)",
            limit: 1.0,
            against: Against::Lib(Who::Parry),
            covers: |m| sphere_or_box(m.kind),
        },
        Target {
            name: "issue 14: polygon2048 ≤ 1.5× polygon64's time (same space, regime and query)",
            limit: 1.5,
            against: Against::Family(Polygon(64)),
            covers: |m| m.kind == Polygon(2048),
        },
        Target {
            name: "issue 14: separated booleans ≤ libccd MPR",
            limit: 1.0,
            against: Against::Lib(Who::CcdMpr),
            covers: |m| m.query == Query::Intersect && m.regime == Regime::Separated,
        },
    ]
}

struct Machine {
    nproc: usize,
    cpu: String,
    rustc: &'static str,
    date: String,
    load_before: String,
    load_after: String,
}

fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    info.lines()
        .find_map(|l| l.strip_prefix("model name").map(|r| r.trim_start_matches([' ', '\t', ':']).to_string()))
        .unwrap_or_else(|| "unknown".into())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// UTC date and time now, `YYYY-MM-DD HH:MM UTC` (civil-from-days, no dependency).
fn now_utc() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
}

/// libccd's contact queries stop at 'no contact' for pairs that do not overlap: only its intersection cells and its
/// contact cells of penetrating pairs do the same work as ours.
fn comparable_with_ccd(m: &Measured) -> bool {
    m.query == Query::Intersect || m.regime == Regime::Penetrating
}

fn fmt_ns(x: Option<f64>) -> String {
    match x {
        None => "–".into(),
        Some(x) if x >= 10_000.0 => format!("{:.1} µs", x / 1e3),
        Some(x) if x >= 100.0 => format!("{x:.0}"),
        Some(x) => format!("{x:.1}"),
    }
}

fn fmt_ratio(x: Option<f64>) -> String {
    match x {
        None => "–".into(),
        Some(x) if x < 0.1 => format!("{x:.3}"),
        Some(x) => format!("{x:.2}"),
    }
}

fn regime_query_columns() -> Vec<(Regime, Query)> {
    REGIMES.iter().flat_map(|&r| QUERIES.iter().map(move |&q| (r, q))).collect()
}

fn short(r: Regime) -> &'static str {
    match r {
        Regime::Separated => "sep",
        Regime::Touching => "touch",
        Regime::Penetrating => "pen",
    }
}

fn short_q(q: Query) -> &'static str {
    match q {
        Query::Intersect => "int",
        Query::Distance => "dist",
        Query::Contact => "cont",
    }
}

#[allow(clippy::too_many_arguments)]
fn write_report(
    o: &Options,
    machine: &Machine,
    results: &[Measured],
    checks: &[(&'static str, Kind, Regime, Check, Vec<RejectedDraw>)],
    batch: Option<&BatchResult>,
    support: &[(&'static str, Vec<Row>)],
    in_query: &[(&'static str, Vec<QueryRow>)],
    elapsed: Duration,
) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "# Benchmark results: gjk vs parry and libccd\n");
    let _ = writeln!(
        w,
        "Written by `cargo run --release -p gjk-bench --bin report` ({:.0} s){}. Do not edit by hand: re-run the \
         command.\n",
        elapsed.as_secs_f64(),
        o.filter.as_ref().map_or(String::new(), |f| format!(", **partial run: only cells matching `{f}`**"))
    );
    let _ = writeln!(w, "## Machine\n");
    let _ = writeln!(w, "| | |\n| --- | --- |");
    let _ = writeln!(w, "| nproc | {} |", machine.nproc);
    let _ = writeln!(w, "| CPU | {} |", machine.cpu);
    let _ = writeln!(w, "| rustc | {} |", machine.rustc);
    let _ = writeln!(w, "| date | {} |", machine.date);
    let _ = writeln!(
        w,
        "| load average (1, 5, 15 min) before / after | {} / {} |",
        machine.load_before, machine.load_after
    );
    let _ = writeln!(w, "| libccd | {} |", gjk_bench::ccd::status());
    let _ = writeln!(
        w,
        "\n**Noise.** This machine has {} cores shared with other builds (see the load average for how busy it was): \
         single cells can be off by 10–30 % between runs, more for the fastest cells (tens of ns), and the \
         batch speed-up depends on the second core being free. Contenders of a cell are timed in interleaved \
         batches, so a slow phase hits all of them alike and the *ratios* are steadier than the absolute times. \
         Re-run the command on a quiet machine for publishable figures.\n",
        machine.nproc
    );

    let _ = writeln!(w, "## Method\n");
    let _ = writeln!(
        w,
        "- **Pairs**: two shapes of one family, about unit size: sphere r = 1; box half-extents (0.9, 0.6, 0.4); \
         *longbox* (elongated box) half-extents (4, 0.25, 0.1); capsule half-height 0.5, r 0.5; cylinder \
         half-height 0.6, r 0.6; cone half-height 0.6, base radius 0.6; ellipsoid semi-axes (0.9, 0.6, 0.4) (parry \
         has no ellipsoid: ours alone, `–` in parry's columns); convex hulls of 32, 256, 2048 and 8192 random points \
         on the unit sphere (A and B different clouds); 2D: convex polygons of 8, 64, 512 and 2048 random points on \
         the unit circle. *Mixed pairs* (both dimensions): sphere–box and sphere–capsule (closed forms), each with \
         its `-gjk` shadow (same poses, B behind a wrapper that hides its closed-form hook: the GJK loop's time); 3D \
         only: box–hull32 and capsule–hull32 (the box or capsule above against hull32's first cloud). Each cell \
         iterates over the same {} configurations (random rotations, random positions) per call, so its median is \
         over varied inputs.\n\
         - **Accuracy** (`ours err`, `parry err`): for distance and contact, the largest relative error \
         |answer − reference| / |reference| over the cell's configurations (of the distance, or of the signed \
         distance: the depth when penetrating); for intersection, the wrong verdicts. The reference is computed once \
         per configuration at setup (untimed), on the cell's own geometry (shapes and poses rounded to the cell's \
         precision, then evaluated in f64): g(n) = min over B of n·b − max over A of n·a, the gap of the slab \
         between the shapes along a unit n, is a lower bound of the signed distance for every n and equals it at \
         the best n (the separating axis; minus the depth when overlapping). The reference is the largest g found \
         from the normal of our f64 query run with tolerance 0 and a cap of 4096 iterations (distance when apart, \
         penetration when overlapping), refined by a pattern search on the sphere (steps 1e-2 to 1e-14 rad). When \
         apart, that run's closest points (points of the shapes) bound the distance from above: `ref bracket` is \
         the largest (upper − lower) / reference of the cell, so errors below it are not resolved. The reference is \
         exact to about 1e-16 absolute (the rounding of one support evaluation), i.e. ~1e-12 relative on the \
         nearly-touching gaps of 1e-4. libccd's errors: its verdicts, and its depths on penetrating pairs only \
         (elsewhere it answers 'no contact'). An f32 answer cannot beat its own rounding: ~6e-8 of the unit-size \
         coordinates, i.e. ~1e-3 of a 1e-4 gap. Cells without a parry shape (the ellipsoid; parry2d's f32 \
         `ConvexPolygon::from_convex_hull` where it builds none) show `–` in parry's columns and no ratio.\n\
         - **Regimes** (seed fixed): *separated* gap 0.5–1.5; *nearly touching* gap 1e-4–1e-3; *penetrating* depth \
         0.05–0.3. B is placed along a random direction by bisection on our f64 signed distance, then measured by \
         parry as a check (table at the end).\n\
         - **Queries**: *intersection* — ours `gjk::intersects` (two boxes: separating axes; two spheres: the \
         distance of their centres; GJK only for pairs touching to within rounding), parry `query::intersection_test`, libccd `ccdGJKIntersect` and \
         `ccdMPRIntersect`; *distance* with closest points — ours `gjk::distance`, parry \
         `query::closest_points` (no distance limit); *contact* — ours `gjk::penetration` (signed distance, normal, \
         points), parry `query::contact` with prediction {} (larger than every gap, so parry too computes every \
         configuration), libccd `ccdGJKPenetration` (GJK + EPA) and `ccdMPRPenetration` (these two only answer \
         overlapping pairs: for separated pairs they stop at 'no contact').\n\
         - **Precisions**: f32 cells run our `Vec3`/`Vec2` against parry3d/parry2d, f64 cells our `DVec3`/`DVec2` \
         against parry3d-f64/parry2d-f64, from the same rounded numbers. libccd (double) appears in 3D f64 only; it \
         is given our shapes' support functions (hill-climbing hint reset per query, as ours), so its columns compare \
         algorithms.\n\
         - **Timing**: per cell, every contender is calibrated to batches of ~{:.0} ms, then {} batches of each are \
         run in turn; the figure is the median batch divided by the queries in it (ns per query). Every answer is \
         kept alive through `black_box(&answer)`, by reference, so that the harness copies none (by value, our f64 \
         `Distance` of 232 bytes went through a `memcpy` that stalled on the stores just made: a third of 3D f64 \
         sphere distance's time). `iters` is our \
         mean GJK (+ EPA) iterations per query (for intersection, those of `gjk::intersection`, which has no box or \
         sphere shortcut).\n\
         - **Reproduce**: `cargo run --release -p gjk-bench --bin report` (this file), `cargo bench -p gjk-bench \
         [-- REGEX]` (criterion, same cells; ids like `3D-f64/hull256/penetrating/contact/ours`). Where a cell's time \
         goes: `valgrind --tool=callgrind --toggle-collect='*profiled_calls*' target/release/report --profile \
         3D-f64/hull2048/nearly-touching/distance --calls 20`, then `callgrind_annotate`.\n",
        o.pairs,
        workload::CONTACT_PREDICTION,
        o.plan.batch.as_secs_f64() * 1e3,
        o.plan.batches
    );

    // Summary matrix.
    let _ = writeln!(w, "## Summary: ours ÷ parry (median time ratio; below 1 we are faster)\n");
    let cols = regime_query_columns();
    for space in ["3D f32", "3D f64", "2D f32", "2D f64"] {
        let rows: Vec<&Measured> = results.iter().filter(|m| m.space == space).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(w, "**{space}**\n");
        let _ = write!(w, "| pair |");
        for (r, q) in &cols {
            let _ = write!(w, " {} {} |", short(*r), short_q(*q));
        }
        let _ = write!(w, "\n| --- |");
        for _ in &cols {
            let _ = write!(w, " ---: |");
        }
        let _ = writeln!(w);
        let mut kinds: Vec<Kind> = rows.iter().map(|m| m.kind).collect();
        kinds.dedup();
        for k in kinds {
            let _ = write!(w, "| {} |", k.name());
            for (r, q) in &cols {
                let m = rows.iter().find(|m| m.kind == k && m.regime == *r && m.query == *q);
                let _ = write!(w, " {} |", fmt_ratio(m.and_then(|m| m.ratio(Who::Parry))));
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(w);
    }
    let _ = writeln!(
        w,
        "Columns: sep = separated, touch = nearly touching, pen = penetrating; int = intersection, dist = distance, \
         cont = contact.\n"
    );

    // Targets.
    let _ = writeln!(w, "## Targets\n");
    let _ = writeln!(
        w,
        "| target | cells | met | worst ratio | worst cell | verdict |\n| --- | ---: | ---: | ---: | --- | --- |"
    );
    for t in targets() {
        let covered: Vec<(&Measured, f64)> =
            results.iter().filter(|m| (t.covers)(m)).filter_map(|m| Some((m, t.against.ratio(m, results)?))).collect();
        if covered.is_empty() {
            let _ = writeln!(w, "| {} | 0 | – | – | – | not measured |", t.name);
            continue;
        }
        let met = covered.iter().filter(|(_, r)| *r <= t.limit).count();
        let (worst, ratio) = covered.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)).expect("non-empty");
        let verdict = if met == covered.len() { "**met**" } else { "**missed**" };
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} |",
            t.name,
            covered.len(),
            met,
            fmt_ratio(Some(ratio)),
            worst.id(),
            verdict
        );
    }
    // Information: the f64 hull8192 against the f32 one (issue 14 asks why f64 is ~2× slower there).
    let hull8192 = |space: &str| {
        let m = results.iter().find(|m| {
            m.space == space
                && m.kind == Kind::Hull(8192)
                && m.regime == Regime::Separated
                && m.query == Query::Intersect
        });
        m.and_then(|m| m.ns(Who::Ours))
    };
    if let (Some(f64_ns), Some(f32_ns)) = (hull8192("3D f64"), hull8192("3D f32")) {
        let _ = writeln!(
            w,
            "| issue 14: hull8192 separated intersection, ours f64 ÷ ours f32 ({} / {} ns) | 2 | – | {:.2} | 3D \
             hull8192 separated intersection | information |",
            fmt_ns(Some(f64_ns)),
            fmt_ns(Some(f32_ns)),
            f64_ns / f32_ns
        );
    }
    if let Some(b) = batch {
        // A busy machine caps any speed-up: with a control below 1.6× the target cannot be judged.
        let verdict = if b.speedup() >= 1.8 {
            "**met**".to_string()
        } else if b.control_speedup < 1.6 {
            format!("**undetermined**: the machine allowed {:.2}× at the time", b.control_speedup)
        } else {
            "**missed**".to_string()
        };
        let _ = writeln!(
            w,
            "| batch `distances` speed-up ≥ 1.8× on {} threads | 1 | – | {:.2}× | batch (control loop: {:.2}×) | {} |",
            b.threads,
            b.speedup(),
            b.control_speedup,
            verdict
        );
    }
    let _ = writeln!(w);

    // Full tables.
    let _ = writeln!(w, "## Every cell\n");
    let _ = writeln!(w, "Times are median ns per query (µs where marked).\n");
    for space in ["3D f32", "3D f64", "2D f32", "2D f64"] {
        let rows: Vec<&Measured> = results.iter().filter(|m| m.space == space).collect();
        if rows.is_empty() {
            continue;
        }
        let ccd = rows.iter().any(|m| m.times.contains_key(&Who::CcdMpr));
        let parry = match space {
            "3D f32" => "parry3d",
            "3D f64" => "parry3d-f64",
            "2D f32" => "parry2d",
            _ => "parry2d-f64",
        };
        let _ = writeln!(w, "### {space} (vs {parry})\n");
        if ccd {
            let _ = writeln!(
                w,
                "libccd's contact columns for separated and nearly touching pairs time its 'no contact' answer \
                 (`ccdGJKPenetration` and `ccdMPRPenetration` compute no distance), so ours/MPR is left out there.\n"
            );
        }
        if ccd {
            let _ = writeln!(
                w,
                "| pair | regime | query | ours | parry | ours/parry | libccd GJK | libccd MPR | ours/MPR | iters | ours err \
                 | parry err | ref bracket | libccd GJK err | libccd MPR err |\n\
                 | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
            );
        } else {
            let _ = writeln!(
                w,
                "| pair | regime | query | ours | parry | ours/parry | iters | ours err | parry err | ref bracket |\n\
                 | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
            );
        }
        for m in rows {
            let _ = write!(
                w,
                "| {} | {} | {} | {} | {} | {} |",
                m.kind.name(),
                m.regime.name(),
                m.query.name(),
                fmt_ns(m.ns(Who::Ours)),
                fmt_ns(m.ns(Who::Parry)),
                fmt_ratio(m.ratio(Who::Parry))
            );
            if ccd {
                let _ = write!(
                    w,
                    " {} | {} | {} |",
                    fmt_ns(m.ns(Who::CcdGjk)),
                    fmt_ns(m.ns(Who::CcdMpr)),
                    // libccd's penetration answers only overlapping pairs: elsewhere it is no comparison.
                    fmt_ratio(m.ratio(Who::CcdMpr).filter(|_| comparable_with_ccd(m)))
                );
            }
            let bracket = m.reference_bracket.map_or("–".into(), |b| format!("{b:.0e}"));
            let _ = write!(
                w,
                " {:.1} | {} | {} | {bracket} |",
                m.iterations,
                m.accuracy(Who::Ours),
                m.accuracy(Who::Parry)
            );
            if ccd {
                let _ = write!(w, " {} | {} |", m.accuracy(Who::CcdGjk), m.accuracy(Who::CcdMpr));
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(w);
    }

    // Batch.
    if let Some(b) = batch {
        let _ = writeln!(w, "## Batch throughput\n");
        let _ = writeln!(
            w,
            "`gjk::batch::distances` over {} 3D f64 pairs (every family and regime of the workload, repeated), on a \
             one-thread rayon pool (`ThreadPoolBuilder::new().num_threads(1)`) and on a pool of {} threads.\n",
            b.pairs, b.threads
        );
        let _ = writeln!(w, "| threads | ns per pair |\n| ---: | ---: |");
        let _ = writeln!(w, "| 1 | {:.1} |", b.one_ns);
        let _ = writeln!(w, "| {} | {:.1} |", b.threads, b.all_ns);
        let _ = writeln!(
            w,
            "\nSpeed-up: **{:.2}×** on {} threads. Control: a pure-arithmetic loop split the same way on the same two \
             pools, timed in the same interleaved batches, sped up {:.2}× — the parallelism the machine actually \
             gave at that moment (about {} on an idle machine; near 1 when other work holds the second core).\n",
            b.speedup(),
            b.threads,
            b.control_speedup,
            b.threads
        );
    }

    // Support crossover.
    if !support.is_empty() {
        let _ = writeln!(w, "## Support function: hill-climbing vs scan\n");
        let _ = writeln!(
            w,
            "Hulls of N random points on the unit sphere (2D: unit circle; every point is a vertex). \
             `ConvexPolytope::support` (scan of every vertex) against the hill-climb from the previous answer as the \
             hint: a replica of the library's walk through the public API at every count (the library climbs only \
             from `HILL_CLIMB_MIN_VERTICES` = {HILL_CLIMB_MIN_VERTICES} vertices on, scanning below, so under it \
             its `support_hinted` is the scan), and the library's `support_hinted` itself. *Warm*: each direction \
             0.1 rad from the previous one; *random*: independent directions. ns per call.\n"
        );
        let _ = writeln!(w, "| space | crossover, warm hint | crossover, random directions |\n| --- | ---: | ---: |");
        for (space, rows) in support {
            let show = |c: Option<usize>| c.map_or("never (≤ 2048)".to_string(), |n| format!("{n} vertices"));
            let _ = writeln!(
                w,
                "| {space} | {} | {} |",
                show(support::crossover_count(rows, true)),
                show(support::crossover_count(rows, false))
            );
        }
        for (space, rows) in in_query {
            let show = |c: Option<usize>| c.map_or("never (≤ 2048)".to_string(), |n| format!("{n} vertices"));
            let _ =
                writeln!(w, "| {space}, inside `gjk::distance` | {} | |", show(support::query_crossover_count(rows)));
        }
        let _ = writeln!(
            w,
            "\nCrossover: the smallest count from which the climb beats the scan at that count and every larger \
             one. *Inside `gjk::distance`*: whole queries on hull pairs of that count (configurations of all three \
             regimes), with wrappers that always scan or always climb (from the hint alone, kept across a query's \
             iterations and starting at vertex 0; the library also starts from its table of support vertices on \
             hulls of 64 vertices or more, so it can beat both): this is the figure to set \
             `HILL_CLIMB_MIN_VERTICES` from. It is one constant for 2D and 3D.\n"
        );
        for (space, rows) in in_query {
            let _ = writeln!(w, "### In queries: {space}\n");
            let _ = writeln!(
                w,
                "`gjk::distance` per query (ns) on pairs of hulls of N vertices.\n\n\
                 | vertices | library (climbs from {HILL_CLIMB_MIN_VERTICES}) | always scan | always climb | climb/scan |\n\
                 | ---: | ---: | ---: | ---: | ---: |"
            );
            for r in rows {
                let _ = writeln!(
                    w,
                    "| {} | {:.0} | {:.0} | {:.0} | {:.2} |",
                    r.vertices,
                    r.ns[0],
                    r.ns[1],
                    r.ns[2],
                    r.ns[2] / r.ns[1]
                );
            }
            let _ = writeln!(w);
        }
    }
    for (space, rows) in support {
        let _ = writeln!(w, "### Support: {space}\n");
        let _ = writeln!(
            w,
            "| vertices | warm scan | warm climb | warm `support_hinted` | climb/scan | random scan | random climb | \
             climb/scan |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        );
        for r in rows {
            let _ = writeln!(
                w,
                "| {} | {:.1} | {:.1} | {:.1} | {:.2} | {:.1} | {:.1} | {:.2} |",
                r.vertices,
                r.warm[0],
                r.warm[1],
                r.warm[2],
                r.warm[1] / r.warm[0],
                r.random[0],
                r.random[1],
                r.random[1] / r.random[0]
            );
        }
        let _ = writeln!(w);
    }

    // Workload checks.
    let _ = writeln!(w, "## Workload check\n");
    let _ = writeln!(
        w,
        "Each configuration's signed distance as placed by the bisection (ours, f64) and as measured by parry (f64, \
         `contact` with prediction {}). A draw is *rejected* (and redrawn) when the bisection could not reach the \
         wanted value (our answer jumps there) or parry disagrees by more than {:e} (absolute, plus relative): every \
         library is then timed on configurations whose answer both agree on. *Stalled* counts the kept \
         configurations where our query ended `stalled` (no further progress in this precision) with the right \
         value.\n",
        workload::CONTACT_PREDICTION,
        workload::AGREE
    );
    let _ = writeln!(
        w,
        "| space | pair | regime | configurations | max abs(ours − wanted) | max abs(parry − ours) | stalled | \
         rejected draws | of which ours not converged |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for (space, kind, regime, c, _) in checks {
        let _ = writeln!(
            w,
            "| {space} | {} | {} | {} | {:.1e} | {} | {} | {} | {} |",
            kind.name(),
            regime.name(),
            c.pairs,
            c.ours_off,
            if c.parry_checked { format!("{:.1e}", c.parry_off) } else { "– (no parry shape)".into() },
            c.kept_not_converged,
            c.rejected,
            c.rejected_not_converged
        );
    }
    let with_rejections: Vec<_> = checks.iter().filter(|c| !c.4.is_empty()).collect();
    if !with_rejections.is_empty() {
        let _ = writeln!(w, "\nRejected draws (first three of each workload; signed distances, negative = depth):\n");
        for (space, kind, regime, _, rejected) in with_rejections {
            let examples: Vec<String> = rejected
                .iter()
                .take(3)
                .map(|r| {
                    format!(
                        "wanted {:.4}, ours {:.4} ({}), parry {}",
                        r.0,
                        r.1,
                        r.2,
                        r.3.map_or("no contact".into(), |p| format!("{p:.4}"))
                    )
                })
                .collect();
            let _ = writeln!(w, "- {space} {} {}: {}", kind.name(), regime.name(), examples.join("; "));
        }
    }
    s
}

/// The profiled loop, on its own for callgrind's `--toggle-collect=*profiled_calls*`.
#[inline(never)]
fn profiled_calls(run: &mut dyn FnMut(), calls: u64) {
    for _ in 0..calls {
        run();
    }
}

/// `--profile`: runs one contender of one cell, untimed.
fn profile(o: &Options, id: &str, who: &str, calls: u64) -> Result<(), String> {
    if let Some(n) = id.strip_prefix("broadphase/") {
        let n: usize = n.parse().map_err(|e| format!("{id}: {e}"))?;
        let frames = if calls == 10_000 { 60 } else { calls as usize };
        let ns = gjk_bench::broadphase::profile(n, who, frames)?;
        eprintln!("{id} {who}: {frames} frames, median {:.3} ms per frame", ns / 1e6);
        return Ok(());
    }
    if id.starts_with("scenes/") {
        let items = gjk_bench::scenes::profile(id, who, &mut |run| profiled_calls(run, calls))?;
        eprintln!("{id} {who}: {calls} calls of {items} queries");
        return Ok(());
    }
    // Only the cell's family is generated, so a profile of the whole process is mostly the runner.
    let family = id.split('/').nth(1).unwrap_or_default();
    let kinds3: Vec<Kind> = KINDS_3D.into_iter().filter(|k| k.name() == family).collect();
    let kinds2: Vec<Kind> = KINDS_2D.into_iter().filter(|k| k.name() == family).collect();
    let w3 = workload::all(&kinds3, o.pairs, workload::workload3);
    let w2 = workload::all(&kinds2, o.pairs, workload::workload2);
    let mut cell = all_cells(&w3, &w2).into_iter().find(|c| c.id() == id).ok_or_else(|| format!("no cell {id}"))?;
    let con = cell.contenders.iter_mut().find(|c| c.who.name() == who).ok_or_else(|| format!("no {who} in {id}"))?;
    let start = Instant::now();
    profiled_calls(&mut con.run, calls);
    let ns = start.elapsed().as_secs_f64() * 1e9 / (calls as f64 * cell.pairs as f64);
    eprintln!("{id} {who}: {calls} calls of {} queries, {ns:.1} ns per query", cell.pairs);
    Ok(())
}

/// `--broadphase-only`: the broadphase curve alone, its section put in place of the old one in the report.
fn broadphase_only(o: &Options) -> Result<(), String> {
    let old = std::fs::read_to_string(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    eprintln!("broadphase scaling…");
    let section = gjk_bench::broadphase::report_section(o.broadphase_max, o.broadphase_repeats, load_average);
    std::fs::write(&o.out, gjk_bench::broadphase::splice_section(&old, &section))
        .map_err(|e| format!("{}: {e}", o.out.display()))?;
    eprintln!("updated the broadphase section of {}", o.out.display());
    Ok(())
}

fn main() -> Result<(), String> {
    let o = options()?;
    if let Some((id, who, calls)) = &o.profile {
        return profile(&o, id, who, *calls);
    }
    if o.broadphase_only {
        return broadphase_only(&o);
    }
    let start = Instant::now();
    let load_before = load_average();
    let keep = |id: &str| o.filter.as_ref().is_none_or(|f| id.contains(f.as_str()));

    eprintln!("generating the workload ({} configurations per pair and regime)…", o.pairs);
    // Only the families with a cell the filter keeps are generated.
    let wanted = |kinds: &[Kind], spaces: [&str; 2]| -> Vec<Kind> {
        let ids = |k: Kind| {
            let name = k.name();
            spaces.into_iter().flat_map(move |s| {
                let name = name.clone();
                REGIMES.iter().flat_map(move |r| {
                    let name = name.clone();
                    QUERIES.iter().map(move |q| format!("{s}/{name}/{}/{}", r.name().replace(' ', "-"), q.name()))
                })
            })
        };
        kinds.iter().copied().filter(|&k| ids(k).any(|id| keep(&id))).collect()
    };
    let w3 = workload::all(&wanted(&KINDS_3D, ["3D-f32", "3D-f64"]), o.pairs, workload::workload3);
    let w2 = workload::all(&wanted(&KINDS_2D, ["2D-f32", "2D-f64"]), o.pairs, workload::workload2);
    let mut checks = Vec::new();
    for w in &w3 {
        checks.push(("3D", w.kind, w.regime, w.check(), draws(&w.rejected)));
    }
    for w in &w2 {
        checks.push(("2D", w.kind, w.regime, w.check(), draws(&w.rejected)));
    }

    eprintln!("building the cells ({})…", gjk_bench::ccd::status());
    let cells: Vec<Cell> = all_cells(&w3, &w2).into_iter().filter(|c| keep(&c.id())).collect();
    let results = measure_cells(cells, &o.plan);

    let batch = if o.batch {
        eprintln!("batch throughput…");
        let b = batch::measure(&w3, 3, &o.plan)?;
        eprintln!(
            "  1 thread {:.1} ns/pair, {} threads {:.1} ns/pair: {:.2}× (control {:.2}×)",
            b.one_ns,
            b.threads,
            b.all_ns,
            b.speedup(),
            b.control_speedup
        );
        Some(b)
    } else {
        None
    };

    let mut support_rows = Vec::new();
    let mut in_query_rows = Vec::new();
    if o.support {
        eprintln!("support crossover…");
        let plan = Plan { batches: o.plan.batches, batch: o.plan.batch / 2 };
        support_rows.push(("3D f64, `DVec3`", support::crossover::<DVec3>(&support::COUNTS, &plan)));
        support_rows.push(("3D f32, `Vec3`", support::crossover::<Vec3>(&support::COUNTS, &plan)));
        support_rows.push(("2D f64, `DVec2`", support::crossover::<DVec2>(&support::COUNTS, &plan)));
        in_query_rows.push(("3D f64", support::query_crossover::<DVec3>(&support::COUNTS, 32, &plan)));
        in_query_rows.push(("2D f64", support::query_crossover::<DVec2>(&support::COUNTS, 32, &plan)));
        for (space, rows) in &in_query_rows {
            eprintln!("  {space} in queries: crossover {:?}", support::query_crossover_count(rows));
        }
        for (space, rows) in &support_rows {
            eprintln!(
                "  {space}: crossover warm {:?}, random {:?}",
                support::crossover_count(rows, true),
                support::crossover_count(rows, false)
            );
        }
    }

    let broadphase = (o.broadphase_max > 0).then(|| {
        eprintln!("broadphase scaling…");
        gjk_bench::broadphase::report_section(o.broadphase_max, o.broadphase_repeats, load_average)
    });

    let machine = Machine {
        nproc: std::thread::available_parallelism().map_or(1, |n| n.get()),
        cpu: cpu_model(),
        rustc: env!("GJK_BENCH_RUSTC"),
        date: now_utc(),
        load_before,
        load_after: load_average(),
    };
    let mut text =
        write_report(&o, &machine, &results, &checks, batch.as_ref(), &support_rows, &in_query_rows, start.elapsed());
    // Composite shapes on real meshes (skipped with a message when the meshes are absent).
    if o.filter.as_ref().is_none_or(|f| "scenes".contains(f.as_str())) {
        text.push_str(&gjk_bench::scenes::section(&o.plan));
    }
    text.push_str(broadphase.as_deref().unwrap_or_default());
    if let Some(dir) = o.out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(&o.out, text).map_err(|e| format!("{}: {e}", o.out.display()))?;
    let shown = std::fs::canonicalize(&o.out).unwrap_or_else(|_| o.out.clone());
    eprintln!("wrote {} in {:.0} s", shown.display(), start.elapsed().as_secs_f64());
    Ok(())
}

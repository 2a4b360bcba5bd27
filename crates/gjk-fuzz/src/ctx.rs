//! One case being checked: where its failures and timings go, how a query is run (each behind `catch_unwind`,
//! timed), and how a failure's reproducer is written.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use std::time::Instant;

use serde_json::{json, Map, Value};

use crate::gen::Case;
use crate::report::{Failure, Report, Severity};

/// A single query slower than this is reported: a hang or a runaway loop. A query takes microseconds, so this is
/// 10⁵–10⁶ times that; it is that loose because wall clock on this shared machine is noisy even as the least of
/// three runs (a 575-byte point query once took 0.27 s three times in a row at load 12 on 2 cores). Unoptimised
/// builds (the smoke test under `cargo test`) run about ten times slower, and get ten times the bound.
pub const SLOW_SECONDS: f64 = if cfg!(debug_assertions) { 10.0 } else { 1.0 };

/// Times `f`; when it takes longer than `limit`, runs it twice more and keeps the least time: wall clock on a
/// shared machine includes time the thread was not running, and the work is deterministic, so the least of three
/// runs is the work's own time.
pub fn least_time<T>(limit: f64, mut f: impl FnMut() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    let mut seconds = start.elapsed().as_secs_f64();
    if seconds > limit {
        for _ in 0..2 {
            let again = Instant::now();
            let _ = f();
            seconds = seconds.min(again.elapsed().as_secs_f64());
        }
    }
    (out, seconds)
}

thread_local! {
    static PANIC_MESSAGE: RefCell<String> = const { RefCell::new(String::new()) };
    /// True while a guarded query runs on this thread: its panic is recorded, not printed.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once) a panic hook that keeps the message of a panic inside [`guarded`] for the report instead of
/// printing it; any other panic (a test's assertion) goes to the default hook.
pub fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(Cell::get) {
                return default(info);
            }
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(non-string payload)".into());
            let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            PANIC_MESSAGE.with(|m| *m.borrow_mut() = format!("{msg}{at}"));
        }));
    });
}

/// Runs `f` behind `catch_unwind` with its panic message kept quiet (see [`quiet_panics`]); the message is
/// returned on a panic.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    quiet_panics();
    let was = GUARDED.with(|g| g.replace(true));
    let out = catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(was));
    out.map_err(|_| PANIC_MESSAGE.with(|m| m.borrow().clone()))
}

/// Which query a failure is about, for its reproducer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Intersects,
    Intersection,
    Distance,
    DistanceWarm,
    DistanceBounded,
    Penetration,
    Contact,
    RaySolid,
    RayHollow,
    ShapeCast,
    TimeOfImpact,
    Batch,
}

impl Query {
    /// The name in statistics.
    pub fn name(self) -> &'static str {
        match self {
            Query::Intersects => "intersects",
            Query::Intersection => "intersection",
            Query::Distance => "distance",
            Query::DistanceWarm => "distance_with(warm start)",
            Query::DistanceBounded => "distance_with(max_distance)",
            Query::Penetration => "penetration",
            Query::Contact => "contact_manifold",
            Query::RaySolid => "ray_cast(solid)",
            Query::RayHollow => "ray_cast(hollow)",
            Query::ShapeCast => "shape_cast",
            Query::TimeOfImpact => "time_of_impact",
            Query::Batch => "batch",
        }
    }
}

/// The checking context of one case.
pub struct Ctx<'r> {
    pub report: &'r mut Report,
    pub case: &'r Case,
    pub seed: u64,
    pub index: u64,
    pub space: &'static str,
}

impl Ctx<'_> {
    /// Records that `check` failed on `query` (with A and B swapped when `swapped`).
    pub fn fail(
        &mut self,
        check: &'static str,
        severity: Severity,
        excess: f64,
        q: Query,
        swapped: bool,
        message: String,
    ) {
        let c = self.case;
        // Classes group by the kind of geometry (an unordered pair), not by every family: one reproducer each.
        let (x, y) = (category(&c.a), category(&c.b));
        let families = if matches!(q, Query::RaySolid | Query::RayHollow) {
            // A ray meets A alone.
            x.to_string()
        } else if x <= y {
            format!("{x}×{y}")
        } else {
            format!("{y}×{x}")
        };
        let detail = if matches!(q, Query::RaySolid | Query::RayHollow) {
            format!("{} ({})", c.a.family(), c.scenario)
        } else {
            format!("{}×{} ({})", c.a.family(), c.b.family(), c.scenario)
        };
        self.report.add(Failure {
            check,
            severity,
            space: self.space,
            families,
            message: format!("{message}  — {}{} on {detail}", q.name(), if swapped { " (B, A)" } else { "" }),
            excess: if excess.is_finite() { excess } else { f64::MAX },
            seed: self.seed,
            index: self.index,
            cli: cli_line(c, q, swapped, &format!("{}:{}", self.seed, self.index)),
            rust: rust_literal(c, q, swapped, self.space),
        });
    }

    /// A numeric check: fails when `error > tol` (or either is NaN), with the ratio as the excess.
    pub fn within(
        &mut self,
        check: &'static str,
        q: Query,
        swapped: bool,
        error: f64,
        tol: f64,
        what: impl FnOnce() -> String,
    ) {
        self.within_as(Severity::Inaccuracy, check, q, swapped, error, tol, what);
    }

    /// [`within`](Self::within) for a measured check whose failure means a wrong yes/no answer (a hit that is
    /// no contact, a miss through the shape): reported with that severity.
    #[allow(clippy::too_many_arguments)]
    pub fn within_as(
        &mut self,
        severity: Severity,
        check: &'static str,
        q: Query,
        swapped: bool,
        error: f64,
        tol: f64,
        what: impl FnOnce() -> String,
    ) {
        if !(error <= tol) {
            let excess = if tol > 0.0 { error / tol } else { f64::MAX };
            self.fail(
                check,
                severity,
                excess,
                q,
                swapped,
                format!("{} (error {error:.3e} > tolerance {tol:.3e})", what()),
            );
        }
    }

    /// A yes/no check.
    pub fn verdict(&mut self, check: &'static str, q: Query, swapped: bool, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.fail(check, Severity::Verdict, 1.0, q, swapped, what());
        }
    }

    /// Every number finite.
    pub fn finite(
        &mut self,
        check: &'static str,
        q: Query,
        swapped: bool,
        values: &[f64],
        what: impl FnOnce() -> String,
    ) -> bool {
        let ok = values.iter().all(|x| x.is_finite());
        if !ok {
            self.fail(check, Severity::NonFinite, 1.0, q, swapped, format!("{}: {values:?}", what()));
        }
        ok
    }

    /// Runs one query behind `catch_unwind`, timed: `None` (and a `panic` failure) if it panicked.
    pub fn run<T>(&mut self, q: Query, swapped: bool, mut f: impl FnMut() -> T) -> Option<T> {
        let kind = format!("{} {}", self.space, q.name());
        self.report.count(&kind);
        let (out, seconds) = least_time(SLOW_SECONDS, || guarded(&mut f));
        let (seed, index, case, space) = (self.seed, self.index, self.case, self.space);
        self.report.time(&kind, seconds, seed, index, || {
            cli_line(case, q, swapped, &format!("{seed}:{index}"))
                .unwrap_or_else(|| rust_literal(case, q, swapped, space))
        });
        if seconds > SLOW_SECONDS {
            self.fail(
                "time.bounded",
                Severity::Slow,
                seconds / SLOW_SECONDS,
                q,
                swapped,
                format!("took {seconds:.3} s"),
            );
        }
        match out {
            Ok(v) => Some(v),
            Err(msg) => {
                self.fail("no_panic", Severity::Panic, 1.0, q, swapped, format!("panicked: {msg}"));
                None
            }
        }
    }
}

/// The kind of geometry a shape is, for failure classes: `curved` (a cylinder, cone or ellipsoid anywhere in
/// it), `rounded` (a polyhedral core with a radius), `flat` (polyhedral: boxes, hulls, frusta, segments,
/// triangles, points), `ball` (a point core).
pub fn category(s: &crate::spec::Shape) -> &'static str {
    use crate::spec::Shape;
    if s.curved_core() {
        return "curved";
    }
    match s {
        Shape::Ball { .. } => "ball",
        _ if s.has_radius() => "rounded",
        _ => "flat",
    }
}

/// The query as a `gjk query` line, when both shapes can be written (scaled and posed shapes cannot) and the query
/// exists in the CLI. An f32 case is written with its f64 inputs: the CLI computes in f64.
pub fn cli_line(c: &Case, q: Query, swapped: bool, id: &str) -> Option<String> {
    let (a, pa, b, pb) = if swapped { (&c.b, &c.pose_b, &c.a, &c.pose_a) } else { (&c.a, &c.pose_a, &c.b, &c.pose_b) };
    let name = match q {
        Query::Intersects | Query::Intersection => "intersect",
        Query::Distance => "distance",
        Query::Penetration => "penetration",
        Query::Contact => "contact",
        Query::RaySolid | Query::RayHollow => "ray_cast",
        Query::ShapeCast | Query::TimeOfImpact => "shape_cast",
        Query::DistanceWarm | Query::DistanceBounded | Query::Batch => return None,
    };
    let mut line = Map::new();
    line.insert("id".into(), json!(id));
    line.insert("query".into(), json!(name));
    line.insert("a".into(), a.to_json()?);
    line.insert("pose_a".into(), pa.to_json());
    let finite = |x: f64| if x.is_finite() { Some(json!(x)) } else { None };
    match q {
        Query::RaySolid | Query::RayHollow => {
            // The ray is cast against A alone (never swapped).
            line.insert("a".into(), c.a.to_json()?);
            line.insert("pose_a".into(), c.pose_a.to_json());
            line.insert("origin".into(), json!(c.ray_origin));
            line.insert("direction".into(), json!(c.ray_direction));
            if let Some(m) = finite(c.ray_max_toi) {
                line.insert("max_toi".into(), m);
            }
            line.insert("solid".into(), json!(q == Query::RaySolid));
        }
        _ => {
            line.insert("b".into(), b.to_json()?);
            line.insert("pose_b".into(), pb.to_json());
        }
    }
    match q {
        Query::Contact => {
            line.insert("prediction".into(), json!(c.prediction));
        }
        Query::ShapeCast | Query::TimeOfImpact => {
            let (va, vb) = if swapped { (&c.velocity_b, &c.velocity_a) } else { (&c.velocity_a, &c.velocity_b) };
            line.insert("velocity_a".into(), json!(va));
            line.insert("velocity_b".into(), json!(vb));
            if q == Query::TimeOfImpact {
                let w = |v: &Vec<f64>| if v.len() == 1 { json!(v[0]) } else { json!(v) };
                let (wa, wb) = if swapped { (&c.angular_b, &c.angular_a) } else { (&c.angular_a, &c.angular_b) };
                line.insert("angular_velocity_a".into(), w(wa));
                line.insert("angular_velocity_b".into(), w(wb));
            }
            if let Some(m) = finite(c.max_toi) {
                line.insert("max_toi".into(), m);
            }
            line.insert("target_distance".into(), json!(c.target_distance));
            line.insert("ignore_initial_overlap".into(), json!(c.ignore_initial_overlap));
        }
        _ => {}
    }
    let mut s = Value::Object(line).to_string();
    if c.f32 {
        s.push_str("   (f32 case: the CLI runs it in f64)");
    }
    Some(s)
}

/// The inputs of a query as a Rust-ish literal (the `Shape`/`Pose` descriptions of the harness).
pub fn rust_literal(c: &Case, q: Query, swapped: bool, space: &str) -> String {
    let (a, pa, b, pb) = if swapped { (&c.b, &c.pose_b, &c.a, &c.pose_a) } else { (&c.a, &c.pose_a, &c.b, &c.pose_b) };
    let extra = match q {
        Query::Contact => format!(", prediction = {:?}", c.prediction),
        Query::DistanceBounded => format!(", max_distance = {:?}", c.max_distance),
        Query::RaySolid | Query::RayHollow => {
            return format!(
                "{space} {}: a = {:?}, pose_a = {:?}, origin = {:?}, direction = {:?}, max_toi = {:?}",
                q.name(),
                c.a,
                c.pose_a,
                c.ray_origin,
                c.ray_direction,
                c.ray_max_toi
            )
        }
        Query::ShapeCast | Query::TimeOfImpact => format!(
            ", velocity_a = {:?}, velocity_b = {:?}, angular_a = {:?}, angular_b = {:?}, max_toi = {:?}, target_distance = {:?}, ignore_initial_overlap = {}",
            c.velocity_a, c.velocity_b, c.angular_a, c.angular_b, c.max_toi, c.target_distance, c.ignore_initial_overlap
        ),
        _ => String::new(),
    };
    let note = if swapped { " [swapped: these are the case's B, A]" } else { "" };
    format!("{space} {}{note}: a = {a:?}, pose_a = {pa:?}, b = {b:?}, pose_b = {pb:?}{extra}", q.name())
}

//! What a run found: failures (each a named check with its message and reproducer), cases run per kind, and the
//! slowest query of each kind with its input.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How bad a failure is, worst first (the order of the report).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// A query panicked.
    Panic,
    /// A NaN, an infinity or a null where a number was due.
    NonFinite,
    /// A wrong yes/no answer: intersecting or not, hit or miss, a lost or reordered CLI line.
    Verdict,
    /// A number off by more than its tolerance.
    Inaccuracy,
    /// A query slower than the time bound.
    Slow,
}

impl Severity {
    /// The name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Panic => "panic",
            Severity::NonFinite => "non-finite",
            Severity::Verdict => "wrong verdict",
            Severity::Inaccuracy => "inaccuracy",
            Severity::Slow => "slow",
        }
    }
}

/// One invariant that did not hold on one case.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The check's name, `query.invariant` (e.g. `penetration.point_identity`).
    pub check: &'static str,
    pub severity: Severity,
    /// Space ("3d-f64", "cli") and the shape families: with the check, the failure's class.
    pub space: &'static str,
    pub families: String,
    /// What was expected and what came, with numbers.
    pub message: String,
    /// How far past its tolerance (error / tolerance; 1 for yes/no checks): the worst of a class is kept.
    pub excess: f64,
    pub seed: u64,
    pub index: u64,
    /// The query as a `gjk query` line, when the CLI can express it.
    pub cli: Option<String>,
    /// The inputs as a Rust-ish literal.
    pub rust: String,
}

impl Failure {
    /// The class a failure belongs to: the same check on the same space and shape families.
    pub fn class(&self) -> String {
        format!("{} [{}] {}", self.check, self.space, self.families)
    }
}

/// The slowest query of one kind.
#[derive(Clone, Debug)]
pub struct Slowest {
    pub seconds: f64,
    pub seed: u64,
    pub index: u64,
    pub input: String,
}

/// Everything a run found.
#[derive(Default, Debug)]
pub struct Report {
    /// Cases run per kind ("3d-f64 distance", "cli line", ...).
    pub counts: BTreeMap<String, u64>,
    /// Every failure (capped per class: the first few and the worst are kept).
    pub failures: Vec<Failure>,
    /// Failures seen per class, including the ones not kept.
    pub class_counts: BTreeMap<String, u64>,
    pub slowest: BTreeMap<String, Slowest>,
    pub cases: u64,
}

/// Failures kept per class (the count goes on).
const KEEP_PER_CLASS: usize = 3;

impl Report {
    /// Counts one query of `kind`.
    pub fn count(&mut self, kind: &str) {
        *self.counts.entry(kind.to_string()).or_default() += 1;
    }

    /// Records a failure, keeping the first few of its class and the one furthest past its tolerance.
    pub fn add(&mut self, f: Failure) {
        let class = f.class();
        let n = self.class_counts.entry(class.clone()).or_default();
        *n += 1;
        let kept: Vec<usize> =
            self.failures.iter().enumerate().filter(|(_, g)| g.class() == class).map(|(i, _)| i).collect();
        if kept.len() < KEEP_PER_CLASS {
            self.failures.push(f);
        } else if let Some(&least) =
            kept.iter().min_by(|&&i, &&j| self.failures[i].excess.total_cmp(&self.failures[j].excess))
        {
            if f.excess > self.failures[least].excess {
                self.failures[least] = f;
            }
        }
    }

    /// Records a query's time.
    pub fn time(&mut self, kind: &str, seconds: f64, seed: u64, index: u64, input: impl FnOnce() -> String) {
        let slower = self.slowest.get(kind).is_none_or(|s| seconds > s.seconds);
        if slower {
            self.slowest.insert(kind.to_string(), Slowest { seconds, seed, index, input: input() });
        }
    }

    /// Merges another report (from another thread) into this one.
    pub fn merge(&mut self, other: Report) {
        for (k, v) in other.counts {
            *self.counts.entry(k).or_default() += v;
        }
        for (k, v) in other.class_counts {
            *self.class_counts.entry(k).or_default() += v;
        }
        for f in other.failures {
            // Counted already through class_counts: re-add without counting twice.
            let class = f.class();
            let before = self.class_counts[&class];
            self.add(f);
            self.class_counts.insert(class, before);
        }
        for (k, s) in other.slowest {
            if self.slowest.get(&k).is_none_or(|t| s.seconds > t.seconds) {
                self.slowest.insert(k, s);
            }
        }
        self.cases += other.cases;
    }

    /// Failures, worst severity first, then by class.
    pub fn sorted_failures(&self) -> Vec<&Failure> {
        let mut v: Vec<&Failure> = self.failures.iter().collect();
        v.sort_by(|a, b| {
            a.severity.cmp(&b.severity).then(a.class().cmp(&b.class())).then(b.excess.total_cmp(&a.excess))
        });
        v
    }

    /// The printed report.
    pub fn render(&self, verbose: bool) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "cases: {}", self.cases);
        let _ = writeln!(s, "queries run per kind:");
        for (k, v) in &self.counts {
            let _ = writeln!(s, "  {k:<34} {v}");
        }
        let _ = writeln!(s, "slowest query per kind:");
        for (k, v) in &self.slowest {
            let _ = writeln!(s, "  {k:<34} {:>10.3} ms  (seed {} case {})", v.seconds * 1e3, v.seed, v.index);
            if verbose {
                let _ = writeln!(s, "      {}", v.input);
            }
        }
        let known = self
            .class_counts
            .keys()
            .filter(|c| self.failures.iter().any(|f| &f.class() == *c && crate::known::why(f).is_some()))
            .count();
        let _ = writeln!(
            s,
            "failure classes: {} ({} listed in known.rs, {} not listed)  (failures: {})",
            self.class_counts.len(),
            known,
            self.class_counts.len() - known,
            self.class_counts.values().sum::<u64>()
        );
        let mut last_class = String::new();
        for f in self.sorted_failures() {
            let class = f.class();
            if class != last_class {
                let known = crate::known::why(f).map_or(String::new(), |w| format!("   (known open: {w})"));
                let _ = writeln!(s, "\n[{}] {}  ×{}{known}", f.severity.name(), class, self.class_counts[&class]);
                last_class = class;
            }
            let _ = writeln!(s, "  seed {} case {}: {}", f.seed, f.index, f.message);
            if let Some(cli) = &f.cli {
                let _ = writeln!(s, "    cli: {cli}");
            }
            let _ = writeln!(s, "    rust: {}", f.rust);
        }
        s
    }
}

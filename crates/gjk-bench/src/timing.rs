//! A simple, robust timing loop for the report (criterion is for `cargo bench`): calibrate a batch to a few
//! milliseconds, then time batches of every contender of a cell in turn — so a slow phase of a shared machine
//! hits all of them alike — and keep the median of the batches.

use std::time::{Duration, Instant};

/// How long and how often to measure.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Batches per contender (the median is taken over them).
    pub batches: usize,
    /// Target duration of one batch.
    pub batch: Duration,
}

impl Default for Plan {
    fn default() -> Self {
        Self { batches: 15, batch: Duration::from_millis(6) }
    }
}

/// The result of timing one contender.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Median time of one call of the runner, in nanoseconds, divided by `items` (per query).
    pub median_ns: f64,
    /// Fastest batch, per item.
    pub min_ns: f64,
    /// Slowest batch, per item.
    pub max_ns: f64,
    /// Runner calls per batch.
    pub reps: u64,
}

/// Median of a list (sorted in place).
pub fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        xs[n / 2]
    } else {
        0.5 * (xs[n / 2 - 1] + xs[n / 2])
    }
}

/// Times `runners` (each doing `items` queries per call) batch by batch in turn; returns one [`Timing`] each.
pub fn interleaved(runners: &mut [&mut dyn FnMut()], items: usize, plan: &Plan) -> Vec<Timing> {
    // Calibration: warm up, then find how many calls fill a batch.
    let reps: Vec<u64> = runners
        .iter_mut()
        .map(|run| {
            run();
            let start = Instant::now();
            let mut calls = 0u64;
            while start.elapsed() < plan.batch / 2 || calls < 2 {
                run();
                calls += 1;
            }
            let per_call = start.elapsed().as_secs_f64() / calls as f64;
            ((plan.batch.as_secs_f64() / per_call).ceil() as u64).max(1)
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(plan.batches); runners.len()];
    for _ in 0..plan.batches {
        for (i, run) in runners.iter_mut().enumerate() {
            let start = Instant::now();
            for _ in 0..reps[i] {
                run();
            }
            let ns = start.elapsed().as_secs_f64() * 1e9;
            samples[i].push(ns / (reps[i] as f64 * items.max(1) as f64));
        }
    }
    samples
        .into_iter()
        .zip(reps)
        .map(|(mut s, reps)| {
            let min_ns = s.iter().copied().fold(f64::INFINITY, f64::min);
            let max_ns = s.iter().copied().fold(0.0, f64::max);
            Timing { median_ns: median(&mut s), min_ns, max_ns, reps }
        })
        .collect()
}

//! Batch throughput: `gjk::batch::distances` over every 3D f64 configuration of the workload (all families, all
//! regimes, repeated), on a one-thread rayon pool against a pool of every available thread.

use std::hint::black_box;
use std::sync::Arc;

use gjk::batch::{distances, Pair};
use gjk::math::DVec3;
use gjk::shape::SupportMap;
use rayon::prelude::*;

use crate::space::{Space, Visitor};
use crate::timing::{interleaved, Plan};
use crate::workload::Workload;

/// The result.
#[derive(Clone, Debug)]
pub struct BatchResult {
    /// Pairs per `distances` call.
    pub pairs: usize,
    /// Threads of the parallel pool.
    pub threads: usize,
    /// ns per pair on one thread.
    pub one_ns: f64,
    /// ns per pair on every thread.
    pub all_ns: f64,
    /// The same two pools on a pure-arithmetic loop of the same shape (no memory traffic, nothing shared): the
    /// speed-up the machine itself allowed while the batch was measured (a busy second core caps both).
    pub control_speedup: f64,
}

impl BatchResult {
    /// One-thread time over all-threads time.
    pub fn speedup(&self) -> f64 {
        self.one_ns / self.all_ns
    }
}

type DynShape = Box<dyn SupportMap<DVec3> + Send + Sync>;

struct Boxed;

impl Visitor<DVec3> for Boxed {
    type Out = (DynShape, DynShape);
    fn visit<A, B>(self, a: A, b: B) -> Self::Out
    where
        A: SupportMap<DVec3> + Send + Sync + 'static,
        B: SupportMap<DVec3> + Send + Sync + 'static,
    {
        (Box::new(a), Box::new(b))
    }
}

/// Our shapes of every workload, as trait objects, for `gjk::batch`.
pub struct BatchSet {
    workloads: Vec<Arc<Workload<DVec3>>>,
    shapes: Vec<(DynShape, DynShape)>,
}

impl BatchSet {
    /// The shapes of every workload.
    pub fn new(workloads: &[Arc<Workload<DVec3>>]) -> Self {
        let shapes = workloads.iter().map(|w| DVec3::visit(&w.spec_a, &w.spec_b, Boxed)).collect();
        Self { workloads: workloads.to_vec(), shapes }
    }

    /// Every configuration of every workload, `repeat` times.
    pub fn pairs(&self, repeat: usize) -> Vec<Pair<'_, DVec3>> {
        let mut pairs = Vec::new();
        for _ in 0..repeat {
            for (w, (a, b)) in self.workloads.iter().zip(&self.shapes) {
                for (pa, pb) in &w.poses {
                    pairs.push(Pair { a: &**a, pose_a: *pa, b: &**b, pose_b: *pb });
                }
            }
        }
        pairs
    }
}

/// A one-thread rayon pool and a pool of every available thread.
pub fn pools() -> Result<(rayon::ThreadPool, rayon::ThreadPool), String> {
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| e.to_string())?;
    let all = rayon::ThreadPoolBuilder::new().build().map_err(|e| e.to_string())?;
    Ok((one, all))
}

/// Times the batch of every configuration of `workloads`, repeated `repeat` times.
pub fn measure(workloads: &[Arc<Workload<DVec3>>], repeat: usize, plan: &Plan) -> Result<BatchResult, String> {
    let set = BatchSet::new(workloads);
    let pairs = set.pairs(repeat);
    let (one, all) = pools()?;
    let threads = all.current_num_threads();
    let p = &pairs;
    let mut run_one = || {
        black_box(one.install(|| distances(p)));
    };
    let mut run_all = || {
        black_box(all.install(|| distances(p)));
    };
    let spin = |_: &usize| {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        black_box(x)
    };
    let items: Vec<usize> = (0..pairs.len()).collect();
    let it = &items;
    let mut control_one = || {
        black_box(one.install(|| it.par_iter().map(spin).sum::<u64>()));
    };
    let mut control_all = || {
        black_box(all.install(|| it.par_iter().map(spin).sum::<u64>()));
    };
    let t = interleaved(&mut [&mut run_one, &mut run_all, &mut control_one, &mut control_all], pairs.len(), plan);
    Ok(BatchResult {
        pairs: pairs.len(),
        threads,
        one_ns: t[0].median_ns,
        all_ns: t[1].median_ns,
        control_speedup: t[2].median_ns / t[3].median_ns,
    })
}

//! `cargo bench -p gjk-bench [-- FILTER]`: every cell of the report under criterion (ours, parry and, when it is
//! linked, libccd on the same pairs), the mixed pairs among them (`-- sphere-box`, `-- box-hull32`), plus the support-function crossover (`-- support`) and the batch speed-up
//! (`-- batch`). Ids: `3D-f64/hull256/penetrating/contact/ours`, `support/3D-f64/256/warm-climb`, `batch/1-thread`.
//!
//! One iteration of a query bench answers all the cell's configurations (throughput: configurations per second).
//! The report binary (`cargo run --release -p gjk-bench --bin report`) measures the same cells with a plainer loop
//! and writes `bench/RESULTS.md`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gjk::math::{DVec2, DVec3};
use gjk::shape::SupportMap;
use gjk_bench::batch::{pools, BatchSet};
use gjk_bench::cells::all_cells;
use gjk_bench::space::Space;
use gjk_bench::support::{self, climb};
use gjk_bench::workload::{self, KINDS_2D, KINDS_3D, PAIRS};

fn queries(c: &mut Criterion) {
    if !gjk_bench::ccd::AVAILABLE {
        eprintln!("note: {}", gjk_bench::ccd::status());
    }
    let w3 = workload::all(&KINDS_3D, PAIRS, workload::workload3);
    let w2 = workload::all(&KINDS_2D, PAIRS, workload::workload2);
    for mut cell in all_cells(&w3, &w2) {
        let mut g = c.benchmark_group(cell.id());
        g.throughput(Throughput::Elements(cell.pairs as u64));
        for con in &mut cell.contenders {
            g.bench_function(con.who.name(), |b| b.iter(|| (con.run)()));
        }
        g.finish();
    }
}

fn support_crossover(c: &mut Criterion) {
    support_space::<DVec3>(c, "3D-f64");
    support_space::<DVec2>(c, "2D-f64");
}

fn support_space<V: Space>(c: &mut Criterion, label: &str) {
    for n in support::COUNTS {
        let (hull, warm, random) = support::setup::<V>(n);
        let mut g = c.benchmark_group(format!("support/{label}/{n}"));
        for (stream, dirs) in [("warm", &warm), ("random", &random)] {
            g.throughput(Throughput::Elements(dirs.len() as u64));
            g.bench_function(format!("{stream}-scan"), |b| {
                b.iter(|| {
                    for &d in dirs {
                        black_box(hull.support(d));
                    }
                })
            });
            g.bench_function(format!("{stream}-climb"), |b| {
                b.iter(|| {
                    let mut hint = 0;
                    for &d in dirs {
                        hint = climb(&hull, d, hint);
                        black_box(hint);
                    }
                })
            });
            g.bench_function(format!("{stream}-support_hinted"), |b| {
                b.iter(|| {
                    let mut hint = 0u32;
                    for &d in dirs {
                        black_box(hull.support_hinted(d, &mut hint));
                    }
                })
            });
        }
        g.finish();
    }
}

fn batch(c: &mut Criterion) {
    let w3 = workload::all(&KINDS_3D, PAIRS, workload::workload3);
    let set = BatchSet::new(&w3);
    let pairs = set.pairs(3);
    let (one, all) = pools().expect("rayon pools");
    let mut g = c.benchmark_group("batch");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("1-thread", |b| b.iter(|| black_box(one.install(|| gjk::batch::distances(&pairs)))));
    g.bench_function(format!("{}-threads", all.current_num_threads()), |b| {
        b.iter(|| black_box(all.install(|| gjk::batch::distances(&pairs))))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    // Short runs: there are hundreds of benches (filter them by id).
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = queries, support_crossover, batch
}
criterion_main!(benches);

//! Benchmarks of the `gjk` library side by side with parry (parry3d, parry3d-f64, parry2d, parry2d-f64 0.31) and,
//! when it is installed, libccd (through a small FFI of our own, see [`ccd`]).
//!
//! * `cargo bench -p gjk-bench` — criterion, every cell (filter by id: `cargo bench -p gjk-bench -- hull256`,
//!   `-- support`, `-- batch`).
//! * `cargo run --release -p gjk-bench --bin report` — measures every cell with its own timing loop and writes
//!   `bench/RESULTS.md` (about a minute; `-- --help` for the options, among them `--profile CELL-ID` to run one
//!   contender of one cell under `perf` or `valgrind --tool=callgrind`).
//!
//! libccd is used when the build script finds it (`/usr/include/ccd/ccd.h` or pkg-config, built with
//! `CCD_DOUBLE`): it then links `ccd` and sets `cfg(has_libccd)`. Without it everything else builds and runs and the
//! libccd columns are left out. `GJK_BENCH_NO_LIBCCD=1` builds without it even when installed.
//!
//! The workload ([`workload`]) is generated from a fixed seed; every library answers the same pairs in the same
//! poses, converted from the same numbers ([`space`]).

pub mod accuracy;
pub mod batch;
pub mod broadphase;
pub mod ccd;
pub mod cells;
pub mod mixed;
pub mod rng;
pub mod scenes;
pub mod space;
pub mod support;
pub mod timing;
pub mod workload;

#[cfg(test)]
mod tests;

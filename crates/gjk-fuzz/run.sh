#!/usr/bin/env bash
# CI entry of the fuzz harness: `crates/gjk-fuzz/run.sh [SECONDS] [SEED] [MORE gjk-fuzz OPTIONS...]`
# (CI, through scripts/test-all.sh: `FUZZ_BIN_DIR=target/debug run.sh 90 1 --cases 6000 --allow-known`: a fixed
# seed and a case cap, so a faster machine runs no case a slower one has not, and only failures outside
# gjk_fuzz::known fail the step).
#
# Builds the harness and the `gjk` binary (release), or takes them from FUZZ_BIN_DIR when it is set (a directory
# holding `gjk-fuzz` and `gjk` already built, e.g. target/debug after `cargo test --workspace`), then runs every
# public query of the library and the CLI's line handling on random cases for SECONDS of wall clock (default 90),
# on FUZZ_THREADS threads (default 2), and prints cases run per kind, the slowest query per kind and every failure
# class with a reproducer. Exits non-zero on any invariant failure. The seed (default: the clock) is printed
# first; a failure replays with
#   target/release/gjk-fuzz --seed SEED --case INDEX [--shrink CHECK]
# The run is bounded by wall clock, not by a case count: it stops starting cases at the deadline, abandons a
# case that has not ended 30 s later (reported as a failure), and `timeout` backs that up.
set -euo pipefail
cd "$(dirname "$0")/../.."
budget="${1:-90}"
seed="${2:-$(date +%s)}"
shift $(($# < 2 ? $# : 2))
threads="${FUZZ_THREADS:-2}"
bin_dir="${FUZZ_BIN_DIR:-}"
if [[ -z $bin_dir ]]; then
  cargo build --release -q -p gjk-fuzz -p gjk-cli
  bin_dir=target/release
fi
echo "== gjk-fuzz: ${budget} s, seed ${seed}, ${threads} thread(s), binaries in ${bin_dir}"
timeout --kill-after=10 "$((budget + 120))" \
    "$bin_dir/gjk-fuzz" --seconds "$budget" --seed "$seed" --threads "$threads" --gjk "$bin_dir/gjk" "$@"

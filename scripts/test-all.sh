#!/usr/bin/env bash
# Every test of the project, in one command (the README's test command; CI runs it too):
#   1. the Rust workspace: library, CLI (its PNG pictures too), page module, fuzz smoke test, doctests
#      (`cargo test --workspace --features gjk-cli/png`);
#   2. the live pages in headless Chromium (web/test/run.sh: installs Debian's chromium and the pinned npm packages
#      when missing);
#   3. the Python package: a wheel built by maturin into a fresh venv, pytest (crates/gjk-py/run-tests.sh;
#      installs python3-venv from Debian when python3 cannot make a venv);
#   4. a fuzz run bounded by time and by case count (crates/gjk-fuzz/run.sh, with the binaries step 1 built): a
#      fixed seed, so a fast machine runs no case a slow one has not; only failures outside the known open
#      defects (gjk_fuzz::known) fail it.
# Run from anywhere. `SKIP=python,browser,fuzz` leaves parts out (for a quick local run).
set -euo pipefail
cd "$(dirname "$0")/.."
skip=",${SKIP:-},"
start=$(date +%s)
step() { echo; echo "== [$(( $(date +%s) - start )) s] $*"; }

# With gjk-cli's opt-in PNG renderer (feature png), so its picture tests run in the same build: a separate
# `cargo test -p gjk-cli --features png` built the library and the CLI a second time (features resolved for
# gjk-cli alone), over 3 minutes of CI's time.
step "Rust: cargo test --workspace --features gjk-cli/png"
cargo test --workspace --features gjk-cli/png
# Where that build put its binaries: the `gjk` CLI serves the browser test (else it builds its own:
# web/test/page.test.mjs), and it and `gjk-fuzz` run the fuzz step.
target_dir="${CARGO_TARGET_DIR:-target}"
[[ $target_dir == /* ]] || target_dir="$PWD/$target_dir"
debug_dir="$target_dir/debug"
export GJK_BIN="$debug_dir/gjk"

if [[ $skip != *,browser,* ]]; then
  step "the live pages in headless Chromium (web/test/run.sh)"
  bash web/test/run.sh
fi

if [[ $skip != *,python,* ]]; then
  step "the Python package (crates/gjk-py/run-tests.sh)"
  if ! python3 -c "import venv, ensurepip" 2>/dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
  fi
  bash crates/gjk-py/run-tests.sh
fi

if [[ $skip != *,fuzz,* ]]; then
  # The harness and the CLI that step 1 built (target/debug: opt-level 1, debug assertions and overflow checks on),
  # not a release build of both: that build took over 3 minutes of CI's time, and seed 1's 6000 cases run in 37 s
  # here against 30 s in release, with the same failure classes (rustc neither reassociates nor contracts
  # floating-point operations at any optimisation level; debug assertions only add checks).
  step "fuzz: 90 s at most, seed 1, at most 6000 cases, the test build's binaries (crates/gjk-fuzz/run.sh)"
  FUZZ_BIN_DIR="$debug_dir" bash crates/gjk-fuzz/run.sh 90 1 --cases 6000 --allow-known
fi

step "every test passed"

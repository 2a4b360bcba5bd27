#!/usr/bin/env bash
# Builds the gjk Python package from source into a fresh virtual environment (pip → maturin from PyPI → a
# release build of the extension) with its test extras, and runs pytest. Exits non-zero on any failure.
#
#   bash crates/gjk-py/run-tests.sh            # from the repository root (or anywhere)
#   GJK_PY_VENV=/path bash …/run-tests.sh      # reuse a venv (default: target/gjk-py-venv, rebuilt each run)
#   PYTHON=python3.12 bash …/run-tests.sh      # another interpreter (≥ 3.9)
#
# The extension builds in the workspace's target/ directory, so a warm target makes reruns quick.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"
venv="${GJK_PY_VENV:-$root/target/gjk-py-venv}"

start=$(date +%s)
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# The package and its test extras; maturin comes from PyPI as the build backend (pyproject.toml). `--no-compile`:
# no .pyc for every module of scipy, pandas and dask up front (half of the 70 s the extras took to install); the
# modules the tests import are compiled as they are imported.
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" \
  "$venv/bin/python" -m pip install --quiet --no-compile "$here[test]"
echo "gjk-py: installed in $(( $(date +%s) - start )) s"

cd "$here"
# -p no:cacheprovider: nothing written into the source tree.
"$venv/bin/python" -m pytest -p no:cacheprovider -q tests "$@"
echo "gjk-py: done in $(( $(date +%s) - start )) s"

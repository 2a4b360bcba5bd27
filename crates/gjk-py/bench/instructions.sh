#!/usr/bin/env bash
# Instructions per query under callgrind (independent of the machine's load): for each cell and tool, two runs of
# bench.py --only with N and 2N queries; the difference divided by N cancels start-up, imports and shape building,
# and the same difference for drawing the poses alone (tool "none") is subtracted.
#   bash crates/gjk-py/bench/instructions.sh [N]     (with the venv that has gjk, python-fcl and pybullet active)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
n="${1:-2000}"
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null python "$here/bench.py" --n "$2" --only "$1" "$3" 2>&1 \
    | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
printf '| cell | gjk batch (1 thread) | python-fcl loop | pybullet loop | fcl / gjk | pybullet / gjk |\n|---|---|---|---|---|---|\n'
for cell in 0 1 2; do
  name=$(python -c "import sys; sys.path.insert(0, '$here'); import bench, numpy as np; print(bench.cells(np.random.default_rng(0))[$cell][0])")
  declare -A per=()
  for tool in none gjk fcl pybullet; do
    a=$(count "$cell" "$n" "$tool"); b=$(count "$cell" "$((2 * n))" "$tool")
    per[$tool]=$(( (b - a) / n - ${per[none]:-0} ))
  done
  printf '| %s | %d | %d | %d | %.1f× | %.1f× |\n' "$name" "${per[gjk]}" "${per[fcl]}" "${per[pybullet]}" \
    "$(echo "${per[fcl]} / ${per[gjk]}" | bc -l)" "$(echo "${per[pybullet]} / ${per[gjk]}" | bc -l)"
done

"""The batch's speed-up from 1 to 2 threads, measured so that a shared machine's load says what it did.

For each cell of bench.py (and a composite cell: a sphere against the bunny mesh) the same batch runs with 1 and
2 threads, interleaved, `--repeat` times each. Beside every run: the wall time, the 1-minute load average, and each
thread's time on a CPU and time waiting for one (`/proc/self/task/*/schedstat`: the kernel's run-queue accounting).
From those:

* wall speed-up: median and best-of (fastest 1-thread run / fastest 2-thread run) — what a user saw;
* contention-free speed-up: the 1-thread run's CPU time (calling thread and worker) over the 2-thread run's calling
  thread's CPU time plus its busiest worker's, median over the pairs. It counts the batch's own serial parts (the calling thread's work), imbalance between the
  threads, and the work a second thread adds (shared caches, memory), but not the time other processes took the
  cores: what an idle 2-core machine would show;
* the calling thread's share of the CPU time (the serial part: argument checks, output allocation, chunk
  boundaries) and the run-queue wait share (how loaded the machine was).

    python crates/gjk-py/bench/speedup.py [--n 100000] [--repeat 15] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

import gjk

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "gjk" / "tests" / "data"


def task_times():
    """(cpu ns, run-queue wait ns) of every thread of this process, by thread id."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                cpu, wait, _ = map(int, f.read().split())
        except OSError:  # a thread that ended meanwhile
            continue
        out[int(tid)] = (cpu, wait)
    return out


def measured(run, threads):
    """One run: wall seconds, load average, CPU ns per thread that worked (calling thread first), wait ns."""
    load = os.getloadavg()[0]
    before = task_times()
    t = time.perf_counter()
    result = run(threads)
    wall = time.perf_counter() - t
    after = task_times()
    me = threading.get_native_id()
    cpu, wait = {}, 0
    for tid, (c, w) in after.items():
        c0, w0 = before.get(tid, (0, 0))
        if c - c0 > 0:
            cpu[tid] = c - c0
            wait += w - w0
    caller = cpu.pop(me, 0)
    return {"wall": wall, "load": load, "caller": caller, "workers": sorted(cpu.values(), reverse=True),
            "wait": wait, "result": result}


def cell_runs(rng, n):
    """(name, run(threads)) for the bench cells and a composite cell."""
    out = []
    for name, spec_a, spec_b in bench.cells(rng):
        pa, pb = bench.random_rows(rng, n, 0.3), bench.random_rows(rng, n, 0.9)
        a, b = bench.gjk_shape(spec_a), bench.gjk_shape(spec_b)
        out.append((f"{name} (penetration)",
                    lambda k, a=a, b=b, pa=pa, pb=pb: gjk.batch_penetration(a, b, pa, pb, threads=k)))
    bunny = gjk.TriMesh.from_obj(DATA / "bunny.obj")
    lo, hi = bunny.aabb()
    rows = bench.random_rows(rng, n // 10, 0.5 * float(np.max(hi - lo)))
    rows[:, :3] += 0.5 * (lo + hi)
    ball = gjk.Sphere(0.01)
    out.append((f"sphere–bunny mesh (distance, {n // 10:,} rows)",
                lambda k: gjk.batch_distance(bunny, ball, None, rows, threads=k)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rng = np.random.default_rng(2024)
    lines = [
        "| cell | 1 thread (median, best) | 2 threads (median, best) | wall speed-up median | best-of | "
        "contention-free (median, range) | calling thread's CPU share | run-queue wait share | load average |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, run in cell_runs(rng, args.n):
        run(2)  # warm: the pools, the caches
        ones, twos = [], []
        for _ in range(args.repeat):
            ones.append(measured(run, 1))
            twos.append(measured(run, 2))
        for x in ones + twos:
            assert bench_same(x["result"], ones[0]["result"]), "thread count changed the answers"
        w1, w2 = [x["wall"] for x in ones], [x["wall"] for x in twos]
        # Serial (calling thread) plus parallel (the busiest worker) time, each run on a core of its own.
        free = [(o["caller"] + sum(o["workers"])) / (t["caller"] + max(t["workers"])) for o, t in zip(ones, twos)]
        cpu_all = sum(x["caller"] + sum(x["workers"]) for x in twos)
        caller_share = sum(x["caller"] for x in twos) / cpu_all
        wait_share = sum(x["wait"] for x in ones + twos) / sum(
            x["wait"] + x["caller"] + sum(x["workers"]) for x in ones + twos)
        loads = [x["load"] for x in ones + twos]
        rows = len(ones[0]["result"])
        ns = lambda s: f"{s / rows * 1e9:.0f} ns"  # noqa: E731
        line = (f"| {name} | {ns(statistics.median(w1))}, {ns(min(w1))} | {ns(statistics.median(w2))}, {ns(min(w2))} "
                f"| {statistics.median(w1) / statistics.median(w2):.2f}× | {min(w1) / min(w2):.2f}× "
                f"| {statistics.median(free):.2f}× ({min(free):.2f}–{max(free):.2f}) | {caller_share:.2%} "
                f"| {wait_share:.0%} | {min(loads):.1f}–{max(loads):.1f} |")
        lines.append(line)
        print(line, flush=True)
        print("  per pair (load, wall 1, wall 2, contention-free):",
              "; ".join(f"{o['load']:.1f} {o['wall'] * 1e3:.0f}/{t['wall'] * 1e3:.0f} ms {f:.2f}×"
                        for o, t, f in zip(ones, twos, free)), flush=True)
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


def bench_same(r1, r2):
    return all(np.array_equal(r1[k], r2[k], equal_nan=r1[k].dtype.kind == "f") for k in r1.keys())


if __name__ == "__main__":
    sys.exit(main())

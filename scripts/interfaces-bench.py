#!/usr/bin/env python3
"""Measures the interfaces around the executors: `hcube regress` with one and two workers, and
the cost of a run called from Python.

  scripts/interfaces-bench.py [--rounds 3] [--calls 200] [--write-doc interfaces]

Regression: the shipped suite (tests/regress/catalogue.json, every case on its backends) with
`--jobs 1` and `--jobs 2`, rounds interleaved, the best wall time of each; the RTL models come
from the cache (--cache, default build/rtl-cache), built once before the first round so that
no round pays for them.

Python: `hcube.run` of Edelman's relative schedule on the table executor, n = 1, 3 and 6,
the median over --calls calls. The whole call (compile, verify, run, check, the result copied
into Python objects) is timed; at n = 1 the run itself is a few microseconds, so that call
bounds what the binding adds to any run.

With --write-doc NAME the tables also go into block NAME of docs/measurements.md
(scripts/mdtable.py).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import mdtable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def regress_seconds(a, jobs):
    env = dict(os.environ, HCUBE_CACHE=a.cache)
    t0 = time.perf_counter()
    p = subprocess.run([a.hcube, "regress", a.suite, "--jobs", str(jobs)], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"interfaces-bench: hcube regress --jobs {jobs} failed:\n{p.stdout}")
    return wall


def edelman_schedule(tool, n):
    """Edelman 1991 Theorem 3.2's w_ij for an n-cube, read from `hcube schedule`'s file."""
    import tempfile

    import hcube
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "e.hcs")
        subprocess.run([tool, "schedule", "--algo", "edelman", "--n", str(n), "--out", path],
                       check=True, stdout=subprocess.DEVNULL)
        steps = []
        with open(path) as f:
            for line in f:
                w = line.split("#")[0].split()
                if w and w[0] == "step":
                    steps.append([int(x, 0) for x in w[1:]])
    return hcube.Schedule.relative(n=n, steps=steps, name="edelman")


def python_call(tool, n, calls):
    import hcube
    s = edelman_schedule(tool, n)
    perm = hcube.Permutation.aapc(n=n)
    r = hcube.run(s, perm, backend="table")
    if r.mismatches != 0:
        sys.exit(f"interfaces-bench: n = {n}: {r.mismatches} mismatches")
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        r = hcube.run(s, perm, backend="table")
        times.append(time.perf_counter() - t0)
    return statistics.median(times), r.cycles, r.wall_seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hcube", default="build/hcube")
    ap.add_argument("--suite", default="tests/regress/catalogue.json")
    ap.add_argument("--cache", default="build/rtl-cache")
    ap.add_argument("--python-dir", default="build/python", help="where the hcube module is")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--write-doc", metavar="NAME")
    ap.add_argument("--doc", default=mdtable.DOC)
    a = ap.parse_args()
    a.hcube = os.path.abspath(a.hcube)
    a.cache = os.path.abspath(a.cache)
    sys.path.insert(0, os.path.abspath(a.python_dir))
    run_info = mdtable.Run()
    tee = mdtable.capture() if a.write_doc else None

    regress_seconds(a, 2)  # builds what the cache lacks
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(a.rounds):
        for jobs in (1, 2):
            best[jobs] = min(best[jobs], regress_seconds(a, jobs))
    print(f"`hcube regress {a.suite}` (every case on its backends; RTL models from the cache), "
          f"{a.rounds} rounds interleaved, the best wall time of each:")
    print()
    print("| workers | wall s | speed-up |")
    print("|---|---|---|")
    for jobs in (1, 2):
        print(f"| {jobs} | {best[jobs]:.2f} | {best[1] / best[jobs]:.2f} |")
    print()
    print(f"`hcube.run` of Edelman's relative schedule on the table executor from Python, "
          f"median of {a.calls} calls (compile, verify, run, check and the result's copy "
          "into Python):")
    print()
    print("| n | cycles | call µs | of it the executor's run µs |")
    print("|---|---|---|---|")
    for n in (1, 3, 6):
        call, cycles, run = python_call(a.hcube, n, a.calls)
        print(f"| {n} | {cycles} | {call * 1e6:.1f} | {run * 1e6:.1f} |")
    if tee:
        sys.stdout = tee.stream
        run_info.write(a.write_doc, tee.text(), a.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())

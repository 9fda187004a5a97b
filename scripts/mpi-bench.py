#!/usr/bin/env python3
"""Strong scaling of the table executor over MPI ranks, for docs/measurements.md ("Table mode
over MPI ranks", block mpi). Run by hand, never in CI; needs scripts/build.sh first.

For Edelman's AAPC (K = 2^n) at each N it runs `hcube run --algo edelman --n N --backend table
--json --no-verify` in one process, then under `mpirun -np 1`, `-np 2` and `-np 4
--oversubscribe`, R rounds interleaved (one, np1, np2, np4, one, ...), and prints the best round
of each: the report's wall time (the simulation), cycles/s, the speed-up over one process and
the parallel efficiency (speed-up / ranks), the whole command's elapsed time, the peak resident
memory of each rank (/usr/bin/time around every rank) and the bytes each rank sent per cycle
(hcube's own count of all ranks, printed on stderr, over cycles and ranks) beside the formula
k x 2^(n-k) x 4 bytes for a schedule that keeps every port busy. Every report must equal the one-process report but
for the wall time; a run that differs is printed as a failure and the script exits 1.

--no-verify because the static verification runs in full on every rank and does not change the
run. The machine's load average is printed with the table: two ranks on a 2-core machine can
only show their speed-up when nothing else runs.

usage: scripts/mpi-bench.py [-r ROUNDS] [-w BLOCK] [--hcube PATH] [N ...]   (default: 3 rounds,
       N = 12, PATH = build/hcube)
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mdtable  # noqa: E402

VARIANTS = [("one", 0), ("np1", 1), ("np2", 2), ("np4", 4)]


def environment():
    env = dict(os.environ)
    if os.geteuid() == 0:  # mpirun refuses root unless told twice
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    for var in [v for v in env if v.startswith("OMPI_COMM_WORLD")]:
        del env[var]
    return env


def run(hcube, n, ranks, work):
    """One run: (report without wall_seconds, wall s, elapsed s, peak KiB per rank, bytes)."""
    for f in os.listdir(work):
        os.remove(os.path.join(work, f))
    args = [hcube, "run", "--algo", "edelman", "--n", str(n), "--backend", "table", "--json",
            "--no-verify"]
    rank_var = "${OMPI_COMM_WORLD_RANK:-0}"
    timed = "exec /usr/bin/time -f %M -o " + shlex.quote(work) + "/rss." + rank_var + " " + \
        " ".join(shlex.quote(a) for a in args)
    cmd = ["sh", "-c", timed]
    if ranks > 0:
        cmd = ["mpirun", "-np", str(ranks)] + (["--oversubscribe"] if ranks > 2 else []) + cmd
    started = time.monotonic()
    p = subprocess.run(cmd, env=environment(), capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if p.returncode != 0:
        sys.exit(f"mpi-bench: {' '.join(cmd)} exit {p.returncode}:\n{p.stderr}")
    report = json.loads(p.stdout)
    wall = report.pop("wall_seconds")
    rss = [int(open(os.path.join(work, f"rss.{r}")).read().split()[-1])
           for r in range(max(ranks, 1))]
    exchanged = 0
    for line in p.stderr.splitlines():
        if " ranks exchanged " in line:
            exchanged = int(line.split(" ranks exchanged ")[1].split()[0])
    return report, wall, elapsed, rss, exchanged


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-r", "--rounds", type=int, default=3)
    ap.add_argument("-w", "--write", metavar="BLOCK", help="write the table into this block")
    ap.add_argument("--hcube", default=os.path.join(HERE, "..", "build", "hcube"))
    ap.add_argument("sizes", type=int, nargs="*", default=[12])
    a = ap.parse_args()
    record = mdtable.Run()
    failures = []
    lines = ["| n | run | ranks | cycles | wall s | cycles/s | speed-up | efficiency | elapsed s "
             "| peak MiB per rank | bytes per rank and cycle (formula) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as work:
        for n in a.sizes:
            best, one_report = {}, None
            for _ in range(a.rounds):
                for name, ranks in VARIANTS:
                    report, wall, elapsed, rss, exchanged = run(a.hcube, n, ranks, work)
                    if name == "one":
                        one_report = one_report or report
                    elif report != one_report:
                        diff = sorted(k for k in set(report) | set(one_report)
                                      if report.get(k) != one_report.get(k))
                        failures.append(f"n = {n}, {name}: the report differs in {diff}")
                    if name not in best or wall < best[name][1]:
                        best[name] = (report, wall, elapsed, rss, exchanged)
            base = best["one"][1]
            for name, ranks in VARIANTS:
                report, wall, elapsed, rss, exchanged = best[name]
                cycles = report["cycles"]
                speedup = base / wall
                k = max(ranks, 1).bit_length() - 1
                formula = k * (1 << (n - k)) * 4
                per_rank = exchanged // cycles // max(ranks, 1)
                per_cycle = f"{per_rank:,} ({formula:,})" if ranks > 1 else "–"
                label = "`hcube run`" if ranks == 0 else f"`mpirun -np {ranks}`"
                lines.append(
                    f"| {n} | {label} | {ranks or '–'} | {cycles:,} | {wall:.3g} | "
                    f"{cycles / wall:,.0f} | {speedup:.2f}× | "
                    f"{speedup / max(ranks, 1):.2f} | {elapsed:.2f} | "
                    f"{', '.join(f'{r // 1024:,}' for r in rss)} | {per_cycle} |")
    load_end = " ".join(open("/proc/loadavg").read().split()[:3])
    body = "\n".join([
        "Edelman's AAPC, K = 2^n, `hcube run --algo edelman --n N --backend table --json "
        "--no-verify`, in one process and under `mpirun -np R` (4: `--oversubscribe`), "
        f"{a.rounds} rounds interleaved, the best round of each. Wall s is the report's "
        "`wall_seconds` (the simulation), elapsed the whole command; speed-up is over one "
        "process, efficiency the speed-up per rank. Every report equals the one-process report "
        f"but for the wall time. Load average at the end: {load_end}.", ""] + lines) + "\n"
    print(body)
    for f in failures:
        print("FAIL", f)
    if a.write and not failures:
        record.write(a.write, body)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

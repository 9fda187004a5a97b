#!/usr/bin/env python3
"""The arithmetic sweep of docs/measurements.md (Johnsson & Ho 1988, TR-623): every matrix
multiplication method of §3 and every collective of §2 at n = 2..10 on the table executor, and on
the RTL for n up to --rtl-max-n, with the measured cycles beside the paper's formulas.

For each run it calls `hcube run ... --json` (matmul with --seed 1, so A is checked element by
element against C x D computed in C++) and records the total cycles, the MAC cycles the executor
measured (cycles in which some node's multiply-add units were busy) beside TR-623 Table 5
(PQR/N multiply-adds on U units), the transfer cycles beside the case's formula from Tables 2, 3,
6, 8 or 11 (`lower_bound`, `bound_source`), and the verdict. RTL runs use `hcube compare
--backends table,rtl`, which exits 1 on any difference between the two executors.

    scripts/matmul-sweep.py [--hcube build/hcube] [--n 2-10] [--rtl-max-n 0]
                            [--shapes-max-n 6] [--cube-max-n 8] [--jsonl FILE]
                            [--timeout 900] [--only matmul|collectives]
                            [--brief] [--write-doc NAME [--doc PATH]]

Output: Markdown tables on stdout (one per part), one JSON object per run in --jsonl; with
--write-doc NAME the tables also go into block NAME of docs/measurements.md, headed by the
command, the machine and the date (scripts/mdtable.py). --brief leaves out the table of every
matrix run and prints the collectives as one row per form and one column per n. A case
that does not fit (a shape that does not divide over the grid, an odd n for the square-grid
methods) is listed with hcube's own message (exit 2). Runs one case at a time: the machine is
shared.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import mdtable

# (method, extra options, label): all-port by default; one-port forms where the paper has both.
MATMUL = [
    ("rotation", [], "rotation"),
    ("exchange", [], "exchange"),
    ("exchange", ["--ports", "one"], "exchange one-port"),
    ("doubling", [], "doubling nRSBT"),
    ("a113", [], "a113"),
    ("a114", [], "a114"),
    ("cannon", [], "cannon"),
    ("broadcast", [], "broadcast nRSBT"),
    ("broadcast", ["--ports", "one"], "broadcast one-port"),
    ("a122", [], "a122"),
    ("a122", ["--ports", "one"], "a122 one-port"),
    ("a123", [], "a123"),
    ("a123", ["--ports", "one"], "a123 one-port"),
    ("a124", [], "a124"),
    ("a124", ["--ports", "one"], "a124 one-port"),
    ("a125", [], "a125"),
    ("a125", ["--ports", "one"], "a125 one-port"),
    ("a131", [], "a131"),
    ("a131", ["--ports", "one"], "a131 one-port"),
]

# (algo, options as a function of n, label).
COLLECTIVES = [
    ("broadcast-all", lambda n: ["--ports", "one", "--m", "1"], "SBT one-port m=1"),
    ("broadcast-all", lambda n: ["--tree", "nrsbt", "--m", str(n)], "nRSBT m=n"),
    ("broadcast-all", lambda n: ["--tree", "nrsbt", "--m", str(n), "--encoding", "gray"],
     "nRSBT m=n Gray"),
    ("reduce-all", lambda n: ["--ports", "one", "--m", "1"], "SBT one-port m=1"),
    ("reduce-all", lambda n: ["--ports", "one", "--m", "1", "--encoding", "gray"],
     "SBT one-port m=1 Gray"),
    ("reduce-all", lambda n: ["--tree", "nrsbt", "--m", str(n)], "nRSBT m=n"),
    ("broadcast-one", lambda n: ["--tree", "nrsbt", "--m", str(n)], "nRSBT m=n"),
    ("reduce-one", lambda n: ["--tree", "nrsbt", "--m", str(n)], "nRSBT m=n"),
]


def shapes(n, shapes_max_n, cube_max_n):
    """P x Q x R per n: the cube N x N x N up to cube_max_n, with P, Q or R four times larger up
    to shapes_max_n (which algorithm wins depends on which dimension is large, TR-623 §3).
    Above cube_max_n the N^2 multiply-adds per node of the cube take too long to simulate on a
    shared machine, so P shrinks to 2^ceil(n/2), the smallest P the square grids divide (the
    one-dimensional methods need N to divide Q and R, A(.,1,3) also P, which does not fit)."""
    big = 1 << n
    if n > cube_max_n:
        return [(1 << ((n + 1) // 2), big, big)]
    out = [(big, big, big)]
    if n <= shapes_max_n:
        out += [(4 * big, big, big), (big, 4 * big, big), (big, big, 4 * big)]
    return out


def run(cmd, timeout):
    started = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": timeout}
    seconds = round(time.monotonic() - started, 2)
    if p.returncode == 2:
        lines = (p.stderr.strip() or p.stdout.strip()).splitlines()
        message = lines[-1].replace("hcube: error: ", "") if lines else ""
        return {"status": "does not fit", "message": message, "seconds": seconds}
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"status": "exit %d" % p.returncode, "message": p.stderr.strip()[-300:],
                "seconds": seconds}
    j["status"] = "pass" if p.returncode == 0 else "fail"
    j["seconds"] = seconds
    return j


def fmt(v):
    return "{:,}".format(v) if isinstance(v, int) else str(v)


def grid_of(perm):
    # "matmul n=6 shape=64x64x64 l=3" -> 8 x 8
    fields = dict(f.split("=", 1) for f in perm.split()[1:] if "=" in f)
    n, l = int(fields["n"]), int(fields["l"])
    return "%d x %d" % (1 << l, 1 << (n - l))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hcube", default=os.path.join("build", "hcube"))
    ap.add_argument("--n", default="2-10", help="range A-B of cube dimensions")
    ap.add_argument("--rtl-max-n", type=int, default=0, help="also on the RTL for n <= this")
    ap.add_argument("--shapes-max-n", type=int, default=6,
                    help="the non-square shapes up to this n")
    ap.add_argument("--cube-max-n", type=int, default=8,
                    help="the N x N x N shape up to this n (above: 2^ceil(n/2) x N x N)")
    ap.add_argument("--jsonl", help="write one JSON object per run here")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per run")
    ap.add_argument("--only", choices=["matmul", "collectives"])
    ap.add_argument("--from-jsonl", action="append", default=[],
                    help="print the tables of earlier runs (their --jsonl files) instead of running")
    ap.add_argument("--brief", action="store_true",
                    help="no table of every matmul run; the collectives by form and n")
    ap.add_argument("--write-doc", metavar="NAME",
                    help="also write the tables into block NAME of docs/measurements.md")
    ap.add_argument("--doc", default=mdtable.DOC, help="the page --write-doc writes")
    a = ap.parse_args()
    run_info = mdtable.Run()
    if a.write_doc:
        tee = mdtable.capture()
        status = sweep(a)
        sys.stdout = tee.stream
        run_info.write(a.write_doc, tee.text(), a.doc)
        return status
    return sweep(a)


def sweep(a):
    if a.from_jsonl:
        runs = [json.loads(line) for f in a.from_jsonl for line in open(f) if line.strip()]
        report([r for r in runs if r["part"] == "matmul"],
               [r for r in runs if r["part"] == "collective"], a.brief)
        return 0
    lo, hi = (int(x) for x in a.n.split("-")) if "-" in a.n else (int(a.n), int(a.n))
    log = open(a.jsonl, "w") if a.jsonl else None

    def record(entry):
        if log:
            log.write(json.dumps(entry) + "\n")
            log.flush()
        print("  %s" % json.dumps({k: entry.get(k) for k in
                                   ("part", "n", "shape", "label", "backend", "status", "cycles",
                                    "seconds")}), file=sys.stderr)

    matmul_rows, coll_rows = [], []
    for n in range(lo, hi + 1):
        backends = ["table"] + (["rtl"] if n <= a.rtl_max_n else [])
        if a.only != "collectives":
            for p, q, r in shapes(n, a.shapes_max_n, a.cube_max_n):
                shape = "%dx%dx%d" % (p, q, r)
                for method, extra, label in MATMUL:
                    base = ["--algo", "matmul", "--method", method, "--n", str(n), "--shape", shape,
                            "--seed", "1"] + extra
                    for be in backends:
                        if be == "table":
                            cmd = [a.hcube, "run"] + base + ["--no-verify", "--json"]
                        else:
                            cmd = [a.hcube, "compare"] + base + ["--backends", "table,rtl",
                                                                 "--json"]
                        res = run(cmd, a.timeout)
                        res.update(part="matmul", n=n, shape=shape, label=label, backend=be)
                        record(res)
                        matmul_rows.append(res)
        if a.only != "matmul":
            for algo, opts, label in COLLECTIVES:
                base = ["--algo", algo, "--n", str(n)] + opts(n)
                for be in backends:
                    if be == "table":
                        cmd = [a.hcube, "run"] + base + ["--no-verify", "--json"]
                    else:
                        cmd = [a.hcube, "compare"] + base + ["--backends", "table,rtl", "--json"]
                    res = run(cmd, a.timeout)
                    res.update(part="collective", n=n, algo=algo, label=label, backend=be)
                    record(res)
                    coll_rows.append(res)
    report(matmul_rows, coll_rows, a.brief)
    return 0


def report(matmul_rows, coll_rows, brief=False):
    """Markdown: every matmul run, the cycles / (PQR/N) matrix of the N x N x N shape (or the
    reduced one) by method and n, the fastest method per shape, every collective run (brief:
    no table of every matmul run, the collectives by form and n)."""
    if matmul_rows and not brief:
        print("| n | P×Q×R | method | grid | cycles | MAC cycles (Table 5) | transfer cycles "
              "(paper) | cycles / (PQR/N) | check | RTL |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        rtl = {(r["n"], r["shape"], r["label"]): r for r in matmul_rows if r["backend"] == "rtl"}
        for r in matmul_rows:
            if r["backend"] != "table":
                continue
            key = (r["n"], r["shape"], r["label"])
            rt = rtl.get(key)
            rtl_cell = "—" if rt is None else ("agrees" if rt["status"] == "pass"
                                               else rt["status"])
            p, q, rr = (int(x) for x in r["shape"].split("x"))
            if r["status"] not in ("pass", "fail"):
                msg = r.get("message", "").replace("|", "/")
                print("| %d | %s | %s | | %s: %s | | | | | %s |" % (
                    r["n"], r["shape"], r["label"], r["status"], msg, rtl_cell))
                continue
            ideal = p * q * rr // (1 << r["n"])
            print("| %d | %s | %s | %s | %s | %s (%s) | %s (%s) | %.2f | %s | %s |" % (
                r["n"], r["shape"], r["label"], grid_of(r["perm"]), fmt(r["cycles"]),
                fmt(r.get("mac_cycles", "?")), fmt(r.get("table5_mac_cycles", "?")),
                fmt(r["transfer_cycles"]), fmt(r["lower_bound"]), r["cycles"] / ideal,
                "%d/%d" % (r["correct"], r["elements"]), rtl_cell))
        print()
    if matmul_rows:
        done = [r for r in matmul_rows if r["backend"] == "table" and r["status"] in ("pass", "fail")]
        print()
        print("%d runs on the table executor: %d pass (every element of A equal to C x D), MAC "
              "cycles equal to Table 5's PQR/(NU) in %d, transfer cycles equal to the case's "
              "formula in %d." % (
                  len(done), sum(r["status"] == "pass" for r in done),
                  sum(r.get("mac_cycles") == r.get("table5_mac_cycles") for r in done),
                  sum(r["transfer_cycles"] == r["lower_bound"] for r in done)))
        rtl_runs = [r for r in matmul_rows if r["backend"] == "rtl"]
        if rtl_runs:
            print("%d of them also on the RTL (`hcube compare --backends table,rtl`): %d agree." % (
                len(rtl_runs), sum(r["status"] == "pass" for r in rtl_runs)))
        print()
        print("cycles / (PQR/N) by method and n, first shape of each n (table executor):")
        print()
        ns = sorted({r["n"] for r in matmul_rows})
        first = {}
        for r in matmul_rows:
            first.setdefault(r["n"], r["shape"])
        print("| method | " + " | ".join("n=%d %s" % (n, first[n]) for n in ns) + " |")
        print("|---|" + "---|" * len(ns))
        cell = {}
        for r in matmul_rows:
            if r["backend"] == "table" and r["shape"] == first[r["n"]]:
                if r["status"] == "pass":
                    p, q, rr = (int(x) for x in r["shape"].split("x"))
                    cell[(r["label"], r["n"])] = "%.2f" % (r["cycles"] / (p * q * rr >> r["n"]))
                else:
                    cell[(r["label"], r["n"])] = "—" if r["status"] == "does not fit" else r["status"]
        for _, _, label in MATMUL:
            print("| %s | " % label + " | ".join(cell.get((label, n), "") for n in ns) + " |")
        refused = {}
        for r in matmul_rows:
            if r["backend"] == "table" and r["status"] == "does not fit":
                refused.setdefault((r["n"], r["shape"]), []).append(r)
        if refused:
            print()
            print("Runs hcube refused (— above), per n and shape, with its message for the first:")
            print()
            for (n, shape), rs in sorted(refused.items()):
                print("- n = %d, %s: %s: %s" % (n, shape, ", ".join(r["label"] for r in rs),
                                                rs[0].get("message", "")))
        print()
        print("Fastest method per n and shape (table executor, cycles):")
        print()
        print("| n | P×Q×R | fastest | cycles | runner-up | cycles |")
        print("|---|---|---|---|---|---|")
        best = {}
        for r in matmul_rows:
            if r["backend"] == "table" and r["status"] == "pass":
                best.setdefault((r["n"], r["shape"]), []).append((r["cycles"], r["label"]))
        for (n, shape), runs in best.items():
            runs.sort()
            second = runs[1] if len(runs) > 1 else ("", "")
            print("| %d | %s | %s | %s | %s | %s |" % (n, shape, runs[0][1], fmt(runs[0][0]),
                                                     second[1], fmt(second[0])))
        print()
    if coll_rows and brief:
        brief_collectives(coll_rows)
    elif coll_rows:
        print("| n | collective | form | cycles | transfer cycles (Tables 2–3) | check | RTL |")
        print("|---|---|---|---|---|---|---|")
        rtl = {(r["n"], r["algo"], r["label"]): r for r in coll_rows if r["backend"] == "rtl"}
        for r in coll_rows:
            if r["backend"] != "table":
                continue
            rt = rtl.get((r["n"], r["algo"], r["label"]))
            rtl_cell = "—" if rt is None else ("agrees" if rt["status"] == "pass"
                                               else rt["status"])
            if r["status"] not in ("pass", "fail"):
                print("| %d | %s | %s | %s: %s | | | %s |" % (
                    r["n"], r["algo"], r["label"], r["status"], r.get("message", ""), rtl_cell))
                continue
            print("| %d | %s | %s | %s | %s (%s) | %s | %s |" % (
                r["n"], r["algo"], r["label"], fmt(r["cycles"]), fmt(r["transfer_cycles"]),
                fmt(r["lower_bound"]), "%d/%d" % (r["correct"], r["elements"]), rtl_cell))


def brief_collectives(coll_rows):
    """One row per collective and form, one column per n: transfer cycles, the paper's count in
    brackets where it differs; then how many runs passed and met the paper."""
    ns = sorted({r["n"] for r in coll_rows})
    print("| collective, form | " + " | ".join("n=%d" % n for n in ns) + " |")
    print("|---|" + "---|" * len(ns))
    cell = {}
    for r in coll_rows:
        if r["backend"] != "table":
            continue
        if r["status"] not in ("pass", "fail"):
            cell[(r["algo"], r["label"], r["n"])] = r["status"]
            continue
        c = fmt(r["transfer_cycles"])
        if r["transfer_cycles"] != r["lower_bound"]:
            c += " (%s)" % fmt(r["lower_bound"])
        if r["status"] != "pass":
            c += " " + r["status"]
        cell[(r["algo"], r["label"], r["n"])] = c
    for algo, _, label in COLLECTIVES:
        print("| `%s` %s | " % (algo, label) +
              " | ".join(cell.get((algo, label, n), "") for n in ns) + " |")
    done = [r for r in coll_rows if r["backend"] == "table" and r["status"] in ("pass", "fail")]
    print()
    print("%d runs on the table executor: %d pass, transfer cycles equal to the paper's count "
          "in %d." % (len(done), sum(r["status"] == "pass" for r in done),
                      sum(r["transfer_cycles"] == r["lower_bound"] for r in done)))
    rtl_runs = [r for r in coll_rows if r["backend"] == "rtl"]
    if rtl_runs:
        print("%d of them also on the RTL (`hcube compare --backends table,rtl`): %d agree." % (
            len(rtl_runs), sum(r["status"] == "pass" for r in rtl_runs)))


if __name__ == "__main__":
    sys.exit(main())

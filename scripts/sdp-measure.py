#!/usr/bin/env python3
"""Measures the stable-dimension-permutation algorithms (Ho & Johnsson 1988) for
docs/measurements.md.

Runs `hcube run --algo sdp` on the table executor for several SDPs, every implemented method,
one-port and n-port, tau in {0, 10, 100}, and prints a Markdown table: measured cycles, the
start-ups and element cycles counted in the schedule, the algorithm's formula (Table 3 /
Theorem 2), Theorem 1's lower bound with its start-up term, and measured / bound.

With --a5: Algorithm A5 (n-port, --gamma G) on Table 4's and Table 1's SDPs beside A4 and A6.
With --a3: Algorithm A3 (one-port SPT, n-port pipelined DPT) and --method best on every SDP; the
formula column is Table 3's A3 complexity (for best: the chosen method's formula).
With --nport: the n-port A1' and A2 and A2's rotated form (sections 4.2.1, 4.3.2, 4.6) beside
A4 and best, on the SDPs with K raised where A2 needs label bits (NPORT_SDPS).
With --mixed: non-separable SDPs (mixed GSHs) n-port, section 4.4: A4, A6 and the n-port A1 "as
if there is no virtual dimension" beside A2, A2 rotated, A3 and best (MIXED_SDPS).
With --extended: the extended-cube scheme of section 4.5 (--method extended --mp M --inner I)
beside the direct run on the data's subcube, against Corollary 4 (EXTENDED_SDPS).
With --summary [--detail FILE]: the whole comparison in one run — every SDP kind of SUMMARY_SDPS at
tau in {0, 10, 100}, one-port and n-port, every method that applies (A5 with every gamma, the
extended scheme with every inner method): per row the bound, the measured best, the runner-up
and what `--method best` picks; then the section 4.6 break-even points against the measured
winners. --detail FILE writes every run (cycles, start-ups, element cycles) as a Markdown table.

With --write-doc NAME the printed tables are also written into block NAME of
docs/measurements.md (or --doc PATH; scripts/mdtable.py puts the command, the machine and the
date above them); with --summary, --detail-doc NAME writes the every-run table into block NAME.

usage: scripts/sdp-measure.py path/to/hcube [--backend table|rtl]
                              [--small | --a5 | --a3 | --nport | --mixed | --extended |
                               --summary [--detail FILE] [--detail-doc NAME]]
                              [--write-doc NAME] [--doc PATH]
"""
import json
import re
import subprocess
import sys

import mdtable

SDPS = [
    # name, n, K, cycles (paper numbering: processor 0..n-1, storage n..), taus
    ("single GSH (shuffle of 10 node bits)", 10, 128, ",".join(map(str, range(10))), (10,)),
    ("Table 1: {4,3,2}", 9, 64, "0,1,2,3/4,5,6/7,8", (0, 10, 100)),
    ("Table 4: {3,6}", 9, 64, "0,1,2/3,4,5,6,7,8", (0, 10, 100)),
    ("Table 4: {2,2,5}", 9, 64, "0,1/2,3/4,5,6,7,8", (0, 10, 100)),
    ("single GSH (shuffle of 8 node bits)", 8, 256, ",".join(map(str, range(8))), (0, 10, 100)),
    ("bit-reversal of 8 node bits", 8, 128, "0,7/1,6/2,5/3,4", (0, 10, 100)),
    ("matrix transpose 2^4 x 2^4 (node bits)", 8, 256, "0,4/1,5/2,6/3,7", (0, 10, 100)),
    ("mixed: (0 8 1)(2 3 4)", 8, 128, "0,8,1/2,3,4", (0, 10, 100)),
]
SMALL = [
    ("Table 1: {4,3,2}", 9, 64, "0,1,2,3/4,5,6/7,8", (10,)),
    ("single GSH (shuffle of 8 node bits)", 8, 256, ",".join(map(str, range(8))), (10,)),
]
# name, n, K, cycles, the gammas of Table 4's A5 row (Table 1's SDP: 2 and 3).
A5_SDPS = [
    ("Table 4: {3,6}", 9, 64, "0,1,2/3,4,5,6,7,8", (3, 6)),
    ("Table 4: {2,2,5}", 9, 64, "0,1/2,3/4,5,6,7,8", (2, 3)),
    ("Table 1: {4,3,2}", 9, 64, "0,1,2,3/4,5,6/7,8", (2, 3)),
]
METHODS = {"one": ["a1", "a1p", "a2", "best"], "all": ["a1", "a4", "a6", "best"]}
NPORT_SDPS = [
    ("Table 1: {4,3,2}", 9, 64, "0,1,2,3/4,5,6/7,8", (0, 10, 100)),
    ("Table 4: {2,2,5}", 9, 64, "0,1/2,3/4,5,6,7,8", (0, 10, 100)),
    ("matrix transpose 2^4 x 2^4 (node bits)", 8, 256, "0,4/1,5/2,6/3,7", (0, 10, 100)),
    ("two GSHs {4,4}", 8, 256, "0,1,2,3/4,5,6,7", (0, 10, 100)),
    ("single GSH (shuffle of 8 node bits)", 8, 2048, ",".join(map(str, range(8))), (0, 10, 100)),
    ("mixed: (0 8 1)(2 3 4)", 8, 128, "0,8,1/2,3,4", (0, 10, 100)),
]
MIXED_SDPS = [
    ("mixed: (0 8 1)(2 3 4)", 8, 128, "0,8,1/2,3,4", (0, 10, 100)),
    ("mixed: (0 1 9 2 3)(4 5 6)(7 10 8)", 9, 64, "0,1,9,2,3/4,5,6/7,10,8", (0, 10, 100)),
    ("mixed transposition (0 8)(1 9)(2 10)(3 11)", 8, 256, "0,8/1,9/2,10/3,11", (0, 10, 100)),
]
# name, n, K, cycles, m_p, taus: data on the m_p-subcube of an n-cube.
EXTENDED_SDPS = [
    ("(0 1 2 3) on 4 of 10 dims", 10, 256, "0,1,2,3", 4, (0, 10, 100)),
    ("bit-reversal (0 5)(1 4)(2 3) on 6 of 10", 10, 256, "0,5/1,4/2,3", 6, (0, 10, 100)),
    ("(0 1)(2 3) on 4 of 8", 8, 1024, "0,1/2,3", 4, (0, 10, 100)),
]
EXTENDED_METHODS = {"one": ["a1", "extended a1", "a1p", "extended a1p"],
                    "all": ["a4", "extended a4", "a1p", "extended a1p", "a2r", "extended a2r"]}

# The --summary comparison: name, n, K, cycles, m_p (None: full cube). n up to 10, K = 64
# on the 9- and 10-cubes so that every method runs in seconds on the table executor.
SUMMARY_SDPS = [
    ("single GSH (0..9)", 10, 64, ",".join(map(str, range(10))), None),
    ("bit-reversal (0 9)(1 8)(2 7)(3 6)(4 5)", 10, 64, "0,9/1,8/2,7/3,6/4,5", None),
    ("transpose 2^5×2^5 (0 5)(1 6)(2 7)(3 8)(4 9)", 10, 64, "0,5/1,6/2,7/3,8/4,9", None),
    ("Table 1 {4,3,2}", 9, 64, "0,1,2,3/4,5,6/7,8", None),
    ("Table 4 {3,6}", 9, 64, "0,1,2/3,4,5,6,7,8", None),
    ("Table 4 {2,2,5}", 9, 64, "0,1/2,3/4,5,6,7,8", None),
    ("mixed (0 8 1)(2 3 4)", 8, 128, "0,8,1/2,3,4", None),
    ("extended: (0 5)(1 4)(2 3) on 6 of 9", 9, 128, "0,5/1,4/2,3", 6),
]
SUMMARY_TAUS = (0, 10, 100)


def real_orders(cycles, n):
    """The real order of each GSH (its processor dimensions), in the order given."""
    return [sum(1 for d in c.split(",") if int(d) < n) for c in cycles.split("/")]


def summary_methods(ports, orders, extended):
    """Every method of one port model; A5 with every gamma 2..sigma_max; on an extended cube the
    direct run on the subcube and the extended scheme around every inner method."""
    if ports == "one":
        base = ["a1", "a1p", "a2", "a3"]
    else:
        base = ["a1", "a1p", "a2", "a2r", "a3", "a4", "a6"]
        base += [f"a5 γ={g}" for g in range(2, max(orders) + 1)]
    if not extended:
        return base
    inner = [m for m in base if not m.startswith("a5 ")] + (["a5"] if ports == "all" else [])
    return base + [f"extended {m}" for m in inner]


def summary(tool, backend, detail_path):
    detail = ["| SDP | ports | τ | method | cycles | start-ups | element cycles | PERMUTE | "
              "bound | pass |", "|---|---|---|---|---|---|---|---|---|---|"]
    rows = ["| SDP (n, K) | τ | ports | bound | measured best | runner-up | `best` picks | "
            "best / measured best |", "|---|---|---|---|---|---|---|---|"]
    winners = {}  # (sdp, ports, tau) -> {method: cycles}
    refused = {}
    for name, n, k, cycles, mp in SUMMARY_SDPS:
        orders = real_orders(cycles, n)
        more = ["--mp", str(mp)] if mp else []
        for ports in ("one", "all"):
            for tau in SUMMARY_TAUS:
                got = {}
                bound = None
                for method in summary_methods(ports, orders, mp is not None) + ["best"]:
                    r, err = run(tool, backend, n, k, cycles, ports, method, tau, more)
                    if r is None:
                        refused.setdefault((name, ports, method),
                                           err.removeprefix("hcube: error: "))
                        continue
                    src = r["bound_source"]
                    bound = float(re.search(r"tau\) = ([0-9.e+]+) cycles", src).group(1))
                    m = re.search(r"schedule: (\d+) start-ups, (\d+) element cycles, (\d+) "
                                  r"PERMUTE", src)
                    c = r["run"]["cycles"] if "run" in r else r["cycles"]
                    label = method
                    if method == "best":
                        chose = re.search(r"best chose (\w+(?: --inner \w+)?(?: --gamma \d+)?)",
                                          src).group(1)
                        label = "best → " + chose.replace(" --gamma ", " γ=").replace(
                            " --inner ", " ")
                    detail.append(f"| {name} (n={n}, K={k}) | {ports} | {tau} | {label} | {c} | "
                                  f"{m.group(1)} | {m.group(2)} | {m.group(3)} | {bound:g} | "
                                  f"{r.get('verdict', '?')} |")
                    got[label] = c
                pick = [x for x in got if x.startswith("best")]
                measured = sorted((c, x) for x, c in got.items() if not x.startswith("best"))
                winners[(name, ports, tau)] = {x: c for c, x in measured}
                if not measured:
                    continue
                best_c, best_m = measured[0]
                second = f"{measured[1][1]} {measured[1][0]}" if len(measured) > 1 else "-"
                pick_s = (f"{pick[0][7:]} {got[pick[0]]}" if pick else "refused")
                ratio = f"{got[pick[0]] / best_c:.2f}" if pick else "-"
                rows.append(f"| {name} (n={n}, K={k}) | {tau} | {ports} | {bound:g} | "
                            f"{best_m} {best_c} ({best_c / bound:.2f}× bound) | {second} | "
                            f"{pick_s} | {ratio} |")
    print("\n".join(rows))
    print()
    print(break_even(winners))
    print()
    print("Refused (method: reason), once per SDP and port model:")
    for (name, ports, method), err in refused.items():
        print(f"- {name}, {ports}-port, {method}: {err}")
    if detail_path:
        with open(detail_path, "w") as f:
            f.write("\n".join(detail) + "\n")
    return "\n".join(detail) + "\n"


def break_even(winners):
    """Section 4.6's break-even points (t_c = 1) for each full-cube SDP and the measured winner
    of each pair at every tau: A1 vs A1' one-port tau = (sigma_p/beta - 1)K/2 and n-port
    (1 - 1/sigma_max)K/(2 beta) (A1 below), A4 vs A5 K/(4(sigma_p - beta)) (A5 below, its best
    gamma), A4 vs A6 K/(4(sigma_p + beta - 1)) (A6 below)."""
    out = ["| SDP | pair (wins below τ*) | τ* (§4.6) | τ = 0 | τ = 10 | τ = 100 | as predicted |",
           "|---|---|---|---|---|---|---|"]
    for name, n, k, cycles, mp in SUMMARY_SDPS:
        if mp:
            continue
        orders = real_orders(cycles, n)
        sp, beta, smax = sum(orders), len(orders), max(orders)
        pairs = [("one", "a1", "a1p", (sp / beta - 1) * k / 2),
                 ("all", "a1", "a1p", (1 - 1 / smax) * k / (2 * beta)),
                 ("all", "a5", "a4", k / (4 * (sp - beta)) if sp > beta else float("inf")),
                 ("all", "a6", "a4", k / (4 * (sp + beta - 1)))]
        for ports, low, high, star in pairs:
            cells, ok = [], True
            for tau in SUMMARY_TAUS:
                w = winners.get((name, ports, tau), {})
                lo = min((c for m, c in w.items() if m == low or m.startswith(low + " ")),
                         default=None)
                hi = w.get(high)
                if lo is None or hi is None:
                    cells.append("-")
                    continue
                win = low if lo < hi else high if hi < lo else "tie"
                cells.append(f"{win} ({lo} / {hi})")
                if win != "tie" and win != (low if tau < star else high):
                    ok = False
            pair = f"{low.upper()} vs {high.upper()} {ports}-port".replace("A1P", "A1′")
            if all(c == "-" for c in cells):
                continue  # a method of the pair does not apply (e.g. A5 on a mixed SDP)
            out.append(f"| {name} | {pair} | {star:.1f} | " + " | ".join(cells) +
                       f" | {'yes' if ok else 'no'} |")
    return "\n".join(out)


def run(tool, backend, n, k, cycles, ports, method, tau, more=()):
    extra = list(more)
    if method.startswith("a5 "):  # "a5 γ=G"
        method, extra = "a5", extra + ["--gamma", method.split("=")[1]]
    if method.startswith("extended "):  # "extended INNER"
        method, extra = "extended", extra + ["--inner", method.split()[1]]
    cmd = [tool, "run", "--algo", "sdp", "--method", method, "--n", str(n), "--k", str(k),
           "--cycles", cycles, "--ports", ports, "--tau", str(tau), "--backend", backend,
           "--json", "--no-verify"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout).strip().splitlines()[-1]
    return json.loads(p.stdout), None


def option(name):
    """The value after NAME on the command line, or None."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


def main():
    run_info = mdtable.Run()
    block, detail_block = option("--write-doc"), option("--detail-doc")
    doc = option("--doc") or mdtable.DOC
    tee = mdtable.capture() if block else None
    measure()
    if tee:
        sys.stdout = tee.stream
        run_info.write(block, tee.text(), doc)
    if detail_block:
        run_info.write(detail_block, DETAIL[0], doc)


DETAIL = [""]


def measure():
    tool = sys.argv[1]
    backend = "table"
    if "--backend" in sys.argv:
        backend = sys.argv[sys.argv.index("--backend") + 1]
    if "--summary" in sys.argv:
        detail = sys.argv[sys.argv.index("--detail") + 1] if "--detail" in sys.argv else None
        DETAIL[0] = summary(tool, backend, detail)
        return
    sdps = SMALL if "--small" in sys.argv else SDPS
    methods_of = METHODS
    if "--a3" in sys.argv:
        methods_of = {"one": ["a3", "best"], "all": ["a3", "best"]}
    if "--a5" in sys.argv:
        sdps = [(name, n, k, c, (0, 10, 100)) for name, n, k, c, _ in A5_SDPS]
        gammas = {name: g for name, _, _, _, g in A5_SDPS}
    mps = {}
    if "--nport" in sys.argv:
        sdps = NPORT_SDPS
        methods_of = {"all": ["a1p", "a2", "a2r", "a4", "best"]}
    if "--mixed" in sys.argv:
        sdps = MIXED_SDPS
        methods_of = {"all": ["a4", "a6", "a1", "a2", "a2r", "a3", "best"]}
    if "--extended" in sys.argv:
        sdps = [(name, n, k, c, taus) for name, n, k, c, _, taus in EXTENDED_SDPS]
        mps = {name: mp for name, _, _, _, mp, _ in EXTENDED_SDPS}
        methods_of = EXTENDED_METHODS
    print("| SDP | ports | method | tau | cycles | start-ups | element cycles | formula | "
          "Theorem 1 | cycles / Thm 1 | pass |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, n, k, cycles, taus in sdps:
        if "--a5" in sys.argv:
            methods_of = {"all": ["a4", "a6"] + [f"a5 γ={g}" for g in gammas[name]]}
        for ports, methods in methods_of.items():
            for tau in taus:
                for method in methods:
                    more = ["--mp", str(mps[name])] if name in mps else []
                    r, err = run(tool, backend, n, k, cycles, ports, method, tau, more)
                    if r is None:
                        print(f"| {name} | {ports} | {method} | {tau} | refused: {err} |||||||")
                        continue
                    src = r["bound_source"]
                    lb = float(re.search(r"tau\) = ([0-9.e+]+) cycles", src).group(1))
                    m = re.search(r"schedule: (\d+) start-ups, (\d+) element cycles", src)
                    f = re.search(r"(?:=|:) ([0-9.]+) \+ (\d+) tau", src)
                    spread = re.search(r"2 x \(([0-9.]+) \+ (\d+) tau\)", src)
                    if f and spread:  # extended: both spread phases plus the inner formula
                        f_t = float(f.group(1)) + 2 * float(spread.group(1))
                        f_s = int(f.group(2)) + 2 * int(spread.group(2))
                        formula = f"{f_t:g} + {f_s}τ = {f_t + f_s * tau:g}"
                    else:
                        formula = (f"{float(f.group(1)):g} + {f.group(2)}τ = "
                                   f"{float(f.group(1)) + int(f.group(2)) * tau:g}") if f else "-"
                    chose = re.search(r"best chose (\w+(?: --inner \w+)?(?: --gamma \d+)?)", src)
                    label = method + (f" → {chose.group(1)}" if chose else "")
                    run_cycles = r["run"]["cycles"] if "run" in r else r["cycles"]
                    print(f"| {name} | {ports} | {label} | {tau} | {run_cycles} | {m.group(1)} | "
                          f"{m.group(2)} | {formula} | {lb:g} | {run_cycles / lb:.2f} | "
                          f"{r.get('verdict', '?')} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Measures the stable-dimension-permutation algorithms (Ho & Johnsson 1988) for the README.

Runs `hcube run --algo sdp` on the table executor for several SDPs, every implemented method,
one-port and n-port, tau in {0, 10, 100}, and prints a Markdown table: measured cycles, the
start-ups and element cycles counted in the schedule, the algorithm's formula (Table 3 /
Theorem 2), Theorem 1's lower bound with its start-up term, and measured / bound.

With --a5: Algorithm A5 (n-port, --gamma G) on Table 4's and Table 1's SDPs beside A4 and A6.
With --a3: Algorithm A3 (one-port SPT, n-port pipelined DPT) and --method best on every SDP; the
formula column is Table 3's A3 complexity (for best: the chosen method's formula).

usage: scripts/sdp-measure.py path/to/hcube [--backend table|rtl] [--small | --a5 | --a3]
"""
import json
import re
import subprocess
import sys

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


def run(tool, backend, n, k, cycles, ports, method, tau):
    extra = []
    if method.startswith("a5 "):  # "a5 γ=G"
        method, extra = "a5", ["--gamma", method.split("=")[1]]
    cmd = [tool, "run", "--algo", "sdp", "--method", method, "--n", str(n), "--k", str(k),
           "--cycles", cycles, "--ports", ports, "--tau", str(tau), "--backend", backend,
           "--json", "--no-verify"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout).strip().splitlines()[-1]
    return json.loads(p.stdout), None


def main():
    tool = sys.argv[1]
    backend = "table"
    if "--backend" in sys.argv:
        backend = sys.argv[sys.argv.index("--backend") + 1]
    sdps = SMALL if "--small" in sys.argv else SDPS
    methods_of = METHODS
    if "--a3" in sys.argv:
        methods_of = {"one": ["a3", "best"], "all": ["a3", "best"]}
    if "--a5" in sys.argv:
        sdps = [(name, n, k, c, (0, 10, 100)) for name, n, k, c, _ in A5_SDPS]
        gammas = {name: g for name, _, _, _, g in A5_SDPS}
    print("| SDP | ports | method | tau | cycles | start-ups | element cycles | formula | "
          "Theorem 1 | cycles / Thm 1 | pass |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, n, k, cycles, taus in sdps:
        if "--a5" in sys.argv:
            methods_of = {"all": ["a4", "a6"] + [f"a5 γ={g}" for g in gammas[name]]}
        for ports, methods in methods_of.items():
            for tau in taus:
                for method in methods:
                    r, err = run(tool, backend, n, k, cycles, ports, method, tau)
                    if r is None:
                        print(f"| {name} | {ports} | {method} | {tau} | refused: {err} |||||||")
                        continue
                    src = r["bound_source"]
                    lb = float(re.search(r"tau\) = ([0-9.e+]+) cycles", src).group(1))
                    m = re.search(r"schedule: (\d+) start-ups, (\d+) element cycles", src)
                    f = re.search(r"(?:=|:) ([0-9.]+) \+ (\d+) tau", src)
                    formula = (f"{float(f.group(1)):g} + {f.group(2)}τ = "
                               f"{float(f.group(1)) + int(f.group(2)) * tau:g}") if f else "-"
                    chose = re.search(r"best chose (\w+(?: --gamma \d+)?)", src)
                    label = method + (f" → {chose.group(1)}" if chose else "")
                    run_cycles = r["run"]["cycles"] if "run" in r else r["cycles"]
                    print(f"| {name} | {ports} | {label} | {tau} | {run_cycles} | {m.group(1)} | "
                          f"{m.group(2)} | {formula} | {lb:g} | {run_cycles / lb:.2f} | "
                          f"{r.get('verdict', '?')} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Measurement table for the README (run by hand, not in CI; needs scripts/build.sh first).

Runs `hcube run --json` for every case and cube dimension and prints a Markdown table of what
the simulation measured: cycles, transfer cycles, the paper's bound, span (Johnsson & Ho 1992
Definition 2; optimum d for an AAPC), local-phase (PERMUTE) cycles and the element check.

  scripts/measure.py --backend table --n 1-10 --case edelman --case jh4 \
      --case "exchange --ports one" --case "jh4 --alignment explicit"

A case is an --algo name followed by that algorithm's own options. Exit status 1 if any run
fails its check or errors out (the row says why).
"""
import argparse
import json
import shlex
import subprocess
import sys


def dims(text):
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hcube", default="build/hcube")
    ap.add_argument("--backend", default="table", choices=["table", "tlm", "rtl"])
    ap.add_argument("--n", default="1-8", help="cube dimensions, e.g. 1-10 or 3,5")
    ap.add_argument("--case", action="append", required=True,
                    help="algorithm and its options, e.g. 'jh4 --width 3 --k 256'")
    ap.add_argument("--cache", default="", help="RTL model cache directory")
    args = ap.parse_args()

    print(f"backend: {args.backend}; command: hcube run --algo <case> --n <d> "
          f"--backend {args.backend} --json\n")
    print("| case | d | K | cycles | transfer cycles | bound | cycles / bound | span "
          "| local-phase cycles | elements | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    for case in args.case:
        words = shlex.split(case)
        for d in dims(args.n):
            cmd = [args.hcube, "run", "--algo", words[0], "--n", str(d), "--backend",
                   args.backend, "--json"] + words[1:]
            if args.cache:
                cmd += ["--cache", args.cache]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode not in (0, 1) or not p.stdout.strip():
                failed = True
                msg = (p.stderr.strip().splitlines() or ["no output"])[-1]
                print(f"| {case} | {d} | | | | | | | | | error: {msg} |")
                continue
            r = json.loads(p.stdout)
            bound = r.get("lower_bound", 0)
            ratio = f"{r['transfer_cycles'] / bound:.3f}" if bound else "-"
            verdict = r["verdict"]
            if verdict != "pass":
                failed = True
            span = f"{r['span']} (opt {d})" if r["perm"].startswith("aapc") else r["span"]
            print(f"| {case} | {d} | {r['K']} | {r['cycles']} | {r['transfer_cycles']} | "
                  f"{bound or '-'} | {ratio} | {span} | "
                  f"{r.get('local_cycles', 0)} | {r['correct']}/{r['elements']} | {verdict} |")
            sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

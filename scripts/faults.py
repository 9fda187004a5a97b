#!/usr/bin/env python3
"""Fault-campaign summary for docs/measurements.md (run by hand, not in CI; needs the build).

Runs `hcube faults --campaign N --seed S` (random single faults of every --inject kind in turn:
flip, stuck, dead, drop, table; docs/hardware/faults.md) over each case and prints one Markdown row
per case: per kind how many of the injected faults a check caught (detected / injected), how
many of the detected ones the report localised to the faulty link or node, and then the reasons
hcube gives for the masked ones (faults no check can catch).

  scripts/faults.py [--hcube build/hcube] [--backend table|tlm|rtl] [--campaign 200]
                    [--seed 1] [--case "spt --n 6" ...] [--write-doc NAME [--doc PATH]]

A case is an --algo name with its options, --n included. Without --case the cases of CASES run.
--write-doc NAME also writes the tables into block NAME of docs/measurements.md, headed by the
command, the machine and the date (scripts/mdtable.py). Exit status 1 if a campaign errors out.
"""
import argparse
import re
import shlex
import subprocess
import sys

import mdtable

CASES = [
    "edelman --n 3",
    "edelman --n 6",
    "jh4 --n 6",
    "exchange --n 6 --ports one",
    "transpose-1d --n 6",
    "spt --n 6",
    "one-to-all --n 6",
    "broadcast-all --n 6 --tree nrsbt --m 6",
    "matmul --method broadcast --n 4 --shape 16x16x16 --seed 1",
]
KINDS = ["flip", "stuck", "dead", "drop", "table"]


def campaign(a, case):
    cmd = [a.hcube, "faults", "--campaign", str(a.campaign), "--backend", a.backend,
           "--algo"] + shlex.split(case)
    if "--seed" not in shlex.split(case):
        cmd += ["--seed", str(a.seed)]
    if a.cache:
        cmd += ["--cache", a.cache]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["no output"])[-1]
    kinds, masked = {}, []
    cycles = re.search(r", (\d+) cycles;", p.stdout)
    for line in p.stdout.splitlines():
        w = line.split()
        if w and w[0] in KINDS + ["all"] and len(w) >= 5 and w[1].isdigit():
            kinds[w[0]] = {"injected": int(w[1]), "masked": int(w[2]), "detected": int(w[3]),
                           "localised": int(w[4])}
        elif line.startswith("masked "):
            masked.append(line[len("masked "):])
    return {"cycles": cycles.group(1) if cycles else "?", "kinds": kinds, "masked": masked}, None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hcube", default="build/hcube")
    ap.add_argument("--backend", default="table", choices=["table", "tlm", "rtl"])
    ap.add_argument("--campaign", type=int, default=200, help="faults per case")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--case", action="append", help="algorithm, --n and options")
    ap.add_argument("--cache", default="", help="RTL model cache directory")
    ap.add_argument("--write-doc", metavar="NAME",
                    help="also write the tables into block NAME of docs/measurements.md")
    ap.add_argument("--doc", default=mdtable.DOC, help="the page --write-doc writes")
    a = ap.parse_args()
    run_info = mdtable.Run()
    tee = mdtable.capture() if a.write_doc else None

    print("| case | cycles | " + " | ".join(KINDS) + " | all | localised | masked |")
    print("|---|---|" + "---|" * (len(KINDS) + 3))
    failed = False
    reasons = []
    for case in a.case or CASES:
        r, err = campaign(a, case)
        if r is None:
            failed = True
            print(f"| `{case}` | error: {err} |" + " |" * (len(KINDS) + 3))
            continue
        k = r["kinds"]
        cells = [f"{k[x]['detected']}/{k[x]['injected']}" if x in k else "" for x in KINDS]
        al = k.get("all", {"detected": 0, "injected": 0, "localised": 0, "masked": 0})
        pct = f"{100.0 * al['detected'] / al['injected']:.1f} %" if al["injected"] else "-"
        loc = f"{al['localised']}/{al['detected']}"
        print(f"| `{case}` | {r['cycles']} | " + " | ".join(cells) +
              f" | {al['detected']}/{al['injected']} ({pct}) | {loc} | {al['masked']} |")
        reasons += [f"- `{case}`: {m}" for m in r["masked"]]
        sys.stdout.flush()
    print()
    print(f"`hcube faults --campaign {a.campaign} --seed {a.seed} --backend {a.backend}` per "
          "case; a cell is faults detected / injected, localised counts the detected faults "
          "whose report names the faulty link or node.")
    if reasons:
        print()
        print("Why the masked faults were not detected (hcube's own words):")
        print()
        print("\n".join(reasons))
    if tee:
        sys.stdout = tee.stream
        run_info.write(a.write_doc, tee.text(), a.doc)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

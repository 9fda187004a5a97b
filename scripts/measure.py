#!/usr/bin/env python3
"""Bound-against-measured tables for docs/measurements.md (run by hand, not in CI; needs
scripts/build.sh first).

Runs `hcube run --json` for every case and cube dimension and prints a Markdown table of what
the simulation measured: cycles, transfer cycles, the bound hcube states for the run, span
(Johnsson & Ho 1992 Definition 2; optimum n for an AAPC), local-phase (PERMUTE) cycles and the
element check.

  scripts/measure.py --backend table --n 1-10 --case edelman --case jh4 \
      --case "exchange --ports one" --case "jh4 --alignment explicit"
  scripts/measure.py --catalogue --format grid --n 2-10 --write-doc bounds

A case is an --algo name followed by that algorithm's own options; a case that names its own
`--n N` runs at that N only. In a case, `{delta}` stands for a dimension permutation of the
run's 2n address bits (K = 2^n): local bit i goes to node bit (i + 1) mod n, node bit j to local
bit j (a transpose with a rotation of the node bits), so that `dimperm --delta {delta}` runs at
every n. `--catalogue` runs CATALOGUE: every algorithm family of `hcube list` (matrix
multiplication is scripts/matmul-sweep.py's) with the options that show its forms, in groups.

`--format grid` prints one table per group, one row per case and one column per n, each cell
"transfer cycles / bound" with the total cycles in brackets where they differ (`--span` adds a
grid of the spans), then per case the bound hcube states (its `bound_source`) at --explain-n.
A case that hcube refuses at some n (an odd n for a square grid, ...) shows "—" and its
message below the table. `--write-doc NAME` also writes the tables into block NAME of
docs/measurements.md (scripts/mdtable.py), headed by this command, the machine and the date.
Exit status 1 if any run fails its check (a refusal is not a failure in the grid).
"""
import argparse
import json
import shlex
import subprocess
import sys

import mdtable

# (group title, cases): every family of `hcube list` but matmul.
CATALOGUE = [
    ("All-to-all personalized communication (AAPC), K = 2^n", [
        "edelman", "jh1", "jh2", "jh3", "jh4",
        "jh4 --alignment explicit", "jh4 --alignment explicit --code gray",
        "jh4 --tau 10", "jh4 --tau 10 --blocking on", "jh4 --width 2",
        "exchange", "exchange --ports one",
        "sbnt", "sbnt --schedule greedy", "sbnt --tree rsbt",
    ]),
    ("Several AAPCs on successive axes, K = 2^n", [
        "jh4-pipelined --axes 2", "jh5 --axes 2",
    ]),
    ("Dimension permutations, K = 2^n", [
        "bit-reversal", "bit-reversal --bits node", "k-shuffle", "k-shuffle --shift -1",
        "dimperm --delta {delta}", "sdp", "sdp --method best",
    ]),
    ("Personalized one-to-all, all-to-one, some-to-all, all-to-some, K = 2^n", [
        "one-to-all", "one-to-all --tree sbt", "one-to-all --tree rsbt", "all-to-one",
        "some-to-all", "all-to-some",
    ]),
    ("Matrix transposition and storage conversion, 2^n × 2^n matrix, K = 2^n", [
        "spt", "dpt", "mpt", "transpose-1d", "transpose-1d --ports one", "storage-convert",
        "transpose-gray", "transpose-gray-separate",
        "transpose-assign1", "transpose-assign2", "transpose-assign3",
    ]),
    ("Broadcast and reduction (combining receives in the node)", [
        "broadcast-all --m 6", "broadcast-all --m 6 --tree sbt",
        "reduce-all --m 6", "reduce-all --m 6 --tree sbt",
        "broadcast-one --m 12", "broadcast-one --m 12 --tree sbt",
        "reduce-one --m 12", "reduce-one --m 12 --tree sbt",
    ]),
]


def dims(text):
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


def delta(n):
    """Local bit i -> node bit (i+1) mod n, node bit j -> local bit j (2n bits, K = 2^n)."""
    return ",".join([str(n + (i + 1) % n) for i in range(n)] + [str(j) for j in range(n)])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hcube", default="build/hcube")
    ap.add_argument("--backend", default="table", choices=["table", "tlm", "rtl"])
    ap.add_argument("--n", default="1-8", help="cube dimensions, e.g. 1-10 or 3,5")
    ap.add_argument("--case", action="append", default=[],
                    help="algorithm and its options, e.g. 'jh4 --width 3 --k 256'")
    ap.add_argument("--catalogue", action="store_true",
                    help="the cases of CATALOGUE (every family of hcube list but matmul)")
    ap.add_argument("--cache", default="", help="RTL model cache directory")
    ap.add_argument("--format", default="long", choices=["long", "grid"],
                    help="long: one row per run; grid: one row per case, one column per n")
    ap.add_argument("--span", action="store_true", help="with --format grid: a grid of spans too")
    ap.add_argument("--explain-n", type=int, default=6,
                    help="with --format grid: the n whose stated bound is quoted per case")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run")
    ap.add_argument("--write-doc", metavar="NAME",
                    help="also write the table into block NAME of docs/measurements.md")
    ap.add_argument("--doc", default=mdtable.DOC, help="the page --write-doc writes")
    args = ap.parse_args()
    groups = list(CATALOGUE) if args.catalogue else []
    if args.case:
        groups.append(("", args.case))
    if not groups:
        ap.error("give --case or --catalogue")
    run = mdtable.Run()
    tee = mdtable.capture() if args.write_doc else None

    grid = args.format == "grid"
    if not grid:
        print(f"backend: {args.backend}; command: hcube run --algo <case> --n <n> "
              f"--backend {args.backend} --json\n")
        print("| case | n | K | cycles | transfer cycles | bound | cycles / bound | span "
              "| local-phase cycles | elements | verdict |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    runs = 0
    cells, spans, sources, refusals, columns = {}, {}, {}, {}, []
    for _, cases in groups:
        for case in cases:
            words = shlex.split(case)
            own = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--n"]
            for d in (dims(own[0]) if own else dims(args.n)):
                rest = [w.replace("{delta}", delta(d)) for w in words[1:]]
                if own:
                    i = rest.index("--n")
                    rest = rest[:i] + rest[i + 2:]
                if d not in columns:
                    columns.append(d)
                cmd = [args.hcube, "run", "--algo", words[0], "--n", str(d), "--backend",
                       args.backend, "--json"] + rest
                if args.cache:
                    cmd += ["--cache", args.cache]
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True,
                                       timeout=args.timeout)
                    out, err, rc = p.stdout, p.stderr, p.returncode
                except subprocess.TimeoutExpired:
                    out, err, rc = "", f"no result within {args.timeout:.0f} s", -1
                if rc not in (0, 1) or not out.strip():
                    msg = (err.strip().splitlines() or ["no output"])[-1]
                    msg = msg.removeprefix("hcube: error: ")
                    cells[(case, d)] = "—"
                    refusals.setdefault(case, []).append((d, msg))
                    if grid:
                        print(f"{case} n={d}: {msg}", file=sys.stderr)
                    else:
                        failed = True
                        print(f"| {case} | {d} | | | | | | | | | error: {msg} |")
                    continue
                runs += 1
                r = json.loads(out)
                bound = r.get("lower_bound", 0)
                ratio = f"{r['transfer_cycles'] / bound:.3f}" if bound else "-"
                verdict = r["verdict"]
                if verdict != "pass":
                    failed = True
                cell = f"{r['transfer_cycles']} / {bound or '-'}"
                if r["cycles"] != r["transfer_cycles"]:
                    cell += f" ({r['cycles']})"
                cells[(case, d)] = cell + ("" if verdict == "pass" else f" **{verdict}**")
                spans[(case, d)] = str(r["span"])
                if d == args.explain_n or case not in sources:
                    sources[case] = (d, r.get("bound_source", ""))
                if grid:
                    continue
                span = f"{r['span']} (opt {d})" if r["perm"].startswith("aapc") else r["span"]
                print(f"| {case} | {d} | {r['K']} | {r['cycles']} | {r['transfer_cycles']} | "
                      f"{bound or '-'} | {ratio} | {span} | "
                      f"{r.get('local_cycles', 0)} | {r['correct']}/{r['elements']} | {verdict} |")
                sys.stdout.flush()
    if grid:
        columns.sort()
        for title, cases in groups:
            if title:
                print(f"**{title}**")
                print()
            tables = [("transfer / bound (total)", cells)]
            if args.span:
                tables.append(("span", spans))
            for what, table in tables:
                print(f"| case: {what} | " + " | ".join(f"n={d}" for d in columns) + " |")
                print("|---|" + "---|" * len(columns))
                for case in cases:
                    print(f"| `{case}` | " + " | ".join(table.get((case, d), "")
                                                        for d in columns) + " |")
                print()
            notes = []
            for case in cases:
                if case in sources:
                    d, text = sources[case]
                    notes.append(f"- `{case}`, bound at n = {d}: {text}")
                for d, msg in refusals.get(case, [])[:1]:
                    ds = ", ".join(str(x) for x, _ in refusals[case])
                    notes.append(f"- `{case}`, — at n = {ds}: {msg}")
            if notes:
                print("\n".join(notes))
                print()
        print(f"{runs} runs, backend `{args.backend}`; every cell is one `hcube run --algo "
              f"<case> --n <n> --backend {args.backend} --json`; " +
              ("every run put every element where the reference model says."
               if not failed else "**some runs failed their check: see the cells.**"))
    if tee:
        sys.stdout = tee.stream
        run.write(args.write_doc, tee.text(), args.doc)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

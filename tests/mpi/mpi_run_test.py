#!/usr/bin/env python3
"""Table mode over MPI ranks (docs/mpi.md) equals the single process, field for field.

Runs each case of a catalogue sample with `hcube run --json` in one process and under
`mpirun -np 2` and `mpirun -np 4 --oversubscribe`, and requires the same JSON report but for
the wall time; the same for kept tables with hardware errors on links between ranks, for faults
injected on such a link (the same report, naming the link) and for the heatmap; then requires that a rank count the cube cannot be split into, and a backend
other than table under mpirun, are refused with exit status 2.

usage: mpi_run_test.py HCUBE MPIRUN [TABLE_FILE_DIR]
"""
import json
import os
import subprocess
import sys

HCUBE, MPIRUN = sys.argv[1], sys.argv[2]
WORK = sys.argv[3] if len(sys.argv) > 3 else "."

ENV = dict(os.environ)
if os.geteuid() == 0:  # mpirun refuses root unless told twice
    ENV["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    ENV["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
for var in [v for v in ENV if v.startswith("OMPI_COMM_WORLD")]:
    del ENV[var]  # the single-process runs must not look started by mpirun

CASES = [
    ["--algo", "edelman", "--n", "6"],
    ["--algo", "jh4", "--n", "6"],
    ["--algo", "exchange", "--n", "5", "--ports", "one"],
    ["--algo", "transpose-1d", "--n", "6"],
    # PERMUTE local cycles (the alignment phases of Johnsson & Ho 1992, 2.2)
    ["--algo", "jh2", "--n", "6", "--alignment", "explicit"],
    # start-ups: WAIT stretches every node takes together, skipped in one step
    ["--algo", "jh1", "--n", "5", "--tau", "10", "--blocking", "on"],
    # PASS forwarding
    ["--algo", "broadcast-all", "--n", "5"],
    # MAC cycles, with and without overlap
    ["--algo", "matmul", "--method", "cannon", "--n", "6", "--shape", "8x8x8"],
    ["--algo", "matmul", "--method", "cannon", "--n", "6", "--shape", "8x8x8", "--mac-overlap"],
    # the cycle limit: a timeout at the same cycle on every rank
    ["--algo", "edelman", "--n", "6", "--max-cycles", "10"],
]


def run(prefix, args):
    p = subprocess.run(prefix + [HCUBE, "run"] + args + ["--json"], env=ENV,
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def report(out):
    d = json.loads(out)
    d.pop("wall_seconds", None)
    return d


failures = []
MPI = {2: [MPIRUN, "-np", "2"], 4: [MPIRUN, "-np", "4", "--oversubscribe"]}


def check(args, label):
    rc1, out1, err1 = run([], args)
    if rc1 not in (0, 1):
        failures.append(f"{label}: single process exit {rc1}: {err1.strip()}")
        return
    one = report(out1)
    for ranks, prefix in MPI.items():
        rc, out, err = run(prefix, args)
        if rc != rc1:
            failures.append(f"{label}: {ranks} ranks exit {rc}, one process {rc1}: {err.strip()}")
            continue
        many = report(out)
        diff = sorted(k for k in set(one) | set(many) if one.get(k) != many.get(k))
        if diff:
            failures.append(f"{label}: {ranks} ranks differ in {', '.join(diff)}")
        else:
            print(f"ok  {label}: {ranks} ranks equal one process")


for case in CASES:
    check(case, " ".join(case))

# Hardware errors on links between ranks: a kept table with a receive turned IDLE on a
# dimension between ranks (lost words) and one turned on where nothing arrives (nodata).
table_case = ["--algo", "edelman", "--n", "4"]
kept = os.path.join(WORK, "mpi_broken.tbl")
p = subprocess.run([HCUBE, "tables"] + table_case + ["--out", kept], env=ENV,
                   capture_output=True, text=True)
if p.returncode != 0:
    failures.append(f"writing tables: {p.stderr.strip()}")
else:
    hct = os.path.join(kept, "tables.hct")
    text = open(hct).read()
    for good, bad in [("m^12>m^12 m^8>m^8", "m^12>m^12 m^8>."),  # lost, on dimension 3
                      ("m^7>m^7 m^14>m^14", "m^7>m^7 .>m^14"),  # nodata, dimension 2
                      ("m^7>m^7 m^2>m^2", "m^7>m^7 m^2>m^7")]:  # conflict
        if good not in text:
            failures.append(f"kept tables: no '{good}' to break")
        text = text.replace(good, bad, 1)
    open(hct, "w").write(text)
    os.remove(os.path.join(kept, "tables.hex"))
    check(["--tables", hct, "--no-verify"], "kept tables with hardware errors")

# Injected faults (hcube run --inject): the report of the run with the fault against the
# fault-free one, with both runs' traffic logs gathered at rank 0, equals the one-process report.
# The word dropped or flipped crosses the top dimension, which is between ranks on 2 and 4 ranks;
# the report names that link.
def run_text(prefix, args):
    p = subprocess.run(prefix + [HCUBE, "run"] + args, env=ENV, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def first_caught(kind, node, port, extra=""):
    """The first cycle at which the fault on (node, port, lane 0) is caught in one process."""
    for cycle in range(64):
        spec = f"{kind}:{node}:{port}:0:{cycle}{extra}"
        rc, out, _ = run_text([], table_case + ["--inject", spec])
        if rc == 1:
            return spec, out
    return None, None


for kind, extra in [("drop", ""), ("flip", ":4")]:
    spec, one = first_caught(kind, 5, 3, extra)
    if spec is None:
        failures.append(f"--inject {kind} on node 5 port 3: never caught in one process")
        continue
    if f"node 5 port 3" not in one:
        failures.append(f"--inject {spec}: the one-process report does not name the link:\n{one}")
    for ranks, prefix in MPI.items():
        rc, out, err = run_text(prefix, table_case + ["--inject", spec])
        if rc != 1 or out != one:
            failures.append(f"--inject {spec}: {ranks} ranks exit {rc}, report differs:\n"
                            f"{out}\n--- one process:\n{one}\n{err.strip()}")
        else:
            print(f"ok  --inject {spec}: {ranks} ranks report what one process does")
rc1, one, _ = run_text([], table_case + ["--inject", "table:6:2:0"])
rc2, two, err = run_text(MPI[2], table_case + ["--inject", "table:6:2:0"])
if rc1 != rc2 or one != two:
    failures.append(f"--inject table:6:2:0: 2 ranks differ from one process:\n{two}\n{err}")
else:
    print("ok  --inject table:6:2:0: 2 ranks report what one process does")

# The heatmap is drawn from the traffic log gathered at rank 0: the same picture.
pictures = []
for prefix, name in [([], "one"), (MPI[4], "four")]:
    svg = os.path.join(WORK, f"mpi_heatmap_{name}.svg")
    rc, _, err = run_text(prefix, table_case + ["--heatmap", svg])
    pictures.append(open(svg).read() if rc == 0 and os.path.exists(svg) else err)
if pictures[0] != pictures[1]:
    failures.append("--heatmap: 4 ranks draw another picture than one process")
else:
    print("ok  --heatmap: 4 ranks draw the picture one process draws")

# Bad input: refused with exit status 2 and a message that says why.
for prefix, args, want in [
    ([MPIRUN, "-np", "3", "--oversubscribe"], ["--algo", "edelman", "--n", "4"], "power of two"),
    ([MPIRUN, "-np", "4", "--oversubscribe"], ["--algo", "edelman", "--n", "1"], "at most"),
    ([MPIRUN, "-np", "2"], ["--algo", "edelman", "--n", "4", "--backend", "tlm"], "table backend"),
]:
    rc, out, err = run(prefix, args)
    label = " ".join(prefix[1:] + args)
    if rc != 2 or want not in err:
        failures.append(f"{label}: exit {rc} (want 2, '{want}'): {err.strip()[:300]}")
    else:
        print(f"ok  {label}: refused")

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)

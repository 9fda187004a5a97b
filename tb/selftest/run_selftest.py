#!/usr/bin/env python3
"""Self-check of the hcube RTL and hcube-rtl-sim with hand-made images.

Builds a few small configurations of tb/model into a build root (cached between runs) and
checks exact cycle counts, memories and error counters of each run, and that malformed images
are rejected with exit status 2 and a FILE:LINE message.

    python3 tb/selftest/run_selftest.py [--build-root DIR] [--jobs N]
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hcimg import (END, IDLE, PASS, Cfg, add, edelman, fwd, mem, permute,  # noqa: E402
                   read_result, wait, write_image, xfer)

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'model')

failures = []


def check(name, cond, detail=''):
    if cond:
        print(f'ok   {name}')
    else:
        print(f'FAIL {name} {detail}')
        failures.append(name)


def build(root, dim, memory, lanes, depth, jobs):
    d = os.path.join(root, f'd{dim}_m{memory}_l{lanes}_t{depth}')
    exe = os.path.join(d, 'hcube-rtl-sim')
    subprocess.run(['cmake', '-S', MODEL, '-B', d, f'-DHC_DIM={dim}', f'-DHC_NUM_SLOTS={memory}',
                    f'-DHC_LANES={lanes}', f'-DHC_TABLE_DEPTH={depth}',
                    '-DCMAKE_BUILD_TYPE=Release'], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(['cmake', '--build', d, '-j', str(jobs)], check=True,
                   stdout=subprocess.DEVNULL)
    return exe


class Runner:
    def __init__(self, exe, cfg, tmp):
        self.exe, self.cfg, self.tmp = exe, cfg, tmp
        self.n = 0

    def run(self, tables, slots=None, one_port=0, extra=()):
        self.n += 1
        img = os.path.join(self.tmp, f'img{self.n}.hex')
        out = os.path.join(self.tmp, f'out{self.n}.txt')
        write_image(img, self.cfg, self.cfg.memory if slots is None else slots, tables, one_port)
        p = subprocess.run([self.exe, '--image', img, '--out', out, *extra],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return {'rc': p.returncode, 'stderr': p.stderr}
        r = read_result(out)
        r['rc'] = 0
        r['stderr'] = p.stderr
        r['stdout'] = p.stdout  # assertion messages (Verilator's $error writes to stdout)
        return r


def tag(x, l, k):
    return x * k + l


def errors_only(r, kind, nodes, count=1):
    want = {(x, kind): count for x in nodes}
    return r['errors'] == want


def test_dim2(exe, tmp):
    cfg = Cfg(2, 4)
    run = Runner(exe, cfg, tmp).run
    k = 4
    # (a) dimension exchange: step j swaps slot 0 over port j.
    r = run({'*': [xfer(cfg, {0: (mem(0), mem(0))}), xfer(cfg, {1: (mem(0), mem(0))}), END]})
    check('dim2 exchange: counters', (r['cycles'], r['transfer-cycles'], r['words'],
                                      r['timeout']) == (2, 2, 8, 0), r)
    check('dim2 exchange: slot 0 of x holds tag of x^3',
          all(r['memory'][x][0] == tag(x ^ 3, 0, k) for x in range(4)), r['memory'])
    check('dim2 exchange: other slots untouched',
          all(r['memory'][x][l] == tag(x, l, k) for x in range(4) for l in range(1, 4)))
    check('dim2 exchange: no errors', r['errors'] == {}, r['errors'])

    # WAIT 5 gives 5 cycles; WAIT + XFER.
    r = run({'*': [wait(5), END]})
    check('wait 5: 5 cycles, no transfer', (r['cycles'], r['transfer-cycles'], r['words'],
                                            r['errors']) == (5, 0, 0, {}), r)
    r = run({'*': [wait(3), xfer(cfg, {1: (mem(2), mem(2))}), wait(1), END]})
    check('wait 3 + xfer + wait 1: 5 cycles, 1 transfer cycle',
          (r['cycles'], r['transfer-cycles'], r['words'], r['errors']) == (5, 1, 4, {}), r)
    check('wait 3 + xfer: exchange done', all(r['memory'][x][2] == tag(x ^ 2, 2, k)
                                              for x in range(4)))
    # A table that starts with END measures 0.
    r = run({'*': [END]})
    check('END only: 0 cycles', (r['cycles'], r['transfer-cycles'], r['errors']) == (0, 0, {}),
          r)

    # (d) error kinds
    r = run({'*': [xfer(cfg, {0: (mem(0), IDLE)}), END]})
    check('lost: word sent to an IDLE input', errors_only(r, 'lost', range(4)), r['errors'])
    check('lost: the assertion fires in the first cycle of the run, naming node 0 of 4',
          'LostWord_A: node 0 (of 4 nodes): a word arrived on an IDLE input side (lost)' in
          r['stdout'] and 'PermuteLost_A' not in r['stdout'], r['stdout'])
    check('lost: memory unchanged', all(r['memory'][x][l] == tag(x, l, k) for x in range(4)
                                        for l in range(4)))
    r = run({'*': [xfer(cfg, {0: (IDLE, mem(1))}), END]})
    check('nodata: MEM input without a word', errors_only(r, 'nodata', range(4)), r['errors'])
    r = run({'*': [xfer(cfg, {}), xfer(cfg, {})]})
    check('overrun: no END', errors_only(r, 'overrun', range(4)) and r['cycles'] == 2, r)
    r = run({'*': [xfer(cfg, {0: (mem(0), mem(0)), 1: (mem(1), mem(1))}), END]}, one_port=1)
    check('oneport: two ports in one-port mode', errors_only(r, 'oneport', range(4)),
          r['errors'])
    r = run({'*': [xfer(cfg, {0: (mem(0), mem(0)), 1: (mem(1), mem(1))}), END]}, one_port=0)
    check('oneport: same table without one-port mode is fine', r['errors'] == {}, r['errors'])
    r = run({'*': [xfer(cfg, {0: (mem(0), mem(0))}), xfer(cfg, {1: (mem(0), mem(0))}), END]},
            one_port=1)
    check('oneport: one port per cycle is fine', r['errors'] == {}, r['errors'])
    r = run({'*': [permute(cfg, {}), END]})
    check('opcode 3 with every channel IDLE: an empty PERMUTE, one local cycle',
          (r['cycles'], r['transfer-cycles'], r['local-cycles'], r['words'], r['errors']) ==
          (1, 0, 1, 0, {}), r)
    r = run({'*': [wait(0), END]})
    check('illegal: WAIT 0, one cycle', errors_only(r, 'illegal', range(4)) and
          r['cycles'] == 1, r)
    r = run({'*': [xfer(cfg, {0: (('illegal',), IDLE)}), xfer(cfg, {1: (('illegal',), IDLE)}),
                   END]})
    check('illegal: output op 3 in two cycles', errors_only(r, 'illegal', range(4), 2),
          r['errors'])
    check('illegal: LegalInstr_A reports the first occurrence per node only',
          r['stdout'].count('LegalInstr_A: node 0 (of 4 nodes)') == 1 and
          'PermuteChannel_A' not in r['stdout'], r['stdout'])
    # Input op 3 is ADD (docs/hardware/arithmetic.md §1): slot 0 of every node += the neighbour's slot 0
    # on port 0; port 1 adds the neighbour's slot 1 into slot 0 too (a conflict: the higher
    # channel's sum, old + its own word, is kept).
    r = run({'*': [xfer(cfg, {0: (mem(0), add(2))}), END]})
    check('add: slot 2 += the port-0 neighbour\'s slot 0, no error',
          r['errors'] == {} and
          all(r['memory'][x] == [tag(x, 0, k), tag(x, 1, k),
                                 tag(x, 2, k) + tag(x ^ 1, 0, k), tag(x, 3, k)]
              for x in range(4)), r)
    r = run({'*': [xfer(cfg, {0: (mem(0), add(3)), 1: (mem(1), add(3))}), END]})
    check('add: two ADDs into one slot conflict, the higher channel\'s sum is kept',
          errors_only(r, 'conflict', range(4)) and
          all(r['memory'][x][3] == tag(x, 3, k) + tag(x ^ 2, 1, k) for x in range(4)), r)
    r = run({'*': [xfer(cfg, {0: (IDLE, add(1))}), END]})
    check('add: no word arriving is nodata, memory unchanged',
          errors_only(r, 'nodata', range(4)) and
          all(r['memory'][x][1] == tag(x, 1, k) for x in range(4)), r)
    r = run({'*': [xfer(cfg, {0: (mem(0), add(3, True))}), END]})
    check('add: relative slot 3^x', r['errors'] == {} and
          all(r['memory'][x][3 ^ x] == tag(x, 3 ^ x, k) + tag(x ^ 1, 0, k) for x in range(4)), r)
    r = run({'*': [xfer(cfg, {0: (mem(0), mem(3)), 1: (mem(1), mem(3))}), END]})
    check('conflict: two channels write slot 3', errors_only(r, 'conflict', range(4)),
          r['errors'])
    check('conflict: the higher channel wins', all(r['memory'][x][3] == tag(x ^ 2, 1, k)
                                                   for x in range(4)), r['memory'])
    r = run({'*': [xfer(cfg, {0: (mem(0), PASS)}), xfer(cfg, {}), END]})
    check('dropped: PASS word not forwarded', errors_only(r, 'dropped', range(4)), r['errors'])
    r = run({'*': [xfer(cfg, {0: (mem(0), PASS)}), END]})
    check('dropped: PASS word before END', errors_only(r, 'dropped', range(4)), r['errors'])
    r = run({'*': [xfer(cfg, {1: (fwd(0), IDLE)}), END]})
    check('fwd: FWD without a PASS word', errors_only(r, 'fwd', range(4)) and r['words'] == 0,
          r)
    r = run({'*': [xfer(cfg, {1: (fwd(3), IDLE)}), END]})
    check('fwd: source channel out of range', errors_only(r, 'fwd', range(4)), r['errors'])
    # relative addressing: node x sends slot (1 ^ x) over port 0, stores into slot (2 ^ x)
    r = run({'*': [xfer(cfg, {0: (mem(1, True), mem(2, True))}), END]})
    check('relative: slot XOR node', all(r['memory'][x][2 ^ x] == tag(x ^ 1, 1 ^ x ^ 1, k)
                                         for x in range(4)), r['memory'])

    # timeout: the runner's limit is reported in the file
    r = run({'*': [wait(10), END]}, extra=('--max-cycles', '3'))
    check('timeout: --max-cycles 3 on WAIT 10', r['rc'] == 0 and r['timeout'] == 1 and
          r['cycles'] == 3 and 'timeout' in r['stderr'], r)

    # per-node tables: node 1 and node 0 exchange slot 3 after different waits
    tables = {x: [END] for x in range(4)}
    tables[0] = [wait(2), xfer(cfg, {0: (mem(3), mem(3))}), END]
    tables[1] = [wait(1), wait(1), xfer(cfg, {0: (mem(3), mem(3))}), END]
    r = run(tables)
    check('per-node tables: swap after a wait', (r['cycles'], r['transfer-cycles'], r['words'],
                                                r['errors']) == (3, 1, 2, {}) and
          r['memory'][0][3] == tag(1, 3, k) and r['memory'][1][3] == tag(0, 3, k), r)
    # slots: tags only below K
    r = run({'*': [END]}, slots=2)
    check('slots K=2: tags below K, zero above',
          all(r['memory'][x] == [tag(x, 0, 2), tag(x, 1, 2), 0, 0] for x in range(4)),
          r['memory'])


def test_permute(exe, tmp):
    """PERMUTE (docs/hardware/node.md §2.1) on a 2-cube with M = K = 4."""
    cfg = Cfg(2, 4)
    run = Runner(exe, cfg, tmp).run
    k = 4

    def home(r, x, slots=range(4)):
        return all(r['memory'][x][l] == tag(x, l, k) for l in slots)

    # Swap slots 0 and 1 in one cycle: both copies read the memory as at the start of the cycle.
    r = run({'*': [permute(cfg, {0: (mem(0), mem(1)), 1: (mem(1), mem(0))}), END]})
    check('permute swap: 1 cycle, 1 local cycle, no transfer, no words',
          (r['cycles'], r['transfer-cycles'], r['local-cycles'], r['words'], r['span'],
           r['timeout']) == (1, 0, 1, 0, 0, 0), r)
    check('permute swap: slots 0 and 1 exchanged, 2 and 3 untouched',
          all(r['memory'][x] == [tag(x, 1, k), tag(x, 0, k), tag(x, 2, k), tag(x, 3, k)]
              for x in range(4)) and r['errors'] == {}, r)
    check('permute swap: no link carries a word', all(v == 0 for v in r['link'].values()),
          r['link'])

    # Relative slots: node x copies slot 1 ^ x into slot 2 ^ x.
    r = run({'*': [permute(cfg, {1: (mem(1, True), mem(2, True))}), END]})
    check('permute relative: slot 2^x of x holds its slot 1^x',
          all(r['memory'][x][2 ^ x] == tag(x, 1 ^ x, k) for x in range(4)) and
          r['errors'] == {}, r)

    # A word copied in one cycle is sent on in the next; local cycles and WAITs.
    r = run({'*': [permute(cfg, {0: (mem(3), mem(0))}), xfer(cfg, {0: (mem(0), mem(0))}),
                   wait(2), permute(cfg, {1: (mem(0), mem(2))}), END]})
    check('permute, xfer, wait 2, permute: 5 cycles, 1 transfer, 2 local, 4 words',
          (r['cycles'], r['transfer-cycles'], r['local-cycles'], r['words'], r['errors']) ==
          (5, 1, 2, 4, {}), r)
    check('permute then xfer: slot 0 and 2 of x hold slot 3 of x ^ 1',
          all(r['memory'][x][0] == tag(x ^ 1, 3, k) and r['memory'][x][2] == tag(x ^ 1, 3, k)
              for x in range(4)), r['memory'])

    # local-cycles counts cycles in which some node runs a PERMUTE: node 0 and node 3 in
    # different cycles, node 1 in the same cycle as node 0.
    tables = {x: [END] for x in range(4)}
    tables[0] = [permute(cfg, {0: (mem(0), mem(1))}), wait(1), END]
    tables[1] = [permute(cfg, {0: (mem(0), mem(1))}), END]
    tables[3] = [wait(2), permute(cfg, {0: (mem(0), mem(1))}), END]
    r = run(tables)
    check('permute per node: 3 cycles, 2 local cycles',
          (r['cycles'], r['local-cycles'], r['errors']) == (3, 2, {}), r)
    check('permute per node: nodes 0, 1, 3 copied, node 2 untouched',
          all(r['memory'][x][1] == tag(x, 0, k) for x in (0, 1, 3)) and home(r, 2), r)

    # One-port mode does not restrict a PERMUTE (no port is used).
    r = run({'*': [permute(cfg, {0: (mem(0), mem(1)), 1: (mem(2), mem(3))}), END]}, one_port=1)
    check('permute in one-port mode: two channels, no oneport error', r['errors'] == {} and
          all(r['memory'][x][1] == tag(x, 0, k) and r['memory'][x][3] == tag(x, 2, k)
              for x in range(4)), r)

    # Illegal channel pairs copy nothing and are not range- or conflict-checked.
    for name, pair in [('MEM/IDLE', (mem(0), IDLE)), ('IDLE/MEM', (IDLE, mem(1))),
                       ('FWD/MEM', (fwd(0), mem(1))), ('MEM/PASS', (mem(0), PASS)),
                       ('op 3 out', (('illegal',), mem(1))), ('MEM/ADD', (mem(0), add(1)))]:
        r = run({'*': [permute(cfg, {0: pair, 1: (mem(2), mem(1))}), END]})
        check(f'permute illegal {name}: illegal, memory as for the legal channel only',
              errors_only(r, 'illegal', range(4)) and r['local-cycles'] == 1 and
              all(r['memory'][x] == [tag(x, 0, k), tag(x, 2, k), tag(x, 2, k), tag(x, 3, k)]
                  for x in range(4)), r)
    check('permute illegal: the assertion names the PERMUTE channel',
          'PermuteChannel_A: node 0 (of 4 nodes): PERMUTE channel not IDLE/IDLE or MEM/MEM '
          '(illegal)' in r['stdout'] and 'LegalInstr_A' not in r['stdout'], r['stdout'])
    r = run({'*': [permute(cfg, {0: (mem(0), mem(1)), 1: (mem(0), IDLE)}),
                   permute(cfg, {0: (IDLE, mem(2))}), END]})
    check('permute illegal: counted per cycle (2 cycles, 2 counts)',
          errors_only(r, 'illegal', range(4), 2), r['errors'])

    # Conflict: two copies into slot 3; the higher channel's word is kept.
    r = run({'*': [permute(cfg, {0: (mem(0), mem(3)), 1: (mem(1), mem(3))}), END]})
    check('permute conflict: counted, the higher channel wins',
          errors_only(r, 'conflict', range(4)) and
          all(r['memory'][x][3] == tag(x, 1, k) for x in range(4)), r)

    # A neighbour's word arriving during a PERMUTE is lost, on a copying channel too.
    tables = {x: [END] for x in range(4)}
    tables[0] = [xfer(cfg, {0: (mem(2), mem(2))}), END]
    tables[1] = [permute(cfg, {0: (mem(0), mem(2))}), END]
    r = run(tables)
    check('permute lost: node 1 loses node 0\'s word, node 0 gets nodata',
          r['errors'] == {(1, 'lost'): 1, (0, 'nodata'): 1} and
          (r['cycles'], r['transfer-cycles'], r['local-cycles'], r['words']) == (1, 1, 1, 1), r)
    check('permute lost: node 1 slot 2 holds its own copy, node 0 unchanged',
          r['memory'][1][2] == tag(1, 0, k) and home(r, 0) and
          r['link'] == {(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 0, (2, 0): 0, (2, 1): 0,
                        (3, 0): 0, (3, 1): 0}, r)
    check('permute lost: the assertions name node 1 for the PERMUTE, node 0 for nodata',
          'PermuteLost_A: node 1 (of 1 nodes): a word arrived during a PERMUTE (lost)' in
          r['stdout'] and 'NoData_A: node 0 (of 1 nodes)' in r['stdout'] and
          'LostWord_A' not in r['stdout'], r['stdout'])

    # A PASS word held into a PERMUTE cycle is dropped; a FWD in a PERMUTE forwards nothing.
    tables = {x: [END] for x in range(4)}
    tables[0] = [xfer(cfg, {0: (mem(1), IDLE)}), END]
    tables[1] = [xfer(cfg, {0: (IDLE, PASS)}), permute(cfg, {1: (fwd(0), IDLE)}), END]
    r = run(tables)
    check('permute after PASS: dropped, FWD in a PERMUTE is illegal and sends nothing',
          r['errors'] == {(1, 'dropped'): 1, (1, 'illegal'): 1} and r['words'] == 1 and
          (r['cycles'], r['local-cycles']) == (2, 1), r)


def test_dim2_m6(exe, tmp):
    cfg = Cfg(2, 6)
    run = Runner(exe, cfg, tmp).run
    r = run({'*': [xfer(cfg, {0: (mem(7), mem(0))}), END]}, slots=4)
    check('slot: read of slot 7 >= M=6', errors_only(r, 'slot', range(4)), r['errors'])
    check('slot: out-of-range read sends 0', all(r['memory'][x][0] == 0 for x in range(4)),
          r['memory'])
    r = run({'*': [xfer(cfg, {0: (mem(0), mem(6))}), END]}, slots=4)
    check('slot: write to slot 6 >= M=6 is dropped', errors_only(r, 'slot', range(4)) and
          all(r['memory'][x][:4] == [4 * x, 4 * x + 1, 4 * x + 2, 4 * x + 3] for x in range(4)),
          r)
    r = run({'*': [xfer(cfg, {0: (mem(0), add(6))}), END]}, slots=4)
    check('slot: ADD into slot 6 >= M=6 is dropped', errors_only(r, 'slot', range(4)) and
          all(r['memory'][x][:4] == [4 * x, 4 * x + 1, 4 * x + 2, 4 * x + 3] for x in range(4)),
          r)
    r = Runner(exe, Cfg(2, 5), tmp).run({'*': [xfer(Cfg(2, 5), {0: (mem(4), mem(4))}), END]},
                                        slots=4)
    check('memory 5 on a NumSlots 6 build: 5 words per node, slot 4 swapped',
          all(len(r['memory'][x]) == 5 and r['memory'][x][4] == 0 for x in range(4)) and
          r['errors'] == {}, r)
    r = run({'*': [xfer(cfg, {0: (mem(5, True), mem(5, True))}), END]}, slots=4)
    # slot 5 ^ x: x=0 -> 5, x=1 -> 4, x=2 -> 7 (out), x=3 -> 6 (out)
    check('slot: relative slot out of range only on nodes 2 and 3',
          r['errors'] == {(2, 'slot'): 1, (3, 'slot'): 1}, r['errors'])
    # PERMUTE: an out-of-range read copies the word 0, an out-of-range write is dropped; both
    # in one cycle count one slot error.
    r = run({'*': [permute(cfg, {0: (mem(7), mem(0)), 1: (mem(1), mem(6))}), END]}, slots=4)
    check('permute slot: read of 7 copies 0, write to 6 dropped, one slot error',
          errors_only(r, 'slot', range(4)) and
          all(r['memory'][x][:4] == [0, 4 * x + 1, 4 * x + 2, 4 * x + 3] for x in range(4)), r)


def test_dim3(exe, tmp):
    cfg = Cfg(3, 8)
    run = Runner(exe, cfg, tmp).run
    k = 8
    # (b) Edelman's all-to-all for d = 3, relative addressing
    rows = edelman(3)
    check('edelman d=3 rows as printed', rows == [[3, 6, 4], [1, 7, 6], [7, 2, 5], [5, 3, 7]],
          rows)
    table = [xfer(cfg, {j: (mem(w, True), mem(w, True)) for j, w in enumerate(row)})
             for row in rows] + [END]
    r = run({'*': table})
    check('edelman d=3: 4 cycles, 4 transfer cycles, 96 words',
          (r['cycles'], r['transfer-cycles'], r['words'], r['timeout']) == (4, 4, 96, 0), r)
    check('edelman d=3: node x slot l holds l*8 + x',
          all(r['memory'][x][l] == l * 8 + x for x in range(8) for l in range(8)), r['memory'])
    check('edelman d=3: no errors', r['errors'] == {}, r['errors'])
    check('edelman d=3: 4 words on every link, span 4',
          r['link'] == {(x, j): 4 for x in range(8) for j in range(3)} and r['span'] == 4, r)

    # (c) FWD: node 0 sends slot 1 on port 0; node 1 PASSes it and FWDs it on port 1 next cycle
    # into slot 5 of node 3.
    tables = {x: [END] for x in range(8)}
    tables[0] = [xfer(cfg, {0: (mem(1), IDLE)}), END]
    tables[1] = [xfer(cfg, {0: (IDLE, PASS)}), xfer(cfg, {1: (fwd(0), IDLE)}), END]
    tables[3] = [wait(1), xfer(cfg, {1: (IDLE, mem(5))}), END]
    r = run(tables)
    check('fwd: 2 cycles, 2 transfer cycles, 2 words',
          (r['cycles'], r['transfer-cycles'], r['words']) == (2, 2, 2), r)
    check('fwd: node 3 slot 5 holds tag 1', r['memory'][3][5] == tag(0, 1, k), r['memory'][3])
    check('fwd: node 1 memory unchanged', r['memory'][1] == [tag(1, l, k) for l in range(8)])
    check('fwd: no errors', r['errors'] == {}, r['errors'])
    check('fwd: one word on link (0, 0) and one on (1, 1), span 2',
          {key: v for key, v in r['link'].items() if v} == {(0, 0): 1, (1, 1): 1} and
          r['span'] == 2, r)

    # A word forwarded the same cycle it arrives is not possible: FWD in the PASS cycle fails.
    tables[1] = [xfer(cfg, {0: (IDLE, PASS), 1: (fwd(0), IDLE)}), END]
    tables[3] = [xfer(cfg, {1: (IDLE, mem(5))}), END]
    r = run(tables)
    check('fwd in the PASS cycle: fwd + nodata + dropped',
          r['errors'] == {(1, 'fwd'): 1, (1, 'dropped'): 1, (3, 'nodata'): 1}, r['errors'])


def test_lanes3(exe, tmp):
    cfg = Cfg(2, 8, lanes=3)
    run = Runner(exe, cfg, tmp).run
    k = 8
    # Each node sends slots 1, 2, 3 over the three lanes of port 1 into slots 1, 2, 3.
    c = cfg.chan
    r = run({'*': [xfer(cfg, {c(1, l): (mem(l + 1), mem(l + 1)) for l in range(3)}), END]})
    check('lanes 3: one cycle moves 3 words per port', (r['cycles'], r['words'], r['errors'])
          == (1, 12, {}), r)
    check('lanes 3: words arrive on their lanes',
          all(r['memory'][x][l] == tag(x ^ 2, l, k) for x in range(4) for l in (1, 2, 3)))
    # Node 0 sends slot 2 on port 0 lane 2; node 1 PASSes it and FWDs it on port 1 lane 1 to
    # node 3 slot 0.
    tables = {x: [END] for x in range(4)}
    tables[0] = [xfer(cfg, {c(0, 2): (mem(2), IDLE)}), END]
    tables[1] = [xfer(cfg, {c(0, 2): (IDLE, PASS)}), xfer(cfg, {c(1, 1): (fwd(c(0, 2)), IDLE)}),
                 END]
    tables[3] = [wait(1), xfer(cfg, {c(1, 1): (IDLE, mem(0))}), END]
    r = run(tables)
    check('lanes 3: PASS on lane 2 of port 0, FWD on lane 1 of port 1',
          r['errors'] == {} and r['memory'][3][0] == tag(0, 2, k) and r['words'] == 2, r)
    r = run({'*': [xfer(cfg, {c(0, 0): (mem(0), mem(0)), c(0, 1): (mem(1), mem(1))}), END]},
            one_port=1)
    check('lanes 3: two lanes of one port are one port', r['errors'] == {}, r['errors'])
    # One PERMUTE rotates a cycle of n*b = 6 slots: channel c copies slot c into slot c+1 mod 6.
    r = run({'*': [permute(cfg, {ch: (mem(ch), mem((ch + 1) % 6)) for ch in range(6)}), END]})
    check('lanes 3: one PERMUTE rotates 6 slots',
          (r['cycles'], r['local-cycles'], r['words'], r['errors']) == (1, 1, 0, {}) and
          all(r['memory'][x] == [tag(x, (l - 1) % 6, k) if l < 6 else tag(x, l, k)
                                 for l in range(8)] for x in range(4)), r)


def test_bad_images(exe, tmp):
    cfg = Cfg(2, 4)
    good = os.path.join(tmp, 'good.hex')
    write_image(good, cfg, 4, {'*': [xfer(cfg, {0: (mem(0), mem(0))}), END]})
    lines = open(good).read().splitlines()
    digits = (cfg.width + 3) // 4

    def bad(name, text, want_line, want_text):
        path = os.path.join(tmp, f'bad_{name}.hex')
        with open(path, 'w') as f:
            f.write(text)
        p = subprocess.run([exe, '--image', path, '--out', os.path.join(tmp, 'bad.out')],
                           capture_output=True, text=True)
        msg = p.stderr.strip().splitlines()
        ok = (p.returncode == 2 and len(msg) == 1 and f'{path}:{want_line}:' in msg[0] and
              want_text in msg[0])
        check(f'bad image: {name}', ok, f'rc={p.returncode} stderr={p.stderr!r}')

    def sub(i, new):
        l2 = list(lines)
        l2[i] = new
        return '\n'.join(l2) + '\n'

    bad('magic', sub(0, 'hcube-image 2'), 1, 'version')
    bad('not an image', 'hello\n', 1, "expected 'hcube-image 1'")
    bad('empty', '', 0, 'empty input')
    bad('dim', sub(1, 'dim 3'), 2, 'dim 3 does not fit')
    bad('memory', sub(3, 'memory 8'), 4, 'memory 8 does not fit')
    bad('lanes', sub(4, 'lanes 2'), 5, 'lanes 2 does not fit')
    bad('table-width', sub(6, 'table-width 40'), 7, 'table-width 40 does not fit')
    bad('slots > memory', sub(2, 'slots 9'), 4, 'memory 4 is less than slots 9')
    bad('one-port 2', sub(5, 'one-port 2'), 6, "one-port '2' is not an integer in 0..1")
    bad('bad number', sub(1, 'dim x'), 2, "dim 'x' is not an integer")
    bad('missing header', '\n'.join(lines[:1] + lines[2:]) + '\n', 7, "header field 'dim' is missing")
    bad('unknown header', sub(5, 'two-port 0'), 6, "unknown header field 'two-port'")
    bad('bad hex', sub(8, 'g' * digits), 9, 'non-hex digit')
    bad('hex length', sub(8, '0' * (digits + 1)), 9, f'has {digits + 1} digits, expected {digits}')
    bad('bits above width', sub(8, 'f' + '0' * (digits - 1)), 9, 'bits above the table width')
    bad('truncated words', '\n'.join(lines[:9]) + '\n', 9, 'more table word(s) expected')
    bad('missing end', '\n'.join(lines[:10]) + '\n', 10, "missing 'end'")
    bad('too many words', sub(7, 'table * 9') + ('0' * digits + '\n') * 7, 8,
        "more than this simulator's table depth 8")
    bad('zero words', sub(7, 'table * 0'), 8, "table length '0' is not an integer in 1..")
    bad('node out of range', sub(7, 'table 4 2'), 8, "node '4' is not an integer in 0..3")
    per_node = lines[:7]
    for x in range(4):
        per_node += [f'table {x} 1', '0' * digits]
    bad('missing node', '\n'.join(per_node[:-2] + ['end']) + '\n', 14, 'only 3 of 4 node tables given')
    bad('duplicate node', '\n'.join(per_node[:-2] + ['table 0 1', '0' * digits, 'end']) + '\n',
        14, "expected 'table 3' (tables in node order)")
    bad('mixed blocks', '\n'.join(per_node[:9] + ['table * 1', '0' * digits, 'end']) + '\n', 10,
        "'table *' must be the only table")
    bad('text after end', '\n'.join(lines + ['dim 2']) + '\n', 12, "after 'end'")

    def args(name, argv, want):
        p = subprocess.run([exe, *argv], capture_output=True, text=True)
        check(f'bad arguments: {name}', p.returncode == 2 and want in p.stderr,
              f'rc={p.returncode} {p.stderr!r}')

    args('no image', ['--out', '/dev/null'], '--image is required')
    args('no out', ['--image', good], '--out is required')
    args('unknown', ['--image', good, '--out', '/dev/null', '--frob'], "unknown argument")
    args('max-cycles', ['--image', good, '--out', '/dev/null', '--max-cycles', '-1'],
         '--max-cycles')
    args('missing image file', ['--image', os.path.join(tmp, 'nope.hex'), '--out', '/dev/null'],
         'cannot open image file')
    args('gtkw without trace', ['--image', good, '--out', '/dev/null', '--gtkw', 'x.gtkw'],
         '--gtkw needs --trace')


def test_trace(exe, tmp):
    cfg = Cfg(2, 4)
    img = os.path.join(tmp, 'trace.hex')
    write_image(img, cfg, 4, {'*': [xfer(cfg, {0: (mem(0), mem(0))}), END]})
    fst = os.path.join(tmp, 'trace.fst')
    gtkw = os.path.join(tmp, 'trace.gtkw')
    p = subprocess.run([exe, '--image', img, '--out', os.path.join(tmp, 'trace.out'),
                        '--trace', fst, '--gtkw', gtkw], capture_output=True, text=True)
    check('trace: run with --trace and --gtkw', p.returncode == 0, p.stderr)
    check('trace: FST written', os.path.getsize(fst) > 0)
    vcd = subprocess.run(['fst2vcd', fst], capture_output=True, text=True).stdout
    names = set()
    scope = []
    for line in vcd.splitlines():
        t = line.split()
        if not t:
            continue
        if t[0] == '$scope':
            scope.append(t[2])
        elif t[0] == '$upscope':
            scope.pop()
        elif t[0] == '$var':
            names.add('.'.join(scope + [t[4]]) + (t[5] if t[5] != '$end' else ''))
    want = [l.strip() for l in open(gtkw) if l.startswith('TOP.')]
    missing = [w for w in want if w not in names]
    check('trace: every signal of the save file is in the FST', want and not missing,
          missing[:5])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build-root', default=os.path.join(tempfile.gettempdir(),
                                                         'hcube-rtl-selftest'))
    ap.add_argument('--jobs', type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.build_root, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(a.build_root, 2, 4, 1, 8, a.jobs)
        test_dim2(exe, tmp)
        test_bad_images(exe, tmp)
        test_trace(exe, tmp)
        test_dim2_m6(build(a.build_root, 2, 6, 1, 8, a.jobs), tmp)
        test_dim3(build(a.build_root, 3, 8, 1, 16, a.jobs), tmp)
        test_permute(exe, tmp)
        test_lanes3(build(a.build_root, 2, 8, 3, 8, a.jobs), tmp)
    print(f'{len(failures)} failure(s)' if failures else 'all checks passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

"""Hand-made hcube table images (docs/hardware/node.md §3) for the RTL self-check."""

import json


def clog2_min1(n):
    """max(1, clog2(n))"""
    return max(1, (n - 1).bit_length())


class Cfg:
    def __init__(self, dim, memory, lanes=1):
        self.dim, self.memory, self.lanes = dim, memory, lanes
        self.slot_bits = clog2_min1(memory)
        self.idx_bits = max(self.slot_bits, clog2_min1(dim) + clog2_min1(lanes))
        self.chan_bits = 6 + self.idx_bits + self.slot_bits
        # the last term holds a MAC word (docs/hardware/arithmetic.md §2)
        self.width = max(34, 2 + dim * lanes * self.chan_bits, 5 + 6 * self.slot_bits)

    def chan(self, port, lane=0):
        return port * self.lanes + lane


IDLE = ('idle',)
PASS = ('pass',)


def mem(slot, rel=False):
    return ('mem', slot, rel)


def add(slot, rel=False):
    """Input side ADD(slot): the combining receive (docs/hardware/arithmetic.md §1)."""
    return ('add', slot, rel)


def fwd(chan):
    return ('fwd', chan)


def xfer(cfg, chans, opcode=1):
    """chans: {channel: (out, in)} with out in IDLE | mem(s, rel) | fwd(c) | ('illegal',) and
    in in IDLE | mem(s, rel) | add(s, rel) | PASS."""
    w = opcode
    for c, (out, inp) in chans.items():
        f = 0
        if out[0] == 'mem':
            f |= 1 | (int(out[2]) << 2) | (out[1] << 3)
        elif out[0] == 'fwd':
            f |= 2 | (out[1] << 3)
        elif out[0] == 'illegal':
            f |= 3
        i = 3 + cfg.idx_bits
        if inp[0] == 'mem':
            f |= (1 << i) | (int(inp[2]) << (i + 2)) | (inp[1] << (i + 3))
        elif inp[0] == 'pass':
            f |= 2 << i
        elif inp[0] == 'add':
            f |= (3 << i) | (int(inp[2]) << (i + 2)) | (inp[1] << (i + 3))
        w |= f << (2 + c * cfg.chan_bits)
    return w


def permute(cfg, chans):
    """PERMUTE (docs/hardware/node.md §2.1): the channel fields of an XFER; chans[c] = (mem(a),
    mem(b)) copies slot a into slot b, any other pair but (IDLE, IDLE) is illegal."""
    return xfer(cfg, chans, opcode=3)


def wait(c):
    return 2 | (c << 2)


END = 0


def write_image(path, cfg, slots, tables, one_port=0):
    """tables: {'*': [words]} or {node: [words]}."""
    digits = (cfg.width + 3) // 4
    with open(path, 'w') as f:
        f.write('hcube-image 1\n')
        f.write(f'dim {cfg.dim}\nslots {slots}\nmemory {cfg.memory}\nlanes {cfg.lanes}\n')
        f.write(f'one-port {one_port}\ntable-width {cfg.width}\n')
        for node, words in tables.items():
            f.write(f'table {node} {len(words)}\n')
            for w in words:
                f.write(f'{w:0{digits}x}\n')
        f.write('end\n')


def read_result(path):
    """The runner's result document (docs/hardware/testbench.md §4) in the shape the self-test
    checks: counters under the keys of the text format it replaced, errors by (node, kind), links
    by (node, port) and memories by node."""
    with open(path) as f:
        doc = json.load(f)
    n = doc['n']
    r = {'errors': {(e['node'], e['kind']): e['count'] for e in doc['hw_errors']},
         'memory': {x: [int(m[i:i + 8], 16) for i in range(0, len(m), 8)]
                    for x, m in enumerate(doc['memory'])},
         'link': {(i // n, i % n): w for i, w in enumerate(doc['link_words'])}}
    for key in ('cycles', 'transfer_cycles', 'local_cycles', 'mac_cycles', 'words', 'span',
                'wall_seconds'):
        r[key.replace('_', '-')] = doc[key]
    r['timeout'] = 1 if doc['timeout'] else 0
    return r


def edelman(d):
    """Edelman's w_ij by the direct algorithm: n_i = 2i+1, bit j+1 complemented (j < d-1), then
    bits 0 and j swapped."""
    rows = []
    for i in range(1 << (d - 1)):
        row = []
        for j in range(d):
            w = 2 * i + 1
            if j != d - 1:
                w ^= 1 << (j + 1)
            b0, bj = w & 1, (w >> j) & 1
            w &= ~(1 | (1 << j))
            w |= bj | (b0 << j)
            row.append(w)
        rows.append(row)
    return rows

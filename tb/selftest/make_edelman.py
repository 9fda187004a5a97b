#!/usr/bin/env python3
"""Writes an Edelman all-to-all image (relative addressing, one broadcast table) for timing runs.

    python3 tb/selftest/make_edelman.py DIM OUT.hex [--repeat R] [--memory M] [--per-node]

The table is Edelman's 2^(d-1) steps (direct algorithm) repeated R times, then END. An even R
returns every word home (the transpose is an involution), an odd R leaves node x slot l holding
l * 2^d + x.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hcimg import END, Cfg, edelman, mem, write_image, xfer  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('dim', type=int)
    ap.add_argument('out')
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('--memory', type=int, default=0, help='M (default 2^dim)')
    ap.add_argument('--per-node', action='store_true',
                    help='one table block per node (loaded node by node) instead of table *')
    a = ap.parse_args()
    k = 1 << a.dim
    cfg = Cfg(a.dim, a.memory or k)
    rows = [xfer(cfg, {j: (mem(w, True), mem(w, True)) for j, w in enumerate(row)})
            for row in edelman(a.dim)]
    table = rows * a.repeat + [END]
    write_image(a.out, cfg, k, {x: table for x in range(k)} if a.per_node else {'*': table})


if __name__ == '__main__':
    main()

"""A user's own all-to-all personalized communication on a 3-cube, from Python.

Relative schedule (Edelman 1991 Theorem 3.2): in step t every node x sends its element at local
address w ^ x across dimension j, for w = steps[t][j]. Each relative address crosses the
dimensions of its one bits once; 12 sends on 3 ports fill K/2 = 4 steps.
"""
import sys

import hcube

steps = [[1, 2, 4],
         [7, 6, 5],
         [3, 7, 6],
         [5, 3, 7]]
perm = hcube.Permutation.aapc(n=3)
schedule = hcube.Schedule.relative(n=3, steps=steps, name="my-aapc")
for backend in ["table", "rtl"]:
    r = hcube.run(schedule, perm, backend=backend, width=1, tau=0)
    print(f"{backend}: {r.cycles} cycles, lower bound {r.lower_bound} ({r.bound_source}), "
          f"{r.mismatches} mismatches")
    print("  words per link:", r.link_words.min(), "to", r.link_words.max())
sys.exit(0 if r.passed else 1)

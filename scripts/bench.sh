#!/usr/bin/env bash
# Benchmarks for the README (run by hand, not in CI; needs scripts/build.sh first):
#  - table generation (schedule + compile + write text and image) for Edelman, d = 16 and 20;
#  - Verilator model build time per n (in a fresh cache);
#  - simulated cycles per second of the table executor, the TLM model and the RTL for the
#    Edelman AAPC on n = 6, 8, 10 (K = 4 * 2^n for n = 6, 8 to make the runs longer), once
#    through hcube compare and once interleaved by hcube-tlm-bench --rtl (the fairer comparison
#    on a machine whose load changes: every backend sees the same moments).
# Usage: scripts/bench.sh [OUTDIR]   (default out/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/bench}
mkdir -p "$out"
cache=$(mktemp -d)
trap 'rm -rf "$cache" "$out/tables"' EXIT
hcube=build/hcube

echo "# table generation (hcube tables --algo edelman --n D --out DIR)"
for d in 16 20; do
  /usr/bin/time -f "d=$d: %e s wall, %M KB max RSS" $hcube tables --algo edelman --n "$d" --out "$out/tables" >/dev/null
  du -sh "$out/tables" | sed "s/^/  files: /"
  rm -rf "$out/tables"
done 2>&1

echo "# Verilator model build (hcube build-model, fresh cache) and runs (hcube compare --json)"
for n in 6 8 10; do
  k=$((1 << n)); [ "$n" -lt 10 ] && k=$((4 << n))
  start=$(date +%s%N)
  $hcube build-model --algo edelman --n "$n" --k "$k" --cache "$cache" >/dev/null 2>"$out/build-n$n.log"
  end=$(date +%s%N)
  echo "n=$n K=$k: model build $(( (end - start) / 1000000000 )) s"
  $hcube compare --algo edelman --n "$n" --k "$k" --cache "$cache" --json >"$out/compare-n$n.json" 2>/dev/null
  python3 - "$out/compare-n$n.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    w = r["wall_seconds"]
    rate = r["cycles"] / w if w > 0 else float("inf")
    print(f'  {r["backend"]:5s} cycles {r["cycles"]:5d}  wall {w:9.4f} s  {rate:12.0f} cycles/s  '
          f'{rate * r["nodes"]:14.0f} node-cycles/s  mismatches {r["mismatches"]}')
print("  agree:", d["agree"])
PY
done

echo "# executor vs TLM vs RTL, interleaved, best of 3 (hcube-tlm-bench --rtl; sim/tlm/README.md)"
build/sim/tlm/hcube-tlm-bench --rtl --cache "$cache" --repeat 3 6:256 8:1024 10:1024 2>/dev/null

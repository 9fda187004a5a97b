#!/usr/bin/env bash
# Lints the hcube RTL with `verilator --lint-only -Wall` for Dim = 1, 3, 6, 10 and Lanes = 1, 3
# (NumSlots = 2^Dim, TableDepth = 2^(Dim-1) + 1) and a few odd sizes. Exits non-zero on any
# warning. Waivers live only in rtl/hc_lint.vlt.
#
#   scripts/lint-rtl.sh            # the full matrix (about two minutes, Dim = 10 dominates)
#   scripts/lint-rtl.sh --quick    # Dim <= 6 only
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
rtl="$root/rtl"
dims="1 3 6 10"
[ "${1:-}" = "--quick" ] && dims="1 3 6"

status=0
lint() {  # lint <Dim> <Lanes> <NumSlots> <TableDepth>
  local out
  out=$(verilator --lint-only -Wall --unroll-stmts 1 \
    "$rtl/hc_lint.vlt" "$rtl/hc_pkg.sv" "$rtl/hc_node.sv" "$rtl/hc_cube.sv" \
    --top-module hc_cube -GDim="$1" -GLanes="$2" -GNumSlots="$3" -GTableDepth="$4" 2>&1)
  local rc=$?
  if [ $rc -ne 0 ] || [ -n "$out" ]; then
    echo "FAIL Dim=$1 Lanes=$2 NumSlots=$3 TableDepth=$4"
    echo "$out"
    status=1
  else
    echo "ok   Dim=$1 Lanes=$2 NumSlots=$3 TableDepth=$4"
  fi
}

for d in $dims; do
  for l in 1 3; do
    lint "$d" "$l" $((1 << d)) $(((1 << (d - 1)) + 1))
  done
done
# Sizes that are not powers of two, memory smaller than the cube, a one-word table.
lint 3 1 5 5
lint 3 3 6 3
lint 4 1 4 1
lint 2 2 1 2
exit $status

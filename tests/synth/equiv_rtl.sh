#!/usr/bin/env bash
# Proves with yosys (equiv_make / equiv_simple / equiv_induct) that hc_router and hc_node of
# this tree are the same logic as those of a git revision, for the configurations below. Written
# for the virtual channels (docs/hardware/router.md §13): with NumVcs = 1 the router must be that of
# docs/hardware/router.md §11, and synthesis counts that move by a fraction of a percent (ABC's mapping follows the
# source text, not only the logic) are no evidence either way. Memories are mapped to flip-flops
# first (memory_map), so the induction sees every FIFO and table entry as state. The induction
# pairs the two sides' registers by name: a change that renames or moves state (a register
# that went into a submodule) leaves it unpaired and unproven, and is checked by the RTL
# tests against the golden models instead.
#
#   tests/synth/equiv_rtl.sh REV      # e.g. ae7e129; about 2.5 minutes on 2 cores
#
# Exits 0 if every configuration is proven, 1 otherwise, 2 on bad arguments.
set -u
[ $# -eq 1 ] || { echo "usage: $0 GIT-REVISION" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" archive "$1" rtl | tar -x -C "$work" || { echo "cannot read rtl/ at $1" >&2; exit 2; }

status=0
prove() {  # prove <top> <chparam settings>
  local top=$1 params=$2 script
  script=""
  for side in gold gate; do
    local dir="$work/rtl"
    [ $side = gate ] && dir="$root/rtl"
    # The package first, then every module of that side (the modules a revision has differ).
    script+="read_verilog -sv $dir/hc_pkg.sv $(for f in "$dir"/*.sv; do
      [ "$f" = "$dir/hc_pkg.sv" ] || printf '%s ' "$f"; done); "
    script+="chparam $params $top; hierarchy -top $top; proc; flatten; memory -nomap; "
    script+="memory_map; opt -purge; rename $top $side; design -stash $side; "
  done
  script+="design -copy-from gold -as gold gold; design -copy-from gate -as gate gate; "
  script+="equiv_make gold gate equiv; hierarchy -top equiv; async2sync; "
  script+="equiv_simple -seq 2; equiv_induct -seq 2; equiv_status -assert"
  if yosys -q -l "$work/log" -p "$script" > /dev/null 2>&1; then
    echo "ok   $top $params: $(grep -o 'Of those cells [0-9]* are proven' "$work/log")"
  else
    echo "FAIL $top $params (not proven; see yosys equiv_status)"
    grep -A3 "unproven" "$work/log" | head -20
    status=1
  fi
}

prove hc_router "-set Dim 3"
prove hc_router "-set Dim 2 -set NumSlots 4 -set MsgDepth 4 -set WordWidth 4"
prove hc_node "-set Dim 2 -set NumSlots 4 -set TableDepth 4 -set WordWidth 8 -set HasRouter 0"
prove hc_node "-set Dim 2 -set NumSlots 4 -set TableDepth 4 -set WordWidth 8 -set HasRouter 1"
exit $status

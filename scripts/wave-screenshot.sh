#!/usr/bin/env bash
# Renders a GTKWave save file to a PNG without a display: GTKWave runs on a virtual X server
# (Xvfb) at the save file's window size, the root window is captured once the dump is loaded.
# For documentation and for checking by eye, in CI or over ssh, what `gtkwave FILE.gtkw` opens.
#
#   scripts/wave-screenshot.sh out/aapc6.gtkw out/aapc6.png [seconds to wait, default 6]
set -euo pipefail

if (($# < 2)); then
  echo "usage: scripts/wave-screenshot.sh FILE.gtkw OUT.png [WAIT_SECONDS]" >&2
  exit 2
fi
save=$1
png=$2
wait_s=${3:-6}
[ -r "$save" ] || { echo "wave-screenshot: $save: cannot read the save file" >&2; exit 2; }
for tool in xvfb-run gtkwave import; do
  command -v "$tool" >/dev/null || {
    echo "wave-screenshot: $tool not found (scripts/setup.sh installs it)" >&2
    exit 2
  }
done
# The save file's [size] line is the window GTKWave opens; the virtual screen matches it.
size=$(sed -n 's/^\[size\] \([0-9]*\) \([0-9]*\)$/\1x\2/p' "$save" | head -1)
size=${size:-1400x900}

capture=$(mktemp)
trap 'rm -f "$capture"' EXIT
cat >"$capture" <<'INNER'
gtkwave "$1" >/dev/null 2>&1 &
pid=$!
sleep "$3"
kill -0 "$pid" 2>/dev/null || { echo "wave-screenshot: gtkwave exited early on $1" >&2; exit 1; }
import -window root "$2"
kill "$pid"
INNER
timeout $((wait_s + 60)) xvfb-run -a -s "-screen 0 ${size}x24" sh "$capture" "$save" "$png" "$wait_s"
echo "wave-screenshot: $png ($size)"

#!/usr/bin/env bash
# The main job: set up, build, and run Edelman's all-to-all personalized communication on a
# 6-cube through the Verilated RTL, with the report, an FST waveform and a GTKWave save file.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
mkdir -p out
build/hcube run --algo edelman --n 6 --backend rtl --trace out/aapc6.fst
echo "open the waveform with: gtkwave out/aapc6.gtkw"

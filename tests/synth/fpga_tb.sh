#!/usr/bin/env bash
# Builds tests/synth/hc_fpga_tb.sv with `verilator --binary` into DIR and runs it (ctest
# synth_fpga_tb). The testbench prints PASS or stops with $fatal (non-zero exit).
#
#   tests/synth/fpga_tb.sh DIR
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: fpga_tb.sh DIR}
mkdir -p "$dir"
verilator --binary -Wall -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL -Wno-UNUSEDPARAM \
  --Mdir "$dir" -o hc_fpga_tb --top-module hc_fpga_tb \
  "$root/rtl/hc_lint.vlt" "$root"/rtl/*_pkg.sv $(ls "$root"/rtl/*.sv | grep -v '_pkg\.sv$') \
  "$root/tests/synth/hc_fpga_tb.sv" >"$dir/build.log" 2>&1 ||
  { cat "$dir/build.log"; exit 1; }
"$dir/hc_fpga_tb"

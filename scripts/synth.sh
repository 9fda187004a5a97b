#!/usr/bin/env bash
# Synthesis (yosys 0.23: generic synth and synth_ice40) and place and route (nextpnr-ice40) of the
# hcube RTL; see scripts/synth.py for the modes. `scripts/synth.sh --check` is the CI test.
#
#   scripts/synth.sh                    # resource table of hc_node / hc_cube, and Fmax
#   scripts/synth.sh --node 3,1,64,64   # hc_node at n=3, b=1, M=64, D=64
#   scripts/synth.sh --check [--update] # CI: no error / latch / warning, golden resource counts
exec python3 "$(dirname "$0")/synth.py" "$@"

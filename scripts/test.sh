#!/usr/bin/env bash
# Set up, build and run every test that CI runs (all but the "long" label: n = 7..10 RTL runs
# and other big cubes, run by hand with: ctest --test-dir build -L long).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --test-dir build -LE long --output-on-failure -j "$(nproc)"

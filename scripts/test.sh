#!/usr/bin/env bash
# Set up, build and run every test that CI runs (all but the "long" label: n = 7..10 RTL runs
# and other big cubes, run by hand with: ctest --test-dir build -L long).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --test-dir build -LE long --output-on-failure -j "$(nproc)"

# A second build with clang, AddressSanitizer and UndefinedBehaviorSanitizer (build-san,
# cmake/sanitizers.cmake). It builds only hcube, hcube_unit_tests, the router's and the
# inspection's unit tests, the CLI tests and the libFuzzer harnesses, and runs their labels unit,
# cli and fuzz (the fuzz tests run each harness for a bounded number of executions). Left out:
# the CLI tests that run under 'ulimit -v' (ASan reserves terabytes of address space for its
# shadow memory) and the one that runs the TLM backend (SystemC switches between its own thread
# stacks, which ASan does not follow); the rtl, tlm, cosim, lint and synth labels run in build/
# only.
cmake -S . -B build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DHCUBE_SANITIZE=ON -DHCUBE_FUZZ=ON >/dev/null
cmake --build build-san -j "$(nproc)" --target hcube hcube_unit_tests hcube_cli_tests \
  hcube_sdp_cli_tests hcube_router_tests hcube_router_cli_tests hcube_inspect_tests \
  fuzz_table_text fuzz_table_image fuzz_options fuzz_messages fuzz_schedule_file
ctest --test-dir build-san -L '^(unit|cli|fuzz)$' -LE long --output-on-failure -j "$(nproc)" \
  -E '^(Cli\.(CaseTooBigForMemoryIsAnError|CampaignTooLargeIsRefusedBeforeAllocating|OutOfMemoryMessageFitsVerify|JsonKeysOfRunCompareAndListArePinned)|RouterCli\.RoutedHardwareLimitsNameFileAndLine)$'

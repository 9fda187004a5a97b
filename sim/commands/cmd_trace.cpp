// hcube trace: one element's path through a run (sim/commands/commands.h).
#include <iostream>

#include "base/error.h"
#include "cmd_common.h"
#include "commands.h"
#include "inspect/element_path.h"

namespace hcube {

// hcube trace: one element's path through a run, from the traffic monitor's log.
int cmdTrace(Args& args) {
  const std::string backend = args.get("--backend").value_or("table");
  const auto element = args.get("--element");
  const long long max_cycles = args.number("--max-cycles", 0);
  const std::string cache = args.get("--cache").value_or("");
  if (!element) throw Error("--element NODE:SLOT is required");
  if (max_cycles < 0) throw Error("--max-cycles must be positive");
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, {backend}, origin);
  args.finish();
  const int n = c.tables.header.n;
  const auto [node, slot] = parseElement(*element, n, c.perm.slots());
  requireBackendLimits(c.tables, backend, &origin);
  BackendRun b{backend, "", cache, static_cast<u64>(max_cycles), nullptr};
  b.record_traffic = true;
  b.record_word = node * c.perm.slots() + slot;  // the tag: only its events are kept
  const RunResult r = runOn(c, b, nullptr);
  // No backend name in the output: it is the same on every backend (tests/inspect_cli_test.cpp).
  std::cout << caseTitle(c) << ", " << r.cycles << " cycles\n"
            << formatElementPath(traceElement(r, c.tables, node, slot));
  return 0;
}

}  // namespace hcube

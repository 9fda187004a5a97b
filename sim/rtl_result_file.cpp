// hcube: the RTL runner's result file (docs/hardware/testbench.md §2), read for table mode
// (parseRtlResult) and, with the keys of its own, for routed mode (sim/rtl_routed_run.cpp).
#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>

#include "base/error.h"
#include "rtl_backend.h"
#include "rtl_backend_parts.h"

namespace hcube {

RunResult parseRtlResult(std::istream& in, const std::string& source, u64 nodes, int dims,
                         u64 words_per_node) {
  RunResult r;
  ResultReader reader(in, source, r, nodes, static_cast<u64>(dims), words_per_node);
  reader.read([&](const std::string& key, std::istringstream& words) {
    if (key == "traffic") {  // the monitor's log follows (runner option --traffic)
      int t = 0;
      words >> t;
      r.traffic.recorded = t != 0;
    } else if (key == "send") {
      TrafficLog::Send e{};
      u64 port = 0;
      u64 lane = 0;
      if (!(words >> e.cycle >> e.node >> port >> e.word >> lane) || e.node >= nodes ||
          port >= static_cast<u64>(dims) || lane >= 64) {
        reader.fail("bad send line");
      }
      e.port = static_cast<int>(port);
      e.lane = static_cast<int>(lane);
      r.traffic.sends.push_back(e);
    } else if (key == "store") {
      TrafficLog::Store e{};
      if (!(words >> e.cycle >> e.word)) reader.fail("bad store line");
      r.traffic.stores.push_back(e);
    } else if (key == "error") {  // an error event (with the traffic log)
      HwErrorEvent e{};
      std::string kind;
      if (!(words >> e.cycle >> e.node >> kind) || e.node >= nodes) reader.fail("bad error line");
      e.kind = hwErrorFromName(kind);
      r.error_events.push_back(e);
    } else if (key == "errors") {
      u64 node = 0;
      std::string kind;
      u64 count = 0;
      if (!(words >> node >> kind >> count) || node >= nodes) reader.fail("bad errors line");
      r.errors.push_back({node, hwErrorFromName(kind), count});
    } else {
      return false;
    }
    return true;
  });
  std::sort(r.errors.begin(), r.errors.end(), [](const auto& a, const auto& b) {
    return a.node != b.node ? a.node < b.node : a.kind < b.kind;
  });
  return r;
}

}  // namespace hcube

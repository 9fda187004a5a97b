// hcube-rtl-sim: the result file (docs/hardware/testbench.md §2), the parts a table-mode run
// (tb/rtl_sim_main.cpp) and a routed run (tb/routed_run.cpp) both write: the header with the
// cube's counters, the per-link words, the error counters, the memories and the end line. Each
// run writes its own sections (traffic log, router statistics) between them. Header-only so the
// model's build lists no new source.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <vector>

#include "cube_tb.h"

namespace hcube::tb {

/// "hcube-rtl-result 1", the counters of `r`, the run's wall time, the span and one `link`
/// line per node and port (links: words per link, node-major, as TrafficMonitor::linkWords).
inline void WriteResultHead(std::ostream& out, const RunResult& r, double wall_seconds,
                            uint64_t span, const std::vector<uint64_t>& links,
                            const CubeConfig& config) {
  out << "hcube-rtl-result 1\n";
  out << "cycles " << r.cycles << "\n";
  out << "transfer-cycles " << r.transfer_cycles << "\n";
  out << "local-cycles " << r.local_cycles << "\n";
  out << "mac-cycles " << r.mac_cycles << "\n";
  out << "words " << r.words << "\n";
  out << "timeout " << (r.timed_out ? 1 : 0) << "\n";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", wall_seconds);
  out << "wall-seconds " << buf << "\n";
  out << "span " << span << "\n";
  for (int x = 0; x < config.NumNodes(); ++x) {
    for (int j = 0; j < config.dim; ++j) {
      out << "link " << x << " " << j << " " << links[static_cast<size_t>(x * config.dim + j)]
          << "\n";
    }
  }
}

/// One `errors <node> <kind> <count>` line per non-zero counter (docs/hardware/checks.md).
inline void WriteErrorLines(std::ostream& out, const std::vector<ErrorCounters>& errors) {
  for (size_t x = 0; x < errors.size(); ++x) {
    for (int k = 0; k < kNumErrorKinds; ++k) {
      if (errors[x][k] != 0) {
        out << "errors " << x << " " << kErrorKindNames[k] << " " << errors[x][k] << "\n";
      }
    }
  }
}

/// One `memory` line per node with its first `words` slots (the image's M; the build's NumSlots
/// may be larger), then `end`.
inline void WriteMemoryAndEnd(std::ostream& out, const std::vector<std::vector<uint32_t>>& mem,
                              int words) {
  char buf[16];
  for (size_t x = 0; x < mem.size(); ++x) {
    out << "memory " << x;
    for (int l = 0; l < words; ++l) {
      std::snprintf(buf, sizeof buf, " %08" PRIx32, mem[x][static_cast<size_t>(l)]);
      out << buf;
    }
    out << "\n";
  }
  out << "end\n";
}

}  // namespace hcube::tb

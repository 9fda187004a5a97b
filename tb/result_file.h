// hcube-rtl-sim: the result file, the result document of docs/hardware/testbench.md §4
// (sw/exec/result_format.h), in the parts a table-mode run (tb/rtl_sim_main.cpp) and a routed
// run (tb/routed_run.cpp) both write: the head with the cube's counters and per-link words, the
// error counters and the memories. Each run adds its own sections (traffic log, routed
// statistics) between them. Header-only so the model's build lists no new source.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "cube_tb.h"
#include "exec/result_format.h"  // sw/: the format the library reads

namespace hcube::tb {

/// The document's head for a run of the cube of `config` with `memory_words` words per node
/// (the image's M): the counters of `r`, the run's wall time, the span and the words per link
/// (node-major, as TrafficMonitor::linkWords), and the non-zero error counters.
inline nlohmann::ordered_json ResultHead(const RunResult& r, double wall_seconds, uint64_t span,
                                         const std::vector<uint64_t>& links,
                                         const CubeConfig& config, int memory_words,
                                         const std::vector<ErrorCounters>& errors) {
  hcube::result_format::Counters c;
  c.cycles = r.cycles;
  c.transfer_cycles = r.transfer_cycles;
  c.local_cycles = r.local_cycles;
  c.mac_cycles = r.mac_cycles;
  c.words = r.words;
  c.timeout = r.timed_out;
  c.wall_seconds = wall_seconds;
  c.span = span;
  nlohmann::ordered_json j = hcube::result_format::head(
      "rtl", static_cast<uint64_t>(config.NumNodes()), static_cast<uint64_t>(config.dim),
      static_cast<uint64_t>(memory_words), c, links);
  for (size_t x = 0; x < errors.size(); ++x) {
    for (int k = 0; k < kNumErrorKinds; ++k) {
      if (errors[x][k] != 0) {
        j["hw_errors"].push_back(
            hcube::result_format::hwError(x, kErrorKindNames[k], errors[x][k]));
      }
    }
  }
  return j;
}

/// Adds every node's first `words` memory slots (the image's M; the build's NumSlots may be
/// larger) and writes the document to `out`.
inline void WriteResult(std::ostream& out, nlohmann::ordered_json& doc,
                        const std::vector<std::vector<uint32_t>>& mem, int words) {
  nlohmann::ordered_json memory = nlohmann::ordered_json::array();
  for (const std::vector<uint32_t>& node : mem) {
    memory.push_back(hcube::result_format::memoryHex(node.data(), static_cast<size_t>(words)));
  }
  doc["memory"] = std::move(memory);
  hcube::result_format::write(out, doc);
}

}  // namespace hcube::tb

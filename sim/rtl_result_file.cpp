// hcube: the RTL runner's result file, the result document of docs/hardware/testbench.md §4, read
// for table mode by the library's reader (sw/exec/result_json.h); routed mode reads it with its
// section (sw/router/routed_result.h, sim/rtl_routed_run.cpp).
#include <istream>

#include "exec/result_json.h"
#include "rtl_backend.h"

namespace hcube {

RunResult parseRtlResult(std::istream& in, const std::string& source, u64 nodes, int dims,
                         u64 words_per_node) {
  return readResult(in, source, {nodes, static_cast<u64>(dims), words_per_node});
}

}  // namespace hcube

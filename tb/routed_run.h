// hcube testbench: one routed run on the Verilated hc_cube (docs/hardware/router.md).
#pragma once

#include <cstdint>
#include <string>

namespace hcube::tb {

struct RoutedRunOptions {
  std::string image;
  std::string out;
  std::string trace;
  std::string gtkw;
  uint64_t max_cycles = 0;  ///< 0: a bound from the image
  int threads = 1;          ///< threads evaluating a node-array model's nodes
};

/// Loads the routed image, runs it to the end (or deadlock, or the cycle limit) while the traffic
/// monitor and the delivery monitor watch every cycle, and writes the result file with the
/// router statistics (docs/hardware/testbench.md §2; docs/hardware/router.md §6). Returns the exit
/// status.
int RunRouted(const RoutedRunOptions& options);

}  // namespace hcube::tb

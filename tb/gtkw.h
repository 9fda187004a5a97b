// hcube testbench: a GTKWave save file for an FST trace of hc_cube.
#pragma once

#include <cstdint>
#include <string>

#include "cube_config.h"

namespace hcube::tb {

/// Writes a GTKWave save file that opens fst_path and shows, per node, pc and done and, per
/// port and lane, out_valid / out_data / in_valid / in_data, one group per node (the first 16
/// nodes of a bigger cube). The view spans the trace up to run_end (the testbench's 10 time
/// units per cycle) with a marker at run_begin, the start pulse. Throws std::runtime_error if
/// the file cannot be written. With `routed`, each node also has a router group: FIFO
/// occupancy, credits, grants and round-robin pointers (docs/hardware.md §8).
void WriteGtkwSave(const std::string& gtkw_path, const std::string& fst_path,
                   const CubeConfig& config, uint64_t run_begin, uint64_t run_end,
                   bool routed = false);

}  // namespace hcube::tb

// hcube co-simulation backend ("cosim"): the SystemC-TLM cube of sim/tlm with some nodes
// replaced by the Verilated RTL node (rtl/hc_node.sv through Verilator's SystemC output,
// hc_cosim_node.h), running the same tables with tags in every data slot. What it measures has
// the shape of every other backend's result and must equal the table executor's.
//
// The Verilated node is compiled in at build time, one model per configuration listed in the
// CMake cache variable HCUBE_COSIM_MODELS (sim/cosim/CMakeLists.txt). SystemC-free header.
#pragma once

#include <string>
#include <vector>

#include "exec/hw_errors.h"
#include "tables/table.h"

namespace hcube {

struct CosimOptions {
  std::vector<u64> rtl_nodes;  ///< the nodes that run as Verilated RTL (at least one)
  std::string vcd;             ///< VCD waveform to write; empty: none
  u64 max_cycles = 0;          ///< cycle limit; 0: set.cycles() + 1000
};

/// The Verilated node configurations this build holds, e.g. "Dim=4 NumSlots=16 Lanes=1
/// TableDepth=32".
std::vector<std::string> cosimModels();

/// Runs `set` on the co-simulated cube in a child process (like runOnTlm). Throws Error naming
/// the problem for a malformed table set, an RTL node outside the cube or named twice, or a
/// configuration no built model serves (the message says how to build one).
RunResult runOnCosim(const TableSet& set, const CosimOptions& options);

}  // namespace hcube

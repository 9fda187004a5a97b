// hcube: the C++ table executor — the golden model the SystemC-TLM and RTL cubes must match
// bit for bit and cycle for cycle (DESIGN §3). It runs the tables of every node in lockstep
// with the step semantics of docs/hardware.md §2 and counts the hardware errors of §4 the way
// the RTL does.
#pragma once

#include "hw_errors.h"
#include "reference.h"
#include "table.h"

namespace hcube {

struct ExecOptions {
  u64 max_cycles = u64{1} << 32;  ///< stop with timeout = true after this many cycles
  u64 tagged_elements = 0;        ///< words below this are tags: track their span
};

/// Runs `set` from `initial` (memory of every node, words_per_node = M).
RunResult executeTables(const TableSet& set, const CubeMemory& initial, const ExecOptions& options);

}  // namespace hcube

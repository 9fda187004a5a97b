// hcube: the C++ table executor — the golden model the SystemC-TLM and RTL cubes must match
// bit for bit and cycle for cycle (DESIGN §3). It runs the tables of every node in lockstep
// with the step semantics of docs/hardware.md §2 (PERMUTE: §2.1) and counts the hardware errors
// of §4 the way the RTL does.
//
// PERMUTE in detail (what the TLM and RTL cubes must match): per channel, IDLE/IDLE does
// nothing; MEM(a)/MEM(b) reads slot a at the start of the cycle (a slot outside the memory is a
// `slot` error and reads the word 0) and writes slot b at its end (outside the memory: a `slot`
// error, nothing written); any other combination is `illegal`, copies nothing and is not
// range- or conflict-checked. Two copies into one slot are a `conflict` and the higher channel's
// word is kept. Words arriving from neighbours are `lost`, a held PASS word is `dropped`, and
// one-port mode does not apply. RunResult::local_cycles counts the cycles in which some node
// executes a PERMUTE; copies are not link traffic (no words, no span events).
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

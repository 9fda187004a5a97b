// hcube: the C++ table executor — the golden model the SystemC-TLM and RTL cubes must match
// bit for bit and cycle for cycle (docs/architecture.md §3). It runs the tables of every node in
// lockstep with the step semantics of docs/hardware/node.md §2 (PERMUTE: docs/hardware/node.md
// §2.1) and counts the hardware errors of docs/hardware/checks.md the way the RTL does.
//
// How it runs (sw/exec/executor.cpp): every distinct table is decoded once (sw/exec/exec_program.h)
// into lists of the channels that send and receive, the PASS registers an XFER forwards, the pairs
// of receive slots that could collide; the state of all nodes lives in flat arrays; a cycle is
// a sweep that sends (each word goes straight into the neighbour's input register) and a sweep
// that receives and advances, so the work per cycle is the words that move plus a few
// operations per node. A shared table keeps all nodes at one step: an XFER the decode proves
// error-free then runs as row-to-row moves over the relative memory layout, with no check and
// no per-node work, and where words only move the span is measured from first-send cycles
// carried beside the words rather than from a per-element record. Cycles in which every node that
// has not ended waits (and no PASS word is held) are run in one step: a WAIT costs the
// same whatever its length, and every counter and the cycle limit come out as if each cycle had
// been simulated.
//
// PERMUTE in detail (what the TLM and RTL cubes must match): per channel, IDLE/IDLE does
// nothing; MEM(a)/MEM(b) reads slot a at the start of the cycle (a slot outside the memory is a
// `slot` error and reads the word 0) and writes slot b at its end (outside the memory: a `slot`
// error, nothing written); any other combination is `illegal`, copies nothing and is not
// range- or conflict-checked. Two copies into one slot are a `conflict` and the higher channel's
// word is kept. Words arriving from neighbours are `lost`, a held PASS word is `dropped`, and
// one-port mode does not apply. RunResult::local_cycles counts the cycles in which some node
// executes a PERMUTE; copies are not link traffic (no words, no span events).
//
// MAC (docs/hardware/arithmetic.md §2, sw/tables/mac.h): a node in a MAC computes one element of C
// per cycle on the header's mac_units units, for m p ceil(k/U) cycles; like a PERMUTE it uses no
// port (words arriving are lost, a held PASS word is dropped); `slot` and `conflict` are counted
// per cycle.
#pragma once

#include <functional>

#include "exec/fault.h"
#include "exec/hw_errors.h"
#include "spec/reference.h"
#include "tables/table.h"

namespace hcube {

/// What a run did, for tests and benchmarks: how many cycles it stepped one by one and how
/// many stretches of waiting cycles it ran in one step each; how many of the stepped cycles ran
/// as lockstep moves, and whether the span was measured from first-send cycles carried with
/// the words (sw/exec/executor.cpp, "Lockstep cycles").
struct ExecStats {
  u64 stepped_cycles = 0;
  u64 skips = 0;
  u64 lockstep_cycles = 0;
  bool carried_span = false;
};

struct ExecOptions {
  u64 max_cycles = u64{1} << 32;  ///< stop with timeout = true after this many cycles
  u64 tagged_elements = 0;        ///< words below this are tags: track their span
  ExecStats* stats = nullptr;     ///< if set, receives the counts of ExecStats
  bool record_traffic = false;    ///< fill RunResult::traffic (the monitor's log; sw/inspect/)
  u64 record_word = ~u64{0};      ///< with record_traffic: log only this word (~0: every word)
  const Fault* fault = nullptr;   ///< a link fault to inject (sw/exec/fault.h); nullptr: none
  /// If set, called after every cycle (or skipped stretch) with the cycles done so far.
  std::function<void(u64 cycles_done)> progress;
};

/// Runs `set` from `initial` (memory of every node, words_per_node = M).
RunResult executeTables(const TableSet& set, const CubeMemory& initial, const ExecOptions& options);

}  // namespace hcube

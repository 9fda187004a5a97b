// hcube: the SystemC-TLM backend ("tlm") — runs a table set on the TLM-2.0 model of the cube
// (sim/tlm/hc_tlm_*.h) with tags in every data slot, and returns what it measured in the same
// shape as the table executor and the RTL backend (docs/hardware/node.md, checks.md,
// docs/architecture.md §3).
//
// SystemC elaborates once per process and its kernel cannot be restarted, so runOnTlm runs each
// simulation in a forked child process that sends the RunResult back through a pipe: it can be
// called any number of times in one process. This header needs no SystemC.
#pragma once

#include <string>

#include "exec/fault.h"
#include "exec/hw_errors.h"
#include "spec/reference.h"
#include "tables/table.h"

namespace hcube {

struct TlmOptions {
  std::string vcd;        ///< VCD waveform to write (port activity per node and port); empty: none
  u64 max_cycles = 0;     ///< cycle limit (timeout = true when reached); 0: set.cycles() + 1000
  bool progress = false;  ///< a progress bar on stderr (sw/exec/progress.h), drawn by the child
  bool record_traffic = false;   ///< fill RunResult::traffic (every send and store; sw/inspect/)
  u64 record_word = ~u64{0};     ///< with record_traffic: log only this word (~0: every word)
  const Fault* fault = nullptr;  ///< a link fault to inject (sw/exec/fault.h); nullptr: none
  /// Initial memory (nodes x the set's memory words, e.g. seeded values, sw/spec/initial_values.h);
  /// nullptr: tags in every data slot.
  const CubeMemory* initial = nullptr;
};

/// Runs `set` on the TLM cube in a child process; throws Error on a malformed table set or a
/// failed simulation.
RunResult runOnTlm(const TableSet& set, const TlmOptions& options);

/// The same run in this process. SystemC allows it at most once per process (later calls throw
/// Error), and only in a process that has not used SystemC otherwise: runOnTlm is the entry
/// point; this one is for profiling and for the child.
RunResult runOnTlmInThisProcess(const TableSet& set, const TlmOptions& options);

}  // namespace hcube

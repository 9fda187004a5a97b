// hcube TLM model: running a cube whose nodes come from a node factory — the common part of the
// `tlm` backend (every node an HcTlmNode) and the co-simulation in sim/cosim (some nodes
// Verilated RTL). SystemC-typed, unlike tlm_backend.h.
#pragma once

#include <functional>
#include <string>

#include "exec/hw_errors.h"
#include "hc_tlm_cube.h"
#include "tables/table.h"
#include "tlm_backend.h"

namespace hcube {

/// Elaborates a cube for `set` (nodes from `factory`, an HcTlmNode where it returns null) and
/// the load-bus testbench, runs the tables once with tags in every data slot and returns what
/// was measured, with RunResult::backend = `backend`. At most once per process (SystemC
/// cannot elaborate twice).
RunResult runCubeInThisProcess(const TableSet& set, const TlmOptions& options,
                               const HcTlmCube::NodeFactory& factory, const std::string& backend);

/// The same run in a forked child process (any number of times per process).
RunResult runCubeInChildProcess(const TableSet& set, const TlmOptions& options,
                                const HcTlmCube::NodeFactory& factory, const std::string& backend);

/// Runs `simulate` in a forked child process and returns its result (or throws its Error).
RunResult runInChildProcess(const std::function<RunResult()>& simulate);

}  // namespace hcube

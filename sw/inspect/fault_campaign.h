// hcube inspection: a fault campaign (hcube faults --campaign N --seed S): N random single
// faults over one case, each run on a backend and analysed against the fault-free run
// (fault_analysis.h), with detection and localisation rates per fault kind.
//
// How faults are drawn (seeded, the same on every backend): kinds in turn (flip, stuck, dead,
// drop, table), so that each gets a fifth of the faults; a link fault starts at a word the
// fault-free run actually sent (a random entry of its traffic log: node, port, lane, cycle), so
// that it hits traffic; bits and the stuck value are uniform. A table fault is uniform over
// (node, instruction of that node's table, bit of the table word). Faults on idle links or
// cycles are masked by construction (nothing to corrupt) and are not drawn; `hcube run --inject`
// shows one.
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "inspect/fault_analysis.h"

namespace hcube {

/// Runs a table set (with `fault` injected on its links if not nullptr), recording the traffic.
using FaultRunner = std::function<RunResult(const TableSet& set, const Fault* fault)>;

struct FaultKindStats {
  u64 injected = 0;
  u64 detected = 0;
  u64 localised = 0;  ///< of the detected
  u64 masked = 0;
  std::vector<std::pair<std::string, u64>> masked_reasons;  ///< reason, count
};

struct CampaignResult {
  std::vector<Fault> faults;
  std::vector<FaultAnalysis> analyses;
  FaultKindStats kinds[kFaultKinds];
  FaultKindStats total;
};

/// The `count` faults of a campaign with `seed` over `set`, drawn from `golden` (its traffic).
std::vector<Fault> drawFaults(const TableSet& set, const RunResult& golden, u64 count, u64 seed);

/// The run with one fault: a link fault runs `set` with it; a table fault runs the corrupted
/// tables, or gives the image reader's message if it refuses them (the fault is caught at load).
std::variant<RunResult, std::string> runFaulty(const TableSet& set, const Fault& f,
                                               const FaultRunner& run);

/// One fault: a link fault runs `set` with it; a table fault corrupts the tables first (a
/// corrupted word the image reader refuses is reported as detected at load) and runs them.
FaultAnalysis injectOne(const TableSet& set, const PermutationSpec& perm, const RunResult& golden,
                        const Fault& f, const FaultRunner& run);

/// Runs and analyses every fault; `golden` is `run(set, nullptr)`.
CampaignResult runCampaign(const TableSet& set, const PermutationSpec& perm,
                           const RunResult& golden, const std::vector<Fault>& faults,
                           const FaultRunner& run);

/// The campaign's table: per kind injected, masked (with reasons), detected and localised, with
/// the rates over the faults that were not masked.
std::string formatCampaign(const CampaignResult& c);

}  // namespace hcube

// hcube inspection: what an injected fault did — whether a check caught it,
// and where it went wrong, from observation alone.
//
// The faulty run is compared with a fault-free run of the same tables on the same backend,
// both with the traffic monitor's log of every word sent (RunResult::traffic: cycle, node,
// port, lane, word, the same on every backend):
//   - detection: the reference check (a misplaced element), the hardware error counters (a
//     count the fault-free run does not have) or the cycle limit (timeout); a table fault whose
//     corrupted word is no valid instruction is refused at load (applyTableFault);
//   - localisation: the first link and cycle at which a word differs from the one the fault-free
//     run carried there (or is missing, or is extra), the first wrong element (node:slot, the
//     tag expected, the value found), the first error event the fault-free run does not have
//     (cycle, node, kind: RunResult::error_events, recorded with the traffic) and the error
//     counters that differ, by node and kind;
//   - masked: a fault no check catches, with the reason (see FaultAnalysis::masked_reason).
// The analysis never reads the fault's own position: `localised` compares what was observed
// with where the fault was injected, for the campaign's rates.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "exec/fault.h"
#include "exec/hw_errors.h"
#include "spec/reference.h"

namespace hcube {

/// The first link event (cycle, node, port, lane) that differs between two logs.
struct LinkDifference {
  u64 cycle = 0;
  u64 node = 0;  ///< the sender
  int port = 0;
  int lane = 0;
  std::optional<u32> expected;  ///< the fault-free run's word there (none: nothing crossed)
  std::optional<u32> found;     ///< the faulty run's word there (none: nothing crossed)
};

/// An error counter that differs from the fault-free run's.
struct ErrorDifference {
  u64 node = 0;
  HwError kind = HwError::kLost;
  u64 expected = 0;
  u64 found = 0;
};

/// The first error event in which two runs differ (HwErrorEvent order).
struct ErrorEventDifference {
  HwErrorEvent event;
  bool extra = true;  ///< the faulty run has it (false: only the fault-free run has it)
};

struct FaultAnalysis {
  bool refused_at_load = false;  ///< a table fault whose word the image reader refuses
  std::string load_message;
  bool detected = false;
  std::string detected_by;  ///< "load", "reference", "error counters", "timeout" (comma list)
  bool masked = false;      ///< no check caught it
  std::string masked_reason;
  std::optional<LinkDifference> first_link;  ///< none: every word crossed as without the fault
  u64 mismatches = 0;
  std::optional<Mismatch> first_wrong;  ///< the first misplaced element, in address order
  std::vector<ErrorDifference> errors;  ///< by node, then kind
  std::optional<ErrorEventDifference> first_error;  ///< none: the same error events
  bool cycles_differ = false;
  u64 cycles = 0;           ///< of the faulty run
  u64 expected_cycles = 0;  ///< of the fault-free run
  /// Where the observation points: the sender of first_link, else the node of first_wrong, else
  /// the first node whose error counters differ (none if nothing was observed).
  std::optional<u64> suspect_node;
  /// The observation points at the fault: for a link fault, first_link is on its node, port
  /// and lane in its cycle (flip, drop) or at or after it (stuck, dead); for a table fault,
  /// suspect_node (or the load refusal) names its node.
  bool localised = false;
};

/// The first difference between two canonical logs (TrafficLog order), or none.
std::optional<LinkDifference> firstLinkDifference(const TrafficLog& expected,
                                                  const TrafficLog& found);

/// The first error event one sorted list has and the other has not, or none.
std::optional<ErrorEventDifference> firstErrorEventDifference(
    const std::vector<HwErrorEvent>& expected, const std::vector<HwErrorEvent>& found);

/// Analyses `faulty` (a run with `fault` injected) against `golden` (the same tables without
/// it, on the same backend); both runs must have recorded their traffic.
FaultAnalysis analyseFault(const Fault& fault, const PermutationSpec& perm, const RunResult& golden,
                           const RunResult& faulty);

/// The analysis of a table fault refused at load.
FaultAnalysis refusedAtLoad(const Fault& fault, const std::string& message);

/// The report of one injected fault, several lines.
std::string formatFaultAnalysis(const Fault& fault, const FaultAnalysis& a, u64 slots_per_node);

}  // namespace hcube

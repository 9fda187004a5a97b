// hcube: the hardware error kinds every executor detects (docs/hardware/checks.md), and the result
// of a run that every executor (table, TLM, RTL) produces in the same shape.
#pragma once

#include <array>
#include <compare>
#include <string>
#include <vector>

#include "exec/hw_error_kinds.h"
#include "exec/traffic_monitor.h"
#include "spec/address.h"
#include "spec/reference.h"

namespace hcube {

// HwError and kHwErrorKinds: exec/hw_error_kinds.h.

const char* hwErrorName(HwError e);
/// Parses a name written by hwErrorName; throws Error for an unknown name.
HwError hwErrorFromName(const std::string& name);

struct NodeErrorCount {
  u64 node = 0;
  HwError kind = HwError::kLost;
  u64 count = 0;
  friend bool operator==(const NodeErrorCount&, const NodeErrorCount&) = default;
};

/// One hardware error event: the condition of `kind` held at `node` in `cycle` (a counter of
/// docs/hardware/checks.md counts one per such cycle). Ordered by cycle, then node, then kind.
struct HwErrorEvent {
  u64 cycle = 0;
  u64 node = 0;
  HwError kind = HwError::kLost;
  friend auto operator<=>(const HwErrorEvent&, const HwErrorEvent&) = default;
};

/// What a run of a table set on one backend measured.
struct RunResult {
  std::string backend;
  u64 cycles = 0;           ///< cycles from start until every node reached END
  u64 transfer_cycles = 0;  ///< cycles in which at least one channel carried a word
  u64 words = 0;            ///< words sent (channel-cycles carrying a word)
  u64 local_cycles =
      0;  ///< cycles in which at least one node executed a PERMUTE (docs/hardware/node.md §2.1)
  /// Cycles in which the MAC units of at least one node were busy (a MAC instruction,
  /// docs/hardware/arithmetic.md §2): the measured arithmetic time, beside TR-623 Table 5.
  u64 mac_cycles = 0;
  bool timeout = false;                ///< the cycle limit was reached before every node was done
  std::vector<NodeErrorCount> errors;  ///< non-zero hardware error counters, by node then kind
  CubeMemory memory;                   ///< final memory of every node (all M words)
  // Traffic statistics (measured by every backend's per-cycle monitor):
  std::vector<u64> link_words;  ///< words per directed link, index node * n + port
  u64 span = 0;                 ///< max over moved elements of last arrival - first departure + 1
  TrafficLog traffic;  ///< every send and store, if the run was asked to record them (inspect)
  /// With the traffic log (the same request): every error event, in HwErrorEvent order.
  std::vector<HwErrorEvent> error_events;
  double wall_seconds = 0;  ///< wall-clock time of the simulation proper
};

/// Per-link utilisation summary: words / (cycles * lanes) for every directed link.
struct LinkUtilisation {
  double min = 0;
  double mean = 0;
  double max = 0;
};
LinkUtilisation linkUtilisation(const RunResult& r, int lanes);

}  // namespace hcube

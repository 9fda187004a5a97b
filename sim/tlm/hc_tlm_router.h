// hcube TLM model: routed mode (docs/hardware/router.md) — a router per node as its own SystemC
// module, packets and credits crossing TLM-2.0 sockets between neighbours, and a cube whose
// clock drives the cycle. The TLM counterpart of the golden model sw/router/router_engine.h,
// which it must match cycle for cycle (cycles, words, links, stalls, FIFO occupancy, latencies,
// memories). Built as a room of its own: the table-mode cube (hc_tlm_cube.h) is unchanged.
#pragma once

#include <string>

#include "router/router_engine.h"

namespace hcube {

struct TlmRouterOptions {
  RouterOptions router;  ///< depth, deadlock limit, cycle limit, tagged elements (no progress)
};

/// Runs `list` from `initial` on the TLM routers in a child process (SystemC elaborates once
/// per process); throws Error for a bad list or option.
RoutedRun runRoutedOnTlm(const MessageList& list, const CubeMemory& initial,
                         const TlmRouterOptions& options);

}  // namespace hcube

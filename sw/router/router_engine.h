// hcube: the golden model of routed mode (docs/hardware/router.md) — a per-cycle packet router in
// every node: an input FIFO per port, injection queues fed from memory, delivery into memory,
// per-output round-robin arbitration and credit-based flow control, with the e-cube routing of
// the iPSC and CM routers (Johnsson & Ho 1987 §8.2.1, Figure 14(b); §8.2.2, Figures 16-18) or
// source routes chosen by software. The TLM and RTL routers must match it cycle for cycle.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "exec/hw_errors.h"
#include "router/messages.h"
#include "spec/reference.h"

namespace hcube {

struct RouterOptions {
  u64 fifo_depth = 4;  ///< D >= 1, entries per input FIFO
  int vcs = 1;         ///< V: virtual channels per link, 1..kMaxVcs (docs/hardware/router.md §13)
  u64 tau = 0;  ///< start-up cycles of a message, 0..kMaxRoutedTau (docs/hardware/router.md §7)
  u64 deadlock_cycles = 64;  ///< L >= 1: no packet moved for L cycles with work waiting
  u64 max_cycles = 0;  ///< stop with timeout = true after this many cycles (0: routerCycleLimit)
  u64 tagged_elements = 0;         ///< words below this are tags: track their span
  bool record_deliveries = false;  ///< fill RouterStats::delivered_at (synthetic traffic)
  /// If set, called after every cycle (or skipped idle stretch) with the cycles done so far.
  std::function<void(u64 cycles_done)> progress;
};

/// The cycle a routed run stops at with a timeout: opt.max_cycles if set, else 2^32 cycles after
/// the last release (so a message released at any cycle a file allows is delivered).
u64 routerCycleLimit(const RouterOptions& opt, const MessageList& list);

/// A FIFO head (or queue head) that cannot move when a deadlock is declared.
struct BlockedPort {
  u64 node = 0;
  bool injection = false;  ///< an injection queue's head (input = its queue) or a FIFO's
  int input = 0;           ///< the input port (FIFO) or the queue Q_j
  u64 dst = 0;             ///< the head packet's destination
  int output = 0;          ///< the output it requests
  bool no_credit = false;  ///< the output has no credit (else: granted to another requester)
  int input_vc = 0;   ///< the FIFO's virtual channel (0 for a queue; docs/hardware/router.md §13)
  int output_vc = 0;  ///< the virtual channel of the output it requests
};

/// Router counters of one node (docs/hardware/router.md §5).
struct RouterNodeErrors {
  u64 node = 0;
  u64 overflow = 0;  ///< pushes into a full FIFO
  u64 lost = 0;      ///< packets neither delivered nor still queued at the end
  u64 conflict = 0;  ///< cycles with two writes of one slot
  friend bool operator==(const RouterNodeErrors&, const RouterNodeErrors&) = default;
};

/// The statistics of docs/hardware/router.md §6 and the outcome checks of docs/hardware/router.md
/// §5.
struct RouterStats {
  u64 fifo_depth = 0;
  int vcs = 1;       ///< virtual channels per link (docs/hardware/router.md §13)
  u64 tau = 0;       ///< the start-up of a message (docs/hardware/router.md §7)
  u64 messages = 0;  ///< words: every word is a packet of its own
  u64 startups = 0;  ///< delivered first words of messages that paid tau (0 with tau = 0)
  u64 delivered = 0;
  u64 stalls = 0;
  /// Per node, input port and virtual channel, index (node * n + port) * vcs + vc.
  std::vector<u64> max_fifo;
  u64 latency_min = 0;
  double latency_mean = 0;
  u64 latency_p99 = 0;
  u64 latency_max = 0;
  std::vector<RouterNodeErrors> errors;  ///< nodes with a non-zero counter, by node
  bool deadlock = false;
  u64 deadlock_cycle = 0;  ///< the cycle at which it was declared
  std::vector<BlockedPort> blocked;
  /// With RouterOptions::record_deliveries: per message (node by node, in list order) the cycle
  /// it was delivered in, or ~0 if it was not.
  std::vector<u64> delivered_at;

  /// The largest occupancy over nodes and virtual channels, per input port.
  std::vector<u64> maxFifoPerPort(int n) const;
};

struct RoutedRun {
  RunResult run;  ///< cycles, transfer cycles, words, local cycles (copies), memory, links, span
  RouterStats stats;
  /// The RTL node-array runner only: node clock edges it did not evaluate because the node was
  /// idle (rt_idle_o, docs/hardware/router.md §14); 0 from every other executor.
  u64 idle_edges = 0;
};

/// The virtual channels of `--vcs V`, checked: throws Error unless 1 <= vcs <= kMaxVcs.
int checkedVcs(long long vcs);

/// Throws Error naming the option if one of `opt` is out of range (FIFO depth, deadlock limit,
/// start-up tau, virtual channels): the checks every backend makes before it runs.
void checkRouterOptions(const RouterOptions& opt);

/// Runs `list` from `initial` (words_per_node = 2K). Throws Error for a bad list or option.
RoutedRun runRouter(const MessageList& list, const CubeMemory& initial, const RouterOptions& opt);

/// The most virtual channels per link a router has (docs/hardware/router.md §13).
inline constexpr int kMaxVcs = 4;

/// One line naming a blocked head, as the deadlock error prints it; with vcs > 1 it names the
/// virtual channels too.
std::string describe(const BlockedPort& b, int vcs = 1);

}  // namespace hcube

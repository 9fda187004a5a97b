// hcube: the message lists of routed mode (docs/hardware/router.md §1) — what software loads into
// each node instead of a table: per message, the source slot, the destination node and slot, the
// release cycle and, for source routing, the dimensions of its path.
//
// A permutation runs by routing logic alone, with no schedule, as the papers' "direct send to
// the final destination ... using the routing logic alone" (Johnsson & Ho 1987 §8.2.1,
// Figure 14(b); §8.2.2, Figures 16-18): messagesFromPermutation derives one message per element.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {

/// The routing functions of docs/hardware/router.md §3, described once. Each row: the enumerator,
/// the name the tool prints and reads (--route, message files), the bit of a node's routed
/// configuration word that selects it in rtl/hc_router.sv (0: none, the RTL's default), and
/// what it does. The enum, the names, the parser and the RTL configuration come from this list;
/// a new routing function is a row here and its implementation in the three routers
/// (router/router_engine.cpp, sim/tlm/hc_tlm_router.cpp, rtl/hc_router.sv).
#define HCUBE_ROUTE_KINDS(X)                                                                       \
  X(kEcube, "ecube", 0, "dimension order: the lowest dimension where node and destination differ") \
  X(kSource, "source", 1, "the route the message carries, one dimension a hop")                    \
  X(kAdaptive, "adaptive", 2,                                                                      \
    "minimal adaptive P-cube routing (Glass & Ni's turn model), the output with most credits")

enum class RouteKind {
#define HCUBE_ROUTE_ENUMERATOR(kind, name, cfg_bit, meaning) kind,
  HCUBE_ROUTE_KINDS(HCUBE_ROUTE_ENUMERATOR)
#undef HCUBE_ROUTE_ENUMERATOR
};

/// The router's configuration word (header word 0 of a routed image, docs/hardware/router.md
/// §11): where each field sits. rtl/hc_pkg.sv names the same offsets (CfgRoutedAt, CfgDepthAt,
/// CfgTauAt, and each routing function's Cfg<Name>At); tests/registry_test.cpp checks them.
struct RouterConfigLayout {
  int routed_at = 0;  ///< routed mode
  int depth_at = 8;   ///< the FIFO depth (0: the build's)
  int depth_bits = 8;
  int deadlock_at = 16;  ///< the deadlock limit, read by the testbench (not the RTL)
  int deadlock_bits = 16;
  int tau_at = 32;  ///< the start-up cycles
};
inline constexpr RouterConfigLayout kRouterConfig{};

/// One row of HCUBE_ROUTE_KINDS.
struct RouteKindInfo {
  RouteKind kind;
  const char* name;
  int rtl_config_bit;  ///< the bit set in the routed configuration word; 0: no bit
  const char* meaning;
};

/// Every routing function, in enum order.
inline constexpr RouteKindInfo kRouteKindTable[] = {
#define HCUBE_ROUTE_ROW(kind, name, cfg_bit, meaning) \
  RouteKindInfo{RouteKind::kind, name, cfg_bit, meaning},
    HCUBE_ROUTE_KINDS(HCUBE_ROUTE_ROW)
#undef HCUBE_ROUTE_ROW
};

const RouteKindInfo& routeKindInfo(RouteKind r);
const char* routeKindName(RouteKind r);
/// The names of every routing function, joined by `separator` ("ecube|source|adaptive").
std::string routeKindNames(std::string_view separator);
/// Parses a name of kRouteKindTable; throws Error naming the word and the names otherwise.
RouteKind parseRouteKind(std::string_view word);

/// The dimensions a P-cube packet at node v bound for dst may take next (docs/hardware/router.md
/// §3): those where v has 0 and dst 1, or, when there are none, those where v has 1 and dst
/// 0. Bit j set: dimension j is allowed. 0 when v == dst.
inline u64 pcubeAllowed(u64 v, u64 dst) {
  const u64 up = ~v & dst;
  return up != 0 ? up : v & ~dst;
}

/// The output an adaptive packet at node v bound for dst requests (docs/hardware/router.md §3):
/// among the dimensions pcubeAllowed gives, the one whose output has the most credits at the
/// start of the cycle (credit(j): output j's credit counter), the lowest of equals.
template <class Credit>
int pcubeSelect(u64 v, u64 dst, Credit credit) {
  int best = -1;
  u64 best_credit = 0;
  for (u64 a = pcubeAllowed(v, dst); a != 0; a &= a - 1) {
    const int j = std::countr_zero(a);
    const u64 c = credit(j);
    if (best < 0 || c > best_credit) {
      best = j;
      best_credit = c;
    }
  }
  return best;
}

/// An output port and a virtual channel there (docs/hardware/router.md §13).
struct PortVc {
  int port = 0;
  int vc = 0;
};

/// The VC of output `port` in [first, vcs) with the most credits at the start of the cycle
/// (credit(port, c): that output VC's credit counter), the lowest of equals (§8.13: e-cube and
/// source heads with first = 0; Duato's adaptive VCs with first = 1).
template <class Credit>
int vcSelect(int port, int first, int vcs, Credit credit) {
  int best = first;
  for (int c = first + 1; c < vcs; ++c) {
    if (credit(port, c) > credit(port, best)) best = c;
  }
  return best;
}

/// The output a FIFO head at node v bound for dst requests under Duato's fully adaptive minimal
/// routing with V = vcs >= 2 virtual channels (docs/hardware/router.md §13): of the adaptive VCs
/// 1..V-1 of every dimension in which v and dst differ, the one with the most credits (lowest
/// dimension, then lowest VC, of equals) if it has a credit, else the escape VC 0 of the e-cube
/// dimension. v != dst.
template <class Credit>
PortVc duatoSelect(u64 v, u64 dst, int vcs, Credit credit) {
  PortVc best{-1, 1};
  u64 best_credit = 0;
  for (u64 a = v ^ dst; a != 0; a &= a - 1) {
    const int k = std::countr_zero(a);
    for (int c = 1; c < vcs; ++c) {
      const u64 cr = credit(k, c);
      if (best.port < 0 || cr > best_credit) {
        best = {k, c};
        best_credit = cr;
      }
    }
  }
  if (best_credit == 0) return {std::countr_zero(v ^ dst), 0};
  return best;
}

/// The VC an injection head of queue Q_port requests (docs/hardware/router.md §13): Duato
/// (adaptive with vcs >= 2): the adaptive VC of that port with the most credits if it has one,
/// else the escape VC 0; otherwise (ecube, source, P-cube) the VC with the most credits.
template <class Credit>
int injectionVc(RouteKind route, int port, int vcs, Credit credit) {
  if (route == RouteKind::kAdaptive && vcs >= 2) {
    const int c = vcSelect(port, 1, vcs, credit);
    return credit(port, c) > 0 ? c : 0;
  }
  return vcSelect(port, 0, vcs, credit);
}

/// The largest start-up tau of routed mode (docs/hardware/router.md §7): the RTL configuration
/// word's 10-bit field; every backend takes the same range.
inline constexpr u64 kMaxRoutedTau = 1023;

/// One word of a message: each word travels as a packet of its own (docs/hardware/router.md §2). A
/// message of B words is B consecutive entries of a node's list, the first with cont = false
/// and the others with cont = true; only the first pays the start-up tau (§8.7).
struct Message {
  u32 src_slot = 0;                 ///< slot read at injection (< K)
  u64 dst = 0;                      ///< destination node
  u32 dst_slot = 0;                 ///< slot written at delivery (< M = 2K)
  u64 release = 0;                  ///< not injected before this cycle
  std::vector<std::uint8_t> route;  ///< source routing: the dimensions of the path, in order
  /// The next word of the message the previous entry belongs to (same dst, release, route).
  bool cont = false;
  friend bool operator==(const Message&, const Message&) = default;
};

struct MessageList {
  int n = 1;
  u64 slots = 1;  ///< K; the memory is M = 2K words (slots K..2K-1: the receive area)
  RouteKind route = RouteKind::kEcube;
  std::vector<std::vector<Message>> per_node;  ///< per_node[x]: node x's messages, in order
  /// Where the list was read from, for messages about one entry: the file, and lines[x][i] the
  /// line of per_node[x][i]. Empty for a list built in memory (a case's messages).
  std::string source;
  std::vector<std::vector<u64>> lines;

  u64 nodes() const { return u64{1} << n; }
  u64 memoryWords() const { return 2 * slots; }
  u64 messages() const;
  /// "FILE:LINE" of message i of node x when the list was read from a file, else
  /// "node X message I".
  std::string where(u64 x, size_t i) const;
};

/// What is wrong with message `m` of node `x` under `list`'s n, K and routing function, or an
/// empty string: a slot or node out of range, a route on ecube or adaptive, a source route with a
/// dimension
/// >= n or whose dimensions do not lead from x to m.dst.
std::string messageProblem(const MessageList& list, u64 x, const Message& m);

/// What is wrong with entry i of one node's messages as the continuation of a message
/// (docs/hardware/router.md §7), or "": entry i has cont set but is the node's first, or differs
/// from entry i - 1 in its destination, release or route, or its message has more than K words.
std::string continuationProblem(const std::vector<Message>& node_messages, size_t i, u64 slots);

/// Throws Error naming the node, the message (0-based) and the problem, for the first bad one
/// (messageProblem, continuationProblem); also if n or K are out of range or per_node does not
/// have 2^n entries.
void validateMessages(const MessageList& list);

/// One message per element that takes part in `perm`: the element at (x | l) bound for (y | l')
/// is node x's message (l, y, K + l', release 0), in slot order. For source routing its route is
/// the dimensions of x XOR y, lowest first (the e-cube path); the CLI's `--route source` takes a
/// schedule's own paths instead (router/schedule_paths.h).
MessageList messagesFromPermutation(const PermutationSpec& perm, RouteKind route);

/// `list` with each node's words grouped into messages of at most `packet` words (`--packet B`
/// in routed mode, docs/hardware/router.md §7): words with the same destination, release and route
/// join the message opened by the first of them until it has B words; messages keep the order
/// of their first words, and a message's words the list order. packet = 1 returns the list
/// unchanged. Throws Error if packet is 0 or larger than K (a message longer than the data).
MessageList groupMessages(const MessageList& list, u64 packet);

/// The first hop of message m of node x: its dimension, or -1 for a local copy (m.dst == x with
/// no route). Adaptive: the lowest dimension P-cube allows at x (the injection queue is chosen
/// when the message is loaded; docs/hardware/router.md §2); with vcs >= 2 (Duato, §8.13) the e-cube
/// dimension.
int firstHop(RouteKind route, u64 x, const Message& m, int vcs = 1);

}  // namespace hcube

// hcube tests: message lists more than one router test runs (tests/router_test.cpp against the
// golden model, tests/router_tlm_test.cpp against the TLM routers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "router/messages.h"

namespace hcube::test {

// Calls fn(name, c) for every catalogue algorithm whose default case builds on the n-cube
// (some need parameters a loop does not give) and moves each element to one destination
// (routed mode refuses the collectives). Returns how many cases fn saw.
template <class Fn>
int forEachRoutableCase(int n, Fn fn) {
  int count = 0;
  for (const AlgorithmInfo& a : algorithmCatalogue()) {
    BuiltCase c;
    try {
      c = buildCase({a.name, n, 0, 1, false, {}});
    } catch (const Error&) {
      continue;
    }
    if (c.perm.collective()) continue;
    fn(a.name, c);
    ++count;
  }
  return count;
}

// A deliberately cyclic source route: on the 2-cube ring 0 -d0-> 1 -d1-> 3 -d0-> 2 -d1-> 0 every
// node sends four packets five hops around the ring (to the next node but one, the long way),
// with one-entry FIFOs. The four ring FIFOs fill with packets that each wait for the next full
// one: the detector stops the run and names them, it does not hang.
inline MessageList ringList() {
  MessageList list;
  list.n = 2;
  list.slots = 4;
  list.route = RouteKind::kSource;
  list.per_node.resize(4);
  const u64 next[4] = {1, 3, 0, 2};  // the ring's successor
  const std::uint8_t dim[4] = {0, 1, 1, 0};
  for (u64 x = 0; x < 4; ++x) {
    std::vector<std::uint8_t> path;
    u64 at = x;
    for (int h = 0; h < 5; ++h) {
      path.push_back(dim[at]);
      at = next[at];
    }
    for (u32 l = 0; l < 4; ++l) list.per_node[x].push_back({l, at, 4 + l, 0, path});
  }
  return list;
}

// Two packets bound for node 7 of the 3-cube, from node 0 (slot 0 -> slot 2) and node 1 (slot 0
// -> slot 3): with one-entry FIFOs, adaptive routing sends node 0's packet round the FIFO that
// node 1's packet fills (hand-counted in tests/router_test.cpp, AdaptiveAvoidsAFullFifo3Cube).
inline MessageList adaptiveDetourList() {
  MessageList list;
  list.n = 3;
  list.slots = 2;
  list.route = RouteKind::kAdaptive;
  list.per_node.resize(8);
  list.per_node[0].push_back({0, 7, 2, 0, {}});
  list.per_node[1].push_back({0, 7, 3, 0, {}});
  return list;
}

// Multi-word messages with a start-up (docs/hardware/router.md §7), the 2-cube with tau = 3, B = 2:
// node x sends slots 0, 1 to node x^1 (slots 4, 5) and slots 2, 3 to node x^2 (slots 6, 7), one
// word per entry, grouped by groupMessages into two messages of two words, in Q_0 and Q_1. Every
// node's start-up unit serves Q_0's message in cycles 0-2 (its words leave in cycles 3 and 4,
// one hop, delivered at the end of those cycles: latencies 4 and 5) and Q_1's in cycles 3-5 (its
// words leave in 6 and 7: latencies 7 and 8). 8 cycles, 16 words, no stall, no FIFO entry, 8
// start-ups, mean latency (4 + 5 + 7 + 8) / 4 = 6.
inline MessageList startupSerialList() {
  MessageList list;
  list.n = 2;
  list.slots = 4;
  list.route = RouteKind::kEcube;
  list.per_node.resize(4);
  for (u64 x = 0; x < 4; ++x) {
    for (u32 l = 0; l < 4; ++l)
      list.per_node[x].push_back({l, x ^ (l < 2 ? 1U : 2U), 4 + l, 0, {}});
  }
  return groupMessages(list, 2);
}

// The 2-cube with tau = 3, B = 2, two hops: node x sends slots 0, 1 to node x^3 (slots 2, 3), one
// message in Q_0. Start-up in cycles 0-2; word 0 crosses dimension 0 in cycle 3 into FIFO 0 of
// node x^1, which forwards it over dimension 1 in cycle 4 (delivered: latency 5); word 1 follows
// one cycle behind (latency 6). Node x^1's own words use output 0, so no output is contended:
// 6 cycles, 16 words, no stall, FIFO 0 holds at most 1 packet, 4 start-ups, mean latency 5.5.
inline MessageList startupTwoHopList() {
  MessageList list;
  list.n = 2;
  list.slots = 2;
  list.route = RouteKind::kEcube;
  list.per_node.resize(4);
  for (u64 x = 0; x < 4; ++x) {
    for (u32 l = 0; l < 2; ++l) list.per_node[x].push_back({l, x ^ 3U, 2 + l, 0, {}});
  }
  return groupMessages(list, 2);
}

}  // namespace hcube::test

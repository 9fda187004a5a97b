// hcube tests: message lists more than one router test runs (tests/router_test.cpp against the
// golden model, tests/router_tlm_test.cpp against the TLM routers).
#pragma once

#include <cstdint>
#include <vector>

#include "router/messages.h"

namespace hcube::test {

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

}  // namespace hcube::test

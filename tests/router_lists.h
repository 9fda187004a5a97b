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

}  // namespace hcube::test

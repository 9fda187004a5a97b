#include "algorithms/aapc/exchange.h"

#include <algorithm>
#include <string>

#include "base/error.h"

namespace hcube {

u64 exchangeSteps(int d, u64 slots, int lanes) {
  const u64 half = slots / 2;
  return static_cast<u64>(d) * ((half + static_cast<u64>(lanes) - 1) / static_cast<u64>(lanes));
}

SlotSchedule exchangeSchedule(int d, u64 slots, int lanes, u64 packet) {
  if (d < 1 || d > 24) {
    throw Error("exchange: dimension d = " + std::to_string(d) + " is out of range (1..24)");
  }
  if (slots == 0 || slots % (u64{1} << d) != 0 || slots > (u64{1} << 24)) {
    throw Error("exchange: K = " + std::to_string(slots) + " is not m * 2^" + std::to_string(d) +
                " (at most 2^24)");
  }
  if (lanes < 1) throw Error("exchange: lanes = " + std::to_string(lanes) + " must be >= 1");
  if (packet < 1) throw Error("exchange: packet size " + std::to_string(packet) + " must be >= 1");
  SlotSchedule s("exchange", d, lanes, slots);
  const u64 b = static_cast<u64>(lanes);
  // Johnsson & Ho 1987 §5: for j := n - 1 downto 0.
  for (int j = d - 1; j >= 0; --j) {
    u64 sent = 0;  // elements of this exchange placed so far
    std::vector<u32>* step = nullptr;
    int lane = lanes;
    for (u64 w = 0; w < slots; ++w) {
      if (!bitOf(w, j)) continue;
      if (lane == lanes) {
        // The step carries elements sent .. sent + count - 1 of this exchange; it starts a block
        // transfer if one of them is the first element of a packet.
        const u64 count = std::min(b, slots / 2 - sent);
        const bool block = sent == 0 || (sent + count - 1) / packet != (sent - 1) / packet;
        step = &s.addStep(block);
        lane = 0;
      }
      (*step)[static_cast<size_t>(j * lanes + lane)] = static_cast<u32>(w);
      ++lane;
      ++sent;
    }
  }
  return s;
}

}  // namespace hcube

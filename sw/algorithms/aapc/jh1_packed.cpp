#include "algorithms/aapc/jh1_packed.h"

#include <string>

#include "base/error.h"

namespace hcube {

SlotSchedule jhAlgorithm1Packed(int d, u64 slots) {
  if (d < 1 || d > 20) {
    throw Error("jh1: dimension d = " + std::to_string(d) + " is out of range (1..20)");
  }
  if (slots == 0 || slots % (u64{1} << d) != 0 || slots > (u64{1} << 24)) {
    throw Error("jh1: K = " + std::to_string(slots) + " is not m * 2^" + std::to_string(d) +
                " (at most 2^24)");
  }
  const u64 half = u64{1} << (d - 1);
  const u64 pairs = slots / 2;
  const u64 dd = static_cast<u64>(d);
  const u64 blocks = (pairs + dd - 1) / dd;
  const u32 mask = static_cast<u32>((u64{1} << d) - 1);
  SlotSchedule s("jh1", d, 1, slots);
  for (u64 t = 0; t < blocks * dd; ++t) s.addStep(true);
  for (u64 p = 0; p < pairs; ++p) {
    const u64 block = p / dd;
    const u64 u = p % dd;
    const u32 low = static_cast<u32>(((p / half) << d) | (p % half));
    for (u64 r = 0; r < dd; ++r) {
      const int dim = static_cast<int>((u + r) % dd);
      const u32 w = bitOf(low, dim) ? low : low ^ mask;
      s.steps[block * dd + r][static_cast<size_t>(dim)] = w;
    }
  }
  return s;
}

}  // namespace hcube

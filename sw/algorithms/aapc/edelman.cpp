#include "algorithms/aapc/edelman.h"

#include <sstream>
#include <unordered_set>

#include "base/error.h"

namespace hcube {

RelativeSchedule edelmanSchedule(int d) {
  if (d < 1 || d > 30) {
    throw Error("edelman: dimension d = " + std::to_string(d) + " is out of range (1..30)");
  }
  const u64 rows = u64{1} << (d - 1);
  RelativeSchedule s("edelman", d, rows);
  for (u64 i = 0; i < rows; ++i) {
    const u32 ni = static_cast<u32>(2 * i + 1);
    for (int j = 0; j < d; ++j) {
      u32 w = ni;
      if (j != d - 1) w ^= u32{1} << (j + 1);  // step 1: complement bit j + 1
      const u32 b0 = w & 1U;                   // step 2: interchange bits 0 and j
      const u32 bj = (w >> j) & 1U;
      w &= ~(u32{1} | (u32{1} << j));
      w |= (bj) | (b0 << j);
      s.set(i, j, w);
    }
  }
  return s;
}

std::vector<std::string> checkEdelmanConditions(const RelativeSchedule& s) {
  std::vector<std::string> bad;
  const int d = s.dims();
  auto name = [](u64 i, int j) {
    std::ostringstream o;
    o << "w[" << i << "][" << j << "]";
    return o.str();
  };
  for (u64 i = 0; i < s.steps(); ++i) {
    std::unordered_set<u32> row;
    for (int j = 0; j < d; ++j) {
      const u32 w = s.at(i, j);
      if (w == RelativeSchedule::kIdle) {
        bad.push_back(name(i, j) + " is empty");
        continue;
      }
      if (((w >> j) & 1U) == 0) bad.push_back(name(i, j) + " violates wire appropriateness");
      if (!row.insert(w).second) bad.push_back(name(i, j) + " violates row uniqueness");
    }
  }
  for (int j = 0; j < d; ++j) {
    std::unordered_set<u32> column;
    for (u64 i = 0; i < s.steps(); ++i) {
      const u32 w = s.at(i, j);
      if (w != RelativeSchedule::kIdle && !column.insert(w).second) {
        bad.push_back(name(i, j) + " violates column uniqueness");
      }
    }
  }
  return bad;
}

}  // namespace hcube

#include "schedule.h"

#include <algorithm>

namespace hcube {

u64 relativeScheduleSpan(const RelativeSchedule& s) {
  const u64 count = u64{1} << s.dims();
  std::vector<u64> first(count, ~u64{0});
  std::vector<u64> last(count, 0);
  for (u64 t = 0; t < s.steps(); ++t) {
    for (int j = 0; j < s.dims(); ++j) {
      const u32 w = s.at(t, j);
      if (w == RelativeSchedule::kIdle || w >= count) continue;
      first[w] = std::min(first[w], t);
      last[w] = std::max(last[w], t);
    }
  }
  u64 span = 0;
  for (u64 w = 0; w < count; ++w) {
    if (first[w] != ~u64{0}) span = std::max(span, last[w] - first[w] + 1);
  }
  return span;
}

}  // namespace hcube

#include "schedule/schedule.h"

#include <algorithm>
#include <string>

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

u64 SlotSchedule::blocks() const {
  return static_cast<u64>(std::count(block_starts.begin(), block_starts.end(), true));
}

SlotSchedule repeatRelative(const RelativeSchedule& s, u64 slots) {
  const int d = s.dims();
  SlotSchedule out(s.algo(), d, 1, slots);
  for (u64 h = 0; h < (slots >> d); ++h) {
    for (u64 t = 0; t < s.steps(); ++t) {
      std::vector<u32>& step = out.addStep(true);
      for (int j = 0; j < d; ++j) {
        const u32 w = s.at(t, j);
        if (w != RelativeSchedule::kIdle)
          step[static_cast<size_t>(j)] = static_cast<u32>(h << d) | w;
      }
    }
  }
  return out;
}

u64 slotScheduleSpan(const SlotSchedule& s) {
  std::vector<u64> first(s.slots, ~u64{0});
  std::vector<u64> last(s.slots, 0);
  for (u64 t = 0; t < s.steps.size(); ++t) {
    for (const u32 w : s.steps[t]) {
      if (w == SlotSchedule::kIdle || w >= s.slots) continue;
      first[w] = std::min(first[w], t);
      last[w] = std::max(last[w], t);
    }
  }
  u64 span = 0;
  for (u64 w = 0; w < s.slots; ++w) {
    if (first[w] != ~u64{0}) span = std::max(span, last[w] - first[w] + 1);
  }
  return span;
}

std::vector<std::string> checkAapcSlotSchedule(const SlotSchedule& s, size_t limit) {
  std::vector<std::string> out;
  auto report = [&](const std::string& m) {
    if (out.size() < limit) out.push_back(s.algo + ": " + m);
  };
  const u32 mask = static_cast<u32>((u64{1} << s.dims) - 1);
  std::vector<u32> crossed(s.slots, 0);
  std::vector<u64> moved_in(s.slots, ~u64{0});
  for (u64 t = 0; t < s.steps.size(); ++t) {
    for (size_t c = 0; c < s.steps[t].size(); ++c) {
      const u32 w = s.steps[t][c];
      if (w == SlotSchedule::kIdle) continue;
      const int dim = static_cast<int>(c) / s.lanes;
      const std::string at = "step " + std::to_string(t) + " port " + std::to_string(dim) +
                             " lane " + std::to_string(static_cast<int>(c) % s.lanes);
      if (w >= s.slots) {
        report(at + ": slot " + std::to_string(w) + " is outside the " + std::to_string(s.slots) +
               " slots");
        continue;
      }
      if (moved_in[w] == t) report(at + ": slot " + std::to_string(w) + " moves twice in the step");
      moved_in[w] = t;
      if (!bitOf(w & mask, dim)) {
        report(at + ": slot " + std::to_string(w) + " has no bit " + std::to_string(dim) +
               " in its aligned address");
      } else if (bitOf(crossed[w], dim)) {
        report(at + ": slot " + std::to_string(w) + " crosses dimension " + std::to_string(dim) +
               " a second time");
      }
      crossed[w] |= u32{1} << dim;
    }
  }
  for (u64 w = 0; w < s.slots; ++w) {
    if (crossed[w] != (w & mask)) {
      report("slot " + std::to_string(w) + " crosses dimensions " + std::to_string(crossed[w]) +
             " (bit mask), not those of its aligned address " + std::to_string(w & mask));
    }
  }
  return out;
}

}  // namespace hcube

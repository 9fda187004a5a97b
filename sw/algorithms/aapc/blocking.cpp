#include "algorithms/aapc/blocking.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "algorithms/aapc/johnsson_ho.h"
#include "base/error.h"

namespace hcube {

namespace {

u32 findRoot(std::vector<u32>& parent, u32 a) {
  while (parent[a] != a) a = parent[a] = parent[parent[a]];
  return a;
}

/// Slot classes of a one-lane schedule: slots that move in a common step are joined.
std::vector<BlockSubset> slotClasses(const SlotSchedule& s) {
  const int d = s.dims;
  const u32 mask = static_cast<u32>((u64{1} << d) - 1);
  std::vector<u32> parent(s.slots);
  std::iota(parent.begin(), parent.end(), 0U);
  for (const std::vector<u32>& step : s.steps) {
    u32 first = SlotSchedule::kIdle;
    for (const u32 w : step) {
      if (w == SlotSchedule::kIdle) continue;
      if (first == SlotSchedule::kIdle) {
        first = w;
      } else {
        parent[findRoot(parent, w)] = findRoot(parent, first);
      }
    }
  }
  // Aligned address 0 never moves: it joins 1..1 of its repetition (the paper's C(1..1)).
  if (d >= 1) {
    for (u64 h = 0; h < (s.slots >> d); ++h) {
      const u32 zero = static_cast<u32>(h << d);
      parent[findRoot(parent, zero)] = findRoot(parent, zero | mask);
    }
  }
  std::vector<int> index(s.slots, -1);
  std::vector<BlockSubset> classes;
  // Classes in the order of their first step.
  for (u64 t = 0; t < s.steps.size(); ++t) {
    for (const u32 w : s.steps[t]) {
      if (w == SlotSchedule::kIdle) continue;
      const u32 root = findRoot(parent, w);
      if (index[root] < 0) {
        index[root] = static_cast<int>(classes.size());
        classes.emplace_back();
      }
      BlockSubset& c = classes[static_cast<size_t>(index[root])];
      if (c.steps.empty() || c.steps.back() != t) c.steps.push_back(t);
    }
  }
  for (u32 w = 0; w < s.slots; ++w) {
    const int i = index[findRoot(parent, w)];
    if (i >= 0) classes[static_cast<size_t>(i)].slots.push_back(w);
  }
  return classes;
}

/// Placement order of §5: complementary classes that fill a column together are adjacent
/// (fewer steps first); a class whose complement class was placed before goes to the end.
std::vector<BlockSubset> placementOrder(std::vector<BlockSubset> classes, int d, u64 slots,
                                        u64 rows) {
  const u32 ones = static_cast<u32>((u64{1} << d) - 1);
  std::vector<int> class_of(slots, -1);
  for (size_t i = 0; i < classes.size(); ++i) {
    for (const u32 w : classes[i].slots) class_of[w] = static_cast<int>(i);
  }
  std::vector<bool> placed(classes.size(), false);
  std::vector<size_t> order;
  std::vector<size_t> deferred;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (placed[i]) continue;
    placed[i] = true;
    const int c = class_of[classes[i].slots.front() ^ ones];
    if (c < 0 || static_cast<size_t>(c) == i) {
      order.push_back(i);
    } else if (placed[static_cast<size_t>(c)]) {
      deferred.push_back(i);
    } else if (classes[i].time() + classes[static_cast<size_t>(c)].time() == rows) {
      const size_t partner = static_cast<size_t>(c);
      const bool first = classes[i].time() <= classes[partner].time();
      order.push_back(first ? i : partner);
      order.push_back(first ? partner : i);
      placed[partner] = true;
    } else {
      order.push_back(i);
    }
  }
  order.insert(order.end(), deferred.begin(), deferred.end());
  std::vector<BlockSubset> out;
  for (const size_t i : order) out.push_back(std::move(classes[i]));
  return out;
}

}  // namespace

std::vector<BlockEntry> BlockingTable::row(u64 r) const {
  std::vector<BlockEntry> out;
  for (const auto& column : columns) {
    if (r < column.size()) out.push_back(column[r]);
  }
  return out;
}

u64 BlockingTable::maxBlockSize() const {
  u64 best = 0;
  for (u64 r = 0; r < rows; ++r) best = std::max<u64>(best, row(r).size());
  return best;
}

BlockingTable blockingTable(const SlotSchedule& s) {
  if (s.lanes != 1) {
    throw Error("blocking: the " + s.algo + " schedule has " + std::to_string(s.lanes) +
                " lanes; the blocking procedure takes a one-lane schedule");
  }
  BlockingTable t;
  t.d = s.dims;
  std::vector<BlockSubset> classes = slotClasses(s);
  for (const BlockSubset& c : classes) t.rows = std::max(t.rows, c.time());
  t.subsets = placementOrder(std::move(classes), s.dims, s.slots, t.rows);
  // Fill column by column, top to bottom, wrapping into the next column (§5).
  for (size_t i = 0; i < t.subsets.size(); ++i) {
    for (const u64 step : t.subsets[i].steps) {
      if (t.columns.empty() || t.columns.back().size() == t.rows) t.columns.emplace_back();
      t.columns.back().push_back({i, step});
    }
  }
  return t;
}

std::string formatBlockSubset(const BlockSubset& subset, int d) {
  const u32 mask = static_cast<u32>((u64{1} << d) - 1);
  const std::set<u32> in(subset.slots.begin(), subset.slots.end());
  std::set<u32> covered;
  auto name = [d](u32 w) {
    std::string b = (w >> d) ? std::to_string(w >> d) + ":" : "";
    for (int i = d - 1; i >= 0; --i) b += bitOf(w, i) ? '1' : '0';
    return b;
  };
  std::string out;
  for (const u32 w : subset.slots) {
    if (covered.count(w)) continue;
    const u32 high = w & ~mask;
    const u32 a = w & mask;
    std::string item;
    std::vector<u32> necklace = necklaceMembers(a, d);
    for (u32& x : necklace) x |= high;
    const bool full =
        !isCyclicAddress(a, d) &&
        std::all_of(necklace.begin(), necklace.end(), [&](u32 x) { return in.count(x) != 0; });
    const u32 complement = w ^ mask;
    if (full) {
      covered.insert(necklace.begin(), necklace.end());
      item = "R(" + name(high | distinguishedAddress(a, d)) + ")";
    } else if (in.count(complement) != 0 && !covered.count(complement)) {
      covered.insert(w);
      covered.insert(complement);
      item = "C(" + name(std::max(w, complement)) + ")";
    } else {
      covered.insert(w);
      item = name(w);
    }
    out += (out.empty() ? "" : ", ") + item;
  }
  return "{" + out + "}";
}

namespace {

/// The relative slots an entry moves.
std::vector<u32> entrySlots(const SlotSchedule& s, BlockEntry e) {
  std::vector<u32> out;
  for (const u32 w : s.steps[e.step]) {
    if (w != SlotSchedule::kIdle) out.push_back(w);
  }
  return out;
}

}  // namespace

std::vector<std::vector<u64>> wideTimeSteps(const BlockingTable& t, const SlotSchedule& s,
                                            int lanes) {
  if (lanes < 1) throw Error("wide channels: b = " + std::to_string(lanes) + " must be >= 1");
  std::vector<std::vector<u64>> times(t.columns.size());
  for (size_t c = 0; c < t.columns.size(); ++c) times[c].assign(t.columns[c].size(), 0);
  u64 time = 0;
  int used = 0;
  std::set<u32> moving;  // slots moving in the current time step
  for (u64 r = 0; r < t.rows; ++r) {
    for (size_t c = t.columns.size(); c-- > 0;) {
      if (r >= t.columns[c].size()) continue;
      const std::vector<u32> slots = entrySlots(s, t.columns[c][r]);
      const bool clash =
          std::any_of(slots.begin(), slots.end(), [&](u32 w) { return moving.count(w) != 0; });
      if (used == lanes || clash) {
        ++time;
        used = 0;
        moving.clear();
      }
      times[c][r] = time;
      ++used;
      moving.insert(slots.begin(), slots.end());
    }
  }
  return times;
}

SlotSchedule blockedSchedule(const SlotSchedule& s, const BlockingTable& t, int lanes,
                             bool blocked) {
  const std::vector<std::vector<u64>> times = wideTimeSteps(t, s, lanes);
  SlotSchedule out(s.algo, s.dims, lanes, s.slots);
  u64 last = ~u64{0};
  int lane = 0;
  for (u64 r = 0; r < t.rows; ++r) {
    bool first_of_row = true;
    for (size_t c = t.columns.size(); c-- > 0;) {
      if (r >= t.columns[c].size()) continue;
      const u64 time = times[c][r];
      if (time != last) {
        out.addStep(!blocked || first_of_row);
        last = time;
        lane = 0;
      } else if (blocked && first_of_row) {
        out.block_starts.back() = true;  // the row's block starts within this time step
      }
      first_of_row = false;
      const std::vector<u32>& step = s.steps[t.columns[c][r].step];
      for (int j = 0; j < s.dims; ++j) {
        const u32 w = step[static_cast<size_t>(j)];
        if (w != SlotSchedule::kIdle) out.steps.back()[static_cast<size_t>(j * lanes + lane)] = w;
      }
      ++lane;
    }
  }
  return out;
}

}  // namespace hcube

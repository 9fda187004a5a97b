#include "algorithms/aapc/sbnt.h"

#include <algorithm>
#include <queue>
#include <string>
#include <tuple>

#include "base/error.h"

namespace hcube {

namespace {

u32 rotateRight(u32 r, int b, int d) {
  const u32 mask = static_cast<u32>((u64{1} << d) - 1);
  if (b == 0) return r;
  return ((r >> b) | (r << (d - b))) & mask;
}

void checkCase(int d, u64 slots) {
  if (d < 1 || d > 20) {
    throw Error("sbnt: dimension d = " + std::to_string(d) + " is out of range (1..20)");
  }
  if (slots == 0 || slots % (u64{1} << d) != 0 || slots > (u64{1} << 24)) {
    throw Error("sbnt: K = " + std::to_string(slots) + " is not m * 2^" + std::to_string(d) +
                " (at most 2^24)");
  }
}

}  // namespace

int sbntBase(u32 r, int d) {
  int best = 0;
  for (int b = 1; b < d; ++b) {
    if (rotateRight(r, b, d) < rotateRight(r, best, d)) best = b;
  }
  return best;
}

std::vector<int> sbntPath(u32 r, int d) {
  std::vector<int> path;
  if (r == 0) return path;
  const int base = sbntBase(r, d);
  for (int k = 0; k < d; ++k) {
    const int j = (base + k) % d;
    if (bitOf(r, j)) path.push_back(j);
  }
  return path;
}

std::vector<int> rotatedBinomialPath(u32 r, int rotation, int d) {
  std::vector<int> path;
  for (int k = 0; k < d; ++k) {
    const int j = (rotation + k) % d;
    if (bitOf(r, j)) path.push_back(j);
  }
  return path;
}

namespace {

/// Routes of every slot: paths[rotation][aligned address]; slot (h << d) | a uses rotation
/// h mod d on rotated binomial trees, rotation 0 (the balanced tree) otherwise.
struct Routes {
  int d = 1;
  SbntTree tree = SbntTree::kBalanced;
  std::vector<std::vector<std::vector<int>>> paths;

  Routes(int dims, SbntTree t) : d(dims), tree(t) {
    const size_t rotations = tree == SbntTree::kBalanced ? 1 : static_cast<size_t>(d);
    paths.assign(rotations, std::vector<std::vector<int>>(size_t{1} << d));
    for (size_t rot = 0; rot < rotations; ++rot) {
      for (u32 r = 1; r < (u32{1} << d); ++r) {
        paths[rot][r] = tree == SbntTree::kBalanced
                            ? sbntPath(r, d)
                            : rotatedBinomialPath(r, static_cast<int>(rot), d);
      }
    }
  }
  const std::vector<int>& of(u64 w) const {
    const u64 rot = tree == SbntTree::kBalanced ? 0 : (w >> d) % static_cast<u64>(d);
    return paths[rot][w & ((u64{1} << d) - 1)];
  }
};

}  // namespace

std::vector<u64> sbntRoundLengths(int d, u64 slots, SbntTree tree) {
  checkCase(d, slots);
  const Routes routes(d, tree);
  std::vector<std::vector<u64>> load(static_cast<size_t>(d), std::vector<u64>(d, 0));
  for (u64 w = 0; w < slots; ++w) {
    const std::vector<int>& path = routes.of(w);
    for (size_t k = 0; k < path.size(); ++k) ++load[k][static_cast<size_t>(path[k])];
  }
  std::vector<u64> lengths;
  for (const auto& ports : load) lengths.push_back(*std::max_element(ports.begin(), ports.end()));
  return lengths;
}

SlotSchedule sbntSchedule(int d, u64 slots, SbntScheduling scheduling, SbntTree tree) {
  checkCase(d, slots);
  const Routes routes(d, tree);
  auto pathOf = [&](u64 w) -> const std::vector<int>& { return routes.of(w); };
  SlotSchedule s(std::string(tree == SbntTree::kBalanced ? "sbnt" : "rsbt") +
                     (scheduling == SbntScheduling::kRounds ? "" : "-greedy"),
                 d, 1, slots);
  if (scheduling == SbntScheduling::kRounds) {
    for (size_t k = 0; k < static_cast<size_t>(d); ++k) {
      // Output buffers of round k: per port, the slots whose k-th hop crosses it.
      std::vector<std::vector<u32>> buf(static_cast<size_t>(d));
      for (u64 w = 0; w < slots; ++w) {
        const std::vector<int>& p = pathOf(w);
        if (k < p.size()) buf[static_cast<size_t>(p[k])].push_back(static_cast<u32>(w));
      }
      size_t length = 0;
      for (const auto& b : buf) length = std::max(length, b.size());
      for (size_t i = 0; i < length; ++i) {
        std::vector<u32>& step = s.addStep(i == 0);
        for (size_t j = 0; j < buf.size(); ++j) {
          if (i < buf[j].size()) step[j] = buf[j][i];
        }
      }
    }
    return s;
  }
  // Greedy: per port a queue of ready slots, most hops left first, then lowest slot.
  using Key = std::tuple<size_t, u64>;  // (hops left, slot) -> max hops, min slot
  auto later = [](const Key& a, const Key& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b)
                                            : std::get<1>(a) > std::get<1>(b);
  };
  std::vector<std::priority_queue<Key, std::vector<Key>, decltype(later)>> ready(
      static_cast<size_t>(d), std::priority_queue<Key, std::vector<Key>, decltype(later)>(later));
  std::vector<size_t> hop(slots, 0);
  u64 left = 0;
  for (u64 w = 0; w < slots; ++w) {
    const std::vector<int>& p = pathOf(w);
    left += p.size();
    if (!p.empty()) ready[static_cast<size_t>(p[0])].push({p.size(), w});
  }
  std::vector<u64> sent;
  while (left > 0) {
    std::vector<u32>& step = s.addStep(s.steps.empty());
    sent.clear();
    for (size_t j = 0; j < ready.size(); ++j) {
      if (ready[j].empty()) continue;
      const u64 w = std::get<1>(ready[j].top());
      ready[j].pop();
      step[j] = static_cast<u32>(w);
      sent.push_back(w);
    }
    for (const u64 w : sent) {
      const std::vector<int>& p = pathOf(w);
      --left;
      if (++hop[w] < p.size()) ready[static_cast<size_t>(p[hop[w]])].push({p.size() - hop[w], w});
    }
  }
  return s;
}

}  // namespace hcube

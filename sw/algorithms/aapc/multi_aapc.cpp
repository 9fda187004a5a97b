// hcube: several AAPCs on successive axes (Johnsson & Ho 1992 §2.3, §4.1). See multi_aapc.h.
#include "algorithms/aapc/multi_aapc.h"

#include <algorithm>
#include <array>
#include <functional>

#include "algorithms/aapc/alignment.h"
#include "algorithms/aapc/johnsson_ho.h"
#include "base/error.h"
#include "spec/reference.h"

namespace hcube {

namespace {

constexpr int kMaxDims = 20;
constexpr int kMaxLocalBits = 24;
constexpr u32 kEmpty = 0xFFFFFFFFU;

u32 lowMask(int d) { return (u32{1} << d) - 1U; }

u32 axisOf(const MultiAapcShape& sh, u64 node, int t) {
  return static_cast<u32>(node >> ((t - 1) * sh.d)) & lowMask(sh.d);
}

/// Physical slot of aligned slot m at node x (see MultiAapcAlignment).
u32 physicalSlot(const MultiAapcShape& sh, MultiAapcAlignment a, u64 node, u32 m) {
  return a == MultiAapcAlignment::kExplicit ? m : m ^ axesXor(sh, node);
}

/// Phase 1 (= phase 3) of §2.3 as a slot permutation of every node: (x | h, i) -> (x | h, i^X(x)).
std::vector<std::vector<u32>> alignmentPermutation(const MultiAapcShape& sh) {
  std::vector<std::vector<u32>> to(sh.nodes());
  for (u64 x = 0; x < sh.nodes(); ++x) {
    const u32 xr = axesXor(sh, x);
    if (xr == 0) continue;
    to[x].resize(sh.slots());
    for (u32 l = 0; l < sh.slots(); ++l) to[x][l] = l ^ xr;
  }
  return to;
}

/// One exchange of aligned slot pair (m, ~m) across axis-local dimension `dim` of axis t at
/// every node: the member whose relative address m ^ Y_t(x) has bit `dim` set moves.
void exchangePair(const MultiAapcShape& sh, MultiAapcAlignment a, int t, int dim, u32 m,
                  std::vector<Move>& step) {
  const u32 comp = m ^ lowMask(sh.d);
  const int global_dim = (t - 1) * sh.d + dim;
  for (u64 x = 0; x < sh.nodes(); ++x) {
    const u32 y = axesXor(sh, x) ^ axisOf(sh, x, t);
    const u32 sel = bitOf((m & lowMask(sh.d)) ^ y, dim) ? m : comp;
    const u64 to = neighbour(x, global_dim);
    step.push_back({x, physicalSlot(sh, a, x, sel), global_dim, physicalSlot(sh, a, to, sel)});
  }
}

/// Largest d for which the leading group is searched (2^(d-1) subcube offsets up to
/// complement); 9 is the largest d the cube allows with s >= 2 (s * d <= n <= 20, k >= d,
/// n + k <= 28).
constexpr int kSlidingGroupMaxDims = 9;
/// Largest d for which the group's pairs are the first pairs or the light ones (and copies of
/// a group of d + 1 pairs); above it they come from a code (see pairCodePick).
constexpr int kListPickMaxDims = 7;
/// Search nodes per subcube offset before the group search gives up: for the list picks, and
/// for the code pick (d = 9, K = 512 needs about 500000 for one offset and far fewer for the
/// others; all 256 offsets take about 0.3 s).
constexpr u64 kGroupSearchBudget = 200000;
constexpr u64 kCodeGroupSearchBudget = 4000000;

/// Depth-first search for one subcube offset Y: step by step, a slot for every dimension
/// (each dimension is used in every step, each slot at most once per step, only inside its
/// window and only for a bit of its relative address), most urgent slots first, with the
/// counting conditions below as pruning. Gives up after `budget` nodes.
class GroupSearch {
 public:
  GroupSearch(int d, const SlidingGroup& g, u32 y, u64 budget)
      : d_(d), g_(g), budget_(budget), rem_(g.slots.size()) {
    for (size_t i = 0; i < g.slots.size(); ++i) rem_[i] = (g.slots[i] & lowMask(d)) ^ y;
  }

  /// True if a schedule was found (in `out`, one list per step).
  bool run(std::vector<std::vector<std::pair<int, u32>>>& out) {
    plan_.assign(g_.steps, {});
    if (!step(0)) return false;
    out = plan_;
    return true;
  }

 private:
  int end(size_t i) const { return g_.starts[i] + d_ - 1; }

  /// Necessary conditions for finishing from step t: every slot fits its remaining bits into
  /// its remaining window; for every b, the work of slots whose windows end by b fits steps
  /// t..b (in total and per dimension); for every a, the work of slots whose windows start at
  /// or after a fits steps a..M-1.
  bool feasible(int t) const {
    const int last = static_cast<int>(g_.steps) - 1;
    for (size_t i = 0; i < rem_.size(); ++i) {
      if (rem_[i] != 0 && end(i) - std::max(t, g_.starts[i]) + 1 < popcount(rem_[i])) return false;
    }
    std::vector<int> per_dim(static_cast<size_t>(d_));
    for (int pass = 0; pass < 2; ++pass) {
      for (int b = t; b <= last; ++b) {
        int need = 0;
        std::fill(per_dim.begin(), per_dim.end(), 0);
        for (size_t i = 0; i < rem_.size(); ++i) {
          const bool in = pass == 0 ? end(i) <= b : g_.starts[i] >= b;
          if (rem_[i] == 0 || !in) continue;
          need += popcount(rem_[i]);
          for (int j = 0; j < d_; ++j) per_dim[j] += bitOf(rem_[i], j) ? 1 : 0;
        }
        const int room = pass == 0 ? b - t + 1 : last - b + 1;
        if (need > d_ * room) return false;
        for (int j = 0; j < d_; ++j) {
          if (per_dim[j] > room) return false;
        }
      }
    }
    return true;
  }

  bool step(int t) {
    if (++nodes_ > budget_) return false;
    if (t == static_cast<int>(g_.steps)) {
      return std::all_of(rem_.begin(), rem_.end(), [](u32 r) { return r == 0; });
    }
    if (!feasible(t)) return false;
    std::vector<u32> active;
    for (size_t i = 0; i < rem_.size(); ++i) {
      if (rem_[i] != 0 && g_.starts[i] <= t && t <= end(i)) active.push_back(static_cast<u32>(i));
    }
    auto slack = [&](u32 i) { return end(i) - t + 1 - popcount(rem_[i]); };
    std::stable_sort(active.begin(), active.end(), [&](u32 a, u32 b) {
      if (slack(a) != slack(b)) return slack(a) < slack(b);
      return end(a) < end(b);
    });
    std::vector<int> dims(static_cast<size_t>(d_));
    for (int j = 0; j < d_; ++j) dims[j] = j;
    auto candidates = [&](int j) {
      return std::count_if(active.begin(), active.end(), [&](u32 i) { return bitOf(rem_[i], j); });
    };
    std::stable_sort(dims.begin(), dims.end(),
                     [&](int a, int b) { return candidates(a) < candidates(b); });
    std::vector<u32> tight;
    for (u32 i : active) {
      if (slack(i) == 0) tight.push_back(i);
    }
    std::vector<bool> used(rem_.size(), false);
    return assign(t, 0, dims, active, tight, used);
  }

  bool assign(int t, size_t k, const std::vector<int>& dims, const std::vector<u32>& active,
              const std::vector<u32>& tight, std::vector<bool>& used) {
    if (k == dims.size()) {
      for (u32 i : tight) {
        if (!used[i]) return false;
      }
      for (const auto& [j, i] : plan_[t]) rem_[i] &= ~(u32{1} << j);
      if (step(t + 1)) return true;
      for (const auto& [j, i] : plan_[t]) rem_[i] |= u32{1} << j;
      return false;
    }
    const int j = dims[k];
    for (u32 i : active) {
      if (used[i] || !bitOf(rem_[i], j)) continue;
      used[i] = true;
      plan_[t].push_back({j, i});
      if (assign(t, k + 1, dims, active, tight, used)) return true;
      plan_[t].pop_back();
      used[i] = false;
      if (nodes_ > budget_) return false;
    }
    return false;
  }

  int d_;
  const SlidingGroup& g_;
  u64 budget_;
  u64 nodes_ = 0;
  std::vector<u32> rem_;
  std::vector<std::vector<std::pair<int, u32>>> plan_;
};

/// How the leading group's windows start: the first ceil(M/2) pairs at 0 and the rest at r
/// (kHalves), or pair u at u * r / (M - 1) rounded down in the first half and up in the second
/// (kSpread, windows at every offset 0 .. r).
enum class WindowLayout { kHalves, kSpread };

/// Builds the leading group from the given complement pairs (their first members, M = d + r of
/// them) with the given window layout. Returns false if the search does not find a schedule
/// for some Y within its budget. Only Y < 2^(d-1) are searched: offset ~Y gives every slot the
/// relative address of its partner (m ^ ~Y = ~m ^ Y), so its schedule is Y's with the two
/// members of every pair swapped.
bool buildSlidingGroup(int d, u64 r, const std::vector<u32>& group_pairs, WindowLayout layout,
                       u64 budget, SlidingGroup& g) {
  const size_t m = group_pairs.size();
  g.steps = m;
  g.slots.clear();
  g.starts.clear();
  for (size_t u = 0; u < m; ++u) {
    int start = u < (m + 1) / 2 ? 0 : static_cast<int>(r);
    if (layout == WindowLayout::kSpread) {
      const size_t num = u * static_cast<size_t>(r);
      start = static_cast<int>(2 * u < m ? num / (m - 1) : (num + m - 2) / (m - 1));
    }
    g.slots.push_back(group_pairs[u]);
    g.slots.push_back(group_pairs[u] ^ lowMask(d));
    g.starts.push_back(start);
    g.starts.push_back(start);
  }
  g.moves.assign(size_t{1} << d, {});
  for (u32 y = 0; y < (u32{1} << (d - 1)); ++y) {
    GroupSearch search(d, g, y, budget);
    if (!search.run(g.moves[y])) return false;
    auto& mirror = g.moves[y ^ lowMask(d)];
    mirror = g.moves[y];
    for (auto& step : mirror) {
      for (auto& move : step) move.second ^= 1U;  // slots 2u and 2u + 1 are partners
    }
  }
  return true;
}

/// Pair weight of a d-bit address: its distance to the nearer of 0 and ~0.
int pairWeight(int d, u32 a) { return std::min(popcount(a), d - popcount(a)); }

/// A group pick for d > kListPickMaxDims: m complement pairs whose first members form (with 0)
/// a linear code in which any two pairs are at pair distance >= 3 (the pair weight of the XOR
/// of their members). Then no offset Y gives two pairs of the group relative addresses of pair
/// weight <= 1 — such a pair can move both members in one step at most once, and the 0 pair
/// never — which is what makes the list picks (0 and the unit vectors, or the first pairs, all
/// close to each other) hard for d = 9. The basis is the lexicographically first found by
/// backtracking over pair representatives (high bit clear); the pairs are the code words in
/// the order of their coordinates (word i = XOR of the basis vectors of the bits of i), the
/// first m of them. d = 9, m = 13: basis 7, 25, 98, 168; pairs 0, 7, 25, 30, 98, 101, 123, 124,
/// 168, 175, 177, 182, 202. Empty if there is no such code with m words.
std::vector<u32> pairCodePick(int d, size_t m) {
  const u32 reps = u32{1} << (d - 1);
  auto rep = [&](u32 a) { return bitOf(a, d - 1) ? a ^ lowMask(d) : a; };
  std::vector<u32> span{0};
  std::vector<bool> in_span(reps, false);
  in_span[0] = true;
  // Backtracking: extend(v0) tries basis vectors v >= v0 not yet in the span.
  auto extend = [&](auto&& self, u32 v0) -> bool {
    if (span.size() >= m) return true;
    for (u32 v = v0; v < reps; ++v) {
      if (in_span[v]) continue;
      bool ok = true;
      for (u32 w : span) {
        if (pairWeight(d, w ^ v) < 3) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      const size_t old = span.size();
      for (size_t i = 0; i < old; ++i) {
        span.push_back(rep(span[i] ^ v));
        in_span[span.back()] = true;
      }
      if (self(self, v + 1)) return true;
      for (size_t i = old; i < span.size(); ++i) in_span[span[i]] = false;
      span.resize(old);
    }
    return false;
  };
  if (!extend(extend, 1)) return {};
  span.resize(m);
  return span;
}

/// The K/2 complement pairs (h, i) / (h, ~i), i < 2^(d-1), repetition by repetition.
std::vector<u32> complementPairList(const MultiAapcShape& sh) {
  std::vector<u32> pairs;
  const u64 reps = u64{1} << (sh.k - sh.d);
  const u32 half = u32{1} << (sh.d - 1);
  for (u64 h = 0; h < reps; ++h) {
    for (u32 i = 0; i < half; ++i) pairs.push_back(static_cast<u32>(h << sh.d) | i);
  }
  return pairs;
}

/// The leading group of the pipelined schedule for s >= 2 when d does not divide K/2, and in
/// `rest` the other pairs (in complementPairList order) for the blocks; false when no group is
/// needed or none is found. With 2 <= r <= K/2^d (repetitions), first r copies of a group of
/// d + 1 pairs (r = 1 each), one per repetition, are tried. Then one group of d + r pairs: the
/// first d + r pairs, or the pairs of the addresses of weight <= 1 (0 and the unit vectors with
/// their complements, d + 1 pairs, then the next pairs in list order), each with the kHalves
/// and the kSpread windows. For the copies, the same two pair choices (of d + 1 pairs). Those
/// are for d <= kListPickMaxDims; above it, the code pick (pairCodePick) in c copies (see
/// below).
bool slidingGroupFor(const MultiAapcShape& sh, SlidingGroup& g, std::vector<u32>& rest) {
  const u64 r = (sh.slots() / 2) % static_cast<u64>(sh.d);
  if (sh.s < 2 || r == 0 || sh.d > kSlidingGroupMaxDims) return false;
  const std::vector<u32> all = complementPairList(sh);
  const u64 reps = u64{1} << (sh.k - sh.d);
  auto picksOf = [&](size_t m) {
    std::vector<u32> light{0};
    for (int j = 0; j < sh.d; ++j) {
      const u32 e = u32{1} << j;
      light.push_back(j == sh.d - 1 ? e ^ lowMask(sh.d) : e);
    }
    for (u32 p : all) {
      if (light.size() >= m) break;
      if (std::find(light.begin(), light.end(), p) == light.end()) light.push_back(p);
    }
    light.resize(std::min(light.size(), m));
    const std::vector<u32> first(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(m));
    return std::array<std::vector<u32>, 2>{first, light};
  };
  auto attempt = [&](u64 group_r, u64 copies) {
    const size_t m = static_cast<size_t>(sh.d) + static_cast<size_t>(group_r);
    if (all.size() < m * copies) return false;
    const bool code = sh.d > kListPickMaxDims;
    std::vector<std::vector<u32>> picks;
    if (code) {
      picks.push_back(pairCodePick(sh.d, m));
      if (picks.back().size() != m) return false;
    } else {
      const auto list = picksOf(m);
      picks.assign(list.begin(), list.end());
    }
    for (const std::vector<u32>& pick : picks) {
      for (WindowLayout layout : {WindowLayout::kHalves, WindowLayout::kSpread}) {
        const u64 budget = code ? kCodeGroupSearchBudget : kGroupSearchBudget;
        if (!buildSlidingGroup(sh.d, group_r, pick, layout, budget, g)) continue;
        g.copies = copies;
        std::vector<u32> used;
        for (u64 c = 0; c < copies; ++c) {
          for (u32 p : pick) used.push_back(p + static_cast<u32>(c << sh.d));
        }
        rest.clear();
        for (u32 p : all) {
          if (std::find(used.begin(), used.end(), p) == used.end()) rest.push_back(p);
        }
        return true;
      }
    }
    return false;
  };
  if (sh.d > kListPickMaxDims) {
    // One group of the code pick, or copies of it on the repetitions (one per repetition
    // index) when that makes it smaller: the most copies c <= K/2^d that divide r, each a
    // group of d + r/c pairs. d = 9: K = 512 (r = 4) one group of 13; K = 1024 (r = 8) two.
    u64 copies = std::min(r, reps);
    while (r % copies != 0) --copies;
    return attempt(r / copies, copies);
  }
  if (r >= 2 && r <= reps && attempt(1, r)) return true;
  return attempt(r, 1);
}

}  // namespace

void checkMultiAapcShape(const MultiAapcShape& sh) {
  if (sh.n < 1 || sh.n > kMaxDims) {
    throw Error("--n " + std::to_string(sh.n) + ": the cube dimension must be 1.." +
                std::to_string(kMaxDims));
  }
  if (sh.s < 1) throw Error("--axes " + std::to_string(sh.s) + ": at least one AAPC is needed");
  if (sh.d < 1) throw Error("--d " + std::to_string(sh.d) + ": an axis needs at least one bit");
  if (sh.s * sh.d > sh.n) {
    throw Error("--axes " + std::to_string(sh.s) + " with --d " + std::to_string(sh.d) + ": " +
                std::to_string(sh.s) + " axes of " + std::to_string(sh.d) + " bits need " +
                std::to_string(sh.s * sh.d) +
                " node bits, the cube has n = " + std::to_string(sh.n));
  }
  if (sh.k < sh.d || sh.k > kMaxLocalBits) {
    throw Error("--k " + std::to_string(sh.slots()) + ": the AAPCs need K = 2^k elements per " +
                "node with " + std::to_string(sh.d) + " <= k <= " + std::to_string(kMaxLocalBits));
  }
  if (sh.n + sh.k > 28) {
    throw Error("--k " + std::to_string(sh.slots()) + " on n = " + std::to_string(sh.n) +
                ": more than 2^28 elements in the cube");
  }
}

PermutationSpec successiveAapcPermutation(const MultiAapcShape& sh) {
  checkMultiAapcShape(sh);
  // Global bit positions: the local axis a_0 is bits 0..d-1; processor axis t is bits
  // k + (t-1)d .. k + td - 1; the repetition index h (local bits d..k-1) and the node bits
  // above sd stay.
  std::vector<int> delta(static_cast<size_t>(sh.n + sh.k));
  for (int b = 0; b < sh.n + sh.k; ++b) delta[b] = b;
  auto axisBit = [&](int axis, int j) { return axis == 0 ? j : sh.k + (axis - 1) * sh.d + j; };
  for (int u = 0; u <= sh.s; ++u) {
    const int to = u < sh.s ? u + 1 : 0;
    for (int j = 0; j < sh.d; ++j) delta[axisBit(u, j)] = axisBit(to, j);
  }
  return PermutationSpec::dimension(sh.n, sh.k, std::move(delta));
}

u32 axesXor(const MultiAapcShape& sh, u64 node) {
  u32 x = 0;
  for (int t = 1; t <= sh.s; ++t) x ^= axisOf(sh, node, t);
  return x;
}

u64 corollary2Steps(const MultiAapcShape& sh) {
  return sh.slots() / 2 + static_cast<u64>(sh.s - 1) * static_cast<u64>(sh.d);
}

u64 pipelinedAapcSteps(const MultiAapcShape& sh) {
  if (sh.s == 1) return sh.slots() / 2;
  const u64 d = static_cast<u64>(sh.d);
  SlidingGroup group;
  std::vector<u32> rest;
  if ((sh.slots() / 2) % d == 0 || slidingGroupFor(sh, group, rest)) return corollary2Steps(sh);
  const u64 blocks = (sh.slots() / 2 + d - 1) / d;
  return d * blocks + static_cast<u64>(sh.s - 1) * d;
}

bool pipelinedSlidingGroup(const MultiAapcShape& sh, SlidingGroup& group) {
  checkMultiAapcShape(sh);
  std::vector<u32> rest;
  return slidingGroupFor(sh, group, rest);
}

u64 theorem2Steps(const MultiAapcShape& sh) {
  const u64 K = sh.slots();
  const u64 d = static_cast<u64>(sh.d);
  const u64 s = static_cast<u64>(sh.s);
  if (s <= 3 || K <= 8 * d) return K / 2 + (s - 1) * d;
  if (K <= 2 * (s + 1) * d) return (s + 3) * d;
  return K / 2 + 2 * d;
}

void forEachPipelinedTransferStep(const MultiAapcShape& sh, MultiAapcAlignment alignment,
                                  const std::function<void(std::vector<Move>&)>& emit) {
  checkMultiAapcShape(sh);
  const u64 reps = u64{1} << (sh.k - sh.d);
  if (sh.s == 1) {
    // Nothing to pipeline: Algorithm 4 (§3.5, Theorem 1) once per repetition of the AAPC.
    const RelativeSchedule alg4 = jhAlgorithm4(sh.d);
    for (u64 h = 0; h < reps; ++h) {
      for (u64 t = 0; t < alg4.steps(); ++t) {
        std::vector<Move> step;
        for (int j = 0; j < sh.d; ++j) {
          const u32 a = alg4.at(t, j);
          if (a == RelativeSchedule::kIdle) continue;
          const u32 m = static_cast<u32>(h << sh.d) | a;
          for (u64 x = 0; x < sh.nodes(); ++x) {
            step.push_back({x, physicalSlot(sh, alignment, x, m), j,
                            physicalSlot(sh, alignment, neighbour(x, j), m)});
          }
        }
        emit(step);
      }
    }
    return;
  }
  // The K/2 complement pairs: when d does not divide K/2, first the sliding group (its first
  // d + r pairs, d + r steps), then the rest in blocks of d; all of it runs on axis t shifted
  // by (t - 1)d steps (§4.1). Every slot stays inside a window of d steps per axis, so axis
  // t + 1 never touches a slot before axis t is done with it in every subcube.
  SlidingGroup group;
  std::vector<u32> pairs;
  const bool sliding = slidingGroupFor(sh, group, pairs);
  if (!sliding) pairs = complementPairList(sh);
  const u64 lead = sliding ? group.steps * group.copies : 0;
  const u64 d = static_cast<u64>(sh.d);
  const u64 blocks = (pairs.size() + d - 1) / d;
  const u64 per_axis = lead + blocks * d;
  const u64 steps = per_axis + static_cast<u64>(sh.s - 1) * d;
  for (u64 step = 0; step < steps; ++step) {
    std::vector<Move> moves;
    for (int t = 1; t <= sh.s; ++t) {
      const u64 offset = static_cast<u64>(t - 1) * d;
      if (step < offset || step - offset >= per_axis) continue;
      const u64 local = step - offset;
      if (local < lead) {
        for (u64 x = 0; x < sh.nodes(); ++x) {
          const u32 y = axesXor(sh, x) ^ axisOf(sh, x, t);
          const u64 copy = local / group.steps;
          for (const auto& [j, idx] : group.moves[y][local % group.steps]) {
            const u32 m = group.slots[idx] + static_cast<u32>(copy << sh.d);
            const int gd = (t - 1) * sh.d + j;
            moves.push_back({x, physicalSlot(sh, alignment, x, m), gd,
                             physicalSlot(sh, alignment, neighbour(x, gd), m)});
          }
        }
        continue;
      }
      const u64 b = (local - lead) / d;
      const int r = static_cast<int>((local - lead) % d);
      for (u64 u = 0; u < d && b * d + u < pairs.size(); ++u) {
        const int dim = static_cast<int>((u + static_cast<u64>(r)) % d);
        exchangePair(sh, alignment, t, dim, pairs[b * d + u], moves);
      }
    }
    emit(moves);
  }
}

MoveSchedule jhPipelinedAapcs(const MultiAapcShape& sh, MultiAapcAlignment alignment, int lanes) {
  checkMultiAapcShape(sh);
  MoveSchedule out;
  out.algo = "jh4-pipelined";
  out.dims = sh.n;
  const size_t channels = static_cast<size_t>(sh.n) * static_cast<size_t>(std::max(lanes, 1));
  std::vector<std::vector<Move>> align;
  if (alignment == MultiAapcAlignment::kExplicit) {
    align = localPermutationSteps(alignmentPermutation(sh), channels);
    out.steps = align;  // phase 1
  }
  forEachPipelinedTransferStep(
      sh, alignment, [&](std::vector<Move>& step) { out.steps.push_back(std::move(step)); });
  if (alignment == MultiAapcAlignment::kExplicit) {
    out.steps.insert(out.steps.end(), align.begin(), align.end());  // phase 3 = phase 1
  }
  return out;
}

namespace {

// ---- Algorithm 5 (§4.2) ---------------------------------------------------------------------

/// A chain: the ops (processor axes, in order) a set of elements goes through together.
struct Chain {
  std::vector<int> axes;
  int dataset = -1;  ///< alternate data set index; -1 for a pipelined chain
  bool pre = false;  ///< alternate chain before the local exchange
};

/// The chains of a shape with the given alternates starting on the given axes.
/// With a second local axis (k >= 2d) the alternates are the last starts.size() data sets by
/// index: data set g * 2^d + L holds the elements with label L and local bits g above the two
/// local axes. Index layout: pipelined chains ds * 2^(d-1) + b for the pipelined data sets ds
/// (b < 2^(d-1): second-axis values b and ~b); then per alternate data set j its 2^(d-1)
/// chains before the exchange (first-axis values a and ~a), then its 2^(d-1) chains after it
/// (keyed alike by the first axis after the exchange).
/// Without one (k < 2d) the chains are the K/2 complement pairs of labels (index
/// g * 2^(d-1) + min(L, ~L), g the local bits above the axis), and the alternates are the last
/// starts.size() of them, each on the route q, .., s, 1, .., q, 1 (see multi_aapc.h).
struct ChainLayout {
  u64 datasets = 0;
  u64 first_alternate = 0;  ///< data sets with index >= this are alternate
  u64 per_set = 0;          ///< 2^(d-1)
  u64 pipelined = 0;        ///< pipelined chains
  std::vector<int> starts;
  std::vector<Chain> chains;
  u64 preChain(u64 j, u32 key) const { return pipelined + j * 2 * per_set + key; }
  u64 postChain(u64 j, u32 key) const { return pipelined + j * 2 * per_set + per_set + key; }
};

ChainLayout chainLayout(const MultiAapcShape& sh, const std::vector<int>& starts) {
  ChainLayout c;
  std::vector<int> all;
  for (int t = 1; t <= sh.s; ++t) all.push_back(t);
  if (sh.k < 2 * sh.d) {
    c.pipelined = sh.slots() / 2 - starts.size();
    c.starts = starts;
    c.chains.resize(sh.slots() / 2);
    for (u64 id = 0; id < c.chains.size(); ++id) {
      std::vector<int>& axes = c.chains[id].axes;
      if (id < c.pipelined) {
        axes = all;
        continue;
      }
      const int q = starts[id - c.pipelined];
      for (int t = q; t <= sh.s; ++t) axes.push_back(t);
      for (int t = 1; t <= q; ++t) axes.push_back(t);
      axes.push_back(1);
    }
    return c;
  }
  c.per_set = u64{1} << (sh.d - 1);
  c.datasets = u64{1} << (sh.k - sh.d);  // 2^(k-2d) values of g times 2^d labels
  c.first_alternate = c.datasets - starts.size();
  c.pipelined = c.first_alternate * c.per_set;
  c.starts = starts;
  c.chains.resize(c.pipelined + starts.size() * 2 * c.per_set);
  for (u64 id = 0; id < c.pipelined; ++id) c.chains[id].axes = all;
  for (u64 j = 0; j < starts.size(); ++j) {
    const int q = starts[j];
    for (u32 key = 0; key < c.per_set; ++key) {
      Chain& pre = c.chains[c.preChain(j, key)];
      Chain& post = c.chains[c.postChain(j, key)];
      for (int t = q; t <= sh.s; ++t) pre.axes.push_back(t);
      for (int t = 1; t <= q; ++t) post.axes.push_back(t);
      pre.dataset = post.dataset = static_cast<int>(j);
      pre.pre = true;
    }
  }
  return c;
}

/// One AAPC of one chain: on `axis` in steps start .. start + d - 1, in `lane` (dimension
/// (lane + step) mod d of the axis in each step).
struct ChainOp {
  u32 chain;
  int axis;
  int lane;
  u64 start;
};

struct ChainSchedule {
  u64 steps = 0;
  std::vector<ChainOp> ops;  ///< in order of their start steps
};

/// List scheduling step by step: every axis has d lanes; a free lane takes, in any step, the
/// waiting chain with the longest remaining path (ties: lowest index) whose next AAPC is on that
/// axis, and keeps it for d steps; a chain's next AAPC starts after its previous one ends; an
/// alternate data set's chains after the local exchange wait until all its chains before it are
/// done. Returns steps = 0 if the schedule would take `give_up` steps or more.
ChainSchedule scheduleChains(const MultiAapcShape& sh, const ChainLayout& layout, u64 give_up) {
  const u64 d = static_cast<u64>(sh.d);
  const u64 count = layout.chains.size();
  const u64 never = ~u64{0};
  std::vector<u64> ready(count, 0);
  std::vector<size_t> next(count, 0);
  std::vector<u64> pre_started(layout.starts.size(), 0);
  // Chains not yet started are taken from `fresh` (pipelined, in index order); the others wait
  // in `waiting` between their AAPCs.
  u64 fresh = 0;
  std::vector<u32> waiting;
  for (u64 c = layout.pipelined; c < count; ++c) {
    const Chain& ch = layout.chains[c];
    if (ch.dataset >= 0 && !ch.pre) {
      ready[c] = never;  // after the local exchange
    } else {
      waiting.push_back(static_cast<u32>(c));
    }
  }
  auto remaining = [&](u64 c) {
    const Chain& ch = layout.chains[c];
    u64 r = (ch.axes.size() - next[c]) * d;
    if (ch.pre) r += static_cast<u64>(layout.starts[static_cast<size_t>(ch.dataset)]) * d;
    return r;
  };
  std::vector<std::vector<u64>> lane_free(static_cast<size_t>(sh.s) + 1, std::vector<u64>(d, 0));
  ChainSchedule out;
  std::vector<u32> cand;
  u64 finished = 0;
  u64 end = 0;
  for (u64 t = 0; finished < count; ++t) {
    if (t + d > give_up) return {};
    for (int p = 1; p <= sh.s; ++p) {
      std::vector<u64>& lanes = lane_free[static_cast<size_t>(p)];
      const auto free_lanes = static_cast<size_t>(
          std::count_if(lanes.begin(), lanes.end(), [&](u64 f) { return f <= t; }));
      if (free_lanes == 0) continue;
      cand.clear();
      for (u32 c : waiting) {
        if (ready[c] <= t && layout.chains[c].axes[next[c]] == p) cand.push_back(c);
      }
      if (p == 1) {
        for (u64 c = fresh; c < layout.pipelined && c < fresh + free_lanes; ++c) {
          cand.push_back(static_cast<u32>(c));
        }
      }
      std::stable_sort(cand.begin(), cand.end(), [&](u32 a, u32 b) {
        const u64 ra = remaining(a);
        const u64 rb = remaining(b);
        return ra != rb ? ra > rb : a < b;
      });
      if (cand.size() > free_lanes) cand.resize(free_lanes);
      for (u32 c : cand) {
        int lane = 0;
        while (lanes[static_cast<size_t>(lane)] > t) ++lane;
        lanes[static_cast<size_t>(lane)] = t + d;
        out.ops.push_back({c, p, lane, t});
        end = std::max(end, t + d);
        const Chain& ch = layout.chains[c];
        if (c < layout.pipelined && c >= fresh) {
          fresh = c + 1;  // candidates from `fresh` are taken in index order
          waiting.push_back(c);
        }
        ready[c] = t + d;
        if (++next[c] < ch.axes.size()) continue;
        ++finished;
        waiting.erase(std::find(waiting.begin(), waiting.end(), c));
        if (!ch.pre) continue;
        const u64 j = static_cast<u64>(ch.dataset);
        if (++pre_started[j] < layout.per_set) continue;
        // The last chain of the data set before the exchange has started its last AAPC: the
        // ones after the exchange may start when every one of them has ended.
        u64 done = 0;
        for (u32 key = 0; key < layout.per_set; ++key)
          done = std::max(done, ready[layout.preChain(j, key)]);
        for (u32 key = 0; key < layout.per_set; ++key) {
          ready[layout.postChain(j, key)] = done;
          waiting.push_back(static_cast<u32>(layout.postChain(j, key)));
        }
      }
    }
  }
  out.steps = end;
  return out;
}

/// Choices of the alternate data sets' starting axes tried by jhConcurrentAapcs.
constexpr double kMaxStartMultisets = 1000;
constexpr u64 kMaxRunRepeats = 4;

/// Every multiset of at most max_sets starting axes 2..s (as non-decreasing lists).
void startChoices(int s, size_t max_sets, std::vector<int>& cur,
                  std::vector<std::vector<int>>& out) {
  out.push_back(cur);
  if (cur.size() == max_sets) return;
  for (int q = cur.empty() ? 2 : cur.back(); q <= s; ++q) {
    cur.push_back(q);
    startChoices(s, max_sets, cur, out);
    cur.pop_back();
  }
}

}  // namespace

MoveSchedule jhConcurrentAapcs(const MultiAapcShape& sh, int lanes, ConcurrentAapcPlan* plan) {
  checkMultiAapcShape(sh);
  if (sh.nodes() * sh.slots() > (u64{1} << 24)) {
    throw Error("--k " + std::to_string(sh.slots()) + " on n = " + std::to_string(sh.n) +
                ": Algorithm 5's schedule is built element by element, at most 2^24 elements");
  }
  // Choose the alternate data sets: every multiset of at most min(s, data sets) starting axes
  // (fewer when that would be more than kMaxStartMultisets choices), and every run of axes
  // a, a + 1, .., b each taken by m = 1 .. kMaxRunRepeats data sets; the fewest steps, then the
  // fewest alternate data sets, win.
  std::vector<std::vector<int>> choices;
  const u64 datasets = sh.k >= 2 * sh.d ? u64{1} << (sh.k - sh.d) : sh.slots() / 2;
  size_t max_sets =
      sh.s >= 2 ? static_cast<size_t>(std::min<u64>(static_cast<u64>(sh.s), datasets)) : 0;
  auto multisets = [&](size_t m) {  // sum over j <= m of C(s - 2 + j, j)
    double total = 0;
    double term = 1;
    for (size_t j = 0; j <= m; ++j) {
      if (j > 0)
        term = term * static_cast<double>(sh.s - 2 + static_cast<int>(j)) / static_cast<double>(j);
      total += term;
    }
    return total;
  };
  while (max_sets > 0 && multisets(max_sets) > kMaxStartMultisets) --max_sets;
  std::vector<int> cur;
  if (max_sets > 0) startChoices(sh.s, max_sets, cur, choices);
  for (u64 m = 1; m <= kMaxRunRepeats; ++m) {
    for (int a = 2; a <= sh.s; ++a) {
      for (int b = a; b <= sh.s && m * static_cast<u64>(b - a + 1) <= datasets; ++b) {
        std::vector<int> run;
        for (int q = a; q <= b; ++q) run.insert(run.end(), m, q);
        if (run.size() > max_sets) choices.push_back(run);
      }
    }
  }
  std::stable_sort(choices.begin(), choices.end(),
                   [](const auto& x, const auto& y) { return x.size() < y.size(); });
  ChainLayout layout;
  ChainSchedule best;
  for (const std::vector<int>& starts : choices) {
    if (starts.empty()) continue;
    ChainLayout l = chainLayout(sh, starts);
    ChainSchedule c = scheduleChains(sh, l, best.steps == 0 ? ~u64{0} : best.steps);
    if (c.steps == 0) continue;
    if (best.steps == 0 || c.steps < best.steps) {
      best = std::move(c);
      layout = std::move(l);
    }
  }

  if (best.steps == 0 || best.steps >= pipelinedAapcSteps(sh)) {
    // No alternate data set helps: Algorithm 5 is the pipeline (Algorithm 4 itself for s = 1).
    MoveSchedule out = jhPipelinedAapcs(sh, MultiAapcAlignment::kSlots, lanes);
    out.algo = "jh5";
    if (plan != nullptr) {
      *plan = {};
      plan->transfer_steps = pipelinedAapcSteps(sh);
      plan->periods = (plan->transfer_steps + static_cast<u64>(sh.d) - 1) / static_cast<u64>(sh.d);
    }
    return out;
  }

  // Run the elements through the chain schedule.
  const u32 mask = lowMask(sh.d);
  const u64 nodes = sh.nodes();
  const u64 K = sh.slots();
  const u64 elements = nodes * K;
  const u64 d = static_cast<u64>(sh.d);
  auto pairKey = [&](u32 v) { return std::min(v, v ^ mask); };
  std::vector<u64> node(elements);
  std::vector<u32> slot(elements);
  std::vector<u32> field0(elements);
  std::vector<u32> field1(elements);  // the second local axis (bits d..2d-1)
  std::vector<u32> start_axis(elements);
  std::vector<std::vector<u32>> members(layout.chains.size());
  for (u64 e = 0; e < elements; ++e) {
    const u64 x = e / K;
    const u32 l = static_cast<u32>(e % K);
    node[e] = x;
    slot[e] = l;
    field0[e] = l & mask;
    field1[e] = (l >> sh.d) & mask;
    if (sh.k < 2 * sh.d) {
      const u32 label = axesXor(sh, x) ^ field0[e];
      members[(static_cast<u64>(l >> sh.d) << (sh.d - 1)) + pairKey(label)].push_back(
          static_cast<u32>(e));
      continue;
    }
    const u32 label = axesXor(sh, x) ^ field0[e] ^ field1[e];
    const u64 dataset = (static_cast<u64>(l >> (2 * sh.d)) << sh.d) | label;
    if (dataset >= layout.first_alternate) {
      members[layout.preChain(dataset - layout.first_alternate, pairKey(field0[e]))].push_back(
          static_cast<u32>(e));
    } else {
      members[dataset * layout.per_set + pairKey(field1[e])].push_back(static_cast<u32>(e));
    }
  }
  std::vector<u64> pre_done(layout.starts.size(), 0);
  // The AAPCs under way: index into best.ops, and the chain's two elements in every node.
  struct Running {
    size_t op;
    std::vector<std::array<u32, 2>> pairs;
  };
  std::vector<Running> running;
  size_t next_op = 0;
  MoveSchedule out;
  out.algo = "jh5";
  out.dims = sh.n;
  std::vector<u32> sent(nodes);
  for (u64 t = 0; t < best.steps; ++t) {
    for (; next_op < best.ops.size() && best.ops[next_op].start == t; ++next_op) {
      const ChainOp& op = best.ops[next_op];
      Running r{next_op, std::vector<std::array<u32, 2>>(nodes, {~u32{0}, ~u32{0}})};
      for (u32 e : members[op.chain]) {
        start_axis[e] = axisOf(sh, node[e], op.axis);
        auto& pr = r.pairs[node[e]];
        if (pr[1] != ~u32{0}) {
          throw InternalError("jh5: internal error, chain " + std::to_string(op.chain) +
                              " has more than two elements in node " + std::to_string(node[e]));
        }
        pr[pr[0] == ~u32{0} ? 0 : 1] = e;
      }
      if (members[op.chain].size() != 2 * nodes) {
        throw InternalError("jh5: internal error, chain " + std::to_string(op.chain) + " has " +
                            std::to_string(members[op.chain].size()) +
                            " elements, not two per node");
      }
      running.push_back(std::move(r));
    }
    std::vector<Move> step;
    std::vector<std::pair<u32, std::pair<u64, u32>>> updates;
    for (Running& r : running) {
      const ChainOp& op = best.ops[r.op];
      const bool alternate = layout.chains[op.chain].dataset >= 0;
      const int dim = static_cast<int>((static_cast<u64>(op.lane) + t) % d);
      const int gd = (op.axis - 1) * sh.d + dim;
      for (u64 x = 0; x < nodes; ++x) {
        const auto& pr = r.pairs[x];
        const u32 a = axisOf(sh, x, op.axis);
        const bool first = bitOf(a ^ (alternate ? field1[pr[0]] : field0[pr[0]]), dim);
        const bool second = bitOf(a ^ (alternate ? field1[pr[1]] : field0[pr[1]]), dim);
        if (first == second) {
          throw InternalError("jh5: internal error, chain " + std::to_string(op.chain) +
                              " at node " + std::to_string(x) +
                              " has no single element for dimension " + std::to_string(gd));
        }
        sent[x] = first ? pr[0] : pr[1];
      }
      for (u64 x = 0; x < nodes; ++x) {
        const u64 to = neighbour(x, gd);
        step.push_back({x, slot[sent[x]], gd, slot[sent[to]]});
        updates.push_back({sent[x], {to, slot[sent[to]]}});
      }
      for (u64 x = 0; x < nodes; ++x) {
        auto& pr = r.pairs[x];
        pr[pr[0] == sent[x] ? 0 : 1] = sent[neighbour(x, gd)];
      }
    }
    for (const auto& [e, where] : updates) {
      node[e] = where.first;
      slot[e] = where.second;
    }
    out.steps.push_back(std::move(step));
    // AAPCs ending in this step: the local axis of each element takes its old processor axis
    // value. When the last chain of an alternate data set before the local exchange is done,
    // every element of the data set exchanges its two local axes (no data motion: the slots
    // stay, only the roles change) and joins its chain after the exchange.
    for (size_t i = 0; i < running.size();) {
      const ChainOp& op = best.ops[running[i].op];
      if (op.start + d - 1 != t) {
        ++i;
        continue;
      }
      const Chain& ch = layout.chains[op.chain];
      for (u32 e : members[op.chain]) (ch.dataset >= 0 ? field1[e] : field0[e]) = start_axis[e];
      const bool last = op.axis == ch.axes.back();
      if (ch.pre && last && ++pre_done[static_cast<size_t>(ch.dataset)] == layout.per_set) {
        const u64 j = static_cast<u64>(ch.dataset);
        for (u32 key = 0; key < layout.per_set; ++key) {
          for (u32 e : members[layout.preChain(j, key)]) {
            std::swap(field0[e], field1[e]);
            members[layout.postChain(j, pairKey(field0[e]))].push_back(e);
          }
        }
      }
      running[i] = std::move(running.back());
      running.pop_back();
    }
  }

  // Every element is in its destination node; the alternate data sets end with their two local
  // axes exchanged in memory, which one local permutation restores.
  const PermutationSpec perm = successiveAapcPermutation(sh);
  std::vector<std::vector<u32>> to(nodes);
  for (u64 e = 0; e < elements; ++e) {
    const GlobalAddress want = perm.dest(unpackAddress(e, K));
    if (want.node != node[e]) {
      throw InternalError("jh5: internal error, element " + std::to_string(e) + " ends in node " +
                          std::to_string(node[e]) + ", not " + std::to_string(want.node));
    }
    if (want.slot == slot[e]) continue;
    if (to[node[e]].empty()) {
      to[node[e]].resize(K);
      for (u32 l = 0; l < K; ++l) to[node[e]][l] = l;
    }
    to[node[e]][slot[e]] = static_cast<u32>(want.slot);
  }
  const size_t channels = static_cast<size_t>(sh.n) * static_cast<size_t>(std::max(lanes, 1));
  const std::vector<std::vector<Move>> local = localPermutationSteps(to, channels);
  out.steps.insert(out.steps.end(), local.begin(), local.end());
  if (plan != nullptr) {
    plan->alternate_starts = layout.starts;
    plan->transfer_steps = best.steps;
    plan->periods = (best.steps + d - 1) / d;
    plan->local_steps = local.size();
  }
  return out;
}

std::vector<std::vector<Move>> localPermutationSteps(const std::vector<std::vector<u32>>& to,
                                                     size_t channels) {
  // Per node, the project's local-permutation compiler (sw/algorithms/aapc/alignment.h) gives its
  // PERMUTE cycles; step i of the result holds every node's i-th cycle.
  std::vector<std::vector<Move>> steps;
  for (u64 x = 0; x < to.size(); ++x) {
    if (to[x].empty()) continue;
    std::vector<CopyCycle> cycles;
    try {
      cycles = compileLocalPermutation(to[x], channels, -1);
    } catch (const Error& e) {
      throw Error("local permutation at node " + std::to_string(x) + ": " + e.what());
    }
    if (cycles.size() > steps.size()) steps.resize(cycles.size());
    for (size_t i = 0; i < cycles.size(); ++i) {
      for (const LocalCopy& c : cycles[i]) steps[i].push_back({x, c.from, Move::kLocal, c.to});
    }
  }
  return steps;
}

u64 moveScheduleSpan(const MoveSchedule& schedule, u64 nodes, u64 words_per_node,
                     u64 tagged_slots) {
  requireSimulatable(nodes, words_per_node, "span of " + schedule.algo);
  std::vector<u32> mem(nodes * words_per_node, kEmpty);
  for (u64 x = 0; x < nodes; ++x) {
    for (u64 l = 0; l < tagged_slots; ++l) {
      mem[x * words_per_node + l] = static_cast<u32>(x * tagged_slots + l);
    }
  }
  const u64 elements = nodes * tagged_slots;
  std::vector<u64> first(elements, ~u64{0});
  std::vector<u64> last(elements, 0);
  std::vector<u32> words;
  std::vector<u64> written;  // step + 1 in which a word was written
  written.assign(mem.size(), 0);
  for (u64 t = 0; t < schedule.steps.size(); ++t) {
    const std::vector<Move>& moves = schedule.steps[t];
    words.clear();
    for (const Move& m : moves) {
      const u64 from = m.node * words_per_node + m.slot;
      if (mem[from] == kEmpty) {
        throw Error(schedule.algo + " step " + std::to_string(t) + ", node " +
                    std::to_string(m.node) + ": slot " + std::to_string(m.slot) +
                    " is empty when it is read");
      }
      words.push_back(mem[from]);
    }
    for (const Move& m : moves) mem[m.node * words_per_node + m.slot] = kEmpty;
    for (size_t i = 0; i < moves.size(); ++i) {
      const Move& m = moves[i];
      const u64 node = m.dim == Move::kLocal ? m.node : neighbour(m.node, m.dim);
      const u64 to = node * words_per_node + m.to_slot;
      if (written[to] == t + 1) {
        throw Error(schedule.algo + " step " + std::to_string(t) + ", node " +
                    std::to_string(node) + ": two moves write slot " + std::to_string(m.to_slot));
      }
      written[to] = t + 1;
      mem[to] = words[i];
      if (m.dim != Move::kLocal && words[i] < elements) {
        first[words[i]] = std::min(first[words[i]], t);
        last[words[i]] = std::max(last[words[i]], t);
      }
    }
  }
  u64 span = 0;
  for (u64 e = 0; e < elements; ++e) {
    if (first[e] != ~u64{0}) span = std::max(span, last[e] - first[e] + 1);
  }
  return span;
}

}  // namespace hcube

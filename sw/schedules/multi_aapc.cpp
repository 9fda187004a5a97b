// hcube: several AAPCs on successive axes (Johnsson & Ho 1992 §2.3, §4.1). See multi_aapc.h.
#include "multi_aapc.h"

#include <algorithm>

#include "error.h"
#include "reference.h"
#include "schedules/johnsson_ho.h"

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
  const u64 blocks = (sh.slots() / 2 + d - 1) / d;
  return d * blocks + static_cast<u64>(sh.s - 1) * d;
}

u64 theorem2Steps(const MultiAapcShape& sh) {
  const u64 K = sh.slots();
  const u64 d = static_cast<u64>(sh.d);
  const u64 s = static_cast<u64>(sh.s);
  if (s <= 3 || K <= 8 * d) return K / 2 + (s - 1) * d;
  if (K <= 2 * (s + 1) * d) return (s + 3) * d;
  return K / 2 + 2 * d;
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
  const u64 reps = u64{1} << (sh.k - sh.d);
  const u32 half = u32{1} << (sh.d - 1);
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
        out.steps.push_back(std::move(step));
      }
    }
  } else {
    // The K/2 complement pairs (h, i) / (h, ~i), i < 2^(d-1), repetition by repetition, in
    // blocks of d; block b runs on axis t during block period b + t - 1 (§4.1, Figure 4).
    std::vector<u32> pairs;
    for (u64 h = 0; h < reps; ++h) {
      for (u32 i = 0; i < half; ++i) pairs.push_back(static_cast<u32>(h << sh.d) | i);
    }
    const u64 d = static_cast<u64>(sh.d);
    const u64 blocks = (pairs.size() + d - 1) / d;
    const u64 steps = (blocks + static_cast<u64>(sh.s) - 1) * d;
    for (u64 step = 0; step < steps; ++step) {
      std::vector<Move> moves;
      const u64 period = step / d;
      const int r = static_cast<int>(step % d);
      for (int t = 1; t <= sh.s; ++t) {
        if (period < static_cast<u64>(t - 1) || period - (t - 1) >= blocks) continue;
        const u64 b = period - (t - 1);
        for (u64 u = 0; u < d && b * d + u < pairs.size(); ++u) {
          const int dim = static_cast<int>((u + static_cast<u64>(r)) % d);
          exchangePair(sh, alignment, t, dim, pairs[b * d + u], moves);
        }
      }
      out.steps.push_back(std::move(moves));
    }
  }
  if (alignment == MultiAapcAlignment::kExplicit) {
    out.steps.insert(out.steps.end(), align.begin(), align.end());  // phase 3 = phase 1
  }
  return out;
}

std::vector<std::vector<Move>> localPermutationSteps(const std::vector<std::vector<u32>>& to,
                                                     size_t channels) {
  // Per node: the steps (lists of copies) it needs, then merged step by step over all nodes.
  std::vector<std::vector<std::vector<Move>>> per_node(to.size());
  for (u64 x = 0; x < to.size(); ++x) {
    const std::vector<u32>& p = to[x];
    std::vector<bool> seen(p.size());
    std::vector<std::vector<Move>> rotations(1);  // whole short cycles, packed
    std::vector<std::vector<Move>> round1(1);
    std::vector<std::vector<Move>> round2(1);
    auto add = [&](std::vector<std::vector<Move>>& steps, std::vector<Move> copies) {
      if (steps.back().size() + copies.size() > channels) steps.emplace_back();
      steps.back().insert(steps.back().end(), copies.begin(), copies.end());
    };
    for (u32 l = 0; l < p.size(); ++l) {
      if (seen[l] || p[l] == l) continue;
      std::vector<u32> cycle;  // content of cycle[i] goes to cycle[i + 1]
      for (u32 c = l; !seen[c]; c = p[c]) {
        seen[c] = true;
        cycle.push_back(c);
      }
      const size_t len = cycle.size();
      if (len <= channels) {
        std::vector<Move> copies;
        for (size_t i = 0; i < len; ++i) {
          copies.push_back({x, cycle[i], Move::kLocal, cycle[(i + 1) % len]});
        }
        add(rotations, std::move(copies));
        continue;
      }
      if (channels < 2) {
        throw Error("local permutation at node " + std::to_string(x) +
                    ": a PERMUTE of one channel cannot exchange two slots");
      }
      // i -> i + 1 = (j -> 1 - j) after (i -> -i): two rounds of disjoint swaps.
      auto swap = [&](size_t i, size_t j) {
        return std::vector<Move>{{x, cycle[i], Move::kLocal, cycle[j]},
                                 {x, cycle[j], Move::kLocal, cycle[i]}};
      };
      for (size_t i = 1; i < len - i; ++i) add(round1, swap(i, len - i));
      for (size_t j = 2; j < len + 1 - j; ++j) add(round2, swap(j, len + 1 - j));
      add(round2, swap(0, 1));
    }
    for (auto* rounds : {&rotations, &round1, &round2}) {
      for (auto& s : *rounds) {
        if (!s.empty()) per_node[x].push_back(std::move(s));
      }
    }
  }
  std::vector<std::vector<Move>> steps;
  for (const auto& node_steps : per_node) {
    if (node_steps.size() > steps.size()) steps.resize(node_steps.size());
    for (size_t i = 0; i < node_steps.size(); ++i) {
      steps[i].insert(steps[i].end(), node_steps[i].begin(), node_steps[i].end());
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

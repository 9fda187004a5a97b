// hcube: one-to-all / all-to-one and some-to-all / all-to-some personalized communication
// (Johnsson & Ho 1987 §3.1, §3.3, §5); see one_to_all.h.
#include "algorithms/permutations/one_to_all.h"

#include <algorithm>
#include <queue>

#include "algorithms/aapc/edelman.h"
#include "base/error.h"

namespace hcube {
namespace {

u64 rotateRight(u64 r, int t, int d) {
  const u64 mask = (u64{1} << d) - 1;
  t %= d;
  return t == 0 ? r & mask : ((r >> t) | (r << (d - t))) & mask;
}

/// One element of the splitting phase walking its tree path.
struct Walker {
  u64 node = 0;
  u32 slot = 0;        ///< where it is now
  u32 transit = 0;     ///< slot at intermediate nodes
  u32 final_slot = 0;  ///< slot at the end of its path
  std::vector<int> dims;
  size_t next = 0;
};

/// Phase 1, all-port: every element along its path; per directed link and cycle one word, a word
/// received in cycle t leaves in t + 1 at the earliest; among the words waiting for a link the
/// one with the most hops still to go leaves first (ties: lower element number).
void greedySteps(std::vector<Walker>& walkers, int n, MoveSchedule& s) {
  using Entry = std::pair<size_t, size_t>;  // (hops left, element), best = most hops, lowest id
  auto worse = [](const Entry& a, const Entry& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  using Queue = std::priority_queue<Entry, std::vector<Entry>, decltype(worse)>;
  std::vector<std::vector<Queue>> waiting;  // [node][port]
  const u64 nodes = u64{1} << n;
  waiting.assign(nodes, std::vector<Queue>(static_cast<size_t>(n), Queue(worse)));
  size_t pending = 0;
  auto enqueue = [&](size_t e) {
    const Walker& w = walkers[e];
    if (w.next >= w.dims.size()) return;
    waiting[w.node][static_cast<size_t>(w.dims[w.next])].push({w.dims.size() - w.next, e});
    ++pending;
  };
  for (size_t e = 0; e < walkers.size(); ++e) enqueue(e);
  while (pending > 0) {
    std::vector<Move> step;
    std::vector<size_t> moved;
    for (u64 x = 0; x < nodes; ++x) {
      for (int j = 0; j < n; ++j) {
        Queue& q = waiting[x][static_cast<size_t>(j)];
        if (q.empty()) continue;
        const size_t e = q.top().second;
        q.pop();
        --pending;
        Walker& w = walkers[e];
        const bool last = w.next + 1 == w.dims.size();
        const u32 to = last ? w.final_slot : w.transit;
        step.push_back({w.node, w.slot, j, to});
        moved.push_back(e);
      }
    }
    for (size_t i = 0; i < moved.size(); ++i) {
      Walker& w = walkers[moved[i]];
      w.node = neighbour(w.node, step[i].dim);
      w.slot = step[i].to_slot;
      ++w.next;
      enqueue(moved[i]);
    }
    s.steps.push_back(std::move(step));
  }
}

/// Phase 1, one-port: the SBT dimension by dimension, highest first; in the step of dimension d
/// every node holding words for the other side sends them one per cycle.
void sbtOnePortSteps(std::vector<Walker>& walkers, int l, int k, MoveSchedule& s) {
  for (int d = k - 1; d >= 0; --d) {
    const int dim = l + d;
    std::vector<std::pair<u64, size_t>> sends;
    for (size_t e = 0; e < walkers.size(); ++e) {
      const Walker& w = walkers[e];
      if (w.next < w.dims.size() && w.dims[w.next] == dim) sends.push_back({w.node, e});
    }
    std::stable_sort(sends.begin(), sends.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    // Cycle c of the step carries the c-th word of every sending node.
    std::vector<std::vector<Move>> cycles;
    std::vector<std::vector<size_t>> cycle_elems;
    u64 prev = ~u64{0};
    size_t index = 0;
    for (const auto& [node, e] : sends) {
      index = node == prev ? index + 1 : 0;
      prev = node;
      if (cycles.size() <= index) {
        cycles.resize(index + 1);
        cycle_elems.resize(index + 1);
      }
      Walker& w = walkers[e];
      const bool last = w.next + 1 == w.dims.size();
      cycles[index].push_back({w.node, w.slot, dim, last ? w.final_slot : w.transit});
      cycle_elems[index].push_back(e);
    }
    for (size_t c = 0; c < cycles.size(); ++c) {
      for (size_t i = 0; i < cycles[c].size(); ++i) {
        Walker& w = walkers[cycle_elems[c][i]];
        w.node = neighbour(w.node, dim);
        w.slot = cycles[c][i].to_slot;
        ++w.next;
      }
      s.steps.push_back(std::move(cycles[c]));
    }
  }
}

/// The AAPC phase in the l-subcubes of dimensions 0..l-1: for every base slot b (the slot bits
/// above and beside the low l), the slots b | u of the nodes `active` exchange their low l bits
/// with the node's (relative addressing, Edelman's array all-port, the exchange algorithm
/// one-port): 2^(l-1) cycles per base all-port, l 2^(l-1) one-port.
void aapcSteps(const PersonalizedOptions& o, const std::vector<u64>& bases,
               const std::vector<u64>& active, MoveSchedule& s) {
  const int l = o.l;
  const u64 low = (u64{1} << l) - 1;
  auto slotOf = [&](u64 h, u64 u) { return static_cast<u32>(bases[h] | u); };
  if (o.one_port) {
    // The exchange algorithm: dimension after dimension, 2^(l-1) words per base each.
    for (int j = 0; j < l; ++j) {
      for (u64 h = 0; h < bases.size(); ++h) {
        for (u64 r = 0; r < (u64{1} << (l - 1)); ++r) {
          const u64 below = r & ((u64{1} << j) - 1);
          const u64 rest = ((r >> j) << (j + 1)) | below;  // u without bit j
          std::vector<Move> step;
          for (u64 x : active) {
            const u64 u = rest | (bitOf(x, j) ? 0 : u64{1} << j);
            step.push_back({x, slotOf(h, u), j, slotOf(h, u ^ (u64{1} << j))});
          }
          s.steps.push_back(std::move(step));
        }
      }
    }
    return;
  }
  const RelativeSchedule w = edelmanSchedule(l);
  for (u64 h = 0; h < bases.size(); ++h) {
    for (u64 t = 0; t < w.steps(); ++t) {
      std::vector<Move> step;
      for (u64 x : active) {
        for (int j = 0; j < l; ++j) {
          const u32 rel = w.at(t, j);
          if (rel == RelativeSchedule::kIdle) continue;
          const u64 u = (rel ^ x) & low;
          step.push_back({x, slotOf(h, u), j, slotOf(h, u ^ (u64{1} << j))});
        }
      }
      s.steps.push_back(std::move(step));
    }
  }
}

}  // namespace

SpanningTree parseSpanningTree(const std::string& text) {
  if (text == "sbt") return SpanningTree::kSbt;
  if (text == "sbnt") return SpanningTree::kSbnt;
  if (text == "rsbt") return SpanningTree::kRsbt;
  throw Error("--tree '" + text + "': must be sbt (spanning binomial tree), sbnt (spanning " +
              "balanced n-tree) or rsbt (rotated spanning binomial trees)");
}

std::string spanningTreeName(SpanningTree tree) {
  switch (tree) {
    case SpanningTree::kSbt:
      return "sbt";
    case SpanningTree::kSbnt:
      return "sbnt";
    case SpanningTree::kRsbt:
      return "rsbt";
  }
  return "?";
}

int sbntBase(u64 r, int d) {
  int best = 0;
  u64 best_value = rotateRight(r, 0, d);
  for (int t = 1; t < d; ++t) {
    const u64 v = rotateRight(r, t, d);
    if (v < best_value) {
      best_value = v;
      best = t;
    }
  }
  return best;
}

std::vector<int> treePath(SpanningTree tree, u64 r, int d, int rotation) {
  std::vector<int> dims;
  if (r == 0) return dims;
  if (tree == SpanningTree::kSbnt) {
    // §5: the first hop is dimension base(r) (always a 1-bit of r), then the 1-bits of r
    // cyclically to the left of the last one.
    const int b = sbntBase(r, d);
    for (int i = 0; i < d; ++i) {
      const int bit = (b + i) % d;
      if (bitOf(r, bit)) dims.push_back(bit);
    }
    return dims;
  }
  const int t = tree == SpanningTree::kRsbt ? rotation % d : 0;
  // The SBT of the rotated addresses (Definition 8): the 1-bits of r rotated right by t, from
  // the highest down, each mapped back by rotating left by t.
  const u64 rr = rotateRight(r, t, d);
  for (int bit = d - 1; bit >= 0; --bit) {
    if (bitOf(rr, bit)) dims.push_back((bit + t) % d);
  }
  return dims;
}

MoveSchedule personalizedSchedule(const PersonalizedOptions& o, const std::string& algo) {
  const int n = o.n;
  const int l = o.l;
  const int k = n - l;
  if (n < 1 || l < 0 || l > n || o.m < 1 || o.root >= (u64{1} << n)) {
    throw Error("personalized communication: n = " + std::to_string(n) +
                ", l = " + std::to_string(l) + ", m = " + std::to_string(o.m) +
                ", root = " + std::to_string(o.root) + " is out of range");
  }
  const u64 nodes = u64{1} << n;
  const u64 low = (u64{1} << l) - 1;
  const u64 root_high = o.root & ~low & (nodes - 1);
  MoveSchedule s;
  s.algo = algo;
  s.dims = n;
  const u64 kk = static_cast<u64>(k);
  const SpanningTree tree = o.one_port ? SpanningTree::kSbt : o.tree;
  // One element of the splitting phase, from node `from` in slot `slot` along the tree of part h
  // to the node `to` of its k-subcube, ending in slot `final_slot`.
  std::vector<Walker> walkers;
  auto walk = [&](u64 from, u64 to, u64 h, u64 slot, u64 final_slot) {
    const u64 r = (from ^ to) >> l;
    if (r == 0) return;
    Walker w;
    w.node = from;
    w.slot = static_cast<u32>(slot);
    w.transit = w.slot;
    w.final_slot = static_cast<u32>(final_slot);
    // Rotated SBTs: part h on the tree rotated by h mod k; with fewer parts than trees (m < k)
    // the rotations are spread out, h * k / m (§3.1: by n/k steps for k < n).
    const int rotation = static_cast<int>(o.m >= kk ? h % kk : h * kk / o.m);
    for (int d : treePath(tree, r, k, rotation)) w.dims.push_back(l + d);
    walkers.push_back(std::move(w));
  };
  auto split = [&] {
    if (walkers.empty()) return;
    if (o.one_port) {
      sbtOnePortSteps(walkers, l, k, s);
    } else {
      greedySteps(walkers, n, s);
    }
  };
  std::vector<u64> all(nodes);
  for (u64 x = 0; x < nodes; ++x) all[x] = x;
  if (o.theorem1_order) {
    // Splitting first: element (y | h, i) of source y goes to z = (i's high bits, y's low bits),
    // into slot (h, root's high bits, i's low bits); then the AAPC on those slots.
    for (u64 ylow = 0; ylow <= low; ++ylow) {
      const u64 y = root_high | ylow;
      for (u64 h = 0; h < o.m; ++h) {
        for (u64 i = 0; i < nodes; ++i) {
          walk(y, (i & ~low) | ylow, h, (h << n) | i, (h << n) | root_high | (i & low));
        }
      }
    }
    split();
    std::vector<u64> bases;
    for (u64 h = 0; h < o.m; ++h) bases.push_back((h << n) | root_high);
    if (l > 0) aapcSteps(o, bases, all, s);
  } else {
    // The order Theorem 1 advises against: the AAPC among the 2^l sources on all their K
    // elements first (element (y | h, i) to node (root's high bits, i's low bits), slot (h, i's
    // high bits, y's low bits)), then splitting from there.
    std::vector<u64> sources;
    for (u64 ylow = 0; ylow <= low; ++ylow) sources.push_back(root_high | ylow);
    std::vector<u64> bases;
    for (u64 h = 0; h < o.m; ++h) {
      for (u64 ih = 0; ih < (u64{1} << k); ++ih) bases.push_back((h << n) | (ih << l));
    }
    if (l > 0) aapcSteps(o, bases, sources, s);
    for (u64 x : sources) {
      for (u64 h = 0; h < o.m; ++h) {
        for (u64 ih = 0; ih < (u64{1} << k); ++ih) {
          for (u64 ylow = 0; ylow <= low; ++ylow) {
            const u64 slot = (h << n) | (ih << l) | ylow;
            walk(x, (ih << l) | (x & low), h, slot, (h << n) | root_high | ylow);
          }
        }
      }
    }
    split();
  }
  if (o.gather) {
    // Run backwards: the last step first, every move from its receiver back to its sender.
    std::reverse(s.steps.begin(), s.steps.end());
    for (std::vector<Move>& step : s.steps) {
      for (Move& m : step) m = {neighbour(m.node, m.dim), m.to_slot, m.dim, m.slot};
    }
  }
  return s;
}

u64 table3Cycles(int n, u64 m, int l, bool one_port) {
  const int k = n - l;
  const u64 split = k > 0 ? m * (u64{1} << l) * ((u64{1} << k) - 1) : 0;  // Sum_i PQ/2^(k+l-i)
  const u64 aapc = l > 0 ? m * (u64{1} << (l - 1)) : 0;                   // PQ/2^(k+l+1)
  if (one_port) return static_cast<u64>(l) * aapc + split;
  return aapc + (k > 0 ? (split + static_cast<u64>(k) - 1) / static_cast<u64>(k) : 0);
}

}  // namespace hcube

// hcube: matrix transposition schedules of Johnsson & Ho 1987 (§5, §6.2, §6.3) on an element
// tracker. See transpose.h.
#include "algorithms/transpose/transpose.h"

#include <algorithm>
#include <deque>

#include "algorithms/transpose/layout.h"
#include "base/error.h"

namespace hcube {
namespace {

/// Inserts `bit` at position `pos` of x (the bits of x at pos and above move up by one).
u64 insertBit(u64 x, int pos, u64 bit) {
  const u64 low = x & ((u64{1} << pos) - 1);
  return ((x >> pos) << (pos + 1)) | (bit << pos) | low;
}

std::string elementName(u64 e, u64 k) {
  return "element " + std::to_string(e) + " (from node " + std::to_string(e / k) + " slot " +
         std::to_string(e % k) + ")";
}

}  // namespace

ElementTracker::ElementTracker(std::string algo, int n, u64 slots, u64 scratch, int copy_channels)
    : n_(n), k_(slots), words_(slots + scratch), channels_(copy_channels) {
  if (channels_ < 1) throw Error("transpose: no copy channels");
  result_.moves.algo = std::move(algo);
  result_.moves.dims = n;
  result_.scratch = scratch;
  content_.assign(nodes() * words_, kEmpty);
  loc_.resize(nodes() * k_);
  for (u64 x = 0; x < nodes(); ++x) {
    for (u64 l = 0; l < k_; ++l) {
      content_[x * words_ + l] = x * k_ + l;
      loc_[x * k_ + l] = x * words_ + l;
    }
  }
}

u64 ElementTracker::at(u64 node, u64 slot) const {
  const u64 idx = node * words_ + slot;
  const u64 e = content_[idx];
  return e != kEmpty && loc_[e] == idx ? e : kEmpty;
}

GlobalAddress ElementTracker::where(u64 element) const {
  return {loc_[element] / words_, loc_[element] % words_};
}

namespace {

struct Write {
  u64 index;
  u64 element;
};

}  // namespace

void ElementTracker::linkStep(const std::vector<Move>& moves) {
  std::vector<Write> writes;
  writes.reserve(moves.size());
  if (leaving_.size() != loc_.size()) leaving_.assign(loc_.size(), 0);
  for (const Move& m : moves) {
    const u64 e = at(m.node, m.slot);
    if (e == kEmpty) {
      throw InternalError(result_.moves.algo + ": internal: step " +
                          std::to_string(result_.moves.steps.size()) + " sends empty slot " +
                          std::to_string(m.slot) + " of node " + std::to_string(m.node));
    }
    leaving_[e] = 1;
    const u64 to = m.dim == Move::kLocal ? m.node : neighbour(m.node, m.dim);
    writes.push_back({to * words_ + m.to_slot, e});
  }
  for (const Write& w : writes) {
    const u64 old = content_[w.index];
    if (old != kEmpty && loc_[old] == w.index && leaving_[old] == 0) {
      throw InternalError(result_.moves.algo + ": internal: step " +
                          std::to_string(result_.moves.steps.size()) + " overwrites " +
                          elementName(old, k_) + ", which has no other copy");
    }
  }
  for (const Write& w : writes) {
    content_[w.index] = w.element;
    loc_[w.element] = w.index;
    leaving_[w.element] = 0;
  }
  result_.moves.steps.push_back(moves);
}

u64 ElementTracker::exchange(int node_bit, int slot_bit, int lanes) {
  if (node_bit < 0 || node_bit >= n_ || slot_bit < 0 || (u64{1} << slot_bit) >= k_) {
    throw InternalError(result_.moves.algo + ": internal: exchange of node dimension " +
                        std::to_string(node_bit) + " with local dimension " +
                        std::to_string(slot_bit));
  }
  const u64 half = k_ / 2;
  const u64 per_step = static_cast<u64>(lanes);
  const u64 steps = (half + per_step - 1) / per_step;
  for (u64 s = 0; s < steps; ++s) {
    std::vector<Move> moves;
    for (u64 x = 0; x < nodes(); ++x) {
      const u64 away = bitOf(x, node_bit) ? 0 : 1;  // local bit value that must leave
      for (u64 t = s * per_step; t < std::min(half, (s + 1) * per_step); ++t) {
        const u64 l = insertBit(t, slot_bit, away);
        moves.push_back(
            {x, static_cast<u32>(l), node_bit, static_cast<u32>(l ^ (u64{1} << slot_bit))});
      }
    }
    linkStep(moves);
  }
  result_.transfer_steps += steps;
  ++result_.exchanges;
  return steps;
}

std::vector<std::vector<Move>> ElementTracker::localRounds(
    u64 node, const std::vector<std::pair<u64, u64>>& copies) const {
  // Chains of copies: from -> to. A path ends in a slot that is not read; a cycle closes.
  std::vector<u64> succ(words_, kEmpty);
  std::vector<u64> pred(words_, kEmpty);
  for (const auto& [from, to] : copies) {
    succ[from] = to;
    pred[to] = from;
  }
  struct Chain {
    std::deque<u64> slots;  // path: slots[0] -> slots[1] -> ...; cycle: also last -> first
    bool cycle = false;
  };
  std::vector<Chain> chains;
  std::vector<bool> seen(words_, false);
  for (const auto& [from, to] : copies) {
    if (pred[from] != kEmpty || seen[from]) continue;
    Chain c;
    for (u64 s = from; s != kEmpty; s = succ[s]) {
      c.slots.push_back(s);
      seen[s] = true;
    }
    chains.push_back(std::move(c));
  }
  for (const auto& [from, to] : copies) {
    if (seen[from]) continue;
    Chain c;
    c.cycle = true;
    u64 s = from;
    do {
      c.slots.push_back(s);
      seen[s] = true;
      s = succ[s];
    } while (s != from);
    if (channels_ == 1) {
      // One copy per cycle cannot rotate a cycle in place: park the last element in the first
      // scratch slot, shift the rest, and bring it back (a path X, s0, ..., s_{L-1}, X).
      if (words_ == k_) throw InternalError(result_.moves.algo + ": internal: no scratch slot");
      const u64 x = k_;
      c.cycle = false;
      c.slots.push_front(x);
      c.slots.push_back(x);
    }
    chains.push_back(std::move(c));
  }
  std::vector<std::vector<Move>> rounds;
  const u64 cap_total = static_cast<u64>(channels_);
  while (!chains.empty()) {
    std::vector<Move> round;
    u64 cap = cap_total;
    std::vector<Chain> next;
    for (Chain& c : chains) {
      const u64 len = c.slots.size();
      if (cap == 0 || (c.cycle && cap < 2 && len > cap)) {
        next.push_back(std::move(c));
        continue;
      }
      if (!c.cycle) {
        // The last `take` copies of the path; its new end is the first slot they read.
        const u64 edges = len - 1;
        const u64 take = std::min(cap, edges);
        for (u64 i = edges - take; i < edges; ++i) {
          round.push_back(
              {node, static_cast<u32>(c.slots[i]), Move::kLocal, static_cast<u32>(c.slots[i + 1])});
        }
        cap -= take;
        c.slots.resize(len - take);
        if (c.slots.size() > 1) next.push_back(std::move(c));
      } else if (len <= cap) {
        for (u64 i = 0; i < len; ++i) {
          round.push_back({node, static_cast<u32>(c.slots[i]), Move::kLocal,
                           static_cast<u32>(c.slots[(i + 1) % len])});
        }
        cap -= len;
      } else {
        // Rotate the first `cap` slots: s0->s1, ..., s_{c-2}->s_{c-1}, s_{c-1}->s0. Elements
        // s0..s_{c-2} are home; s0 now holds s_{c-1}'s element, bound for s_c.
        const u64 c_len = cap;
        for (u64 i = 0; i + 1 < c_len; ++i) {
          round.push_back(
              {node, static_cast<u32>(c.slots[i]), Move::kLocal, static_cast<u32>(c.slots[i + 1])});
        }
        round.push_back({node, static_cast<u32>(c.slots[c_len - 1]), Move::kLocal,
                         static_cast<u32>(c.slots[0])});
        c.slots.erase(c.slots.begin() + 1, c.slots.begin() + static_cast<long>(c_len));
        cap = 0;
        next.push_back(std::move(c));
      }
    }
    rounds.push_back(std::move(round));
    chains = std::move(next);
  }
  return rounds;
}

u64 ElementTracker::appendLocalRounds(const std::vector<std::vector<std::vector<Move>>>& per_node) {
  size_t steps = 0;
  for (const auto& rounds : per_node) steps = std::max(steps, rounds.size());
  for (size_t r = 0; r < steps; ++r) {
    std::vector<Move> moves;
    for (const auto& rounds : per_node) {
      if (r < rounds.size()) moves.insert(moves.end(), rounds[r].begin(), rounds[r].end());
    }
    linkStep(moves);
  }
  result_.local_steps += steps;
  if (steps > 0) ++result_.local_phases;
  return steps;
}

u64 ElementTracker::local(const std::function<u64(u64 node, u64 slot)>& f) {
  std::vector<std::vector<std::vector<Move>>> per_node(nodes());
  std::vector<bool> hit(k_);
  for (u64 x = 0; x < nodes(); ++x) {
    std::fill(hit.begin(), hit.end(), false);
    std::vector<std::pair<u64, u64>> copies;
    for (u64 l = 0; l < k_; ++l) {
      const u64 to = f(x, l);
      if (to >= k_ || hit[to]) {
        throw InternalError(result_.moves.algo + ": internal: the local reordering of node " +
                            std::to_string(x) + " is not a permutation of its " +
                            std::to_string(k_) + " slots");
      }
      hit[to] = true;
      if (to != l) copies.emplace_back(l, to);
    }
    per_node[x] = localRounds(x, copies);
  }
  return appendLocalRounds(per_node);
}

u64 ElementTracker::finish(const PermutationSpec& spec) {
  std::vector<std::vector<std::pair<u64, u64>>> copies(nodes());
  for (u64 x = 0; x < nodes(); ++x) {
    for (u64 l = 0; l < k_; ++l) {
      const u64 e = x * k_ + l;
      const GlobalAddress want = spec.dest({x, l});
      const GlobalAddress now = where(e);
      if (now.node != want.node) {
        throw InternalError(result_.moves.algo + ": internal: " + elementName(e, k_) +
                            " ends on node " + std::to_string(now.node) + ", the reference '" +
                            spec.str() + "' wants node " + std::to_string(want.node));
      }
      if (now.slot != want.slot) copies[now.node].emplace_back(now.slot, want.slot);
    }
  }
  std::vector<std::vector<std::vector<Move>>> per_node(nodes());
  for (u64 x = 0; x < nodes(); ++x) per_node[x] = localRounds(x, copies[x]);
  return appendLocalRounds(per_node);
}

namespace {

/// The destination node of every local address for a one-dimensional transposition: D(l), the
/// same for every source node (I is empty), as the n images of the local basis vectors.
std::vector<u64> destinationNodeColumns(const PermutationSpec& spec, const std::string& what) {
  const int n = spec.n();
  const int k = spec.localBits();
  for (int i = 0; i < n; ++i) {
    if (spec.dest({u64{1} << i, 0}).node != 0) {
      throw Error("--partition / --to-partition: " + what +
                  ": the destination node depends on node address bit " + std::to_string(i) +
                  " of the source, i.e. the real processor dimensions before and after share "
                  "dimensions (I is not empty); this algorithm needs disjoint real fields "
                  "(Johnsson & Ho 1987 §5: a one-dimensional partitioning before and after)");
    }
  }
  if (k < n) {
    throw Error(what + ": PQ / N = " + std::to_string(spec.slots()) +
                " elements per node < N = " + std::to_string(spec.nodes()) +
                " nodes; an all-to-all personalized communication needs PQ >= N^2 "
                "(Corollary 7)");
  }
  std::vector<u64> cols(static_cast<size_t>(k));
  for (int b = 0; b < k; ++b) cols[static_cast<size_t>(b)] = spec.dest({0, u64{1} << b}).node;
  return cols;
}

/// Splits the local address into (D(l), h(l)): picks n local bits whose columns of D are
/// independent (the pivots); h is the other k - n bits in order. Returns the pivot mask.
u64 pivotBits(const std::vector<u64>& cols, int n, const std::string& what) {
  std::vector<u64> basis;  // reduced vectors with their leading bit
  u64 pivots = 0;
  for (size_t b = 0; b < cols.size(); ++b) {
    u64 v = cols[b];
    for (u64 r : basis) {
      const int lead = 63 - std::countl_zero(r);
      if (bitOf(v, lead)) v ^= r;
    }
    if (v == 0) continue;
    basis.push_back(v);
    std::sort(basis.begin(), basis.end(), std::greater<>());
    pivots |= u64{1} << b;
  }
  if (static_cast<int>(basis.size()) != n) {
    throw Error(what + ": the elements of a node go to only 2^" + std::to_string(basis.size()) +
                " of the 2^" + std::to_string(n) + " nodes; not an all-to-all exchange");
  }
  return pivots;
}

u64 compressBits(u64 x, u64 mask) {
  u64 out = 0;
  int o = 0;
  for (int b = 0; b < 64 && (mask >> b) != 0; ++b) {
    if (bitOf(mask, b)) out |= static_cast<u64>(bitOf(x, b)) << o++;
  }
  return out;
}

/// Local address l -> (D(l), h(l)) of a one-dimensional transposition.
struct BlockSplit {
  std::vector<u64> cols;
  u64 pivots = 0;
  u64 dest(u64 l) const {
    u64 d = 0;
    for (size_t b = 0; b < cols.size(); ++b) {
      if (bitOf(l, static_cast<int>(b))) d ^= cols[b];
    }
    return d;
  }
  u64 rest(u64 l) const {
    const u64 all = (u64{1} << cols.size()) - 1;
    return compressBits(l, all & ~pivots);
  }
};

BlockSplit splitFor(const PermutationSpec& spec, const std::string& what) {
  BlockSplit s;
  s.cols = destinationNodeColumns(spec, what);
  s.pivots = pivotBits(s.cols, spec.n(), what);
  return s;
}

int copyChannels(int n, int lanes) { return n * lanes; }

}  // namespace

TransposeSchedule transposeViaAapc(const std::string& algo, const PermutationSpec& spec,
                                   const RelativeSchedule& aapc) {
  const int n = spec.n();
  if (aapc.dims() != n) {
    throw Error(algo + ": the AAPC schedule is for d = " + std::to_string(aapc.dims()) +
                ", the cube has n = " + std::to_string(n));
  }
  const BlockSplit split = splitFor(spec, algo);
  const u64 k = spec.slots();
  const u64 reps = k >> n;
  const int channels = copyChannels(n, 1);
  ElementTracker t(algo, n, k, channels == 1 ? 1 : 0, channels);
  // Slot (h << n) | D(l): the element for node i sits at local address (h, i) of the AAPC.
  t.local([&](u64, u64 l) { return (split.rest(l) << n) | split.dest(l); });
  for (u64 h = 0; h < reps; ++h) {
    const u64 base = h << n;
    for (u64 s = 0; s < aapc.steps(); ++s) {
      std::vector<Move> moves;
      for (u64 x = 0; x < t.nodes(); ++x) {
        for (int j = 0; j < n; ++j) {
          const u32 w = aapc.at(s, j);
          if (w == RelativeSchedule::kIdle) continue;
          // Relative addressing (Johnsson & Ho 1992 §2.1): node x sends its slot w ^ x, the
          // neighbour y stores it in its slot w ^ y.
          const u64 from = base | (w ^ x);
          const u64 to = base | (w ^ neighbour(x, j));
          moves.push_back({x, static_cast<u32>(from), j, static_cast<u32>(to)});
        }
      }
      t.linkStep(moves);
      ++t.result().transfer_steps;
    }
  }
  t.result().routing_steps = reps * aapc.steps();
  t.finish(spec);
  return t.result();
}

TransposeSchedule transposeByExchange(const std::string& algo, const PermutationSpec& spec,
                                      int lanes, bool shuffle) {
  const int n = spec.n();
  const int k = spec.localBits();
  const BlockSplit split = splitFor(spec, algo);
  const int channels = copyChannels(n, lanes);
  ElementTracker t(algo, n, spec.slots(), channels == 1 ? 1 : 0, channels);
  // The blocked array of the pseudo-code: block i (the high n local bits) holds the elements
  // for node i, the low k - n bits the offset inside the block.
  t.local([&](u64, u64 l) { return (split.dest(l) << (k - n)) | split.rest(l); });
  const u64 block_mask = (u64{1} << n) - 1;
  for (int j = n - 1; j >= 0; --j) {
    if (shuffle) {
      // The exchange always works on the top block bit; a shuffle (left rotation of the block
      // index) after it brings the block bit of dimension j - 1 to the top.
      t.exchange(j, k - 1, lanes);
      if (j > 0) {
        t.local([&](u64, u64 l) {
          const u64 i = l >> (k - n);
          const u64 rot = ((i << 1) | (i >> (n - 1))) & block_mask;
          return (rot << (k - n)) | (l & ((u64{1} << (k - n)) - 1));
        });
      }
    } else {
      t.exchange(j, k - n + j, lanes);
    }
  }
  t.result().routing_steps = static_cast<u64>(n);
  // The pseudo-code's last shuffle restores the block order; it is merged into this final
  // reordering (the local transpose of the blocked array).
  t.finish(spec);
  return t.result();
}

TransposeSchedule transposeWithGrayConversion(const std::string& algo, const PermutationSpec& spec,
                                              int lanes, bool pipelined) {
  const int n = spec.n();
  if (n % 2 != 0) {
    throw Error("--n " + std::to_string(n) + ": " + algo +
                " needs an even n (n_r = n_c = n/2 node dimensions for rows and columns, "
                "Johnsson & Ho 1987 §6.1, §6.3)");
  }
  const u64 k = spec.slots();
  for (int b = 0; b < spec.localBits(); ++b) {
    if (spec.dest({0, u64{1} << b}).node != 0) {
      throw Error(algo +
                  ": the layouts split a node's block over several nodes; this algorithm needs "
                  "the same real processor field before and after (I = R: a two-dimensional "
                  "partitioning with the same assignment, §6.1)");
    }
  }
  const int h = n / 2;
  const u64 nodes = spec.nodes();
  std::vector<u64> block_dest(nodes);
  for (u64 x = 0; x < nodes; ++x) block_dest[x] = spec.dest({x, 0}).node;
  std::vector<u64> pos(nodes);  // current node of the block that started on node x
  for (u64 x = 0; x < nodes; ++x) pos[x] = x;
  const int channels = copyChannels(n, lanes);
  const u64 per_step = static_cast<u64>(lanes);
  ElementTracker t(algo, n, k, pipelined ? 2 * per_step : k, channels);
  const u64 steps = (k + per_step - 1) / per_step;
  for (int j = h - 1; j >= 0; --j) {
    const int row = j + h;
    const int col = j;
    const u64 pair = (u64{1} << row) | (u64{1} << col);
    std::vector<u64> target(nodes);
    std::vector<bool> taken(nodes, false);
    for (u64 x = 0; x < nodes; ++x) {
      target[x] = (pos[x] & ~pair) | (block_dest[x] & pair);
      if (taken[target[x]]) {
        throw Error(algo + ": iteration for dimensions " + std::to_string(row) + ", " +
                    std::to_string(col) +
                    " is not a permutation of the 2 x 2 node groups for these layouts");
      }
      taken[target[x]] = true;
    }
    bool relay = false;
    // Step 1: blocks one dimension away go straight home; blocks two away cross the row
    // dimension into the relay's scratch slots (the pseudo-code's send(buf, j + n/2)).
    // Step 2: the relays forward over the column dimension (recv(tmp, j + n/2); send(tmp, j)).
    // Pipelined, the relay forwards every word in the step after it arrived, through a ring
    // of 2b scratch slots, so the two routing steps overlap.
    auto scratchSlot = [&](u64 s, u64 l) {
      return pipelined ? k + (s % 2) * per_step + (l - s * per_step) : k + l;
    };
    auto firstHop = [&](u64 s, std::vector<Move>& moves) {
      for (u64 x = 0; x < nodes; ++x) {
        const u64 diff = pos[x] ^ target[x];
        if (diff == 0) continue;
        const bool two = diff == pair;
        relay = relay || two;
        const int dim = two || diff == (u64{1} << row) ? row : col;
        for (u64 l = s * per_step; l < std::min(k, (s + 1) * per_step); ++l) {
          moves.push_back(
              {pos[x], static_cast<u32>(l), dim, static_cast<u32>(two ? scratchSlot(s, l) : l)});
        }
      }
    };
    auto secondHop = [&](u64 s, std::vector<Move>& moves) {
      for (u64 x = 0; x < nodes; ++x) {
        if ((pos[x] ^ target[x]) != pair) continue;
        const u64 via = neighbour(pos[x], row);
        for (u64 l = s * per_step; l < std::min(k, (s + 1) * per_step); ++l) {
          moves.push_back({via, static_cast<u32>(scratchSlot(s, l)), col, static_cast<u32>(l)});
        }
      }
    };
    if (pipelined) {
      for (u64 s = 0; s <= steps; ++s) {
        std::vector<Move> moves;
        if (s < steps) firstHop(s, moves);
        if (s > 0) secondHop(s - 1, moves);
        if (moves.empty()) continue;
        t.linkStep(moves);
        ++t.result().transfer_steps;
      }
    } else {
      for (u64 s = 0; s < steps; ++s) {
        std::vector<Move> moves;
        firstHop(s, moves);
        t.linkStep(moves);
      }
      t.result().transfer_steps += steps;
      if (relay) {
        for (u64 s = 0; s < steps; ++s) {
          std::vector<Move> moves;
          secondHop(s, moves);
          t.linkStep(moves);
        }
        t.result().transfer_steps += steps;
      }
    }
    t.result().routing_steps += 2;
    pos = target;
  }
  t.finish(spec);
  return t.result();
}

TransposeSchedule runAddressSteps(const std::string& algo, const PermutationSpec& spec,
                                  const std::vector<AddressStep>& steps, int lanes, u64 scratch) {
  const int n = spec.n();
  const u64 k = spec.slots();
  const int channels = copyChannels(n, lanes);
  ElementTracker t(algo, n, k, std::max<u64>(scratch, channels == 1 ? 1 : 0), channels);
  const u64 per_step = static_cast<u64>(lanes);
  const u64 block_steps = (k + per_step - 1) / per_step;
  for (const AddressStep& st : steps) {
    switch (st.kind) {
      case AddressStep::Kind::kExchange:
        t.exchange(st.a, st.b, lanes);
        ++t.result().routing_steps;
        break;
      case AddressStep::Kind::kLocal:
        t.local(st.local);
        break;
      case AddressStep::Kind::kConditionalSwap: {
        for (u64 s = 0; s < block_steps; ++s) {
          std::vector<Move> moves;
          for (u64 x = 0; x < t.nodes(); ++x) {
            if (!bitOf(x, st.b)) continue;
            for (u64 l = s * per_step; l < std::min(k, (s + 1) * per_step); ++l) {
              moves.push_back({x, static_cast<u32>(l), st.a, static_cast<u32>(l)});
            }
          }
          t.linkStep(moves);
        }
        t.result().transfer_steps += block_steps;
        ++t.result().routing_steps;
        break;
      }
      case AddressStep::Kind::kNodeSwap: {
        // Nodes whose bits a and b differ send their whole block over distance 2: across a into
        // the relay's scratch slots, then across b (the relay's bits a and b are equal, so its
        // own block stays).
        if (scratch < k)
          throw InternalError(algo + ": internal: a node swap needs K scratch slots");
        for (int phase = 0; phase < 2; ++phase) {
          for (u64 s = 0; s < block_steps; ++s) {
            std::vector<Move> moves;
            for (u64 x = 0; x < t.nodes(); ++x) {
              if (bitOf(x, st.a) == bitOf(x, st.b)) continue;
              for (u64 l = s * per_step; l < std::min(k, (s + 1) * per_step); ++l) {
                if (phase == 0) {
                  moves.push_back({x, static_cast<u32>(l), st.a, static_cast<u32>(k + l)});
                } else {
                  moves.push_back(
                      {neighbour(x, st.a), static_cast<u32>(k + l), st.b, static_cast<u32>(l)});
                }
              }
            }
            t.linkStep(moves);
          }
          t.result().transfer_steps += block_steps;
          ++t.result().routing_steps;
        }
        break;
      }
    }
  }
  t.finish(spec);
  return t.result();
}

std::vector<AddressStep> changeOfAssignmentSteps(const std::string& algo,
                                                 const MatrixLayout& before,
                                                 const MatrixLayout& after, int algorithm,
                                                 u64& scratch) {
  const int n = before.n();
  const int h = n / 2;
  if (n % 2 != 0) {
    throw Error("--n " + std::to_string(n) + ": " + algo +
                " needs an even n (n_r = n_c = n/2, Johnsson & Ho 1987 §6.2)");
  }
  auto twoD = [&](const MatrixLayout& l, const std::string& option) {
    if (l.rowNodeBits() != h || l.colNodeBits() != h || l.fields().size() != 2 ||
        !l.fields()[0].row) {
      throw Error(option + " '" + l.partitionName() + "': " + algo +
                  " needs a two-dimensional partitioning with n/2 row and n/2 column node "
                  "dimensions (§6.2)");
    }
    for (size_t f = 0; f < l.fields().size(); ++f) {
      if (l.gray(f)) {
        throw Error(std::string(option == "--partition" ? "--encoding" : "--to-encoding") + " '" +
                    l.encodingName() + "': " + algo +
                    " works on binary encoded processor fields (§6.2; Gray codes: §6.3)");
      }
    }
  };
  twoD(before, "--partition");
  twoD(after, "--to-partition");
  const int p = before.p();
  const int q = before.q();
  const int k = before.k();
  // Which bit of A's address w = (u || v) every global address bit holds, before and after.
  const std::vector<u64> rows_before = before.placeRows();
  const std::vector<u64> rows_after = after.placeRows();  // over A^T's address (v || u)
  auto bitIndex = [](u64 row) { return std::countr_zero(row); };
  std::vector<int> slot_of(static_cast<size_t>(p + q), -1);  // matrix bit -> slot bit before
  for (int s = 0; s < k; ++s) slot_of[static_cast<size_t>(bitIndex(rows_before[s]))] = s;
  std::vector<int> after_node(static_cast<size_t>(n));  // node bit after -> bit of A's w
  for (int j = 0; j < n; ++j) {
    const int wt = bitIndex(rows_after[static_cast<size_t>(k + j)]);  // bit of (v || u)
    after_node[static_cast<size_t>(j)] = wt < p ? q + wt : wt - p;
  }
  int uw = 0;  // u bits in the local address (above the v bits)
  for (int s = 0; s < k; ++s) uw += bitIndex(rows_before[s]) >= q ? 1 : 0;
  const int vw = k - uw;
  const bool local_transpose_first = algorithm == 2;
  auto slotFor = [&](int matrix_bit) {
    const int s = slot_of[static_cast<size_t>(matrix_bit)];
    if (s < 0) {
      throw Error("--to-partition '" + after.partitionName() + "': " + algo +
                  " needs real processor fields after the transpose that are disjoint from "
                  "the ones before (I is empty, §6.2); matrix address bit " +
                  std::to_string(matrix_bit) + " is a node dimension in both");
    }
    if (!local_transpose_first) return s;
    return s < vw ? s + uw : s - vw;  // after the local transpose (ur || vr) -> (vr || ur)
  };
  std::vector<AddressStep> steps;
  auto exchange = [&](int node_bit, int matrix_bit) {
    AddressStep st;
    st.kind = AddressStep::Kind::kExchange;
    st.a = node_bit;
    st.b = slotFor(matrix_bit);
    steps.push_back(std::move(st));
  };
  scratch = 0;
  if (algorithm == 1) {
    // exchange-row: the row node field takes the dimensions of the column field after; then
    // exchange-column: the column node field takes those of the row field after.
    for (int i = h - 1; i >= 0; --i) exchange(h + i, after_node[static_cast<size_t>(i)]);
    for (int i = h - 1; i >= 0; --i) exchange(i, after_node[static_cast<size_t>(h + i)]);
    // The global transpose: swap the node fields, pair by pair.
    for (int i = h - 1; i >= 0; --i) {
      AddressStep st;
      st.kind = AddressStep::Kind::kNodeSwap;
      st.a = h + i;
      st.b = i;
      steps.push_back(std::move(st));
    }
    scratch = u64{1} << k;
  } else if (algorithm == 2 || algorithm == 3) {
    if (algorithm == 2) {
      AddressStep st;
      st.kind = AddressStep::Kind::kLocal;
      st.local = [uw, vw](u64, u64 l) { return ((l & ((u64{1} << vw) - 1)) << uw) | (l >> vw); };
      steps.push_back(std::move(st));
    }
    for (int i = h - 1; i >= 0; --i) exchange(h + i, after_node[static_cast<size_t>(h + i)]);
    for (int i = h - 1; i >= 0; --i) exchange(i, after_node[static_cast<size_t>(i)]);
  } else {
    throw Error(algo + ": no algorithm " + std::to_string(algorithm) + " in §6.2");
  }
  return steps;
}

std::vector<AddressStep> grayConversionThenTransposeSteps(const std::string& algo,
                                                          const MatrixLayout& before,
                                                          const MatrixLayout& after) {
  const int n = before.n();
  const int h = n / 2;
  if (n % 2 != 0) {
    throw Error("--n " + std::to_string(n) + ": " + algo +
                " needs an even n (n_r = n_c = n/2, Johnsson & Ho 1987 §6.3)");
  }
  auto twoD = [&](const MatrixLayout& l, const std::string& option) {
    if (l.rowNodeBits() != h || l.colNodeBits() != h || l.fields().size() != 2 ||
        !l.fields()[0].row) {
      throw Error(option + " '" + l.partitionName() + "': " + algo +
                  " needs a two-dimensional partitioning with n/2 row and n/2 column node "
                  "dimensions (§6.3)");
    }
  };
  twoD(before, "--partition");
  twoD(after, "--to-partition");
  // The row field after (A^T's rows = A's columns) must hold the bits of A's column field
  // before, and the column field after those of the row field: only the encodings change.
  const IndexField& br = before.fields()[0];
  const IndexField& bc = before.fields()[1];
  const IndexField& ar = after.fields()[0];
  const IndexField& ac = after.fields()[1];
  if (ar.hi != bc.hi || ar.lo != bc.lo || ac.hi != br.hi || ac.lo != br.lo) {
    throw Error("--to-partition '" + after.partitionName() + "': " + algo +
                " transposes blocks between processors (I = R): the row field after must be "
                "the column field before and vice versa (the same assignment scheme)");
  }
  std::vector<AddressStep> steps;
  auto convert = [&](int low, bool from_gray, bool to_gray) {
    if (from_gray == to_gray) return;
    AddressStep st;
    st.kind = AddressStep::Kind::kConditionalSwap;
    if (from_gray) {
      // Gray -> binary: x_i = g_i ^ x_{i+1}, from the top down.
      for (int i = h - 2; i >= 0; --i) {
        st.a = low + i;
        st.b = low + i + 1;
        steps.push_back(st);
      }
    } else {
      // binary -> Gray: g_i = x_i ^ x_{i+1}, from the bottom up.
      for (int i = 0; i + 1 < h; ++i) {
        st.a = low + i;
        st.b = low + i + 1;
        steps.push_back(st);
      }
    }
  };
  // Column subcubes first (the column field is node bits 0..h-1; it becomes the row field of
  // the transpose), then row subcubes (node bits h..n-1).
  convert(0, before.gray(1), after.gray(0));
  convert(h, before.gray(0), after.gray(1));
  for (int i = h - 1; i >= 0; --i) {
    AddressStep st;
    st.kind = AddressStep::Kind::kNodeSwap;
    st.a = h + i;
    st.b = i;
    steps.push_back(st);
  }
  return steps;
}

}  // namespace hcube

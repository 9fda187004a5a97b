// hcube: exchange rounds, messages and start-ups for the SDP algorithms (see sdp_rounds.h).
#include "algorithms/sdp/sdp_rounds.h"

#include <algorithm>

#include "base/error.h"

namespace hcube {

SdpRouter::SdpRouter(const Sdp& sdp, bool scratch_bit, bool one_port, int lanes, std::string algo)
    : SdpRouter(sdp, sdp.toPermutationSpec(), scratch_bit, one_port, lanes, std::move(algo)) {}

SdpRouter::SdpRouter(const Sdp& sdp, PermutationSpec target, bool scratch_bit, bool one_port,
                     int lanes, std::string algo)
    : sdp_(sdp),
      perm_(std::move(target)),
      channels_(sdp.n * lanes),
      one_port_(one_port),
      lanes_(lanes) {
  const u64 slots = u64{1} << sdp.k;
  if (perm_.n() != sdp.n || perm_.slots() != slots) {
    throw InternalError("sdp: internal error, a router's target is on another cube");
  }
  scratch_ = scratch_bit ? slots : 0;
  const u64 elements = perm_.elements();
  node_.resize(elements);
  slot_.resize(elements);
  live_.resize(elements);
  for (u64 e = 0; e < elements; ++e) {
    node_[e] = e / slots;
    slot_[e] = static_cast<u32>(e % slots);
    live_[e] = perm_.participates(unpackAddress(e, slots));
  }
  out_.moves.algo = std::move(algo);
  out_.moves.dims = sdp.n;
}

void SdpRouter::linkRound(const Rule& rule, u64 packet) {
  const int n = sdp_.n;
  const u64 nodes = u64{1} << n;
  // Moves per directed link (node * n + dim), in element order.
  std::vector<std::vector<Move>> per_link(nodes * static_cast<u64>(n));
  std::vector<int> port_of(nodes, -1);
  for (u64 e = 0; e < node_.size(); ++e) {
    if (!live_[e]) continue;
    const Step s = rule(e, node_[e], slot_[e]);
    if (s.dim < 0) {
      if (s.slot != slot_[e]) {
        throw InternalError(
            "sdp: internal error, an element that stays changes its slot in a link round");
      }
      continue;
    }
    if (one_port_) {
      if (port_of[node_[e]] >= 0 && port_of[node_[e]] != s.dim) {
        throw InternalError("sdp: internal error, node " + std::to_string(node_[e]) +
                            " would send on two ports in a one-port round");
      }
      port_of[node_[e]] = s.dim;
    }
    per_link[node_[e] * static_cast<u64>(n) + static_cast<u64>(s.dim)].push_back(
        {node_[e], slot_[e], s.dim, s.slot});
    node_[e] = neighbour(node_[e], s.dim);
    slot_[e] = s.slot;
    ++out_.element_transfers;
  }
  const size_t longest = orderLinkMoves(per_link);
  const u64 lanes = static_cast<u64>(lanes_);
  const u64 cycles = (longest + lanes - 1) / lanes;
  const u64 b = std::max<u64>(packet, 1);
  for (u64 c = 0; c < cycles; ++c) {
    std::vector<Move> step;
    for (const auto& l : per_link) {
      for (u64 i = c * lanes; i < std::min<u64>((c + 1) * lanes, l.size()); ++i) {
        step.push_back(l[i]);
      }
    }
    out_.moves.steps.push_back(std::move(step));
    // A message of B elements takes ceil(B / lanes) element cycles.
    const u64 per_message = (b + lanes - 1) / lanes;
    out_.message_start.push_back(c % per_message == 0);
    if (c % per_message == 0) ++out_.startups;
  }
  out_.transfer_cycles += cycles;
}

size_t SdpRouter::orderLinkMoves(std::vector<std::vector<Move>>& per_link) const {
  // Each link sends in the order of the destination slots. In an exchange the partner sends
  // the same pairs in the order of its source slots, so the two words of a swapped pair cross in
  // the same cycle and no slot is written before its old content left (checked below).
  const u64 nodes = u64{1} << sdp_.n;
  size_t longest = 0;
  for (auto& l : per_link) {
    std::sort(l.begin(), l.end(),
              [](const Move& a, const Move& b) { return a.to_slot < b.to_slot; });
    longest = std::max(longest, l.size());
  }
  const u64 lanes = static_cast<u64>(lanes_);
  std::vector<u64> leaves(nodes << (sdp_.k + 1), ~u64{0});  // (node, slot) -> send cycle
  const u64 words = u64{1} << (sdp_.k + 1);
  for (const auto& l : per_link) {
    for (size_t i = 0; i < l.size(); ++i) leaves[l[i].node * words + l[i].slot] = i / lanes;
  }
  for (const auto& l : per_link) {
    for (size_t i = 0; i < l.size(); ++i) {
      const u64 at = neighbour(l[i].node, l[i].dim) * words + l[i].to_slot;
      if (leaves[at] != ~u64{0} && leaves[at] > i / lanes) {
        throw InternalError("sdp: internal error in " + out_.moves.algo + ": slot " +
                            std::to_string(l[i].to_slot) + " of node " +
                            std::to_string(neighbour(l[i].node, l[i].dim)) +
                            " would be written before its element leaves");
      }
    }
  }
  return longest;
}

void SdpRouter::aapcPhase(const std::vector<AapcPart>& parts, u64 packet) {
  const int n = sdp_.n;
  const u64 nodes = u64{1} << n;
  const u64 lanes = static_cast<u64>(lanes_);
  // Per part: the elements by relative slot (h << d) | a. An element keeps its relative slot
  // through the phase (crossing dimension pairs[i].second flips node bit and slot bit i alike).
  std::vector<std::vector<std::vector<u64>>> by_slot(parts.size());
  std::vector<bool> taken(node_.size(), false);
  u64 steps = 0;
  std::vector<u64> cuts;  // steps where some part starts a block transfer
  std::vector<bool> port_used(static_cast<size_t>(n), false);
  for (size_t p = 0; p < parts.size(); ++p) {
    const AapcPart& part = parts[p];
    const SlotSchedule& s = *part.schedule;
    const size_t d = part.pairs.size();
    if (s.dims != static_cast<int>(d) || s.lanes != lanes_ || d == 0) {
      throw InternalError("sdp: internal error in " + out_.moves.algo +
                          ", an AAPC schedule does not fit its dimensions or lanes");
    }
    std::vector<int> bit(d);
    for (size_t i = 0; i < d; ++i) {
      const int real = part.pairs[i].second;
      if (real < 0 || real >= n || port_used[static_cast<size_t>(real)]) {
        throw InternalError("sdp: internal error in " + out_.moves.algo +
                            ", concurrent AAPCs share a processor dimension");
      }
      port_used[static_cast<size_t>(real)] = true;
      bit[i] = sdp_.position(part.pairs[i].first);
    }
    by_slot[p].resize(static_cast<size_t>(s.slots));
    for (u64 e = 0; e < node_.size(); ++e) {
      if (!live_[e]) continue;
      const long long h = part.repetition(e, slot_[e]);
      if (h < 0) continue;
      if (taken[e]) {
        throw InternalError("sdp: internal error in " + out_.moves.algo +
                            ", an element in two AAPCs");
      }
      taken[e] = true;
      u64 w = static_cast<u64>(h) << d;
      for (size_t i = 0; i < d; ++i) {
        w |= static_cast<u64>(bitOf(node_[e], part.pairs[i].second) ^ bitOf(slot_[e], bit[i])) << i;
      }
      if (w >= s.slots) {
        throw InternalError("sdp: internal error in " + out_.moves.algo + ", repetition " +
                            std::to_string(h) + " outside an AAPC of " + std::to_string(s.slots) +
                            " slots");
      }
      by_slot[p][static_cast<size_t>(w)].push_back(e);
    }
    steps = std::max<u64>(steps, s.steps.size());
    for (u64 t = 0; t < s.steps.size(); ++t) {
      if (s.block_starts[static_cast<size_t>(t)]) cuts.push_back(t);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  const u64 per_message = (std::max<u64>(packet, 1) + lanes - 1) / lanes;
  u64 since = 0;  // steps since the last message start
  size_t next_cut = 0;
  for (u64 t = 0; t < steps; ++t) {
    std::vector<std::vector<Move>> per_link(nodes * static_cast<u64>(n));
    std::vector<int> port_of(one_port_ ? nodes : 0, -1);
    for (size_t p = 0; p < parts.size(); ++p) {
      const SlotSchedule& s = *parts[p].schedule;
      if (t >= s.steps.size()) continue;
      const std::vector<u32>& row = s.steps[static_cast<size_t>(t)];
      for (size_t c = 0; c < row.size(); ++c) {
        if (row[c] == SlotSchedule::kIdle) continue;
        const auto [storage, real] = parts[p].pairs[c / lanes];
        const int v = sdp_.position(storage);
        for (const u64 e : by_slot[p][row[c]]) {
          if (one_port_) {
            if (port_of[node_[e]] >= 0 && port_of[node_[e]] != real) {
              throw InternalError("sdp: internal error, node " + std::to_string(node_[e]) +
                                  " would send on two ports in a one-port step");
            }
            port_of[node_[e]] = real;
          }
          const u32 to = slot_[e] ^ (u32{1} << v);
          per_link[node_[e] * static_cast<u64>(n) + static_cast<u64>(real)].push_back(
              {node_[e], slot_[e], real, to});
          node_[e] = neighbour(node_[e], real);
          slot_[e] = to;
          ++out_.element_transfers;
        }
      }
    }
    if (orderLinkMoves(per_link) > lanes) {
      throw InternalError("sdp: internal error in " + out_.moves.algo +
                          ", an AAPC step carries more words on a link than it has lanes");
    }
    std::vector<Move> step;
    for (const auto& l : per_link) step.insert(step.end(), l.begin(), l.end());
    out_.moves.steps.push_back(std::move(step));
    bool start = since % per_message == 0;
    if (next_cut < cuts.size() && cuts[next_cut] == t) {
      start = true;
      while (next_cut < cuts.size() && cuts[next_cut] == t) ++next_cut;
    }
    if (start) since = 0;
    ++since;
    out_.message_start.push_back(start);
    if (start) ++out_.startups;
    ++out_.transfer_cycles;
  }
}

void SdpRouter::exchange(int storage, int real, u64 packet) {
  const int v = sdp_.position(storage);  // local bit
  linkRound(
      [v, real](u64, u64 node, u32 slot) {
        if (bitOf(node, real) == bitOf(slot, v)) return Step{-1, slot};
        return Step{real, slot ^ (u32{1} << v)};
      },
      packet);
}

void SdpRouter::localSwap(int storage_a, int storage_b, const std::function<bool(u64)>& only) {
  const int a = sdp_.position(storage_a);
  const int b = sdp_.position(storage_b);
  const u64 nodes = u64{1} << sdp_.n;
  // Copies per node, the two halves of every swapped pair adjacent, so a PERMUTE that holds an
  // even number of copies never splits a pair (the step stays exact).
  std::vector<std::vector<Move>> per_node(nodes);
  u64 swapping = 0;
  for (u64 e = 0; e < node_.size(); ++e) {
    const u32 s = slot_[e];
    if (!live_[e] || bitOf(s, a) == bitOf(s, b) || (only && !only(e))) continue;
    ++swapping;
    const u32 t = s ^ (u32{1} << a) ^ (u32{1} << b);
    if (bitOf(s, a)) continue;  // the pair is listed from its bit-a = 0 half
    per_node[node_[e]].push_back({node_[e], s, Move::kLocal, t});
    per_node[node_[e]].push_back({node_[e], t, Move::kLocal, s});
  }
  u64 listed = 0;
  for (const auto& l : per_node) listed += l.size();
  if (listed != swapping) {
    throw InternalError("sdp: internal error in " + out_.moves.algo +
                        ", a partial local swap splits a pair of slots");
  }
  for (u64 e = 0; e < node_.size(); ++e) {
    const u32 s = slot_[e];
    if (live_[e] && bitOf(s, a) != bitOf(s, b) && (!only || only(e))) {
      slot_[e] = s ^ (u32{1} << a) ^ (u32{1} << b);
    }
  }
  size_t longest = 0;
  for (const auto& l : per_node) longest = std::max(longest, l.size());
  if (channels_ >= 2) {
    const size_t chunk = static_cast<size_t>(channels_ / 2 * 2);
    for (size_t c = 0; c * chunk < longest; ++c) {
      std::vector<Move> step;
      for (const auto& l : per_node) {
        for (size_t i = c * chunk; i < std::min(l.size(), (c + 1) * chunk); ++i) {
          step.push_back(l[i]);
        }
      }
      out_.moves.steps.push_back(std::move(step));
      out_.message_start.push_back(false);
      ++out_.local_cycles;
    }
    return;
  }
  // One copy per PERMUTE (a 1-cube, width 1): every pair goes through a scratch slot.
  const u32 tmp = static_cast<u32>((u64{1} << sdp_.k) + (scratch_ > 0 ? scratch_ : 0));
  scratch_ = std::max<u64>(scratch_, u64{tmp} + 1 - (u64{1} << sdp_.k));
  for (size_t p = 0; p < longest; p += 2) {
    for (int phase = 0; phase < 3; ++phase) {
      std::vector<Move> step;
      for (const auto& l : per_node) {
        if (p >= l.size()) continue;
        const Move& x = l[p];
        const Move& y = l[p + 1];
        step.push_back(phase == 0   ? Move{x.node, x.slot, Move::kLocal, tmp}
                       : phase == 1 ? Move{x.node, y.slot, Move::kLocal, x.slot}
                                    : Move{x.node, tmp, Move::kLocal, y.slot});
      }
      out_.moves.steps.push_back(std::move(step));
      out_.message_start.push_back(false);
      ++out_.local_cycles;
    }
  }
}

void SdpRouter::pivotCycle(const Gsh& g, u64 packet) {
  const int n = sdp_.n;
  std::vector<int> dims = g.dims;
  const auto first_storage = std::find_if(dims.begin(), dims.end(), [n](int d) { return d >= n; });
  if (first_storage == dims.end())
    throw InternalError("sdp: internal error, a real GSH has no pivot");
  std::rotate(dims.begin(), first_storage, dims.end());
  for (size_t j = 1; j < dims.size(); ++j) {
    if (dims[j] < n) {
      exchange(dims[0], dims[j], packet);
    } else {
      localSwap(dims[0], dims[j]);
    }
  }
}

SdpSchedule SdpRouter::finish() {
  const u64 slots = u64{1} << sdp_.k;
  for (u64 e = 0; e < node_.size(); ++e) {
    if (!live_[e]) continue;
    const GlobalAddress want = perm_.dest(unpackAddress(e, slots));
    if (want.node != node_[e] || want.slot != slot_[e]) {
      throw InternalError("sdp: internal error in " + out_.moves.algo + ": element (" +
                          std::to_string(e / slots) + " | " + std::to_string(e % slots) +
                          ") ends at (" + std::to_string(node_[e]) + " | " +
                          std::to_string(slot_[e]) + "), the reference model says (" +
                          std::to_string(want.node) + " | " + std::to_string(want.slot) + ")");
    }
  }
  out_.scratch = scratch_;
  return std::move(out_);
}

TableSet compileSdp(const SdpSchedule& s, const PermutationSpec& perm, bool one_port, int lanes,
                    u64 tau) {
  CompileOptions options;
  options.lanes = lanes;
  options.one_port = one_port;
  options.scratch = s.scratch;
  options.split_local = false;
  TableSet set = compileMoves(s.moves, perm, options);
  if (tau == 0) return set;
  if (tau > 0xFFFFFFFFULL) throw Error("--tau " + std::to_string(tau) + ": too large");
  // The k-th XFER of every table is the k-th link step of the schedule.
  std::vector<bool> starts;
  for (size_t t = 0; t < s.moves.steps.size(); ++t) {
    const bool local = !s.moves.steps[t].empty() && s.moves.steps[t].front().dim == Move::kLocal;
    if (!local) starts.push_back(s.message_start[t]);
  }
  for (Table& table : set.tables) {
    Table out;
    size_t xfer = 0;
    for (const Instruction& ins : table) {
      if (ins.op == Opcode::kXfer) {
        if (xfer >= starts.size())
          throw InternalError("sdp: internal error, more XFERs than link steps");
        if (starts[xfer]) out.push_back(Instruction::waitFor(static_cast<u32>(tau)));
        ++xfer;
      }
      out.push_back(ins);
    }
    table = std::move(out);
  }
  return set;
}

}  // namespace hcube

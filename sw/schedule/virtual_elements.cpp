// hcube: dropping the moves of virtual elements from a move schedule and packing the rest
// (Johnsson & Ho 1987 Definition 2, §3.3, §5). See virtual_elements.h.
#include "schedule/virtual_elements.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "base/error.h"

namespace hcube {
namespace {

constexpr u64 kEmpty = ~u64{0};

/// One step of the packed schedule and what it has used of the hardware.
struct OutStep {
  enum class Kind { kNone, kLink, kLocal };
  Kind kind = Kind::kNone;
  std::vector<Move> moves;
  std::unordered_map<u64, int> used;  ///< resource key -> words or copies (or port + 1)
};

/// Resource keys of a step: words on the link out of (node, dim), local copies of a node, and
/// the one-port send and receive port of a node.
u64 linkKey(u64 node, int dim, int n) { return node * static_cast<u64>(n) + static_cast<u64>(dim); }

class Packer {
 public:
  Packer(int n, u64 nodes, u64 words, int lanes, bool one_port)
      : n_(n),
        nodes_(nodes),
        words_(words),
        lanes_(lanes),
        one_port_(one_port),
        last_write_(nodes * words, -1),
        last_read_(nodes * words, -1),
        link_hint_(nodes * static_cast<u64>(n), 0),
        local_hint_(nodes, 0) {}

  /// Places one group of moves of one original step (moves that share slots) as a whole.
  void place(const std::vector<Move>& group) {
    const bool local = group.front().dim == Move::kLocal;
    long long t = 0;
    for (const Move& m : group) {
      const u64 from = m.node * words_ + m.slot;
      const u64 to = target(m) * words_ + m.to_slot;
      t = std::max({t, last_write_[from] + 1, last_write_[to] + 1, last_read_[to]});
      t = std::max(t, local ? local_hint_[m.node] : link_hint_[linkKey(m.node, m.dim, n_)]);
    }
    while (!fits(static_cast<size_t>(t), group, local)) ++t;
    const size_t s = static_cast<size_t>(t);
    if (s >= out_.size()) out_.resize(s + 1);
    OutStep& step = out_[s];
    step.kind = local ? OutStep::Kind::kLocal : OutStep::Kind::kLink;
    for (const Move& m : group) {
      step.moves.push_back(m);
      if (local) {
        ++step.used[localKey(m.node)];
      } else {
        ++step.used[linkKey(m.node, m.dim, n_)];
        if (one_port_) {
          step.used[sendKey(m.node)] = m.dim + 1;
          step.used[receiveKey(target(m))] = m.dim + 1;
        }
      }
      const u64 from = m.node * words_ + m.slot;
      const u64 to = target(m) * words_ + m.to_slot;
      last_read_[from] = std::max(last_read_[from], t);
      last_write_[to] = std::max(last_write_[to], t);
    }
    // Move the hints past steps that are now full for a resource.
    for (const Move& m : group) {
      if (local) {
        advance(local_hint_[m.node], localKey(m.node), localCapacity());
      } else {
        const u64 key = linkKey(m.node, m.dim, n_);
        advance(link_hint_[key], key, lanes_);
      }
    }
  }

  std::vector<std::vector<Move>> steps() const {
    std::vector<std::vector<Move>> result;
    for (const OutStep& s : out_) {
      if (!s.moves.empty()) result.push_back(s.moves);
    }
    return result;
  }

 private:
  u64 target(const Move& m) const {
    return m.dim == Move::kLocal ? m.node : neighbour(m.node, m.dim);
  }
  u64 localKey(u64 node) const { return nodes_ * static_cast<u64>(n_) + node; }
  u64 sendKey(u64 node) const { return nodes_ * static_cast<u64>(n_ + 1) + node; }
  u64 receiveKey(u64 node) const { return nodes_ * static_cast<u64>(n_ + 2) + node; }
  int localCapacity() const { return n_ * lanes_; }

  static int usedOf(const OutStep& s, u64 key) {
    const auto it = s.used.find(key);
    return it == s.used.end() ? 0 : it->second;
  }

  bool fits(size_t t, const std::vector<Move>& group, bool local) const {
    if (t >= out_.size()) return true;
    const OutStep& s = out_[t];
    if (s.kind != OutStep::Kind::kNone && (s.kind == OutStep::Kind::kLocal) != local) return false;
    // Extra use the group itself adds to each resource.
    std::unordered_map<u64, int> extra;
    std::unordered_map<u64, int> ports;
    for (const Move& m : group) {
      if (local) {
        if (usedOf(s, localKey(m.node)) + ++extra[localKey(m.node)] > localCapacity()) return false;
        continue;
      }
      const u64 key = linkKey(m.node, m.dim, n_);
      if (usedOf(s, key) + ++extra[key] > lanes_) return false;
      if (!one_port_) continue;
      for (const u64 port : {sendKey(m.node), receiveKey(target(m))}) {
        const int have = usedOf(s, port);
        if (have != 0 && have != m.dim + 1) return false;
        const auto [it, fresh] = ports.emplace(port, m.dim + 1);
        if (!fresh && it->second != m.dim + 1) return false;
      }
    }
    return true;
  }

  void advance(long long& hint, u64 key, int capacity) const {
    while (static_cast<size_t>(hint) < out_.size() &&
           usedOf(out_[static_cast<size_t>(hint)], key) >= capacity) {
      ++hint;
    }
  }

  int n_;
  u64 nodes_;
  u64 words_;
  int lanes_;
  bool one_port_;
  std::vector<long long> last_write_;  ///< node * words + slot -> last packed step writing it
  std::vector<long long> last_read_;   ///< ... reading it
  std::vector<long long> link_hint_;   ///< per link: every earlier step is full
  std::vector<long long> local_hint_;  ///< per node: every earlier step is full of copies
  std::vector<OutStep> out_;
};

/// Groups of the moves of one step that touch a common slot (union-find on the moves), each
/// group in schedule order, groups ordered by their first move.
std::vector<std::vector<Move>> slotGroups(const std::vector<Move>& moves, u64 words) {
  std::vector<size_t> parent(moves.size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  auto find = [&](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::unordered_map<u64, size_t> first_user;
  for (size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    const u64 to = m.dim == Move::kLocal ? m.node : neighbour(m.node, m.dim);
    for (const u64 slot : {m.node * words + m.slot, to * words + m.to_slot}) {
      const auto [it, fresh] = first_user.emplace(slot, i);
      if (!fresh) {
        const size_t a = find(it->second);
        const size_t b = find(i);
        parent[std::max(a, b)] = std::min(a, b);
      }
    }
  }
  std::vector<std::vector<Move>> groups;
  std::vector<size_t> group_of(moves.size(), ~size_t{0});
  for (size_t i = 0; i < moves.size(); ++i) {
    const size_t root = find(i);
    if (group_of[root] == ~size_t{0}) {
      group_of[root] = groups.size();
      groups.emplace_back();
    }
    groups[group_of[root]].push_back(moves[i]);
  }
  return groups;
}

}  // namespace

VirtualDrop dropVirtualMoves(const MoveSchedule& schedule, const PermutationSpec& perm,
                             u64 words_per_node, int lanes, bool one_port) {
  const int n = schedule.dims;
  const u64 nodes = u64{1} << n;
  const u64 k = perm.slots();
  if (perm.n() != n || words_per_node < k) {
    throw Error("virtual elements: the " + schedule.algo + " schedule (n = " + std::to_string(n) +
                ", " + std::to_string(words_per_node) + " words per node) does not fit '" +
                perm.str() + "'");
  }
  if (lanes < 1) throw Error("virtual elements: lanes must be >= 1");
  // Tagged memory of the schedule as given: which element each slot holds.
  std::vector<u64> content(nodes * words_per_node, kEmpty);
  for (u64 x = 0; x < nodes; ++x) {
    for (u64 l = 0; l < k; ++l) content[x * words_per_node + l] = x * k + l;
  }
  VirtualDrop result;
  result.moves.algo = schedule.algo;
  result.moves.dims = n;
  result.steps_before = schedule.steps.size();
  Packer packer(n, nodes, words_per_node, lanes, one_port);
  std::vector<std::pair<u64, u64>> writes;
  for (size_t t = 0; t < schedule.steps.size(); ++t) {
    std::vector<Move> kept;
    writes.clear();
    for (const Move& m : schedule.steps[t]) {
      const bool local = m.dim == Move::kLocal;
      if (m.node >= nodes || (!local && (m.dim < 0 || m.dim >= n)) || m.slot >= words_per_node ||
          m.to_slot >= words_per_node) {
        throw Error("virtual elements: " + schedule.algo + " step " + std::to_string(t) +
                    ", node " + std::to_string(m.node) + ", port " + std::to_string(m.dim) +
                    ", slot " + std::to_string(m.slot) + " -> " + std::to_string(m.to_slot) +
                    ": outside the " + std::to_string(n) + "-cube of " +
                    std::to_string(words_per_node) + " words per node");
      }
      const u64 e = content[m.node * words_per_node + m.slot];
      const u64 to = local ? m.node : neighbour(m.node, m.dim);
      writes.emplace_back(to * words_per_node + m.to_slot, e);
      // A move of nothing is kept: it is a fault of the schedule the verifier must see.
      if (e != kEmpty && !perm.participates(unpackAddress(e, k))) {
        ++result.dropped_moves;
        if (!local) ++result.dropped_words;
        continue;
      }
      kept.push_back(m);
    }
    for (const auto& [slot, e] : writes) content[slot] = e;
    if (kept.empty()) continue;
    for (const std::vector<Move>& group : slotGroups(kept, words_per_node)) packer.place(group);
  }
  result.moves.steps = packer.steps();
  result.steps_after = result.moves.steps.size();
  return result;
}

}  // namespace hcube

#include "inspect/element_path.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "base/error.h"

namespace hcube {
namespace {

std::optional<u64> parseDecimal(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  u64 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<u64>(c - '0');
  }
  return v;
}

// When each instruction of a table runs: tables are straight-line programs, each instruction
// occupying Instruction::cycles() cycles from the start (docs/hardware/node.md §2).
class Clock {
 public:
  explicit Clock(const TableSet& set) : set_(set) {}
  /// The instruction node x runs in `cycle`, or nullptr once it has ended.
  const Instruction* at(u64 x, u64 cycle) {
    const std::vector<Entry>& e = entries(x);
    auto it = std::upper_bound(e.begin(), e.end(), cycle,
                               [](u64 c, const Entry& en) { return c < en.start; });
    if (it == e.begin()) return nullptr;
    --it;
    return cycle < it->start + it->ins->cycles() ? it->ins : nullptr;
  }
  /// Node x's PERMUTE instructions that run in cycles [from, to).
  std::vector<const Instruction*> permutes(u64 x, u64 from, u64 to) {
    std::vector<const Instruction*> out;
    for (const Entry& en : entries(x)) {
      if (en.start >= to) break;
      if (en.start >= from && en.ins->op == Opcode::kPermute) out.push_back(en.ins);
    }
    return out;
  }

 private:
  struct Entry {
    u64 start;
    const Instruction* ins;
  };
  const std::vector<Entry>& entries(u64 x) {
    const Table* t = &set_.tableOf(x);
    auto [it, fresh] = cache_.try_emplace(t);
    if (fresh) {
      u64 start = 0;
      for (const Instruction& ins : *t) {
        if (ins.op == Opcode::kEnd) break;
        it->second.push_back({start, &ins});
        start += ins.cycles();
      }
    }
    return it->second;
  }
  const TableSet& set_;
  std::map<const Table*, std::vector<Entry>> cache_;
};

u64 outSlot(const OutField& f, u64 x) { return f.rel ? f.idx ^ x : f.idx; }
u64 inSlot(const InField& f, u64 x) { return f.rel ? f.slot ^ x : f.slot; }

// Where the element is, as far as the path so far shows: per node the slots it was stored
// into, and the PASS registers (channel) filled in a cycle.
struct Whereabouts {
  std::map<u64, std::vector<u64>> slots;
  std::map<u64, std::vector<std::pair<u64, u64>>> passes;  // node -> (cycle, channel)
  bool inSlot(u64 x, u64 s) const {
    auto it = slots.find(x);
    return it != slots.end() &&
           std::find(it->second.begin(), it->second.end(), s) != it->second.end();
  }
  bool inPass(u64 x, u64 cycle, u64 channel) const {
    auto it = passes.find(x);
    return it != passes.end() && std::find(it->second.begin(), it->second.end(),
                                           std::pair<u64, u64>{cycle, channel}) != it->second.end();
  }
};

// The lane of port `port` on which node x sent the element in `cycle`, if the tables tell.
std::optional<int> sendingLane(const TableSet& set, Clock& clock, const Whereabouts& w, u64 x,
                               int port, u64 cycle) {
  const Instruction* ins = clock.at(x, cycle);
  if (ins == nullptr || ins->op != Opcode::kXfer) return std::nullopt;
  const int lanes = set.header.lanes;
  std::vector<int> sending;
  std::vector<int> holding;
  for (int lane = 0; lane < lanes; ++lane) {
    const size_t ch = static_cast<size_t>(port * lanes + lane);
    if (ch >= ins->channels.size()) break;
    const OutField& out = ins->channels[ch].out;
    if (out.op == OutOp::kIdle) continue;
    sending.push_back(lane);
    const bool has = out.op == OutOp::kMem ? w.inSlot(x, outSlot(out, x))
                                           : cycle > 0 && w.inPass(x, cycle - 1, out.idx);
    if (has) holding.push_back(lane);
  }
  if (holding.size() == 1) return holding.front();
  if (holding.empty() && sending.size() == 1) return sending.front();
  return std::nullopt;
}

}  // namespace

std::pair<u64, u64> parseElement(const std::string& text, int n, u64 slots) {
  const size_t colon = text.find(':');
  const std::optional<u64> node =
      colon == std::string::npos ? std::nullopt : parseDecimal(text.substr(0, colon));
  const std::optional<u64> slot =
      colon == std::string::npos ? std::nullopt : parseDecimal(text.substr(colon + 1));
  if (!node || !slot) {
    throw Error("--element '" + text + "': must be NODE:SLOT (two decimal numbers, e.g. 3:0)");
  }
  const u64 nodes = u64{1} << n;
  if (*node >= nodes) {
    throw Error("--element " + text + ": node " + std::to_string(*node) + " is outside the " +
                std::to_string(n) + "-cube (nodes 0.." + std::to_string(nodes - 1) + ")");
  }
  if (*slot >= slots) {
    throw Error("--element " + text + ": slot " + std::to_string(*slot) +
                " is outside the data slots (0.." + std::to_string(slots - 1) + ")");
  }
  return {*node, *slot};
}

ElementPath traceElement(const RunResult& run, const TableSet& set, u64 node, u64 slot) {
  if (!run.traffic.recorded) throw Error("trace: the run did not record its traffic log");
  const u64 k = set.header.perm.slots();
  const u64 dims = static_cast<u64>(set.header.n);
  const int lanes = set.header.lanes;
  ElementPath p;
  p.node = node;
  p.slot = slot;
  p.tag = node * k + slot;
  const u32 word = static_cast<u32>(p.tag);

  std::vector<ElementHop> hops;
  for (const TrafficLog::Send& s : run.traffic.sends) {
    if (s.word != word || s.port < 0 || static_cast<u64>(s.port) >= dims) continue;
    ElementHop h;
    h.cycle = s.cycle;
    h.from = s.node;
    h.port = s.port;
    h.to = s.node ^ (u64{1} << s.port);
    hops.push_back(h);
  }
  auto storesIn = [&](u64 cycle) {
    return static_cast<u64>(std::count(run.traffic.stores.begin(), run.traffic.stores.end(),
                                       TrafficLog::Store{cycle, word}));
  };
  auto sendsFrom = [&](u64 x, u64 cycle) {
    return std::any_of(hops.begin(), hops.end(),
                       [&](const ElementHop& h) { return h.cycle == cycle && h.from == x; });
  };

  Clock clock(set);
  Whereabouts where;
  where.slots[node].push_back(slot);
  std::map<u64, u64> permuted_until;  // per node: PERMUTEs before this cycle are applied
  for (size_t i = 0; i < hops.size();) {
    size_t end = i;
    while (end < hops.size() && hops[end].cycle == hops[i].cycle) ++end;
    const u64 cycle = hops[i].cycle;
    // Local copies (PERMUTE, docs/hardware/node.md §2.1) up to this cycle, at every node that holds
    // the element: a MEM(a)/MEM(b) channel copies slot a into slot b.
    for (auto& [x, held] : where.slots) {
      for (const Instruction* ins : clock.permutes(x, permuted_until[x], cycle)) {
        std::vector<u64> copies;
        for (const Channel& c : ins->channels) {
          if (c.out.op != OutOp::kMem || c.in.op != InOp::kMem) continue;
          if (std::find(held.begin(), held.end(), outSlot(c.out, x)) != held.end()) {
            copies.push_back(inSlot(c.in, x));
          }
        }
        held.insert(held.end(), copies.begin(), copies.end());
      }
      permuted_until[x] = cycle;
    }
    const u64 stored = storesIn(cycle);
    // Every send of the cycle is matched against where the element was before the cycle.
    std::vector<std::pair<u64, u64>> new_slots;
    for (size_t k2 = i; k2 < end; ++k2) {
      ElementHop& h = hops[k2];
      h.lane = sendingLane(set, clock, where, h.from, h.port, cycle);
      const Instruction* rx = clock.at(h.to, cycle);
      const size_t ch = h.lane ? static_cast<size_t>(h.port * lanes + *h.lane) : 0;
      if (h.lane && rx != nullptr && rx->op == Opcode::kXfer && ch < rx->channels.size() &&
          rx->channels[ch].in.op != InOp::kIdle) {
        const InField& in = rx->channels[ch].in;
        h.stored = in.op == InOp::kMem;
        if (h.stored) {
          h.slot = inSlot(in, h.to);
          new_slots.push_back({h.to, *h.slot});
        } else {
          where.passes[h.to].push_back({cycle, ch});
        }
      } else {
        // The tables do not tell: stored if the cycle's stores of the tag match its arrivals,
        // else if the receiver does not pass it on in the next cycle.
        h.lane.reset();
        h.stored = stored == end - i || (stored != 0 && !sendsFrom(h.to, cycle + 1));
      }
    }
    for (const auto& [x, s] : new_slots) where.slots[x].push_back(s);
    i = end;
  }

  const CubeMemory& m = run.memory;
  const u64 data = std::min(k, m.words_per_node);
  for (u64 x = 0; x < m.nodes; ++x) {
    for (u64 l = 0; l < data; ++l) {
      if (m.at(x, l) == word) p.final_places.push_back({x, l});
    }
  }
  p.hops = std::move(hops);
  return p;
}

std::string formatElementPath(const ElementPath& path) {
  std::string o = "element " + std::to_string(path.node) + ":" + std::to_string(path.slot) +
                  " (tag " + std::to_string(path.tag) + ") starts in node " +
                  std::to_string(path.node) + ", slot " + std::to_string(path.slot) + "\n";
  if (path.hops.empty()) {
    o += "it never crosses a link\n";
  } else {
    o += " cycle   from  dim  lane     to  arrives  slot\n";
    char line[128];
    for (const ElementHop& h : path.hops) {
      const std::string lane = h.lane ? std::to_string(*h.lane) : "?";
      const std::string slot = h.slot ? std::to_string(*h.slot) : h.stored ? "?" : "-";
      std::snprintf(line, sizeof line, "%6llu %6llu %4d %5s %6llu  %-7s  %s\n",
                    static_cast<unsigned long long>(h.cycle),
                    static_cast<unsigned long long>(h.from), h.port, lane.c_str(),
                    static_cast<unsigned long long>(h.to), h.stored ? "stored" : "passed",
                    slot.c_str());
      o += line;
    }
  }
  if (path.final_places.empty()) {
    o += "at the end no node holds it in a data slot\n";
  } else {
    o += "at the end in:";
    for (const auto& [x, l] : path.final_places) {
      o += " node " + std::to_string(x) + " slot " + std::to_string(l) + ";";
    }
    o.back() = '\n';
  }
  return o;
}

}  // namespace hcube

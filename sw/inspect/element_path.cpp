#include "element_path.h"

#include <algorithm>
#include <cstdio>

#include "error.h"

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

ElementPath traceElement(const RunResult& run, int n, u64 slots, u64 node, u64 slot) {
  if (!run.traffic.recorded) throw Error("trace: the run did not record its traffic log");
  ElementPath p;
  p.node = node;
  p.slot = slot;
  p.tag = node * slots + slot;
  const u32 word = static_cast<u32>(p.tag);
  const u64 dims = static_cast<u64>(n);

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
  auto sendsFrom = [&](u64 node_id, u64 cycle) {
    return std::any_of(hops.begin(), hops.end(),
                       [&](const ElementHop& h) { return h.cycle == cycle && h.from == node_id; });
  };
  // Which arrivals were stored: all of a cycle's if the stores of the cycle match its arrivals,
  // none if there are no stores; otherwise those whose receiver does not pass the word on in
  // the next cycle (a PASS word must leave then, docs/hardware.md §2).
  for (size_t i = 0; i < hops.size();) {
    size_t end = i;
    while (end < hops.size() && hops[end].cycle == hops[i].cycle) ++end;
    const u64 stored = storesIn(hops[i].cycle);
    for (size_t k = i; k < end; ++k) {
      if (stored == end - i) {
        hops[k].stored = true;
      } else if (stored != 0) {
        hops[k].stored = !sendsFrom(hops[k].to, hops[k].cycle + 1);
      }
    }
    i = end;
  }
  const CubeMemory& m = run.memory;
  const u64 data = std::min(slots, m.words_per_node);
  for (ElementHop& h : hops) {
    if (!h.stored || h.to >= m.nodes) continue;
    for (u64 l = 0; l < data; ++l) {
      if (m.at(h.to, l) == word) {
        h.final_slot = l;
        break;
      }
    }
  }
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
    o += " cycle   from  dim     to  arrives  slot\n";
    char line[128];
    for (const ElementHop& h : path.hops) {
      const std::string slot = h.final_slot ? std::to_string(*h.final_slot) : "-";
      std::snprintf(
          line, sizeof line, "%6llu %6llu %4d %6llu  %-7s  %s\n",
          static_cast<unsigned long long>(h.cycle), static_cast<unsigned long long>(h.from), h.port,
          static_cast<unsigned long long>(h.to), h.stored ? "stored" : "passed", slot.c_str());
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
  o += "(slot: where the receiver still holds it at the end, '-' if it no longer does; "
       "lanes are not recorded)\n";
  return o;
}

}  // namespace hcube

#include "router/schedule_paths.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "error.h"
#include "executor.h"
#include "reference.h"

namespace hcube {
namespace {

// Initial memory for the path run: tags in the data slots, and in the scratch words a value that
// is no tag, so that a scratch word crossing a link is never taken for an element.
CubeMemory pathMemory(const PermutationSpec& perm, u64 words_per_node) {
  CubeMemory m = taggedMemory(perm, words_per_node);
  const u64 k = perm.slots();
  for (u64 x = 0; x < perm.nodes(); ++x) {
    for (u64 s = k; s < words_per_node; ++s) m.at(x, s) = 0xFFFFFFFFU;
  }
  return m;
}

std::string elementName(u64 x, u64 l) { return std::to_string(x) + ":" + std::to_string(l); }

}  // namespace

MessageList messagesFromSchedule(const PermutationSpec& perm, const TableSet& tables) {
  const std::string name = "schedule '" + tables.header.algo + "' (" + perm.str() + ")";
  if (perm.collective()) {
    throw Error("routed mode runs permutations (one destination per element); " + perm.str() +
                " is a collective: run it with its schedule (no --route)");
  }
  const u64 k = perm.slots();
  if (perm.elements() > (u64{1} << 32) - 1) {
    throw Error(name + ": too many elements for 32-bit tags");
  }
  ExecOptions opt;
  opt.record_traffic = true;
  opt.tagged_elements = perm.elements();
  const RunResult run = executeTables(tables, pathMemory(perm, tables.header.memoryWords()), opt);
  if (run.timeout) throw Error(name + ": the tables did not finish; no paths to take");
  const CheckResult check = checkAgainstReference(perm, run.memory, 1);
  if (check.mismatches != 0) {
    throw Error(name + ": the tables misplace " + std::to_string(check.mismatches) +
                " elements (first: " + describe(check.first.front(), k) +
                "); their paths are not the permutation's");
  }

  // Every crossing of every tag, grouped by tag; the log is in cycle order.
  std::vector<std::vector<const TrafficLog::Send*>> by_tag(perm.elements());
  for (const TrafficLog::Send& s : run.traffic.sends) {
    if (s.word < perm.elements()) by_tag[s.word].push_back(&s);
  }

  MessageList list;
  list.n = perm.n();
  list.slots = k;
  list.route = RouteKind::kSource;
  list.per_node.resize(perm.nodes());
  for (u64 x = 0; x < perm.nodes(); ++x) {
    for (u64 l = 0; l < k; ++l) {
      const GlobalAddress a{x, l};
      if (!perm.participates(a)) continue;
      const GlobalAddress d = perm.dest(a);
      Message m;
      m.src_slot = static_cast<u32>(l);
      m.dst = d.node;
      m.dst_slot = static_cast<u32>(k + d.slot);
      // Follow the element from its home node: the next crossing is the first one after the
      // last, sent by the node it is at. A copy of the word a node keeps and sends again later
      // is not on this path, and the path must end at the destination.
      u64 at = x;
      bool first = true;
      u64 last_cycle = 0;
      for (const TrafficLog::Send* s : by_tag[x * k + l]) {
        if (s->node != at || (!first && s->cycle <= last_cycle)) continue;
        if (first) m.release = s->cycle;
        first = false;
        last_cycle = s->cycle;
        m.route.push_back(static_cast<std::uint8_t>(s->port));
        at ^= u64{1} << s->port;
      }
      if (at != d.node) {
        throw Error(name + ": element " + elementName(x, l) + " bound for " +
                    elementName(d.node, d.slot) + " ends its path at node " + std::to_string(at) +
                    "; its word does not travel one path there");
      }
      list.per_node[x].push_back(std::move(m));
    }
    // Each node injects in release order (docs/hardware.md §8.2: a queue is served in list
    // order, so a message released later must not stand before one released earlier).
    std::stable_sort(list.per_node[x].begin(), list.per_node[x].end(),
                     [](const Message& a, const Message& b) { return a.release < b.release; });
  }
  return list;
}

}  // namespace hcube

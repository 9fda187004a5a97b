#include "router/schedule_paths.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "base/error.h"
#include "exec/executor.h"
#include "spec/reference.h"

namespace hcube {
namespace {

// Initial memory for the path run: tags in the data slots, and in the scratch words a value that
// is no tag, so that a scratch word crossing a link is never taken for an element.
CubeMemory pathMemory(const PermutationSpec& perm, u64 words_per_node) {
  CubeMemory m = taggedMemory(perm, words_per_node);
  for (u64 x = 0; x < perm.nodes(); ++x) {
    for (u64 s = perm.slots(); s < words_per_node; ++s) m.at(x, s) = 0xFFFFFFFFU;
  }
  return m;
}

std::string elementName(u64 x, u64 l) { return std::to_string(x) + ":" + std::to_string(l); }

}  // namespace

MessageList messagesFromSchedule(const PermutationSpec& perm, const TableSet& tables) {
  // The messages of the permutation (slots, destinations; a collective is refused here); each
  // then takes its schedule path.
  MessageList list = messagesFromPermutation(perm, RouteKind::kEcube);
  list.route = RouteKind::kSource;
  const std::string name = "schedule '" + tables.header.algo + "' (" + perm.str() + ")";
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
  for (u64 x = 0; x < perm.nodes(); ++x) {
    for (Message& m : list.per_node[x]) {
      // Follow the element from its home node: the next crossing is the first one after the
      // last, sent by the node it is at. A copy of the word a node keeps and sends again later
      // is not on this path, and the path must end at the destination.
      u64 at = x;
      bool first = true;
      u64 last_cycle = 0;
      for (const TrafficLog::Send* s : by_tag[x * k + m.src_slot]) {
        if (s->node != at || (!first && s->cycle <= last_cycle)) continue;
        if (first) m.release = s->cycle;
        first = false;
        last_cycle = s->cycle;
        m.route.push_back(static_cast<std::uint8_t>(s->port));
        at ^= u64{1} << s->port;
      }
      if (at != m.dst) {
        throw Error(name + ": element " + elementName(x, m.src_slot) + " bound for " +
                    elementName(m.dst, m.dst_slot - k) + " ends its path at node " +
                    std::to_string(at) + "; its word does not travel one path there");
      }
    }
    // Each node injects in release order (docs/hardware/router.md §2: a queue is served in list
    // order, so a message released later must not stand before one released earlier).
    std::stable_sort(list.per_node[x].begin(), list.per_node[x].end(),
                     [](const Message& a, const Message& b) { return a.release < b.release; });
  }
  return list;
}

}  // namespace hcube

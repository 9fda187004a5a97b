// hcube inspection: detection and localisation of an injected fault (fault_analysis.h).
#include "inspect/fault_analysis.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

namespace hcube {
namespace {

// A log's sends keyed by link event (cycle, node, port, lane); the order is the log's.
using Key = std::tuple<u64, u64, int, int>;
Key keyOf(const TrafficLog::Send& s) { return {s.cycle, s.node, s.port, s.lane}; }

std::map<std::pair<u64, HwError>, u64> countersOf(const RunResult& r) {
  std::map<std::pair<u64, HwError>, u64> out;
  for (const NodeErrorCount& e : r.errors) out[{e.node, e.kind}] = e.count;
  return out;
}

void addDetection(FaultAnalysis& a, const std::string& by) {
  a.detected = true;
  a.detected_by += (a.detected_by.empty() ? "" : ", ") + by;
}

}  // namespace

std::optional<LinkDifference> firstLinkDifference(const TrafficLog& expected,
                                                  const TrafficLog& found) {
  // Both lists are sorted by (cycle, node, port, lane, word), and a link carries at most one
  // word per cycle: walk them side by side.
  const auto& e = expected.sends;
  const auto& f = found.sends;
  size_t i = 0;
  size_t j = 0;
  while (i < e.size() || j < f.size()) {
    if (i < e.size() && j < f.size() && keyOf(e[i]) == keyOf(f[j])) {
      if (e[i].word != f[j].word) {
        return LinkDifference{e[i].cycle, e[i].node, e[i].port, e[i].lane, e[i].word, f[j].word};
      }
      ++i;
      ++j;
      continue;
    }
    // An event one log has and the other has not: the earlier key.
    if (j >= f.size() || (i < e.size() && keyOf(e[i]) < keyOf(f[j]))) {
      return LinkDifference{e[i].cycle, e[i].node, e[i].port, e[i].lane, e[i].word, std::nullopt};
    }
    return LinkDifference{f[j].cycle, f[j].node, f[j].port, f[j].lane, std::nullopt, f[j].word};
  }
  return std::nullopt;
}

std::optional<ErrorEventDifference> firstErrorEventDifference(
    const std::vector<HwErrorEvent>& expected, const std::vector<HwErrorEvent>& found) {
  size_t i = 0;
  size_t j = 0;
  while (i < expected.size() || j < found.size()) {
    if (i < expected.size() && j < found.size() && expected[i] == found[j]) {
      ++i;
      ++j;
    } else if (j < found.size() && (i >= expected.size() || found[j] < expected[i])) {
      return ErrorEventDifference{found[j], true};
    } else {
      return ErrorEventDifference{expected[i], false};
    }
  }
  return std::nullopt;
}

FaultAnalysis refusedAtLoad(const Fault& fault, const std::string& message) {
  FaultAnalysis a;
  a.refused_at_load = true;
  a.load_message = message;
  addDetection(a, "load");
  a.suspect_node = fault.node;  // the image reader names the word it refuses (node, step)
  a.localised = true;
  return a;
}

FaultAnalysis analyseFault(const Fault& fault, const PermutationSpec& perm, const RunResult& golden,
                           const RunResult& faulty) {
  FaultAnalysis a;
  a.cycles = faulty.cycles;
  a.expected_cycles = golden.cycles;
  a.cycles_differ = faulty.cycles != golden.cycles;
  a.first_link = firstLinkDifference(golden.traffic, faulty.traffic);
  const CheckResult check = checkAgainstReference(perm, faulty.memory, 1);
  a.mismatches = check.mismatches;
  if (!check.first.empty()) a.first_wrong = check.first.front();
  const auto want = countersOf(golden);
  const auto got = countersOf(faulty);
  for (const auto& [key, count] : got) {
    const auto it = want.find(key);
    const u64 expected = it == want.end() ? 0 : it->second;
    if (count != expected) a.errors.push_back({key.first, key.second, expected, count});
  }
  for (const auto& [key, count] : want) {
    if (got.count(key) == 0) a.errors.push_back({key.first, key.second, count, 0});
  }
  a.first_error = firstErrorEventDifference(golden.error_events, faulty.error_events);
  std::sort(a.errors.begin(), a.errors.end(),
            [](const ErrorDifference& x, const ErrorDifference& y) {
              return std::tie(x.node, x.kind) < std::tie(y.node, y.kind);
            });
  if (a.mismatches != 0) addDetection(a, "reference");
  if (!a.errors.empty()) addDetection(a, "error counters");
  if (faulty.timeout && !golden.timeout) addDetection(a, "timeout");

  if (a.first_link) {
    a.suspect_node = a.first_link->node;
  } else if (a.first_wrong) {
    a.suspect_node = a.first_wrong->node;
  } else if (!a.errors.empty()) {
    a.suspect_node = a.errors.front().node;
  }
  if (fault.onLink()) {
    const LinkDifference* d = a.first_link ? &*a.first_link : nullptr;
    const bool once = fault.kind == FaultKind::kFlip || fault.kind == FaultKind::kDrop;
    a.localised = d != nullptr && d->node == fault.node && d->port == fault.port &&
                  d->lane == fault.lane &&
                  (once ? d->cycle == fault.cycle : d->cycle >= fault.cycle);
  } else {
    a.localised = a.suspect_node && *a.suspect_node == fault.node;
  }

  if (!a.detected) {
    a.masked = true;
    const bool same_memory = faulty.memory.words == golden.memory.words;
    if (fault.onLink() && !a.first_link) {
      a.masked_reason =
          fault.kind == FaultKind::kStuck
              ? "idle: no word crossed the link from that cycle on with the bit not already at "
                "the stuck value"
              : "idle: no word crossed the link in that cycle (or from it on)";
    } else if (!fault.onLink() && !a.first_link && same_memory && !a.cycles_differ) {
      a.masked_reason = "unused field: the flipped bit is in a field the instruction ignores";
    } else if (!fault.onLink() && !a.first_link && same_memory) {
      a.masked_reason = "timing only: the corrupted instruction changed when the table ends";
    } else if (same_memory) {
      a.masked_reason = "overwritten: the wrong word was overwritten before the run ended";
    } else {
      a.masked_reason =
          "unchecked: the wrong word ended in a slot the reference check does not read (scratch, "
          "or an element that takes no part)";
    }
  }
  return a;
}

std::string formatFaultAnalysis(const Fault& fault, const FaultAnalysis& a, u64 slots_per_node) {
  std::ostringstream out;
  out << "fault " << formatFault(fault) << ": ";
  if (a.detected) {
    out << "detected (" << a.detected_by << ")";
  } else {
    out << "not detected, masked (" << a.masked_reason << ")";
  }
  out << ", " << (a.localised ? "localised" : "not localised") << "\n";
  if (a.refused_at_load) {
    out << "  " << a.load_message << "\n";
    return out.str();
  }
  if (a.first_link) {
    const LinkDifference& d = *a.first_link;
    auto word = [](const std::optional<u32>& w) {
      return w ? "word " + std::to_string(*w) : std::string("no word");
    };
    out << "  first difference on a link: cycle " << d.cycle << ", node " << d.node << " port "
        << d.port << " lane " << d.lane << " -> node " << (d.node ^ (u64{1} << d.port)) << ": "
        << word(d.found) << " where the fault-free run carried " << word(d.expected) << "\n";
  } else {
    out << "  every link carried the words of the fault-free run\n";
  }
  if (a.first_wrong) {
    out << "  first wrong element (of " << a.mismatches
        << "): " << describe(*a.first_wrong, slots_per_node) << "\n";
  } else {
    out << "  every element where the reference says\n";
  }
  if (a.first_error) {
    const HwErrorEvent& e = a.first_error->event;
    out << (a.first_error->extra ? "  first error event: cycle "
                                 : "  first error event of the fault-free run missing: cycle ")
        << e.cycle << ", node " << e.node << " " << hwErrorName(e.kind) << "\n";
  }
  if (a.errors.empty()) {
    out << "  error counters as in the fault-free run\n";
  } else {
    out << "  error counters that differ from the fault-free run:";
    for (const ErrorDifference& e : a.errors) {
      out << " node " << e.node << " " << hwErrorName(e.kind) << " " << e.found << " (expected "
          << e.expected << ")";
      if (&e != &a.errors.back()) out << ",";
    }
    out << "\n";
  }
  if (a.cycles_differ) {
    out << "  cycles: " << a.cycles << " (fault-free: " << a.expected_cycles << ")\n";
  }
  return out.str();
}

}  // namespace hcube

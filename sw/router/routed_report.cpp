#include "router/routed_report.h"

#include <cmath>
#include <sstream>

#include "base/error.h"
#include "inspect/report.h"

namespace hcube {
namespace {

double six(double x) { return std::round(x * 1e6) / 1e6; }

std::string fixed(double x, int digits) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(digits);
  o << x;
  return o.str();
}

constexpr size_t kShownBlocked = 16;

}  // namespace

bool RoutedReport::passed() const {
  return check.mismatches == 0 && result.stats.errors.empty() && !result.stats.deadlock &&
         !result.run.timeout && result.stats.delivered == result.stats.messages;
}

CheckResult checkRoutedMemory(const PermutationSpec& perm, const CubeMemory& memory) {
  const u64 k = perm.slots();
  if (memory.words_per_node != 2 * k || memory.nodes != perm.nodes()) {
    throw Error("routed run: memory of " + std::to_string(memory.words_per_node) +
                " words per node, expected 2K = " + std::to_string(2 * k));
  }
  CubeMemory area{memory.nodes, k, std::vector<u32>(memory.nodes * k)};
  for (u64 x = 0; x < memory.nodes; ++x) {
    for (u64 l = 0; l < k; ++l) area.at(x, l) = memory.at(x, k + l);
  }
  return checkAgainstReference(perm, area);
}

std::string formatRoutedText(const RoutedReport& r) {
  const RunResult& run = r.result.run;
  const RouterStats& s = r.result.stats;
  const LinkUtilisation u = linkUtilisation(run, 1);
  std::ostringstream o;
  o << "hcube run: " << r.algo << "'s permutation by routing logic on a " << r.perm.n() << "-cube ("
    << r.perm.nodes() << " nodes, K = " << r.perm.slots() << ", " << r.perm.str() << ")\n";
  o << "  backend          " << run.backend << ", routed mode, route " << routeKindName(r.route)
    << ", FIFO depth " << s.fifo_depth;
  if (s.vcs > 1) {
    o << ", " << s.vcs << " virtual channels per link"
      << (r.route == RouteKind::kAdaptive ? " (Duato: VC 0 the e-cube escape)" : "");
  }
  o << "\n";
  o << "  cycles           " << run.cycles << " (start to last delivery)\n";
  o << "  transfer cycles  " << run.transfer_cycles << "\n";
  o << "  local copies     " << run.local_cycles << " cycles\n";
  o << "  lower bound      " << r.lower_bound << " (" << r.bound_source << ", the schedule's)\n";
  o << "  messages         " << s.delivered << " of " << s.messages << " words delivered\n";
  if (s.tau > 0) {
    o << "  start-ups        " << s.startups << " (tau " << s.tau << " cycles each)\n";
  }
  o << "  words moved      " << run.words << " (link traversals)\n";
  o << "  stalls           " << s.stalls << " (requester-cycles without a grant)\n";
  o << "  max FIFO occupancy per port";
  for (u64 m : s.maxFifoPerPort(r.perm.n())) o << " " << m;
  o << "\n";
  o << "  latency          min " << s.latency_min << "  mean " << fixed(s.latency_mean, 3)
    << "  p99 " << s.latency_p99 << "  max " << s.latency_max << " cycles\n";
  o << "  link utilisation min " << fixed(u.min, 3) << "  mean " << fixed(u.mean, 3) << "  max "
    << fixed(u.max, 3) << "\n";
  o << "  span             " << run.span << " (Johnsson & Ho 1992, Def. 2)\n";
  o << "  elements         " << r.check.correct << " of " << r.check.elements
    << " where the reference model says (" << r.check.mismatches << " mismatches)\n";
  for (const Mismatch& m : r.check.first) o << "    " << describe(m, r.perm.slots()) << "\n";
  for (const RouterNodeErrors& e : s.errors) {
    o << "  ROUTER ERROR     node " << e.node << ": overflow x" << e.overflow << ", lost x"
      << e.lost << ", conflict x" << e.conflict << "\n";
  }
  if (s.deadlock) {
    o << "  DEADLOCK         no packet moved for the deadlock limit, declared at cycle "
      << s.deadlock_cycle << "; " << s.blocked.size() << " blocked heads:\n";
    for (size_t i = 0; i < s.blocked.size() && i < kShownBlocked; ++i) {
      o << "    " << describe(s.blocked[i], s.vcs) << "\n";
    }
    if (s.blocked.size() > kShownBlocked) {
      o << "    ... and " << s.blocked.size() - kShownBlocked << " more\n";
    }
  }
  if (run.timeout) o << "  TIMEOUT: the cycle limit was reached before every message arrived\n";
  o << "  wall time        " << fixed(run.wall_seconds, 3) << " s\n";
  o << "  verdict          " << (r.passed() ? "PASS" : "FAIL") << "\n";
  return o.str();
}

nlohmann::ordered_json routedJson(const RoutedReport& r) {
  const RunResult& run = r.result.run;
  const RouterStats& s = r.result.stats;
  const LinkUtilisation u = linkUtilisation(run, 1);
  nlohmann::ordered_json j;
  j["algo"] = r.algo;
  j["n"] = r.perm.n();
  j["nodes"] = r.perm.nodes();
  j["K"] = r.perm.slots();
  j["perm"] = r.perm.str();
  j["backend"] = run.backend;
  j["mode"] = "routed";
  j["route"] = routeKindName(r.route);
  j["fifo_depth"] = s.fifo_depth;
  j["vcs"] = s.vcs;
  j["tau"] = s.tau;
  j["startups"] = s.startups;
  j["cycles"] = run.cycles;
  j["transfer_cycles"] = run.transfer_cycles;
  j["local_cycles"] = run.local_cycles;
  j["lower_bound"] = r.lower_bound;
  j["bound_source"] = r.bound_source;
  j["messages"] = s.messages;
  j["delivered"] = s.delivered;
  j["words"] = run.words;
  j["stalls"] = s.stalls;
  j["max_fifo_per_port"] = s.maxFifoPerPort(r.perm.n());
  j["latency"] = {{"min", s.latency_min},
                  {"mean", six(s.latency_mean)},
                  {"p99", s.latency_p99},
                  {"max", s.latency_max}};
  j["link_utilisation"] = {{"min", six(u.min)}, {"mean", six(u.mean)}, {"max", six(u.max)}};
  j["link_words"] = run.link_words;
  j["span"] = run.span;
  // Of the whole 2K-word memory (the table-mode report's digest, sw/inspect/report.h).
  j["memory_digest"] = memoryDigest(run.memory);
  j["elements"] = r.check.elements;
  j["correct"] = r.check.correct;
  j["mismatches"] = r.check.mismatches;
  j["router_errors"] = nlohmann::ordered_json::array();
  for (const RouterNodeErrors& e : s.errors) {
    j["router_errors"].push_back(
        {{"node", e.node}, {"overflow", e.overflow}, {"lost", e.lost}, {"conflict", e.conflict}});
  }
  j["deadlock"] = s.deadlock;
  if (s.deadlock) {
    j["deadlock_cycle"] = s.deadlock_cycle;
    j["blocked"] = nlohmann::ordered_json::array();
    for (const BlockedPort& b : s.blocked) {
      j["blocked"].push_back({{"node", b.node},
                              {"queue", b.injection},
                              {"input", b.input},
                              {"input_vc", b.input_vc},
                              {"dst", b.dst},
                              {"output", b.output},
                              {"output_vc", b.output_vc},
                              {"no_credit", b.no_credit}});
    }
  }
  j["timeout"] = run.timeout;
  j["wall_seconds"] = six(run.wall_seconds);
  j["verdict"] = r.passed() ? "pass" : "fail";
  return j;
}

}  // namespace hcube

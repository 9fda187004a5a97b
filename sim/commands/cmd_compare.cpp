// hcube compare: one case on several backends, which must agree exactly, or with --modes by its
// schedule's tables and by the routers side by side (sim/commands/commands.h).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "base/error.h"
#include "cmd_common.h"
#include "commands.h"
#include "router/routed_report.h"
#include "spec/initial_values.h"
#include "spec/reference.h"

namespace hcube {
namespace {

// hcube compare --modes schedule,ecube,source: one permutation run by its schedule's tables and
// by the routers, side by side (Johnsson & Ho 1987 §8.2: schedules against the routing logic).
// Where two routed runs of one list differ (backends must agree exactly, docs/hardware/router.md
// §10), or "".
std::string routedDisagreement(const RoutedRun& a, const RoutedRun& b) {
  std::vector<std::string> d;
  if (a.run.cycles != b.run.cycles) d.push_back("cycles");
  if (a.run.transfer_cycles != b.run.transfer_cycles) d.push_back("transfer cycles");
  if (a.run.local_cycles != b.run.local_cycles) d.push_back("local cycles");
  if (a.run.words != b.run.words) d.push_back("words");
  if (a.run.link_words != b.run.link_words) d.push_back("per-link words");
  if (a.run.span != b.run.span) d.push_back("span");
  if (a.run.memory.words != b.run.memory.words) d.push_back("final memory");
  if (a.stats.stalls != b.stats.stalls) d.push_back("stalls");
  if (a.stats.startups != b.stats.startups) d.push_back("start-ups");
  if (a.stats.max_fifo != b.stats.max_fifo) d.push_back("max FIFO occupancy");
  if (a.stats.delivered != b.stats.delivered) d.push_back("delivered");
  if (a.stats.latency_min != b.stats.latency_min || a.stats.latency_max != b.stats.latency_max ||
      a.stats.latency_p99 != b.stats.latency_p99 || a.stats.latency_mean != b.stats.latency_mean) {
    d.push_back("latency");
  }
  if (a.stats.errors != b.stats.errors) d.push_back("router errors");
  if (a.stats.deadlock != b.stats.deadlock || a.stats.deadlock_cycle != b.stats.deadlock_cycle) {
    d.push_back("deadlock");
  }
  std::string text;
  for (const std::string& x : d) text += (text.empty() ? "" : ", ") + x;
  return text;
}

int cmdCompareModes(Args& args, const std::vector<std::string>& modes) {
  const bool json = args.flag("--json");
  // --backends table,tlm,rtl runs every mode on each and requires them to agree exactly;
  // --backend (or nothing) runs one.
  std::vector<std::string> backends;
  if (const auto list = args.list("--backends")) {
    if (args.has("--backend")) throw Error("--backend and --backends exclude each other");
    backends = *list;  // CLI11 split and checked it: each a backend, once
  } else {
    backends.push_back(routedBackend(args));
  }
  const std::string backend_names = [&] {
    std::string b;
    for (const std::string& x : backends) b += (b.empty() ? "" : ",") + x;
    return b;
  }();
  RouterOptions opt_base = routerOptions(args);
  const RoutedMessaging messaging = routedMessaging(args);
  opt_base.tau = messaging.tau;
  for (const std::string& mode : modes) {
    if (mode != "schedule") parseRouteKind(mode);  // names the bad mode and the choices
  }
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, backends, origin);
  args.finish();
  for (const std::string& b : backends) requireBackendLimits(c.tables, b, &origin);
  std::vector<std::string> problems;                     // disagreements between backends
  const int label_width = backends.size() > 1 ? 15 : 9;  // "schedule/table"
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  bool all_pass = true;
  if (!json) {
    std::printf("hcube compare: %s on a %d-cube, K = %llu, backend %s (lower bound %llu: %s)\n",
                c.tables.header.algo.c_str(), c.perm.n(),
                static_cast<unsigned long long>(c.perm.slots()), backend_names.c_str(),
                static_cast<unsigned long long>(c.lower_bound), c.bound_source.c_str());
    std::printf("  %-*s %9s %9s %10s %10s %8s %8s %9s %8s\n", label_width, "mode", "cycles",
                "transfer", "words", "stalls", "maxfifo", "lat p99", "mismatch", "verdict");
  }
  for (const std::string& mode : modes) {
    std::optional<RunResult> first_schedule;
    std::optional<RoutedRun> first_routed;
    for (const std::string& backend : backends) {
      const std::string label = backends.size() > 1 ? mode + "/" + backend : mode;
      if (mode == "schedule") {
        RunReport r = reportFor(c);
        r.run = runOn(c,
                      BackendRun{backend, "", "",
                                 opt_base.max_cycles == (u64{1} << 32) ? 0 : opt_base.max_cycles},
                      nullptr);
        r.check = checkAgainstReference(c.perm, r.run.memory);
        all_pass = all_pass && r.passed();
        if (!first_schedule) {
          first_schedule = r.run;
        } else {
          for (const std::string& d : runDifferences(*first_schedule, r.run)) {
            problems.push_back(label + " vs " + backends[0] + ": " + d);
          }
        }
        if (json) {
          nlohmann::ordered_json j = reportJson(r);
          j["mode"] = "schedule";
          runs.push_back(j);
        } else {
          std::printf("  %-*s %9llu %9llu %10llu %10s %8s %8s %9llu %8s\n", label_width,
                      label.c_str(), static_cast<unsigned long long>(r.run.cycles),
                      static_cast<unsigned long long>(r.run.transfer_cycles),
                      static_cast<unsigned long long>(r.run.words), "-", "-", "-",
                      static_cast<unsigned long long>(r.check.mismatches),
                      r.passed() ? "PASS" : "FAIL");
        }
        continue;
      }
      const RouteKind route = parseRouteKind(mode);
      const MessageList list = caseMessages(c, route, messaging.packet);
      requireSimulatable(list.nodes(), list.memoryWords(),
                         "routed mode's memory (2K words per node)");
      RouterOptions opt = opt_base;
      opt.tagged_elements = c.perm.elements();
      RoutedReport r = routedReportFor(c, route);
      r.result = runRoutedOn(backend, list, taggedMemory(c.perm, list.memoryWords()), opt);
      r.check = checkRoutedMemory(c.perm, r.result.run.memory);
      all_pass = all_pass && r.passed();
      if (!first_routed) {
        first_routed = r.result;
      } else if (const std::string d = routedDisagreement(*first_routed, r.result); !d.empty()) {
        problems.push_back(label + " vs " + backends[0] + ": " + d);
      }
      if (json) {
        runs.push_back(routedJson(r));
      } else {
        u64 max_fifo = 0;
        for (u64 m : r.result.stats.max_fifo) max_fifo = std::max(max_fifo, m);
        std::printf("  %-*s %9llu %9llu %10llu %10llu %8llu %8llu %9llu %8s\n", label_width,
                    label.c_str(), static_cast<unsigned long long>(r.result.run.cycles),
                    static_cast<unsigned long long>(r.result.run.transfer_cycles),
                    static_cast<unsigned long long>(r.result.run.words),
                    static_cast<unsigned long long>(r.result.stats.stalls),
                    static_cast<unsigned long long>(max_fifo),
                    static_cast<unsigned long long>(r.result.stats.latency_p99),
                    static_cast<unsigned long long>(r.check.mismatches),
                    r.passed() ? "PASS" : "FAIL");
      }
    }
  }
  for (const std::string& p : problems) {
    if (!json) std::printf("  DISAGREEMENT %s\n", p.c_str());
  }
  all_pass = all_pass && problems.empty();
  if (json) {
    nlohmann::ordered_json j;
    j["algo"] = c.tables.header.algo;
    j["n"] = c.perm.n();
    j["lower_bound"] = c.lower_bound;
    j["bound_source"] = c.bound_source;
    j["all_pass"] = all_pass;
    j["disagreements"] = problems;
    j["runs"] = runs;
    std::cout << jsonText(j) << "\n";
  }
  return all_pass ? 0 : 1;
}

}  // namespace

int cmdCompare(Args& args) {
  if (const auto modes = args.list("--modes")) return cmdCompareModes(args, *modes);
  const bool json = args.flag("--json");
  const std::string cache = args.get("--cache").value_or("");
  const std::vector<std::string> backends =
      args.list("--backends").value_or(std::vector<std::string>{"table", "tlm", "rtl"});
  if (backends.size() < 2) throw Error("--backends: name at least two backends to compare");
  const bool rtl_runs = std::find(backends.begin(), backends.end(), "rtl") != backends.end();
  const int threads = rtlThreadsOption(args, rtl_runs);
  const bool flat = rtlFlatOption(args, rtl_runs);
  const auto seed = args.number("--seed");
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, backends, origin);
  args.finish();
  for (const std::string& b : backends) requireBackendLimits(c.tables, b, &origin);
  const std::optional<CubeMemory> initial = seededInitial(seed, c);
  const VerifyReport v = verifyTables(c.tables, kShownErrors, &origin);
  std::vector<RunReport> reports;
  for (const std::string& b : backends) {
    RunReport r = reportFor(c);
    BackendRun run{b, "", cache, 0};
    run.threads = threads;
    run.flat = flat;
    run.initial = initial ? &*initial : nullptr;
    r.run = runOn(c, run, nullptr);
    r.check = checkRun(c.perm, run.initial, r.run.memory);
    reports.push_back(std::move(r));
  }
  std::vector<std::string> problems;
  if (!v.ok()) problems.push_back("static verification: " + v.errors.front());
  for (const RunReport& r : reports) {
    if (!r.passed()) {
      problems.push_back(r.run.backend + ": " + std::to_string(r.check.mismatches) +
                         " mismatches, " + std::to_string(r.run.errors.size()) +
                         " hardware error counters" + (r.run.timeout ? ", timeout" : ""));
    }
  }
  for (size_t i = 1; i < reports.size(); ++i) {
    for (const std::string& d : runDifferences(reports[0].run, reports[i].run)) {
      problems.push_back(reports[0].run.backend + " vs " + reports[i].run.backend + ": " + d);
    }
  }
  if (json) {
    nlohmann::ordered_json j;
    j["agree"] = problems.empty();
    j["runs"] = nlohmann::ordered_json::array();
    for (const RunReport& r : reports) j["runs"].push_back(reportJson(r));
    j["problems"] = problems;
    std::cout << jsonText(j) << "\n";
  } else {
    std::printf("hcube compare: %s on a %d-cube, K = %llu (lower bound %llu: %s)\n",
                c.tables.header.algo.c_str(), c.perm.n(),
                static_cast<unsigned long long>(c.perm.slots()),
                static_cast<unsigned long long>(c.lower_bound), c.bound_source.c_str());
    if (initial) std::printf("  values: seeded (--seed %lld, splitmix64)\n", *seed);
    std::printf("  %-8s %10s %10s %8s %10s %6s %10s %7s %10s\n", "backend", "cycles", "transfer",
                "local", "words", "span", "mismatch", "errors", "wall s");
    for (const RunReport& r : reports) {
      std::printf("  %-8s %10llu %10llu %8llu %10llu %6llu %10llu %7zu %10.4f\n",
                  r.run.backend.c_str(), static_cast<unsigned long long>(r.run.cycles),
                  static_cast<unsigned long long>(r.run.transfer_cycles),
                  static_cast<unsigned long long>(r.run.local_cycles),
                  static_cast<unsigned long long>(r.run.words),
                  static_cast<unsigned long long>(r.run.span),
                  static_cast<unsigned long long>(r.check.mismatches), r.run.errors.size(),
                  r.run.wall_seconds);
    }
    if (problems.empty()) {
      std::printf(
          "  verdict: AGREE (identical memories, cycles, local cycles, words, span, link counts "
          "and error counters; every element where the reference model says)\n");
    } else {
      std::printf("  verdict: DISAGREE\n");
      for (const std::string& p : problems) std::printf("    %s\n", p.c_str());
    }
  }
  return problems.empty() ? 0 : 1;
}

}  // namespace hcube

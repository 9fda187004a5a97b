// hcube messages, route and traffic: routed mode's own commands, a case's message list, a
// message list through the routers and synthetic traffic (sim/commands/commands.h).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/error.h"
#include "cmd_common.h"
#include "commands.h"
#include "router/message_text.h"
#include "router/routed_report.h"
#include "router/traffic.h"

namespace fs = std::filesystem;

namespace hcube {
namespace {

// A real number option.
std::optional<double> realOption(const std::optional<std::string>& v, const std::string& name) {
  if (!v) return std::nullopt;
  try {
    size_t used = 0;
    const double x = std::stod(*v, &used);
    if (used != v->size() || !std::isfinite(x)) throw std::invalid_argument("trailing");
    return x;
  } catch (const std::exception&) {
    throw Error("option " + name + " '" + *v + "' is not a number");
  }
}

}  // namespace

// hcube messages: the message list of a case's permutation, in the text form; with
// --routed-image also the routed image of that list as a routed run on the RTL writes it for its
// runner (same memory, options and model), so that another testbench runs the same case.
int cmdMessages(Args& args) {
  const RouteKind route = parseRouteKind(args.get("--route").value_or("ecube"));
  const auto out = args.get("--out");
  const auto image = args.get("--routed-image");
  const RoutedMessaging messaging = routedMessaging(args);
  RouterOptions opt = routerOptions(args);
  opt.tau = messaging.tau;
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, {"table"}, origin);
  args.finish();
  if (!out) throw Error("--out FILE is required");
  const MessageList list = caseMessages(c, route, messaging.packet);
  writeMessageTextFile(*out, list);
  std::cout << "wrote " << *out << ": " << list.messages() << " messages on " << list.nodes()
            << " nodes\n";
  if (image) {
    requireSimulatable(list.nodes(), list.memoryWords(),
                       "routed mode's memory (2K words per node)");
    opt.tagged_elements = c.perm.elements();
    const RtlModelConfig model = rtlModelForMessages(list, opt.vcs);
    writeRoutedImageFile(*image, list, taggedMemory(c.perm, list.memoryWords()), opt, model);
    std::cout << "wrote " << *image << ": the routed image for hc_cube Dim=" << model.dim
              << " NumSlots=" << model.num_slots << " TableDepth=" << model.table_depth
              << " HasRouter=1 NumVcs=" << model.vcs << "\n";
  }
  return 0;
}

// hcube route: a message list from a file through the routers; slots 0..K-1 start with their
// tags, and the report says whether every message was delivered (no reference permutation).
int cmdRoute(Args& args) {
  const auto path = args.get("--messages");
  const std::string backend = routedBackend(args);
  const bool json = args.flag("--json");
  RouterOptions opt = routerOptions(args);
  const long long tau = args.number("--tau", 0);
  if (tau < 0 || tau > static_cast<long long>(kMaxRoutedTau)) {
    throw Error("--tau " + std::to_string(tau) + ": routed mode's start-up must be 0.." +
                std::to_string(kMaxRoutedTau) + " cycles");
  }
  opt.tau = static_cast<u64>(tau);
  args.finish();
  if (!path) throw Error("--messages FILE is required");
  const MessageList list = readMessageTextFile(*path);
  requireSimulatable(list.nodes(), list.memoryWords(), *path + ": routed mode's memory");
  CubeMemory initial{list.nodes(), list.memoryWords(),
                     std::vector<u32>(list.nodes() * list.memoryWords(), 0)};
  for (u64 x = 0; x < list.nodes(); ++x) {
    for (u64 l = 0; l < list.slots; ++l) initial.at(x, l) = static_cast<u32>(x * list.slots + l);
  }
  opt.tagged_elements = list.nodes() * list.slots;
  RoutedReport report;
  report.algo = *path;
  report.perm = PermutationSpec::aapc(list.n, 1);  // only for its n in the report
  report.route = list.route;
  report.bound_source = "none: a message list";
  report.result = runRoutedOn(backend, list, initial, opt);
  if (json) {
    nlohmann::ordered_json j = routedJson(report);
    for (const char* k : {"K", "perm", "elements", "correct", "mismatches"}) j.erase(k);
    std::cout << jsonText(j) << "\n";
  } else {
    const RouterStats& s = report.result.stats;
    std::cout << "hcube route: " << *path << " on a " << list.n << "-cube, route "
              << routeKindName(list.route) << ", FIFO depth " << s.fifo_depth
              << (s.vcs > 1 ? ", " + std::to_string(s.vcs) + " VCs" : std::string()) << "\n"
              << "  cycles " << report.result.run.cycles << ", words " << report.result.run.words
              << ", stalls " << s.stalls << ", delivered " << s.delivered << " of " << s.messages
              << ", latency max " << s.latency_max << "\n";
    for (const RouterNodeErrors& e : s.errors) {
      std::cout << "  ROUTER ERROR node " << e.node << ": overflow x" << e.overflow << ", lost x"
                << e.lost << ", conflict x" << e.conflict << "\n";
    }
    if (s.deadlock) {
      std::cout << "  DEADLOCK at cycle " << s.deadlock_cycle << "; blocked:\n";
      for (const BlockedPort& b : s.blocked) std::cout << "    " << describe(b, s.vcs) << "\n";
    }
    if (report.result.run.timeout) std::cout << "  TIMEOUT\n";
    std::cout << "  verdict " << (report.passed() ? "PASS" : "FAIL") << "\n";
  }
  return report.passed() ? 0 : 1;
}

// hcube traffic: synthetic traffic through the e-cube routers (sw/router/traffic.h), one rate
// or a sweep with its saturation point and a latency-load plot.
int cmdTraffic(Args& args) {
  const bool json = args.flag("--json");
  const std::string backend = routedBackend(args);
  TrafficSpec spec;
  spec.pattern = parseTrafficPattern(args.get("--pattern").value_or("uniform"));
  spec.n = cubeDimension(args);
  const long long cycles = args.number("--cycles", 2000);
  if (cycles < 1 || cycles > 100'000'000) {
    throw Error("--cycles " + std::to_string(cycles) + ": must be 1..10^8");
  }
  spec.cycles = static_cast<u64>(cycles);
  const long long warmup = args.number("--warmup", cycles / 5);
  if (warmup < 0) throw Error("--warmup must not be negative");
  spec.warmup = static_cast<u64>(warmup);
  spec.seed = static_cast<u64>(args.number("--seed", 1));
  const auto rate = realOption(args.get("--rate"), "--rate");
  const auto sweep = args.get("--sweep");
  const auto plot = args.get("--plot");
  RouterOptions opt = routerOptions(args);
  args.finish();
  if (rate && sweep) throw Error("--rate and --sweep exclude each other");
  std::vector<double> rates;
  if (sweep) {
    std::vector<double> abc;
    std::stringstream items(*sweep);
    std::string item;
    while (std::getline(items, item, ':')) abc.push_back(*realOption(item, "--sweep"));
    if (abc.size() != 3 || abc[2] <= 0 || abc[0] <= 0 || abc[1] < abc[0] || abc[1] > 1) {
      throw Error("--sweep '" + *sweep +
                  "': must be FROM:TO:STEP with 0 < FROM <= TO <= 1, STEP > 0");
    }
    for (int i = 0; abc[0] + i * abc[2] <= abc[1] + 1e-9 && i < 1000; ++i) {
      rates.push_back(abc[0] + i * abc[2]);
    }
  } else {
    rates.push_back(rate.value_or(0.1));
  }
  if (plot && !sweep) throw Error("--plot needs --sweep");
  if (plot && fs::path(*plot).extension() != ".svg") {
    throw Error("--plot " + *plot + ": the plot is SVG (name the file *.svg)");
  }
  for (double r : rates) {  // every option is checked before the first line is printed
    spec.rate = r;
    checkTrafficSpec(spec);
  }
  opt.record_deliveries = true;
  if (!args.has("--max-cycles")) opt.max_cycles = spec.cycles * 64 + 100000;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  PlotSeries series{
      std::string(trafficPatternName(spec.pattern)) + ", n = " + std::to_string(spec.n), {}, {}};
  double saturation = 0;
  if (!json) {
    std::printf(
        "hcube traffic: %s on a %d-cube, backend %s, e-cube routing, FIFO depth %llu%s, %llu "
        "cycles (warm-up %llu), seed %llu\n",
        trafficPatternName(spec.pattern), spec.n, backend.c_str(),
        static_cast<unsigned long long>(opt.fifo_depth),
        opt.vcs > 1 ? (", " + std::to_string(opt.vcs) + " VCs").c_str() : "",
        static_cast<unsigned long long>(spec.cycles), static_cast<unsigned long long>(spec.warmup),
        static_cast<unsigned long long>(spec.seed));
    std::printf("  %7s %9s %9s %10s %8s %8s %9s %9s\n", "rate", "offered", "accepted", "lat mean",
                "lat p99", "lat max", "bound", "drained");
  }
  bool complete = true;
  for (double r : rates) {
    spec.rate = r;
    const MessageList list = trafficMessages(spec);
    const RoutedRun run =
        runRoutedOn(backend, list,
                    CubeMemory{list.nodes(), list.memoryWords(),
                               std::vector<u32>(list.nodes() * list.memoryWords(), 0)},
                    opt);
    const TrafficResult t = measureTraffic(spec, list, run);
    complete = complete && t.complete;
    if (saturation == 0 && t.accepted < 0.95 * t.offered) saturation = t.offered;
    series.x.push_back(t.offered);
    series.y.push_back(t.latency_mean);
    if (json) {
      points.push_back({{"rate", r},
                        {"offered", t.offered},
                        {"accepted", t.accepted},
                        {"latency_mean", t.latency_mean},
                        {"latency_p99", t.latency_p99},
                        {"latency_max", t.latency_max},
                        {"bisection_bound", t.bisection_bound},
                        {"packets", t.generated},
                        {"measured", t.measured},
                        {"cycles", t.cycles},
                        {"stalls", run.stats.stalls},
                        {"complete", t.complete}});
    } else {
      std::printf("  %7.3f %9.4f %9.4f %10.2f %8llu %8llu %9.3f %9s\n", r, t.offered, t.accepted,
                  t.latency_mean, static_cast<unsigned long long>(t.latency_p99),
                  static_cast<unsigned long long>(t.latency_max), t.bisection_bound,
                  t.complete ? "yes" : "NO");
    }
  }
  if (plot) {
    std::ofstream out(*plot);
    if (!out) throw Error("--plot " + *plot + ": cannot be written");
    out << latencyLoadSvg(std::string("latency-load, ") + trafficPatternName(spec.pattern) +
                              " traffic, " + std::to_string(u64{1} << spec.n) + " nodes, e-cube",
                          {series}, saturation);
  }
  if (json) {
    nlohmann::ordered_json j;
    j["pattern"] = trafficPatternName(spec.pattern);
    j["n"] = spec.n;
    j["cycles"] = spec.cycles;
    j["warmup"] = spec.warmup;
    j["seed"] = spec.seed;
    j["fifo_depth"] = opt.fifo_depth;
    j["vcs"] = opt.vcs;
    j["backend"] = backend;
    j["points"] = points;
    if (sweep) j["saturation"] = saturation;
    if (plot) j["plot"] = *plot;
    std::cout << jsonText(j) << "\n";
  } else {
    if (sweep) {
      if (saturation > 0) {
        std::printf("  saturation: offered %.4f is the first rate accepted below 95 %% of it\n",
                    saturation);
      } else {
        std::printf("  saturation: not reached in the sweep\n");
      }
    }
    if (plot) std::printf("  plot: %s\n", plot->c_str());
  }
  return complete ? 0 : 1;
}

}  // namespace hcube

// hcube run: a case run on a backend in table mode (with --inject, a fault) or in routed mode,
// its report beside the paper's bound (sim/commands/commands.h).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <utility>

#include "base/error.h"
#include "cmd_common.h"
#include "commands.h"
#include "spec/initial_values.h"
#ifdef HCUBE_MPI
#include "exec/exec_partitioned.h"
#endif
#include "exec/progress.h"
#include "exec/traffic_monitor.h"
#include "inspect/fault_analysis.h"
#include "inspect/heatmap.h"
#include "inspect/link_csv.h"
#include "router/routed_report.h"
#include "spec/reference.h"

namespace fs = std::filesystem;

namespace hcube {
namespace {

// The processes mpirun started for this run (1 without mpirun): table mode over the ranks
// (docs/mpi.md, sw/exec/exec_partitioned.h).
int mpiRanks() {
#ifdef HCUBE_MPI
  return mpiSize();
#else
  return 1;
#endif
}

// The same checks of a --trace file name on every backend, before anything runs.
void checkTracePath(const std::string& trace) {
  if (trace.empty()) throw Error("--trace '': needs a file name");
  const fs::path dir = fs::path(trace).parent_path();
  std::error_code ec;
  if (!dir.empty() && !fs::is_directory(dir, ec)) {
    throw Error("--trace " + trace + ": directory '" + dir.string() + "' does not exist");
  }
  if (fs::is_directory(trace, ec)) throw Error("--trace " + trace + ": is a directory");
  // The backends create the file only after the run has started; find out now whether it can
  // be written (a SystemC or Verilator error later would not say it was the option).
  const bool existed = fs::exists(trace, ec);
  if (!std::ofstream(trace, std::ios::app)) {
    throw Error("--trace " + trace + ": cannot be written");
  }
  if (!existed) fs::remove(trace, ec);
}

// An output file named by an option (--links, --heatmap): checked before anything runs.
void checkOutputPath(const std::string& option, const std::string& path) {
  if (path.empty()) throw Error(option + " '': needs a file name");
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw Error(option + " " + path + ": is a directory");
  const bool existed = fs::exists(path, ec);
  if (!std::ofstream(path, std::ios::app)) throw Error(option + " " + path + ": cannot be written");
  if (!existed) fs::remove(path, ec);
}

void writeOutputFile(const std::string& option, const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error(option + " " + path + ": error writing the file");
}

// hcube run --inject: the fault-free run and the run with the fault, both with the traffic log,
// and where they part (sw/inspect/fault_analysis.h). Exit 1 if a check caught the fault.
int runWithFault(const BuiltCase& c, BackendRun b, const Fault& fault) {
  b.record_traffic = true;
  b.progress = nullptr;
  const RunResult golden = runOn(c, b, nullptr);
#ifdef HCUBE_MPI
  if (mpiRank() != 0) {
    // Every rank runs its part of both runs; rank 0 holds their results and reports.
    runFaulty(c.tables, fault, faultRunner(c, b));
    return 0;
  }
#endif
  const u64 k = c.perm.slots();
  std::cout << caseTitle(c) << ", " << golden.cycles << " cycles without the fault\n";
  const FaultAnalysis a = injectOne(c.tables, c.perm, golden, fault, faultRunner(c, b));
  std::cout << formatFaultAnalysis(fault, a, k);
  return a.detected ? 1 : 0;
}

int cmdRoutedRun(Args& args, const std::string& route_word) {
  const RouteKind route = parseRouteKind(route_word);
  const std::string backend = routedBackend(args);
  const bool json = args.flag("--json");
  RouterOptions opt = routerOptions(args);
  const RoutedMessaging messaging = routedMessaging(args);
  opt.tau = messaging.tau;
  RtlOptions rtl;
  rtl.cache_dir = args.get("--cache").value_or("");
  rtl.trace = args.get("--trace").value_or("");
  rtl.threads = rtlThreadsOption(args, backend == "rtl");
  rtl.flat = rtlFlatOption(args, backend == "rtl");
  if (args.flag("--router")) {
    throw Error(
        "--router runs table mode on the model with routers; a routed run (--route) "
        "always uses that model");
  }
  if (!rtl.trace.empty() && backend != "rtl") {
    throw Error("--trace: routed mode writes waveforms on --backend rtl");
  }
  if (!rtl.trace.empty() && fs::path(rtl.trace).extension() != ".vcd" &&
      fs::path(rtl.trace).extension() != ".fst") {
    throw Error("--trace " + rtl.trace + ": name a .vcd or .fst file");
  }
  // A GTKWave save file beside the trace, grouping each router's FIFOs, credits and grants.
  if (!rtl.trace.empty()) rtl.gtkw = fs::path(rtl.trace).replace_extension(".gtkw").string();
  if (args.has("--messages")) throw Error("--messages: use hcube route --messages FILE");
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, {"table"}, origin);
  args.finish();
  std::ostream* progress = !json && stderrIsTerminal() ? &std::cerr : nullptr;
  const MessageList list = caseMessages(c, route, messaging.packet);
  requireSimulatable(list.nodes(), list.memoryWords(), "routed mode's memory (2K words per node)");
  RoutedReport report = routedReportFor(c, route);
  opt.tagged_elements = c.perm.elements();
  ProgressBar bar(progress, "routed run", 0);
  if (progress != nullptr) opt.progress = bar.callback();
  report.result = runRoutedOn(backend, list, taggedMemory(c.perm, list.memoryWords()), opt, rtl);
  bar.finish();
  report.check = checkRoutedMemory(c.perm, report.result.run.memory);
  std::cout << (json ? jsonText(routedJson(report)) + "\n" : formatRoutedText(report));
  return report.passed() ? 0 : 1;
}

}  // namespace

int cmdRun(Args& args) {
  // --route ecube|source|adaptive selects routed mode; any other --route is the algorithm's
  // own parameter (spt's --route greedy|sync).
  if (const auto route = args.peek("--route");
      route && (*route == "ecube" || *route == "source" || *route == "adaptive")) {
    if (mpiRanks() > 1) {
      throw Error("--route " + *route +
                  ": routed mode does not run over MPI ranks yet (docs/mpi.md)");
    }
    return cmdRoutedRun(args, *args.get("--route"));
  }
  const std::string backend = args.get("--backend").value_or("table");
  if (mpiRanks() > 1 && backend != "table") {
    throw Error("--backend " + backend +
                ": a run over MPI ranks has the table backend only (docs/mpi.md)");
  }
  const bool json = args.flag("--json");
  const bool no_verify = args.flag("--no-verify");
  const auto trace = args.get("--trace");
  const long long max_cycles = args.number("--max-cycles", 0);
  const std::string cache = args.get("--cache").value_or("");
  const auto links = args.get("--links");
  const auto heatmap = args.get("--heatmap");
  const auto inject = args.get("--inject");
  const auto seed = args.number("--seed");
  const int threads = rtlThreadsOption(args, backend == "rtl");
  const bool flat = rtlFlatOption(args, backend == "rtl");
  // --router: table mode on the model with routers (routed runs' model, docs/hardware/router.md
  // §11).
  const bool router_model = args.flag("--router");
  if (router_model && backend != "rtl") {
    throw Error("--router runs the tables on the RTL model with routers: it needs --backend rtl");
  }
  std::ostream* progress = !json && stderrIsTerminal() ? &std::cerr : nullptr;
  ProgressBar tables(progress, "tables", 0);
  tables.phase("schedule + compile");
  HeaderOrigin origin;
  const BuiltCase c = [&] {
    try {
      return loadCase(args, {backend}, origin);
    } catch (const Error& e) {
      // A --route that is neither a routing function nor the algorithm's own parameter.
      if (args.has("--route") && std::string(e.what()).rfind("--route", 0) == 0) {
        throw Error(std::string(e.what()) +
                    " (routed mode takes --route ecube, source or adaptive)");
      }
      throw;
    }
  }();
  args.finish();
  if (trace && backend == "table") throw Error("--trace needs --backend rtl or tlm");
  if (trace) checkTracePath(*trace);
  if (trace && backend == "tlm" && fs::path(*trace).extension() != ".vcd") {
    throw Error("--trace " + *trace + ": the TLM model writes VCD (name the file *.vcd)");
  }
  if (max_cycles < 0) throw Error("--max-cycles must be positive");
  if (links) checkOutputPath("--links", *links);
  if (heatmap) {
    checkOutputPath("--heatmap", *heatmap);
    // The heatmap is drawn from the log of every word sent: refuse a log that would not fit.
    constexpr u64 kLogLimit = u64{2} << 30;
    if (const u64 bytes = trafficLogBytesBound(c.tables); bytes > kLogLimit) {
      throw Error("--heatmap: the log of every word this case sends could take " +
                  std::to_string(bytes >> 20) + " MiB (limit " + std::to_string(kLogLimit >> 20) +
                  " MiB); use a smaller --n or --k");
    }
  }
  requireBackendLimits(c.tables, backend, &origin);
  if (seed && inject) throw Error("--seed (seeded values) cannot be combined with --inject");
  const std::optional<CubeMemory> initial = seededInitial(seed, c);
  std::optional<Fault> fault;
  if (inject) {
    fault = parseFault(*inject, c.tables);
    if (json) throw Error("--inject prints a text report (no --json)");
    // The run with --inject is two runs compared, not one run to record.
    for (const auto& [name, given] :
         {std::pair{"--trace", trace.has_value()}, std::pair{"--links", links.has_value()},
          std::pair{"--heatmap", heatmap.has_value()}}) {
      if (given) throw Error(std::string("--inject cannot be combined with ") + name);
    }
  }
  if (!no_verify) {
    tables.phase("verify");
    const VerifyReport v = verifyTables(c.tables, kShownErrors, &origin);
    tables.finish();
    if (!v.ok()) {
      printVerify(v, "static verification of the tables");
      std::cerr << "hcube: not running tables that fail verification (--no-verify runs them)\n";
      return 1;
    }
  }
  tables.finish();  // before the run forks (TLM) or draws its own bar
  RunReport report = reportFor(c);
  BackendRun b{backend, trace.value_or(""), cache, static_cast<u64>(max_cycles), progress};
  b.record_traffic = heatmap.has_value();
  b.threads = threads;
  b.flat = flat;
  b.router_model = router_model;
  b.initial = initial ? &*initial : nullptr;
  if (fault) return runWithFault(c, b, *fault);
  report.run = runOn(c, b, &report.gtkw);
#ifdef HCUBE_MPI
  if (mpiRank() != 0) return 0;  // rank 0 holds the whole cube's result and reports it
  if (mpiPartitioned() && mpiSize() > 1) {
    // What crossed between the ranks (docs/mpi.md, "Exchange volume"); on stderr, so that the
    // report stays the one-process report field for field.
    const u64 bytes = partitionedExchangedBytes();
    std::cerr << "hcube: " << mpiSize() << " ranks exchanged " << bytes << " bytes, "
              << (report.run.cycles == 0 ? 0 : bytes / report.run.cycles) << " per cycle\n";
  }
#endif
  report.trace = b.trace;
  report.check = checkRun(c.perm, b.initial, report.run.memory);
  const TableHeader& h = c.tables.header;
  if (links) writeOutputFile("--links", *links, formatLinkCsv(report.run, h.n, h.lanes));
  if (heatmap) {
    writeOutputFile("--heatmap", *heatmap,
                    formatHeatmapSvg(report.run, h.n, h.lanes, caseTitle(c)));
  }
  std::cout << (json ? formatReportJson(report) + "\n" : formatReportText(report));
  if (initial && !json) {
    std::cout << "  values           seeded (--seed " << *seed
              << ", splitmix64, sw/spec/seeded_words.h), checked against the reference from them\n";
  }
  return report.passed() ? 0 : 1;
}

}  // namespace hcube

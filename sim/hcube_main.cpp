// hcube: the command-line tool (docs/architecture.md §7). Lists algorithms, writes and verifies
// schedule tables, and runs a case on a backend (the C++ table executor or the Verilated RTL cube),
// reporting measured cycles beside the paper's bound and the verdict against the reference.
//
// Exit status: 0 success; 1 a run or verification that found a problem; 2 bad input; 3 an
// internal error.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms.h"
#include "cli_args.h"
#include "cmd_schedule.h"
#include "error.h"
#include "executor.h"
#ifdef HCUBE_MPI
#include "exec_partitioned.h"
#endif
#include "hc_tlm_router.h"
#include "initial_values.h"
#include "inspect/element_path.h"
#include "inspect/fault_campaign.h"
#include "inspect/heatmap.h"
#include "inspect/link_csv.h"
#include "progress.h"
#include "reference.h"
#include "regress.h"
#include "report.h"
#include "resource_limits.h"
#include "router/message_text.h"
#include "router/routed_report.h"
#include "router/router_engine.h"
#include "router/schedule_paths.h"
#include "router/traffic.h"
#include "rtl_backend.h"
#include "sdp.h"
#include "table_diff.h"
#include "table_image.h"
#include "table_text.h"
#include "tlm_backend.h"
#include "verifier.h"

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

// A table file in either format: the image if its first line is 'hcube-image', else the text
// format.
TableSet readTablesFile(const std::string& path, HeaderOrigin* origin) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open for reading");
  std::string first;
  while (std::getline(in, first) && first.find_first_not_of(" \t\r") == std::string::npos) {
  }
  const size_t start = first.find_first_not_of(" \t");
  if (start != std::string::npos && first.compare(start, 11, "hcube-image") == 0) {
    return readImageFile(path, origin);
  }
  return readTableTextFile(path, origin);
}

// Tables given as a path: a .hct or .hex file, or a directory holding tables.hct, tables.hex or
// both. With both, the image is read too and compared with the text, instruction by
// instruction: `image_diff` says where they part.
struct LoadedTables {
  std::string path;  ///< the file read (tables.hct when a directory holds both)
  TableSet set;
  HeaderOrigin origin;
  TableDiff image_diff;
};

LoadedTables loadTables(const std::string& path) {
  LoadedTables t;
  if (!fs::is_directory(path)) {
    t.path = path;
    t.set = readTablesFile(path, &t.origin);
    return t;
  }
  const std::string hct = (fs::path(path) / "tables.hct").string();
  const std::string hex = (fs::path(path) / "tables.hex").string();
  const bool have_hct = fs::exists(hct);
  const bool have_hex = fs::exists(hex);
  if (!have_hct && !have_hex) throw Error(path + ": holds neither tables.hct nor tables.hex");
  t.path = have_hct ? hct : hex;
  t.set = readTablesFile(t.path, &t.origin);
  if (have_hct && have_hex) {
    t.image_diff = diffTables(t.set, readImageFile(hex), "tables.hct", "tables.hex");
  }
  return t;
}

void printDiff(const TableDiff& d, std::ostream& out) {
  for (const std::string& line : d.shown) out << "  " << line << "\n";
  if (d.total > d.shown.size()) out << "  ... and " << (d.total - d.shown.size()) << " more\n";
}

int cmdList(Args& args) {
  const bool json = args.flag("--json");
  args.finish();
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const AlgorithmInfo& a : algorithmCatalogue()) {
      list.push_back({{"name", a.name}, {"summary", a.summary}, {"source", a.source}});
    }
    std::cout << jsonText(list) << "\n";
    return 0;
  }
  for (const AlgorithmInfo& a : algorithmCatalogue()) {
    std::printf("%-16s %s\n%-16s   [%s]\n", a.name.c_str(), a.summary.c_str(), "",
                a.source.c_str());
  }
  std::printf(
      "\nEvery relative-address AAPC (edelman, jh1..jh4, exchange) also takes\n"
      "  --alignment explicit|relative  PERMUTE pre-alignment, exchange on absolute slots,\n"
      "                                 re-alignment [Johnsson & Ho 1992, section 2.2]\n"
      "  --code binary|gray             (j|i) -> (f(i)|g(j)) with f = g = Gray code, folded into\n"
      "                                 the alignment phases [Johnsson & Ho 1992, section "
      "2.2.2]\n");
  return 0;
}

int cmdTables(Args& args) {
  const CaseSpec spec = caseFrom(args);
  auto out = args.get("--out");
  args.finish();
  if (!out) throw Error("--out DIR is required");
  ProgressBar bar(stderrIsTerminal() ? &std::cerr : nullptr, "tables", 0);
  bar.phase("schedule + compile");
  const BuiltCase c = buildCase(spec);
  bar.phase("write");
  std::error_code ec;
  fs::create_directories(*out, ec);
  if (ec) throw Error(*out + ": cannot create directory: " + ec.message());
  const std::string text = (fs::path(*out) / "tables.hct").string();
  const std::string image = (fs::path(*out) / "tables.hex").string();
  writeTableTextFile(text, c.tables);
  writeImageFile(image, c.tables);
  bar.finish();
  std::cout << "wrote " << text << " and " << image << ": " << c.tables.tables.size()
            << (c.tables.shared ? " shared table" : " node tables") << ", " << c.tables.depth()
            << " instructions, " << c.tables.cycles() << " cycles\n";
  return 0;
}

constexpr size_t kShownErrors = 20;  // violations printed by verify, run and compare

int printVerify(const VerifyReport& v, const std::string& what) {
  if (v.ok()) {
    std::cout << what << ": OK (" << v.cycles << " cycles, every element where the reference "
              << "model says)\n";
    return 0;
  }
  std::cerr << what << ": " << v.total_errors << " violation(s)\n";
  for (const std::string& e : v.errors) std::cerr << "  " << e << "\n";
  if (v.total_errors > v.errors.size()) {
    std::cerr << "  ... and " << (v.total_errors - v.errors.size()) << " more\n";
  }
  return 1;
}

int cmdVerify(Args& args) {
  args.finish(1);
  if (args.positional().size() != 1)
    throw Error("verify takes one PATH (a .hct file or a directory)");
  const LoadedTables t = loadTables(args.positional()[0]);
  if (!t.image_diff.same()) {
    std::cerr << args.positional()[0] << ": tables.hct and tables.hex describe different tables ("
              << t.image_diff.total << " difference(s)):\n";
    printDiff(t.image_diff, std::cerr);
    return 1;
  }
  return printVerify(verifyTables(t.set, kShownErrors, &t.origin), t.path);
}

int cmdDiff(Args& args) {
  args.finish(2);
  if (args.positional().size() != 2) {
    throw Error("diff takes two tables (a .hct or .hex file, or a directory)");
  }
  const std::string& a = args.positional()[0];
  const std::string& b = args.positional()[1];
  const TableDiff d = diffTables(loadTables(a).set, loadTables(b).set, a, b);
  if (d.same()) {
    std::cout << a << " and " << b << " describe the same tables\n";
    return 0;
  }
  std::cout << a << " and " << b << " differ (" << d.total << " difference(s)):\n";
  printDiff(d, std::cout);
  return 1;
}

// The case of a run or compare: built from --algo/--n/... or read from --tables (then
// `origin` says where its header fields are). `backends` are those the case will run on: their
// limits that the case spec alone decides are checked before any tables are built.
BuiltCase loadCase(Args& args, const std::vector<std::string>& backends, HeaderOrigin& origin) {
  const auto tables_path = args.get("--tables");
  BuiltCase c;
  // --schedule F.hcs: a schedule file (sim/cmd_schedule.cpp); with --algo it is the algorithm's.
  if (!tables_path && !args.has("--algo") && args.has("--schedule")) {
    return caseFromScheduleArgs(args, *args.get("--schedule"));
  }
  if (tables_path) {
    // The tables fix the case: options that build one cannot be combined with them (only --n,
    // which must agree with the file).
    const std::optional<int> n = optionalDimension(args);
    for (const std::string& o : caseOptions(args)) {
      throw Error("--tables cannot be combined with " + o +
                  " (the tables fix the algorithm and the case)");
    }
    LoadedTables t = loadTables(*tables_path);
    if (!t.image_diff.same()) {
      throw Error(*tables_path + ": tables.hct and tables.hex describe different tables (" +
                  t.image_diff.shown.front() + "; hcube diff lists them all)");
    }
    origin = t.origin;
    c = caseFromTables(std::move(t.set));
    if (n && *n != c.tables.header.n) {
      throw Error(*tables_path + ": the tables are for n = " + std::to_string(c.tables.header.n) +
                  ", not --n " + std::to_string(*n));
    }
  } else {
    CaseSpec spec = caseFrom(args);
    spec.will_run = true;  // its cube memory must fit the executors, checked before it is built
    if (std::find(backends.begin(), backends.end(), "rtl") != backends.end()) {
      requireRtlDimension(spec.n);
    }
    c = buildCase(spec);
  }
  return c;
}

// The limits of one backend on a case, checked before it allocates anything (resource_limits.h).
void requireBackendLimits(const BuiltCase& c, const std::string& backend,
                          const HeaderOrigin& origin) {
  if (backend == "table") requireWithinLimits(tableExecutorEstimate(c.tables), &origin);
  if (backend == "tlm") requireWithinLimits(tlmEstimate(c.tables), &origin);
  if (backend == "rtl") {
    requireRtlDimension(c.tables.header.n);
    requireWithinLimits(rtlRunEstimate(c.tables), &origin);
  }
}

RunReport reportFor(const BuiltCase& c) {
  RunReport report;
  report.algo = c.tables.header.algo;
  report.perm = c.perm;
  report.lanes = c.tables.header.lanes;
  report.one_port = c.tables.header.one_port;
  report.lower_bound = c.lower_bound;
  report.bound_source = c.bound_source;
  report.mac_units = c.tables.header.mac_units;
  report.mac_overlap = c.tables.header.mac_overlap;
  return report;
}

struct BackendRun {
  std::string backend;
  std::string trace;
  std::string cache;
  u64 max_cycles = 0;
  std::ostream* progress = nullptr;     ///< a progress bar on this terminal (sw/progress.h)
  bool record_traffic = false;          ///< fill RunResult::traffic (sw/inspect/)
  u64 record_word = ~u64{0};            ///< ... of this word only (~0: every word)
  const Fault* fault = nullptr;         ///< a link fault to inject (sw/fault.h)
  int threads = 1;                      ///< threads simulating the RTL (rtl backend)
  bool flat = false;                    ///< the flat RTL model, not the node-array one
  bool router_model = false;            ///< table mode on the RTL model with routers
  const CubeMemory* initial = nullptr;  ///< seeded values (--seed); nullptr: tags
  bool quiet = false;                   ///< no progress lines (the faulty runs of a campaign)
};

// --threads T: threads simulating the RTL: the node-array model's node evaluations, or the flat
// model's Verilator threads (a model of its own per T); only the rtl backend has them.
int rtlThreadsOption(Args& args, bool rtl_runs) {
  const std::optional<long long> t = args.number("--threads");
  if (!t) return 1;
  if (!rtl_runs)
    throw Error("--threads sets the Verilated model's threads: it needs the rtl backend");
  return requireRtlThreads(*t);
}

// --rtl-model array|flat: the node-array model (default; docs/hardware/testbench.md §2.1) or the
// flat model, hc_cube verilated whole (traced runs use it anyway).
bool rtlFlatOption(Args& args, bool rtl_runs) {
  const std::optional<std::string> m = args.get("--rtl-model");
  if (!m) return false;
  if (!rtl_runs) throw Error("--rtl-model chooses the Verilated model: it needs the rtl backend");
  if (*m == "flat") return true;
  if (*m == "array") return false;
  throw Error("--rtl-model '" + *m + "': must be array or flat");
}

// The processes mpirun started for this run (1 without mpirun): table mode over the ranks
// (docs/mpi.md, sw/exec_partitioned.h).
int mpiRanks() {
#ifdef HCUBE_MPI
  return mpiSize();
#else
  return 1;
#endif
}

RunResult executeTablesOnRanks(const TableSet& set, const CubeMemory& initial,
                               const ExecOptions& opt) {
#ifdef HCUBE_MPI
  if (mpiPartitioned()) return executePartitioned(set, initial, opt);
#endif
  return executeTables(set, initial, opt);
}

RunResult runOn(const BuiltCase& c, const BackendRun& b, std::string* gtkw) {
  if (b.backend == "table") {
    ExecOptions opt;
    opt.tagged_elements = c.perm.elements();
    opt.record_traffic = b.record_traffic;
    opt.record_word = b.record_word;
    opt.fault = b.fault;
    if (b.max_cycles > 0) opt.max_cycles = b.max_cycles;
    ProgressBar bar(b.progress, "table run", c.tables.cycles());
    if (b.progress != nullptr) opt.progress = bar.callback();
    if (b.initial != nullptr) return executeTablesOnRanks(c.tables, *b.initial, opt);
    return executeTablesOnRanks(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
  }
  if (b.backend == "tlm") {
    TlmOptions opt;
    opt.max_cycles = b.max_cycles;
    opt.vcd = b.trace;
    opt.progress = b.progress != nullptr;
    opt.record_traffic = b.record_traffic;
    opt.record_word = b.record_word;
    opt.fault = b.fault;
    opt.initial = b.initial;
    return runOnTlm(c.tables, opt);
  }
  if (b.backend == "rtl") {
    RtlOptions opt;
    opt.cache_dir = b.cache;
    opt.threads = b.threads;
    opt.flat = b.flat;
    opt.router_model = b.router_model;
    opt.progress = b.quiet ? nullptr : &std::cerr;
    opt.progress_bar = b.progress != nullptr;
    opt.max_cycles = b.max_cycles;
    opt.record_traffic = b.record_traffic;
    opt.record_word = b.record_word;
    opt.initial = b.initial;
    opt.fault = b.fault;
    if (!b.trace.empty()) {
      opt.trace = b.trace;
      opt.gtkw = (fs::path(b.trace).replace_extension(".gtkw")).string();
      if (gtkw) *gtkw = opt.gtkw;
    }
    return runOnRtl(c.tables, opt);
  }
  throw Error("backend '" + b.backend + "': must be table, tlm or rtl");
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

// The case in a few words, for the titles of pictures (no backend: the same on every one).
std::string caseTitle(const BuiltCase& c) {
  const TableHeader& h = c.tables.header;
  return h.algo + ", " + c.perm.str() + ", width " + std::to_string(h.lanes) +
         (h.one_port ? ", one-port" : "");
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

int cmdRoutedRun(Args& args, const std::string& route);

// Runs the case's tables, or a corrupted copy of them, on backend `b` with a link fault or none.
FaultRunner faultRunner(const BuiltCase& c, const BackendRun& b) {
  return [&c, b](const TableSet& set, const Fault* f) {
    BuiltCase run_case = c;
    run_case.tables = set;
    BackendRun fb = b;
    fb.fault = f;
    fb.quiet = true;
    return runOn(run_case, fb, nullptr);
  };
}

// hcube run --inject: the fault-free run and the run with the fault, both with the traffic log,
// and where they part (sw/inspect/fault_analysis.h). Exit 1 if a check caught the fault.
int runWithFault(const BuiltCase& c, BackendRun b, const Fault& fault) {
  b.record_traffic = true;
  b.progress = nullptr;
  const RunResult golden = runOn(c, b, nullptr);
  const u64 k = c.perm.slots();
  std::cout << caseTitle(c) << ", " << golden.cycles << " cycles without the fault\n";
  const FaultAnalysis a = injectOne(c.tables, c.perm, golden, fault, faultRunner(c, b));
  std::cout << formatFaultAnalysis(fault, a, k);
  return a.detected ? 1 : 0;
}

// hcube faults: a campaign of random single faults over a case (sw/inspect/fault_campaign.h).
int cmdFaults(Args& args) {
  const std::string backend = args.get("--backend").value_or("table");
  const long long count = args.number("--campaign", -1);
  const long long seed = args.number("--seed", 1);
  const std::string cache = args.get("--cache").value_or("");
  if (count < 1) throw Error("--campaign N (a number of faults, at least 1) is required");
  if (static_cast<u64>(count) > kMaxCampaignFaults) {
    throw Error("--campaign " + std::to_string(count) + ": a campaign runs at most " +
                std::to_string(kMaxCampaignFaults) + " faults (each is a run of the case)");
  }
  if (seed < 0) throw Error("--seed must not be negative");
  if (backend != "table" && backend != "tlm" && backend != "rtl") {
    throw Error("--backend '" + backend + "': must be table, tlm or rtl");
  }
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, {backend}, origin);
  args.finish();
  requireBackendLimits(c, backend, origin);
  BackendRun b{backend, "", cache, 0, nullptr};
  b.record_traffic = true;
  const RunResult golden = runOn(c, b, nullptr);
  const CheckResult check = checkAgainstReference(c.perm, golden.memory);
  if (check.mismatches != 0 || !golden.errors.empty() || golden.timeout) {
    throw Error("the case fails without a fault (hcube run shows why): faults need a passing case");
  }
  const std::vector<Fault> faults =
      drawFaults(c.tables, golden, static_cast<u64>(count), static_cast<u64>(seed));
  const auto started = std::chrono::steady_clock::now();
  const CampaignResult r = runCampaign(c.tables, c.perm, golden, faults, faultRunner(c, b));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << caseTitle(c) << ", " << golden.cycles << " cycles; " << count << " faults, seed "
            << seed << "\n"
            << formatCampaign(r);
  std::cerr << "hcube: " << count << " faulty runs in " << seconds << " s\n";
  return 0;
}

// --seed S of run and compare: the arithmetic cases start from seeded values
// (sw/initial_values.h) instead of tags; nullopt without the option.
std::optional<CubeMemory> seededInitial(const std::optional<long long>& seed, const BuiltCase& c) {
  if (!seed) return std::nullopt;
  if (*seed < 0) throw Error("--seed " + std::to_string(*seed) + ": must not be negative");
  return initialMemory(c.perm, c.tables.header.memoryWords(), static_cast<u64>(*seed));
}

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
  if (backend != "table" && backend != "rtl" && backend != "tlm") {
    throw Error("--backend '" + backend + "': must be table, tlm or rtl");
  }
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
  requireBackendLimits(c, backend, origin);
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
              << ", splitmix64, sw/seeded_words.h), checked against the reference from them\n";
  }
  return report.passed() ? 0 : 1;
}

// hcube trace: one element's path through a run, from the traffic monitor's log.
int cmdTrace(Args& args) {
  const std::string backend = args.get("--backend").value_or("table");
  const auto element = args.get("--element");
  const long long max_cycles = args.number("--max-cycles", 0);
  const std::string cache = args.get("--cache").value_or("");
  if (backend != "table" && backend != "rtl" && backend != "tlm") {
    throw Error("--backend '" + backend + "': must be table, tlm or rtl");
  }
  if (!element) throw Error("--element NODE:SLOT is required");
  if (max_cycles < 0) throw Error("--max-cycles must be positive");
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, {backend}, origin);
  args.finish();
  const int n = c.tables.header.n;
  const auto [node, slot] = parseElement(*element, n, c.perm.slots());
  requireBackendLimits(c, backend, origin);
  BackendRun b{backend, "", cache, static_cast<u64>(max_cycles), nullptr};
  b.record_traffic = true;
  b.record_word = node * c.perm.slots() + slot;  // the tag: only its events are kept
  const RunResult r = runOn(c, b, nullptr);
  // No backend name in the output: it is the same on every backend (tests/inspect_cli_test.cpp).
  std::cout << caseTitle(c) << ", " << r.cycles << " cycles\n"
            << formatElementPath(traceElement(r, c.tables, node, slot));
  return 0;
}

int cmdCompareModes(Args& args, const std::string& modes);

int cmdCompare(Args& args) {
  if (const auto modes = args.get("--modes")) return cmdCompareModes(args, *modes);
  const bool json = args.flag("--json");
  const std::string cache = args.get("--cache").value_or("");
  const std::string list = args.get("--backends").value_or("table,tlm,rtl");
  std::vector<std::string> backends;
  std::stringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item != "table" && item != "tlm" && item != "rtl") {
      throw Error("--backends: '" + item + "' is not table, tlm or rtl");
    }
    backends.push_back(item);
  }
  if (backends.size() < 2) throw Error("--backends: name at least two backends to compare");
  const bool rtl_runs = std::find(backends.begin(), backends.end(), "rtl") != backends.end();
  const int threads = rtlThreadsOption(args, rtl_runs);
  const bool flat = rtlFlatOption(args, rtl_runs);
  const auto seed = args.number("--seed");
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, backends, origin);
  args.finish();
  for (const std::string& b : backends) requireBackendLimits(c, b, origin);
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

// ---- Routed mode (docs/hardware/router.md): a permutation or a message list run by the
// per-cycle packet routers instead of tables.

// --fifo-depth, --vcs and --deadlock-cycles, checked.
RouterOptions routerOptions(Args& args) {
  RouterOptions opt;
  const long long depth = args.number("--fifo-depth", 4);
  if (depth < 1 || depth > 1024) {
    throw Error("--fifo-depth " + std::to_string(depth) + ": must be 1..1024");
  }
  opt.fifo_depth = static_cast<u64>(depth);
  opt.vcs = checkedVcs(args.number("--vcs", 1));
  const long long limit = args.number("--deadlock-cycles", 64);
  if (limit < 1) throw Error("--deadlock-cycles " + std::to_string(limit) + ": must be >= 1");
  opt.deadlock_cycles = static_cast<u64>(limit);
  const long long max_cycles = args.number("--max-cycles", 0);
  if (max_cycles < 0) throw Error("--max-cycles must be positive");
  if (max_cycles > 0) opt.max_cycles = static_cast<u64>(max_cycles);
  return opt;
}

// --tau T and --packet B in routed mode (docs/hardware/router.md §7): the start-up of every message
// and the most words a message carries, read without claiming them, for they are also the
// case's own parameters (its schedule's tau and packet size, checked by the algorithm).
struct RoutedMessaging {
  u64 tau = 0;
  u64 packet = 1;
};

RoutedMessaging routedMessaging(const Args& args) {
  auto value = [&](const char* name, long long fallback) {
    const auto text = args.peek(name);
    if (!text) return fallback;
    if (text->empty() || text->size() > 18 ||
        text->find_first_not_of("0123456789") != std::string::npos) {
      throw Error(std::string(name) + " '" + *text + "': must be a non-negative integer");
    }
    return std::stoll(*text);
  };
  RoutedMessaging m;
  const long long tau = value("--tau", 0);
  if (tau > static_cast<long long>(kMaxRoutedTau)) {
    throw Error("--tau " + std::to_string(tau) + ": routed mode's start-up must be 0.." +
                std::to_string(kMaxRoutedTau) + " cycles (the RTL configuration word's field)");
  }
  const long long packet = value("--packet", 1);
  if (packet < 1) throw Error("--packet 0: a routed message carries at least one word");
  m.tau = static_cast<u64>(tau);
  m.packet = static_cast<u64>(packet);
  return m;
}

// The routed backend: the golden model (table), the TLM routers or the RTL routers.
std::string routedBackend(Args& args) {
  const std::string backend = args.get("--backend").value_or("table");
  if (backend == "table" || backend == "tlm" || backend == "rtl") return backend;
  throw Error("--backend '" + backend + "': must be table, tlm or rtl");
}

RoutedRun runRoutedOn(const std::string& backend, const MessageList& list,
                      const CubeMemory& initial, const RouterOptions& opt,
                      const RtlOptions& rtl = {}) {
  if (backend == "tlm") {
    RouterOptions child = opt;
    child.progress = {};
    return runRoutedOnTlm(list, initial, {child});
  }
  if (backend == "rtl") return runRoutedOnRtl(list, initial, opt, rtl);
  return runRouter(list, initial, opt);
}

// The message list of a case in routed mode: under ecube every element's packet finds its own
// way; under source it follows the path the case's schedule moves it on
// (sw/router/schedule_paths.h), released in the cycle the schedule first sends it.
// With --packet B each node's words for one destination go in messages of up to B words
// (router/messages.h groupMessages).
MessageList caseMessages(const BuiltCase& c, RouteKind route, u64 packet = 1) {
  return groupMessages(route == RouteKind::kSource ? messagesFromSchedule(c.perm, c.tables)
                                                   : messagesFromPermutation(c.perm, route),
                       packet);
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
  RoutedReport report;
  report.algo = c.tables.header.algo;
  report.perm = c.perm;
  report.route = route;
  report.lower_bound = c.lower_bound;
  report.bound_source = c.bound_source;
  opt.tagged_elements = c.perm.elements();
  ProgressBar bar(progress, "routed run", 0);
  if (progress != nullptr) opt.progress = bar.callback();
  report.result = runRoutedOn(backend, list, taggedMemory(c.perm, list.memoryWords()), opt, rtl);
  bar.finish();
  report.check = checkRoutedMemory(c.perm, report.result.run.memory);
  std::cout << (json ? jsonText(routedJson(report)) + "\n" : formatRoutedText(report));
  return report.passed() ? 0 : 1;
}

// hcube messages: the message list of a case's permutation, in the text form.
int cmdMessages(Args& args) {
  const RouteKind route = parseRouteKind(args.get("--route").value_or("ecube"));
  const auto out = args.get("--out");
  const RoutedMessaging messaging = routedMessaging(args);
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, {"table"}, origin);
  args.finish();
  if (!out) throw Error("--out FILE is required");
  const MessageList list = caseMessages(c, route, messaging.packet);
  writeMessageTextFile(*out, list);
  std::cout << "wrote " << *out << ": " << list.messages() << " messages on " << list.nodes()
            << " nodes\n";
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

int cmdCompareModes(Args& args, const std::string& modes_text) {
  const bool json = args.flag("--json");
  // --backends table,tlm,rtl runs every mode on each and requires them to agree exactly;
  // --backend (or nothing) runs one.
  std::vector<std::string> backends;
  if (const auto list = args.get("--backends")) {
    if (args.has("--backend")) throw Error("--backend and --backends exclude each other");
    std::stringstream names(*list);
    std::string name;
    while (std::getline(names, name, ',')) {
      if (name != "table" && name != "tlm" && name != "rtl") {
        throw Error("--backends: '" + name + "' is not table, tlm or rtl");
      }
      if (std::find(backends.begin(), backends.end(), name) != backends.end()) {
        throw Error("--backends: '" + name + "' given twice");
      }
      backends.push_back(name);
    }
    if (backends.empty()) throw Error("--backends: name at least one backend");
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
  std::vector<std::string> modes;
  std::stringstream items(modes_text);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item != "schedule") parseRouteKind(item);  // names the bad mode
    if (std::find(modes.begin(), modes.end(), item) != modes.end()) {
      throw Error("--modes: '" + item + "' given twice");
    }
    modes.push_back(item);
  }
  if (modes.empty()) throw Error("--modes: name at least one of schedule, ecube, source, adaptive");
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, backends, origin);
  args.finish();
  for (const std::string& b : backends) requireBackendLimits(c, b, origin);
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
      RoutedReport r;
      r.algo = c.tables.header.algo;
      r.perm = c.perm;
      r.route = route;
      r.lower_bound = c.lower_bound;
      r.bound_source = c.bound_source;
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
// ---- end of routed mode

int cmdBuildModel(Args& args) {
  // --memory / --depth enlarge the model beyond what the case needs, so that one cached model
  // serves many cases of the same n and lanes (any cached model at least as large is reused).
  const long long memory = args.number("--memory", 0);
  const long long depth = args.number("--depth", 0);
  const bool router = args.flag("--router");
  const int vcs = checkedVcs(args.number("--vcs", 1));
  if (vcs > 1 && !router) throw Error("--vcs " + std::to_string(vcs) + " needs --router");
  CaseSpec spec = caseFrom(args);
  const std::string cache = args.get("--cache").value_or("");
  const int threads = rtlThreadsOption(args, true);
  const bool flat = rtlFlatOption(args, true);
  args.finish();
  requireRtlDimension(spec.n);
  if (memory < 0 || memory > (1LL << 20)) {
    throw Error("--memory " + std::to_string(memory) + ": must be 0..2^20 words per node");
  }
  if (depth < 0 || depth > (1LL << 20)) {
    throw Error("--depth " + std::to_string(depth) + ": must be 0..2^20 instructions per node");
  }
  const BuiltCase c = buildCase(spec);
  RtlModelConfig config = rtlModelFor(c.tables);
  config.num_slots = std::max<u64>(config.num_slots, std::bit_ceil(static_cast<u64>(memory)));
  config.table_depth = std::max<u64>(config.table_depth, std::bit_ceil(static_cast<u64>(depth)));
  config.array = !flat;
  config.threads = flat ? threads : 1;  // the node-array model's threads are the runner's
  config.router = router;
  config.vcs = vcs;
  RtlOptions opt;
  opt.cache_dir = cache;
  opt.progress = &std::cerr;
  std::cout << ensureRtlModel(config, opt).runner << "\n";
  return 0;
}

/// hcube sdp: Ho & Johnsson 1988 §2-3 classification and lower bounds (sw/sdp.h).
int cmdSdp(Args& args) {
  const int n = static_cast<int>(args.number("--n", -1));
  const long long k = args.number("--k", 0);
  const auto delta = args.get("--delta");
  const auto cycles = args.get("--cycles");
  const int mp = static_cast<int>(args.number("--mp", -1));
  const long long tau = args.number("--tau", 0);
  const bool json = args.flag("--json");
  if (!args.flag("--describe")) throw Error("hcube sdp: --describe is the only action");
  args.finish();
  const SdpDescription d = describeSdpOptions(n, k, delta, cycles, mp, tau);
  std::cout << (json ? d.json + "\n" : d.text);
  return 0;
}

// The function that runs each subcommand; what the subcommand takes and its help are in
// sim/cli_commands.cpp. Adding a subcommand is one entry there, one here and one function.
struct Command {
  const char* name;
  int (*run)(Args& args);
};

constexpr Command kCommands[] = {
    {"list", cmdList},         {"tables", cmdTables},
    {"verify", cmdVerify},     {"run", cmdRun},
    {"trace", cmdTrace},       {"faults", cmdFaults},
    {"compare", cmdCompare},   {"build-model", cmdBuildModel},
    {"messages", cmdMessages}, {"route", cmdRoute},
    {"traffic", cmdTraffic},   {"diff", cmdDiff},
    {"sdp", cmdSdp},           {"regress", cmdRegress},
    {"schedule", cmdSchedule}, {"compile", cmdCompile},
};

// Started by mpirun (OpenMPI sets OMPI_COMM_WORLD_SIZE) with more than one rank: only a run
// partitions the cube over the ranks, and only a tool built with MPI can (docs/mpi.md).
void requireMpiCommand(int argc, char** argv) {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr || std::atoi(size) <= 1) return;
#ifndef HCUBE_MPI
  (void)argc;
  (void)argv;
  throw Error(std::string("started by mpirun with ") + size +
              " ranks, but this hcube was built without MPI (install libopenmpi-dev and "
              "rebuild; docs/mpi.md)");
#else
  if (argc < 2 || std::string(argv[1]) != "run") {
    throw Error("under mpirun only 'hcube run' (table mode) runs over the ranks (docs/mpi.md)");
  }
#endif
}

int dispatch(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "help") {
    std::cout << toolUsage();
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  const Command* command = nullptr;
  for (const Command& c : kCommands) {
    if (cmd == c.name) command = &c;
  }
  const CommandLine* line = findCommandLine(cmd);
  if (command == nullptr || line == nullptr) {
    throw Error("unknown command '" + cmd + "' (hcube --help lists them)");
  }
  Args args(argc, argv, 2, *line);
  if (args.help()) {
    std::cout << commandHelp(*line);
    return 0;
  }
  try {
    return command->run(args);
  } catch (const std::bad_alloc&) {
    // The case's schedule, tables or memories do not fit this machine's memory: the estimates
    // of resource_limits.h catch the large ones, the rest ends here. Say it in the command's
    // own terms: verify has no --n or --k.
    if (cmd == "verify") {
      throw Error("out of memory reading or verifying " + args.positional().front() +
                  "; its tables do not fit this machine's memory");
    }
    throw Error(
        "out of memory building or running this case; its schedule, per-node tables and "
        "memories do not fit (use a smaller --n or --k)");
  }
}

}  // namespace
}  // namespace hcube

int main(int argc, char** argv) {
#ifdef HCUBE_MPI
  hcube::MpiSession mpi(&argc, &argv);  // started by mpirun: table mode over the ranks
#endif
  try {
    hcube::requireMpiCommand(argc, argv);
    return hcube::dispatch(argc, argv);
  } catch (const hcube::Error& e) {
    std::cerr << "hcube: error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // Outside a command (dispatch words it for each command).
    std::cerr << "hcube: error: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hcube: internal error: " << e.what() << "\n";
    return 3;
  }
}

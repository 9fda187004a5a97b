// hcube: the helpers several commands of the tool share (sim/commands/cmd_common.h).
#include "cmd_common.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "base/error.h"
#include "cmd_schedule.h"
#ifdef HCUBE_MPI
#include "exec/exec_partitioned.h"
#endif
#include "exec/progress.h"
#include "hc_tlm_router.h"
#include "router/schedule_paths.h"
#include "spec/initial_values.h"
#include "spec/reference.h"
#include "tables/table_image.h"
#include "tables/table_text.h"
#include "tlm_backend.h"

namespace fs = std::filesystem;

namespace hcube {
namespace {

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

RunResult executeTablesOnRanks(const TableSet& set, const CubeMemory& initial,
                               const ExecOptions& opt) {
#ifdef HCUBE_MPI
  if (mpiPartitioned()) return executePartitioned(set, initial, opt);
#endif
  return executeTables(set, initial, opt);
}

}  // namespace

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

BuiltCase loadCase(Args& args, const std::vector<std::string>& backends, HeaderOrigin& origin) {
  const auto tables_path = args.get("--tables");
  BuiltCase c;
  // --schedule F.hcs: a schedule file (sim/commands/cmd_schedule.cpp); with --algo it is the
  // algorithm's.
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

int rtlThreadsOption(Args& args, bool rtl_runs) {
  const std::optional<long long> t = args.number("--threads");
  if (!t) return 1;
  if (!rtl_runs)
    throw Error("--threads sets the Verilated model's threads: it needs the rtl backend");
  return requireRtlThreads(*t);
}

bool rtlFlatOption(Args& args, bool rtl_runs) {
  const std::optional<std::string> m = args.get("--rtl-model");
  if (!m) return false;
  if (!rtl_runs) throw Error("--rtl-model chooses the Verilated model: it needs the rtl backend");
  return *m == "flat";  // CLI11 checked array|flat
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
#ifdef HCUBE_MPI
    if (mpiPartitioned()) {
      // Each rank builds the initial memory of its own nodes only.
      const NodeRange mine = partitionedNodes(c.tables.header.nodes());
      return executePartitioned(
          c.tables, taggedMemory(c.perm, c.tables.header.memoryWords(), mine.first, mine.nodes),
          opt);
    }
#endif
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

std::string caseTitle(const BuiltCase& c) {
  const TableHeader& h = c.tables.header;
  return h.algo + ", " + c.perm.str() + ", width " + std::to_string(h.lanes) +
         (h.one_port ? ", one-port" : "");
}

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

std::optional<CubeMemory> seededInitial(const std::optional<long long>& seed, const BuiltCase& c) {
  if (!seed) return std::nullopt;
  if (*seed < 0) throw Error("--seed " + std::to_string(*seed) + ": must not be negative");
  return initialMemory(c.perm, c.tables.header.memoryWords(), static_cast<u64>(*seed));
}

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

std::string routedBackend(Args& args) {
  return args.get("--backend").value_or("table");  // CLI11 checked table|tlm|rtl
}

RoutedRun runRoutedOn(const std::string& backend, const MessageList& list,
                      const CubeMemory& initial, const RouterOptions& opt, const RtlOptions& rtl) {
  if (backend == "tlm") {
    RouterOptions child = opt;
    child.progress = {};
    return runRoutedOnTlm(list, initial, {child});
  }
  if (backend == "rtl") return runRoutedOnRtl(list, initial, opt, rtl);
  return runRouter(list, initial, opt);
}

RoutedReport routedReportFor(const BuiltCase& c, RouteKind route) {
  RoutedReport r;
  r.algo = c.tables.header.algo;
  r.perm = c.perm;
  r.route = route;
  r.lower_bound = c.lower_bound;
  r.bound_source = c.bound_source;
  return r;
}

MessageList caseMessages(const BuiltCase& c, RouteKind route, u64 packet) {
  return groupMessages(route == RouteKind::kSource ? messagesFromSchedule(c.perm, c.tables)
                                                   : messagesFromPermutation(c.perm, route),
                       packet);
}

}  // namespace hcube

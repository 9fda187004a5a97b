// hcube: the command-line tool (DESIGN §7). Lists algorithms, writes and verifies schedule
// tables, and runs a case on a backend (the C++ table executor or the Verilated RTL cube),
// reporting measured cycles beside the paper's bound and the verdict against the reference.
//
// Exit status: 0 success; 1 a run or verification that found a problem; 2 bad input.
#include <algorithm>
#include <bit>
#include <cstdio>
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
#include "error.h"
#include "executor.h"
#include "reference.h"
#include "report.h"
#include "rtl_backend.h"
#include "sdp.h"
#include "table_image.h"
#include "table_text.h"
#include "tlm_backend.h"
#include "verifier.h"

namespace fs = std::filesystem;

namespace hcube {
namespace {

constexpr const char* kUsage = R"(usage:
  hcube list [--json]
      the algorithms, each with a one-line description and its paper section
  hcube tables --algo A --n N [--k K] [--width B] [--ports all|one] [--PARAM V ...] --out DIR
      write DIR/tables.hct (text tables, docs/table-format.md) and DIR/tables.hex (RTL image);
      --PARAM V are the algorithm's own parameters (e.g. --tau 20; hcube list names them)
  hcube verify PATH
      statically verify tables (a .hct file, or a directory holding tables.hct)
  hcube run (--algo A --n N [--k K] [--width B] [--ports all|one] | --tables PATH)
            [--backend table|tlm|rtl] [--trace FILE] [--json] [--no-verify]
            [--max-cycles C] [--cache DIR]
      run a case and check every element against the reference model; --trace writes an
      FST (or .vcd) waveform and a GTKWave save file from the RTL, or a VCD from the TLM model
  hcube compare (--algo A --n N [--k K] [--width B] [--ports all|one] | --tables PATH)
            [--backends table,tlm,rtl] [--json] [--cache DIR]
      run one case on several backends, print cycles, mismatches and wall time side by side;
      exit 1 on any disagreement between them or with the reference model
  hcube build-model --algo A --n N [--k K] [--width B] [--memory M] [--depth D] [--cache DIR]
      build (or find in the cache) the Verilated cube for a case, without running it;
      --memory / --depth make it at least that large, so that it serves bigger cases too
  hcube sdp --describe --n N [--k K] (--delta D | --cycles C) [--mp M] [--tau T] [--json]
      a stable dimension permutation (Ho & Johnsson 1988, paper numbering: processor dimensions
      0..n-1, storage n..): its GSHs, real/virtual/mixed, sigma_p, beta, oJ, every lower bound
)";

class Args {
 public:
  Args(int argc, char** argv, int first) {
    for (int i = first; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) {
        positional_.push_back(a);
        continue;
      }
      if (a == "--json" || a == "--no-verify" || a == "--describe") {
        flags_[a] = "1";
        continue;
      }
      if (i + 1 >= argc) throw Error("option " + a + " needs a value");
      flags_[a] = argv[++i];
    }
  }
  std::optional<std::string> get(const std::string& name) {
    used_.push_back(name);
    auto it = flags_.find(name);
    if (it == flags_.end()) return std::nullopt;
    return it->second;
  }
  bool flag(const std::string& name) { return get(name).has_value(); }
  long long number(const std::string& name, long long fallback) {
    auto v = get(name);
    if (!v) return fallback;
    try {
      size_t used = 0;
      const long long x = std::stoll(*v, &used);
      if (used != v->size()) throw std::invalid_argument("trailing");
      return x;
    } catch (const std::exception&) {
      throw Error("option " + name + " '" + *v + "' is not an integer");
    }
  }
  const std::vector<std::string>& positional() const { return positional_; }
  /// Claims every option not in `reserved` and not read yet: the algorithm's own parameters.
  std::map<std::string, std::string> claimRest(const std::set<std::string>& reserved) {
    std::map<std::string, std::string> rest;
    for (const auto& [name, value] : flags_) {
      if (reserved.count(name) != 0) continue;
      if (std::find(used_.begin(), used_.end(), name) != used_.end()) continue;
      used_.push_back(name);
      rest[name.substr(2)] = value;
    }
    return rest;
  }
  /// Rejects options that the command did not ask for.
  void finish() const {
    for (const auto& [name, value] : flags_) {
      if (std::find(used_.begin(), used_.end(), name) == used_.end()) {
        throw Error("unknown option " + name + " for this command (see hcube --help)");
      }
    }
  }

 private:
  std::map<std::string, std::string> flags_;
  std::vector<std::string> positional_;
  std::vector<std::string> used_;
};

CaseSpec caseFrom(Args& args) {
  CaseSpec c;
  auto algo = args.get("--algo");
  if (!algo) throw Error("--algo is required (hcube list shows the algorithms)");
  c.algo = *algo;
  const long long n = args.number("--n", -1);
  if (n < 0) throw Error("--n is required");
  if (n < 1 || n > 20) throw Error("--n " + std::to_string(n) + ": must be 1..20");
  c.n = static_cast<int>(n);
  const long long k = args.number("--k", 0);
  if (k < 0) throw Error("--k " + std::to_string(k) + ": must be positive");
  c.slots = static_cast<u64>(k);
  const long long width = args.number("--width", 1);
  if (width < 1 || width > 64) throw Error("--width " + std::to_string(width) + ": must be 1..64");
  c.lanes = static_cast<int>(width);
  const std::string ports = args.get("--ports").value_or("all");
  if (ports != "all" && ports != "one") throw Error("--ports '" + ports + "': must be all or one");
  c.one_port = ports == "one";
  // Every other option except the commands' own is a parameter of the algorithm; buildCase
  // rejects the ones the algorithm does not take.
  c.params = args.claimRest({"--out", "--backend", "--json", "--no-verify", "--trace",
                             "--max-cycles", "--cache", "--backends", "--tables"});
  return c;
}

std::string tablesPath(const std::string& path) {
  if (fs::is_directory(path)) return (fs::path(path) / "tables.hct").string();
  return path;
}

int cmdList(Args& args) {
  const bool json = args.flag("--json");
  args.finish();
  if (json) {
    std::cout << "[";
    bool first = true;
    for (const AlgorithmInfo& a : algorithmCatalogue()) {
      std::cout << (first ? "" : ",") << "{\"name\":\"" << jsonEscape(a.name) << "\",\"summary\":\""
                << jsonEscape(a.summary) << "\",\"source\":\"" << jsonEscape(a.source) << "\"}";
      first = false;
    }
    std::cout << "]\n";
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
  const BuiltCase c = buildCase(spec);
  std::error_code ec;
  fs::create_directories(*out, ec);
  if (ec) throw Error(*out + ": cannot create directory: " + ec.message());
  const std::string text = (fs::path(*out) / "tables.hct").string();
  const std::string image = (fs::path(*out) / "tables.hex").string();
  writeTableTextFile(text, c.tables);
  writeImageFile(image, c.tables);
  std::cout << "wrote " << text << " and " << image << ": " << c.tables.tables.size()
            << (c.tables.shared ? " shared table" : " node tables") << ", " << c.tables.depth()
            << " instructions, " << c.tables.cycles() << " cycles\n";
  return 0;
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

int cmdVerify(Args& args) {
  args.finish();
  if (args.positional().size() != 1)
    throw Error("verify takes one PATH (a .hct file or a directory)");
  const std::string path = tablesPath(args.positional()[0]);
  const TableSet set = readTableTextFile(path);
  return printVerify(verifyTables(set), path);
}

// The case of a run or compare: built from --algo/--n/... or read from --tables.
BuiltCase loadCase(Args& args) {
  const auto tables_path = args.get("--tables");
  BuiltCase c;
  if (tables_path) {
    c = caseFromTables(readTableTextFile(tablesPath(*tables_path)));
    // --n given with --tables must agree with the file.
    const long long n = args.number("--n", -1);
    if (n >= 0 && n != c.tables.header.n) {
      throw Error(*tables_path + ": the tables are for n = " + std::to_string(c.tables.header.n) +
                  ", not --n " + std::to_string(n));
    }
  } else {
    c = buildCase(caseFrom(args));
  }
  return c;
}

RunReport reportFor(const BuiltCase& c) {
  RunReport report;
  report.algo = c.tables.header.algo;
  report.perm = c.perm;
  report.lanes = c.tables.header.lanes;
  report.one_port = c.tables.header.one_port;
  report.lower_bound = c.lower_bound;
  report.bound_source = c.bound_source;
  return report;
}

struct BackendRun {
  std::string backend;
  std::string trace;
  std::string cache;
  u64 max_cycles = 0;
};

RunResult runOn(const BuiltCase& c, const BackendRun& b, std::string* gtkw) {
  if (b.backend == "table") {
    ExecOptions opt;
    opt.tagged_elements = c.perm.elements();
    if (b.max_cycles > 0) opt.max_cycles = b.max_cycles;
    return executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
  }
  if (b.backend == "tlm") {
    TlmOptions opt;
    opt.max_cycles = b.max_cycles;
    opt.vcd = b.trace;
    return runOnTlm(c.tables, opt);
  }
  if (b.backend == "rtl") {
    RtlOptions opt;
    opt.cache_dir = b.cache;
    opt.progress = &std::cerr;
    opt.max_cycles = b.max_cycles;
    if (!b.trace.empty()) {
      opt.trace = b.trace;
      opt.gtkw = (fs::path(b.trace).replace_extension(".gtkw")).string();
      if (gtkw) *gtkw = opt.gtkw;
    }
    return runOnRtl(c.tables, opt);
  }
  throw Error("backend '" + b.backend + "': must be table, tlm or rtl");
}

int cmdRun(Args& args) {
  const std::string backend = args.get("--backend").value_or("table");
  const bool json = args.flag("--json");
  const bool no_verify = args.flag("--no-verify");
  const auto trace = args.get("--trace");
  const long long max_cycles = args.number("--max-cycles", 0);
  const std::string cache = args.get("--cache").value_or("");
  const BuiltCase c = loadCase(args);
  args.finish();
  if (backend != "table" && backend != "rtl" && backend != "tlm") {
    throw Error("--backend '" + backend + "': must be table, tlm or rtl");
  }
  if (trace && backend == "table") throw Error("--trace needs --backend rtl or tlm");
  if (trace && backend == "tlm" && fs::path(*trace).extension() != ".vcd") {
    throw Error("--trace " + *trace + ": the TLM model writes VCD (name the file *.vcd)");
  }
  if (max_cycles < 0) throw Error("--max-cycles must be positive");
  if (!no_verify) {
    const VerifyReport v = verifyTables(c.tables);
    if (!v.ok()) {
      printVerify(v, "static verification of the tables");
      std::cerr << "hcube: not running tables that fail verification (--no-verify runs them)\n";
      return 1;
    }
  }
  RunReport report = reportFor(c);
  BackendRun b{backend, trace.value_or(""), cache, static_cast<u64>(max_cycles)};
  report.run = runOn(c, b, &report.gtkw);
  report.trace = b.trace;
  report.check = checkAgainstReference(c.perm, report.run.memory);
  std::cout << (json ? formatReportJson(report) + "\n" : formatReportText(report));
  return report.passed() ? 0 : 1;
}

int cmdCompare(Args& args) {
  const bool json = args.flag("--json");
  const std::string cache = args.get("--cache").value_or("");
  const std::string list = args.get("--backends").value_or("table,tlm,rtl");
  const BuiltCase c = loadCase(args);
  args.finish();
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
  const VerifyReport v = verifyTables(c.tables);
  std::vector<RunReport> reports;
  for (const std::string& b : backends) {
    RunReport r = reportFor(c);
    r.run = runOn(c, BackendRun{b, "", cache, 0}, nullptr);
    r.check = checkAgainstReference(c.perm, r.run.memory);
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
    std::cout << "{\"agree\":" << (problems.empty() ? "true" : "false") << ",\"runs\":[";
    for (size_t i = 0; i < reports.size(); ++i) {
      std::cout << (i ? "," : "") << formatReportJson(reports[i]);
    }
    std::cout << "],\"problems\":[";
    for (size_t i = 0; i < problems.size(); ++i) {
      std::cout << (i ? "," : "") << "\"" << jsonEscape(problems[i]) << "\"";
    }
    std::cout << "]}\n";
  } else {
    std::printf("hcube compare: %s on a %d-cube, K = %llu (lower bound %llu: %s)\n",
                c.tables.header.algo.c_str(), c.perm.n(),
                static_cast<unsigned long long>(c.perm.slots()),
                static_cast<unsigned long long>(c.lower_bound), c.bound_source.c_str());
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

int cmdBuildModel(Args& args) {
  // --memory / --depth enlarge the model beyond what the case needs, so that one cached model
  // serves many cases of the same n and lanes (any cached model at least as large is reused).
  const long long memory = args.number("--memory", 0);
  const long long depth = args.number("--depth", 0);
  CaseSpec spec = caseFrom(args);
  const std::string cache = args.get("--cache").value_or("");
  args.finish();
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

int dispatch(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "help") {
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  Args args(argc, argv, 2);
  if (cmd == "list") return cmdList(args);
  if (cmd == "tables") return cmdTables(args);
  if (cmd == "verify") return cmdVerify(args);
  if (cmd == "run") return cmdRun(args);
  if (cmd == "compare") return cmdCompare(args);
  if (cmd == "build-model") return cmdBuildModel(args);
  if (cmd == "sdp") return cmdSdp(args);
  throw Error("unknown command '" + cmd + "' (hcube --help lists them)");
}

}  // namespace
}  // namespace hcube

int main(int argc, char** argv) {
  try {
    return hcube::dispatch(argc, argv);
  } catch (const hcube::Error& e) {
    std::cerr << "hcube: error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // The case's schedule, tables or memories do not fit this machine's memory: the cube limits
    // (N K <= 2^28 words) admit cases whose per-node tables need tens of GB.
    std::cerr << "hcube: error: out of memory building or running this case; its schedule, "
                 "per-node tables and memories do not fit (use a smaller --n or --k)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hcube: internal error: " << e.what() << "\n";
    return 3;
  }
}

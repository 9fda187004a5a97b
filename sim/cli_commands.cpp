// The command line of the hcube tool, described once (sim/cli_commands.h).
#include "cli_commands.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <stdexcept>

#include "router/messages.h"

namespace hcube {
namespace {

// The case options: read by caseFrom (sim/cli_args.h) for every command that builds a case.
const std::vector<std::string> kCase = {"--algo", "--n", "--k", "--width", "--ports"};

// An option whose value is one of `choices`; its value text shows them ("table|tlm|rtl").
OptionInfo choiceOption(std::string name, const std::vector<std::string>& choices, std::string help,
                        bool command_only) {
  std::string value;
  for (const std::string& c : choices) value += (value.empty() ? "" : "|") + c;
  return {std::move(name), value, std::move(help), command_only, "", choices, false};
}

// A comma-separated list of some of `choices`.
OptionInfo listOption(std::string name, const std::vector<std::string>& choices, std::string help) {
  return {std::move(name), "LIST", std::move(help), true, "", choices, true};
}

const std::vector<std::string> kBackends = {"table", "tlm", "rtl"};

std::vector<std::string> join(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

constexpr const char* kSyntaxNote = R"(
Options are --name VALUE or --name=VALUE, each at most once. Exit status: 0 success, 1 a run
or verification found a problem, 2 bad input, 3 internal error.
)";

// CLI11's help layout with the command's own synopsis in place of its generated usage line
// (the synopsis shows which options go together, which CLI11 cannot express).
class SynopsisFormatter : public CLI::Formatter {
 public:
  explicit SynopsisFormatter(std::string synopsis) : synopsis_(std::move(synopsis)) {
    column_width(34);
    label("OPTIONS", "OPTIONS");
  }
  std::string make_usage(const CLI::App*, std::string) const override {
    return "usage:\n" + synopsis_ + "\n";
  }
  std::string make_description(const CLI::App*) const override { return ""; }

 private:
  std::string synopsis_;
};

}  // namespace

const std::vector<OptionInfo>& optionCatalogue() {
  static const std::vector<OptionInfo> options = {
      // The case.
      {"--algo", "A", "the algorithm (hcube list names them)"},
      {"--n", "N", "cube dimensions, 1..20"},
      {"--k", "K", "elements per node (default: the algorithm's own)"},
      {"--width", "B", "lanes per port and direction, 1..64 (default 1)"},
      choiceOption("--ports", {"all", "one"},
                   "every port each cycle, or one port per node per cycle", false),
      {"--tables", "PATH", "tables from a .hct file, a .hex image or a directory, not --algo",
       true},
      // Not command-only: with --algo sbnt it is that algorithm's own --schedule rounds|greedy.
      {"--schedule", "F.hcs", "a schedule file (docs/schedule-format.md), not --algo"},
      // What to do with it.
      {"--out", "PATH", "where to write (a directory for tables, a file for messages)", true},
      choiceOption("--backend", kBackends, "the executor: C++ table executor, SystemC-TLM or RTL",
                   true),
      listOption("--backends", kBackends,
                 "comma-separated backends to compare (default table,tlm,rtl)"),
      {"--json", "", "print the report as one JSON object", true},
      {"--no-verify", "", "run tables that fail static verification (to see what they do)", true},
      {"--trace", "FILE", "write a waveform: FST or .vcd from the RTL, VCD from the TLM", true},
      {"--max-cycles", "C", "stop a run after C cycles (0: the run's own limit)", true},
      {"--cache", "DIR", "the Verilated model cache (default $HCUBE_CACHE or ~/.cache/hcube)",
       true},
      {"--threads", "T",
       "threads simulating the RTL (1..64): the node-array model's node evaluations, or with "
       "--rtl-model flat Verilator's multithreaded model",
       true},
      choiceOption("--rtl-model", {"array", "flat"},
                   "the Verilated cube: node-array (default, docs/hardware/testbench.md §2.1) or "
                   "flat (hc_cube whole; traced runs use it)",
                   true),
      {"--router", "",
       "the model with routers, the one routed runs use (run: table mode on it, rtl backend)",
       true},
      {"--memory", "M", "build the model with at least M memory words per node", true},
      {"--depth", "D", "build the model with at least D table words per node", true},
      {"--links", "FILE.csv", "write every directed link's words and utilisation as CSV", true},
      {"--heatmap", "FILE.svg", "write a per-link, per-cycle utilisation picture", true},
      {"--element", "NODE:SLOT", "the element to trace", true},
      {"--inject", "KIND:...", "one fault (kinds under usage above)", true},
      {"--campaign", "N", "the number of random single faults", true},
      {"--seed", "S", "faults, traffic: the random seed (default 1); run, compare: seeded values",
       true},
      // Routed mode.
      {"--route", "ecube|source|adaptive",
       "route the permutation by the per-cycle packet routers (source: along the schedule's "
       "own paths)"},
      {"--fifo-depth", "D", "router input FIFO depth per port, 1..4 (default 4)", true},
      {"--vcs", "V", "virtual channels per link, 1..4 (default 1; adaptive with 2+: Duato)", true},
      {"--deadlock-cycles", "L", "report a deadlock after L cycles without progress (64)", true},
      {"--messages", "FILE", "a routed-mode message list (docs/hardware/router.md §1)", true},
      {"--routed-image", "FILE",
       "messages: also write the routed image the RTL runner loads (docs/hardware/router.md §11)",
       true},
      // No choices: each mode but schedule is read by parseRouteKind, the registry's own check.
      listOption("--modes", {}, "comma-separated, of: schedule, " + routeKindNames(", ")),
      {"--pattern", "NAME", "uniform|transpose|bit-complement|bit-reversal|shuffle|hotspot"},
      {"--rate", "R", "offered load, packets per node per cycle, 0..1"},
      {"--sweep", "FROM:TO:STEP", "offered loads to sweep"},
      {"--plot", "FILE.svg", "write the latency-load plot of a sweep"},
      {"--cycles", "C", "traffic: measured cycles (2000); sdp: the SDP as GSH cycles 0,1/2,3"},
      {"--warmup", "W", "cycles before measuring (default cycles / 5)"},
      // Stable dimension permutations.
      {"--describe", "", "classify the permutation and print its lower bounds"},
      {"--delta", "D", "the dimension permutation, comma-separated images of 0..n+log2(K)-1"},
      {"--mp", "M", "processor dimensions the data occupies (extended cube when M < n)"},
      {"--tau", "T", "start-up cycles per message"},
      // Arithmetic.
      {"--mac-overlap", "",
       "matmul: MAC overlap mode, the MACs run beside the transfers (cannon, square grids)"},
      // Regression suites.
      {"--jobs", "N", "cases run at once, each in a worker process (default 1)", true, "-j"},
      {"--junit", "FILE.xml", "write the results as JUnit XML (what CI servers read)", true},
      {"--shard", "k/N", "run only the k-th of N shards of the suite, chosen by case name", true},
      {"--update", "", "write the measured results into the suite as its expectations", true},
  };
  return options;
}

const OptionInfo& optionInfo(const std::string& name) {
  for (const OptionInfo& o : optionCatalogue()) {
    if (o.name == name) return o;
  }
  throw std::logic_error("option " + name + " is not in the option catalogue");
}

const std::vector<CommandLine>& commandLines() {
  static const std::vector<CommandLine> commands = {
      {"list",
       "the algorithms, with their papers and parameters",
       R"(  hcube list [--json]
      the algorithms, each with a one-line description and its paper section)",
       {"--json"}},
      {"tables", "write a case's tables as text and as the RTL image",
       R"(  hcube tables --algo A --n N [--k K] [--width B] [--ports all|one] [--PARAM V ...] --out DIR
      write DIR/tables.hct (text tables, docs/table-format.md) and DIR/tables.hex (RTL image);
      --PARAM V are the algorithm's own parameters (e.g. --tau 20; hcube list names them))",
       join(kCase, {"--out"}), true},
      {"verify",
       "statically verify tables (text, image or both)",
       R"(  hcube verify PATH
      statically verify tables: a .hct file, a .hex image, or a directory holding tables.hct
      and/or tables.hex (with both, they must describe the same tables))",
       {}},
      {"run", "run a case on a backend and check it against the reference",
       R"(  hcube run (--algo A --n N [--k K] [--width B] [--ports all|one] | --tables PATH
             | --schedule F.hcs [--width B] [--ports all|one] [--tau T])
            [--backend table|tlm|rtl] [--trace FILE] [--json] [--no-verify]
            [--max-cycles C] [--cache DIR] [--threads T] [--rtl-model array|flat] [--router]
            [--links FILE.csv] [--heatmap FILE.svg] [--inject KIND:...] [--seed S]
      run a case and check every element against the reference model; --seed S starts the
      collectives and matmul from seeded values (splitmix64, sw/spec/seeded_words.h) instead of
      tags and checks the sums and products computed from them; the RTL runs on the node-array
      model (hc_node and hc_cube_ctl verilated apart and wired by the testbench, whose build does
      not grow with n) unless --rtl-model flat or --trace asks for hc_cube verilated whole;
      --router runs the tables on the model with routers (table mode is its reset
      configuration; routed runs use that model, docs/hardware/router.md §11);
      --threads T evaluates the nodes on T threads (with the flat model: Verilator's
      multithreaded model, a model of its own); --trace writes an
      FST (or .vcd) waveform and a GTKWave save file from the RTL, or a VCD from the TLM model;
      --links writes the words and utilisation of every directed link as CSV, --heatmap a
      per-link, per-cycle utilisation picture with per-dimension totals (the same on every
      backend); --inject runs the case without and with one fault (on any backend):
        flip:NODE:PORT:LANE:CYCLE[:BIT]   invert a bit of the word crossing that link then
        stuck:NODE:PORT:LANE:CYCLE:BIT:V  that bit of every word stuck at V from CYCLE on
        dead:NODE:PORT:LANE:CYCLE         nothing crosses that link from CYCLE on
        drop:NODE:PORT:LANE:CYCLE         the word crossing then is lost
        table:NODE:STEP:BIT               invert a bit of a table word at load
      and says whether a check caught it and where the run first went wrong (exit 1: caught)
  hcube run (--algo A --n N ... | --tables PATH) --route ecube|source|adaptive
            [--backend table|tlm|rtl] [--fifo-depth D] [--vcs V] [--deadlock-cycles L]
            [--max-cycles C] [--trace FILE.vcd|FILE.fst] [--cache DIR] [--json]
      routed mode: the case's permutation by the per-cycle packet routers, no schedule
      (docs/hardware/router.md; on the RTL the FIFO depth is 1..4, --trace shows the routers))",
       join(kCase, {"--tables",    "--schedule",   "--backend", "--trace",           "--json",
                    "--no-verify", "--max-cycles", "--cache",   "--threads",         "--rtl-model",
                    "--router",    "--links",      "--heatmap", "--inject",          "--seed",
                    "--route",     "--fifo-depth", "--vcs",     "--deadlock-cycles", "--tau"}),
       true},
      {"trace", "print one element's path cycle by cycle",
       R"(  hcube trace (--algo A --n N [--k K] [--width B] [--ports all|one] | --tables PATH)
            --element NODE:SLOT [--backend table|tlm|rtl] [--max-cycles C] [--cache DIR]
      run a case and print one element's path cycle by cycle: the cycle, the sending node,
      the dimension, the receiver, whether it stored or passed the word on, and the slot)",
       join(kCase, {"--tables", "--element", "--backend", "--max-cycles", "--cache"}), true},
      {"faults", "a campaign of random single faults: detection and localisation rates",
       R"(  hcube faults --campaign N [--seed S] (--algo A --n N [--k K] ... | --tables PATH)
            [--backend table|tlm|rtl] [--cache DIR]
      N random single faults over a case (kinds in turn; link faults on words the fault-free
      run sends): per kind how many a check caught, how many it localised to the faulty link
      or node, and those no check can catch (masked) with the reason)",
       join(kCase, {"--tables", "--campaign", "--seed", "--backend", "--cache"}), true},
      {"compare", "one case on several backends, or by schedule and by routers, side by side",
       R"(  hcube compare (--algo A --n N [--k K] [--width B] [--ports all|one] | --tables PATH
                 | --schedule F.hcs [--width B] [--ports all|one] [--tau T])
            [--backends table,tlm,rtl] [--json] [--cache DIR] [--threads T]
            [--rtl-model array|flat] [--seed S]
      run one case on several backends, print cycles, mismatches and wall time side by side
      (--seed S: seeded values for the collectives and matmul, as for run);
      exit 1 on any disagreement between them or with the reference model
  hcube compare (--algo A --n N ... | --tables PATH) --modes schedule,ecube,source
            [--backend table|tlm|rtl | --backends table,tlm,rtl] [--fifo-depth D] [--vcs V]
            [--json]
      one permutation by its schedule's tables and by the routers, side by side; with
      --backends every mode runs on each backend and they must agree exactly)",
       join(kCase, {"--tables", "--schedule", "--backends", "--json", "--cache", "--threads",
                    "--rtl-model", "--seed", "--modes", "--backend", "--fifo-depth", "--vcs",
                    "--deadlock-cycles", "--max-cycles", "--tau"}),
       true},
      {"build-model", "build (or find in the cache) the Verilated cube for a case",
       R"(  hcube build-model --algo A --n N [--k K] [--width B] [--memory M] [--depth D] [--router]
            [--vcs V] [--cache DIR] [--rtl-model array|flat [--threads T]]
      build (or find in the cache) the Verilated cube for a case, without running it;
      --memory / --depth make it at least that large, so that it serves bigger cases too;
      --router builds the model of routed runs (nodes with routers, docs/hardware/router.md §11),
      --vcs V that of routed runs with V virtual channels (docs/hardware/router.md §13);
      --rtl-model flat builds hc_cube verilated whole instead of the node-array model, with
      --threads T as Verilator's multithreaded model with T threads)",
       join(kCase, {"--tables", "--memory", "--depth", "--router", "--vcs", "--cache", "--threads",
                    "--rtl-model"}),
       true},
      {"messages", "write the routed-mode message list of a case",
       R"(  hcube messages --algo A --n N [--k K] [--PARAM V ...] [--route ecube|source|adaptive]
                 --out FILE [--routed-image FILE [--fifo-depth D] [--vcs V] [--tau T]
                 [--deadlock-cycles L]]
      write the routed-mode message list of the case's permutation (docs/hardware/router.md §1);
      --routed-image also writes the routed image that a routed run on the RTL backend gives
      its runner (the same messages, tags in slots 0..K-1, the router options), for a
      testbench of one's own (tb/cocotb/) to load)",
       join(kCase, {"--tables", "--route", "--out", "--routed-image", "--fifo-depth", "--vcs",
                    "--tau", "--deadlock-cycles"}),
       true},
      {"route",
       "run a message list through the per-cycle routers",
       R"(  hcube route --messages FILE [--backend table|tlm|rtl] [--fifo-depth D] [--vcs V]
            [--tau T] [--deadlock-cycles L] [--max-cycles C] [--json]
      run a message list through the per-cycle routers and report delivery and statistics)",
       {"--messages", "--backend", "--fifo-depth", "--vcs", "--tau", "--deadlock-cycles",
        "--max-cycles", "--json"}},
      {"traffic",
       "synthetic traffic through the routers: throughput and latency",
       R"(  hcube traffic --pattern uniform|transpose|bit-complement|bit-reversal|shuffle|hotspot
            --n N (--rate R | --sweep FROM:TO:STEP [--plot FILE.svg]) [--cycles C]
            [--warmup W] [--seed S] [--fifo-depth D] [--vcs V] [--backend table|tlm|rtl]
            [--json]
      synthetic traffic through the e-cube routers: offered and accepted throughput, latency,
      the saturation point of a sweep and a latency-load plot (sw/router/traffic.h))",
       {"--pattern", "--n", "--rate", "--sweep", "--plot", "--cycles", "--warmup", "--seed",
        "--fifo-depth", "--vcs", "--deadlock-cycles", "--max-cycles", "--backend", "--json"}},
      {"diff",
       "compare two tables instruction by instruction",
       R"(  hcube diff A B
      compare two tables (each a .hct file, a .hex image or a directory) instruction by
      instruction, naming node, step and channel of every difference; exit 1 if they differ)",
       {}},
      {"sdp",
       "classify a stable dimension permutation and give its lower bounds",
       R"(  hcube sdp --describe --n N [--k K] (--delta D | --cycles C) [--mp M] [--tau T] [--json]
      a stable dimension permutation (Ho & Johnsson 1988, paper numbering: processor dimensions
      0..n-1, storage n..): its GSHs, real/virtual/mixed, sigma_p, beta, oJ, every lower bound)",
       {"--describe", "--n", "--k", "--delta", "--cycles", "--mp", "--tau", "--json"}},
      {"schedule", "write a catalogue algorithm's abstract schedule as a schedule file",
       R"(  hcube schedule --algo A --n N [--k K] [--width B] [--ports all|one] [--PARAM V ...]
                 --out F.hcs
      write the case's abstract schedule (relative, slots or moves form) and its permutation as
      a schedule file (docs/schedule-format.md); an algorithm whose tables are not one compiled
      abstract schedule is refused, with the reason)",
       join(kCase, {"--out"}), true},
      {"compile",
       "compile a schedule file into tables",
       R"(  hcube compile F.hcs [--width B] [--ports all|one] [--tau T] --out FILE.hct|DIR
      read and check a schedule file (docs/schedule-format.md) and compile it for B lanes,
      all-port or one-port hardware and T start-up cycles per block transfer: FILE.hct, or
      DIR/tables.hct and DIR/tables.hex (hcube run and hcube compare also take a schedule file))",
       {"--width", "--ports", "--tau", "--out"}},
      {"regress",
       "run a suite of cases against their expected results (JUnit XML, shards)",
       R"(  hcube regress SUITE.json [--jobs N] [--shard k/N] [--junit FILE.xml] [--json] [--update]
      run every case of the suite (catalogue cases and table files, each on its backends) in
      worker processes and compare each run with the case's expected fields (cycles, memory
      digest, errors, exit status...); exit 1 if one differs. --shard k/N runs the cases whose
      name hashes to k of N, so that N jobs together run every case exactly once. --update
      writes what this run measured into the suite as its expectations (after a reviewed
      change); the backends of a case must agree. The format: sim/regress.h, docs/guide/02-tables.md)",
       {"--jobs", "--shard", "--junit", "--json", "--update"}},
  };
  return commands;
}

const CommandLine* findCommandLine(const std::string& name) {
  for (const CommandLine& c : commandLines()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const std::set<std::string> kCommandOptions = [] {
  std::set<std::string> names = {"--help"};
  for (const OptionInfo& o : optionCatalogue()) {
    if (o.command_only) names.insert(o.name);
  }
  return names;
}();

std::string toolUsage() {
  std::string u = "usage:\n";
  for (const CommandLine& c : commandLines()) u += c.synopsis + "\n";
  return u + kSyntaxNote;
}

std::string commandHelp(const CommandLine& command) {
  CLI::App app{"", "hcube " + command.name};
  app.formatter(std::make_shared<SynopsisFormatter>(command.synopsis));
  app.set_help_flag();
  for (const std::string& name : command.options) {
    const OptionInfo& o = optionInfo(name);
    CLI::Option* opt =
        o.value.empty() ? app.add_flag(o.name, o.help) : app.add_option(o.name, o.help);
    if (!o.value.empty()) opt->type_name(o.value);
    opt->group(name == "--algo" || name == "--n" || name == "--k" || name == "--width" ||
                       name == "--ports" || name == "--tables"
                   ? "Case"
                   : "Options");
  }
  app.set_help_flag("--help", "print this help and exit")->group("Options");
  std::string help = app.help();
  if (command.algorithm_params) {
    help +=
        "\nAlgorithm parameters:\n"
        "  --PARAM V                       an algorithm's own parameter (e.g. --tau 20); hcube\n"
        "                                  list names them, and an algorithm refuses any other\n";
  }
  return help + kSyntaxNote;
}

}  // namespace hcube

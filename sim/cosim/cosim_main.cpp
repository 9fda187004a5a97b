// hcube-cosim: runs one case of the catalogue on the co-simulated cube (Verilated RTL nodes among
// SystemC-TLM nodes, sim/cosim/README.md) and on the table executor, and reports both side by
// side with the check against the reference model.
//
//   hcube-cosim --algo edelman --n 4 --rtl-nodes 5 [--k K] [--width b] [--ports one]
//               [--trace FILE.vcd] [--max-cycles C] [--PARAM VALUE ...]
//   hcube-cosim --models        (the Verilated node configurations this build holds)
//
// Exit status: 0 when the co-simulation equals the executor exactly (cycles, transfer and local
// cycles, words, error counters, link counts, span, every memory word) and every element is where
// the reference model says; 1 when not; 2 on bad input.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "cosim_backend.h"
#include "exec/executor.h"
#include "spec/reference.h"

namespace {

using hcube::Error;
using hcube::u64;

constexpr const char* kUsage =
    "usage: hcube-cosim --algo A --n N --rtl-nodes X[,Y...] [--k K] [--width b] [--ports one]\n"
    "                   [--trace FILE.vcd] [--max-cycles C] [--PARAM VALUE ...]\n"
    "       hcube-cosim --models\n";

/// The first difference between two runs, or "" when they are identical.
std::string firstDifference(const hcube::RunResult& a, const hcube::RunResult& b) {
  auto num = [](const char* what, u64 x, u64 y) {
    return std::string(what) + " " + std::to_string(x) + " vs " + std::to_string(y);
  };
  if (a.cycles != b.cycles) return num("cycles", a.cycles, b.cycles);
  if (a.transfer_cycles != b.transfer_cycles) {
    return num("transfer cycles", a.transfer_cycles, b.transfer_cycles);
  }
  if (a.local_cycles != b.local_cycles) return num("local cycles", a.local_cycles, b.local_cycles);
  if (a.mac_cycles != b.mac_cycles) return num("MAC cycles", a.mac_cycles, b.mac_cycles);
  if (a.words != b.words) return num("words", a.words, b.words);
  if (a.timeout != b.timeout) return num("timeout", a.timeout, b.timeout);
  if (a.span != b.span) return num("span", a.span, b.span);
  if (a.errors != b.errors) return "error counters differ";
  if (a.link_words != b.link_words) return "per-link word counts differ";
  for (size_t i = 0; i < a.memory.words.size() && i < b.memory.words.size(); ++i) {
    if (a.memory.words[i] != b.memory.words[i]) {
      const u64 m = a.memory.words_per_node;
      return "memory of node " + std::to_string(i / m) + " slot " + std::to_string(i % m) + ": " +
             std::to_string(a.memory.words[i]) + " vs " + std::to_string(b.memory.words[i]);
    }
  }
  if (a.memory.words.size() != b.memory.words.size()) return "memory sizes differ";
  return "";
}

// The command line, on CLI11: typed options with their ranges, --rtl-nodes split at commas,
// and the words it does not declare taken as the algorithm's own parameters (--PARAM VALUE),
// which buildCase checks.
struct CommandLine {
  hcube::CaseSpec spec;
  hcube::CosimOptions cosim;
  bool models = false;
  bool help = false;
};

CommandLine parseCommandLine(int argc, char** argv) {
  CommandLine cl;
  CLI::App app{"", "hcube-cosim"};
  app.set_help_flag();
  app.allow_extras();
  std::string ports = "all";
  app.add_flag("-h,--help", cl.help);
  app.add_flag("--models", cl.models, "the Verilated node configurations this build holds");
  app.add_option("--algo", cl.spec.algo, "the algorithm");
  app.add_option("--n", cl.spec.n, "cube dimensions")->check(CLI::Range(1, 16));
  app.add_option("--k", cl.spec.slots, "elements per node");
  app.add_option("--width", cl.spec.lanes, "lanes per port")->check(CLI::Range(1, 64));
  app.add_option("--ports", ports, "all or one")->check(CLI::IsMember({"all", "one"}));
  app.add_option("--rtl-nodes", cl.cosim.rtl_nodes, "the nodes that run as Verilated RTL")
      ->delimiter(',');
  app.add_option("--trace", cl.cosim.vcd, "VCD waveform");
  app.add_option("--max-cycles", cl.cosim.max_cycles, "stop after C cycles");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    throw Error(std::string(e.what()) + "\n" + kUsage);
  }
  if (cl.help || cl.models) return cl;
  cl.spec.one_port = ports == "one";
  const std::vector<std::string> rest = app.remaining();
  for (size_t i = 0; i < rest.size(); i += 2) {
    if (rest[i].rfind("--", 0) != 0 || rest[i].size() < 3 || i + 1 >= rest.size()) {
      throw Error("'" + rest[i] + "': expected --OPTION VALUE\n" + kUsage);
    }
    cl.spec.params[rest[i].substr(2)] = rest[i + 1];
  }
  if (cl.spec.algo.empty()) throw Error("--algo is required\n" + std::string(kUsage));
  if (cl.spec.n == 0) throw Error("--n is required");
  if (cl.cosim.rtl_nodes.empty()) {
    throw Error("--rtl-nodes is required (the nodes that run as Verilated RTL)");
  }
  return cl;
}

int run(int argc, char** argv) {
  CommandLine cl = parseCommandLine(argc, argv);
  if (cl.help) {
    std::cout << kUsage;
    return 0;
  }
  if (cl.models) {
    for (const std::string& m : hcube::cosimModels()) std::cout << m << "\n";
    return 0;
  }
  const hcube::CaseSpec& spec = cl.spec;
  const hcube::CosimOptions& cosim = cl.cosim;
  const hcube::BuiltCase c = hcube::buildCase(spec);
  hcube::ExecOptions exec;
  exec.tagged_elements = c.perm.elements();
  exec.max_cycles =
      cosim.max_cycles != 0 ? cosim.max_cycles : c.tables.cycles() + 1000;  // as the cube's
  const hcube::RunResult table = hcube::executeTables(
      c.tables, hcube::taggedMemory(c.perm, c.tables.header.memoryWords()), exec);
  const hcube::RunResult co = hcube::runOnCosim(c.tables, cosim);
  const hcube::CheckResult check = hcube::checkAgainstReference(c.perm, co.memory);

  std::printf("%s on a %d-cube, K = %llu; RTL nodes:", spec.algo.c_str(), spec.n,
              static_cast<unsigned long long>(c.perm.slots()));
  for (u64 x : cosim.rtl_nodes) std::printf(" %llu", static_cast<unsigned long long>(x));
  std::printf("\n  %-8s %8s %9s %7s %8s %6s %7s %10s\n", "backend", "cycles", "transfer", "local",
              "words", "span", "errors", "wall s");
  for (const hcube::RunResult* r : {&table, &co}) {
    u64 errors = 0;
    for (const auto& e : r->errors) errors += e.count;
    std::printf("  %-8s %8llu %9llu %7llu %8llu %6llu %7llu %10.4f\n", r->backend.c_str(),
                static_cast<unsigned long long>(r->cycles),
                static_cast<unsigned long long>(r->transfer_cycles),
                static_cast<unsigned long long>(r->local_cycles),
                static_cast<unsigned long long>(r->words), static_cast<unsigned long long>(r->span),
                static_cast<unsigned long long>(errors), r->wall_seconds);
  }
  std::printf("  reference: %llu of %llu elements where the reference model says\n",
              static_cast<unsigned long long>(check.correct),
              static_cast<unsigned long long>(check.elements));
  if (!cosim.vcd.empty()) std::printf("  waveform: %s\n", cosim.vcd.c_str());
  const std::string diff = firstDifference(co, table);
  if (!diff.empty()) {
    std::printf("  DISAGREE with the table executor: %s\n", diff.c_str());
    return 1;
  }
  std::printf("  cosim equals the table executor exactly\n");
  return check.mismatches == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hcube-cosim: error: " << e.what() << "\n";
    return 2;
  }
}

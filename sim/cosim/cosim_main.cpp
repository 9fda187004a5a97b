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
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
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

u64 parseNumber(const std::string& option, const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 18) {
    throw Error(option + " '" + text + "': not a non-negative number");
  }
  return std::stoull(text);
}

std::vector<u64> parseList(const std::string& option, const std::string& text) {
  std::vector<u64> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(parseNumber(option, item));
  if (out.empty()) throw Error(option + ": name at least one node");
  return out;
}

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

int run(int argc, char** argv) {
  std::map<std::string, std::string> options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--models") {
      for (const std::string& m : hcube::cosimModels()) std::cout << m << "\n";
      return 0;
    }
    if (arg.rfind("--", 0) != 0 || i + 1 >= argc) {
      throw Error("'" + arg + "': expected --OPTION VALUE\n" + kUsage);
    }
    options[arg] = argv[++i];
  }
  auto take = [&](const std::string& name) -> std::string {
    auto it = options.find(name);
    if (it == options.end()) return "";
    std::string value = it->second;
    options.erase(it);
    return value;
  };
  hcube::CaseSpec spec;
  spec.algo = take("--algo");
  if (spec.algo.empty()) throw Error("--algo is required\n" + std::string(kUsage));
  const std::string n = take("--n");
  if (n.empty()) throw Error("--n is required");
  spec.n = static_cast<int>(parseNumber("--n", n));
  if (spec.n < 1 || spec.n > 16) throw Error("--n " + n + ": must be 1..16");
  if (const std::string k = take("--k"); !k.empty()) spec.slots = parseNumber("--k", k);
  if (const std::string w = take("--width"); !w.empty()) {
    spec.lanes = static_cast<int>(parseNumber("--width", w));
  }
  if (const std::string ports = take("--ports"); !ports.empty()) {
    if (ports != "one" && ports != "all")
      throw Error("--ports '" + ports + "': must be all or one");
    spec.one_port = ports == "one";
  }
  hcube::CosimOptions cosim;
  const std::string rtl = take("--rtl-nodes");
  if (rtl.empty()) throw Error("--rtl-nodes is required (the nodes that run as Verilated RTL)");
  cosim.rtl_nodes = parseList("--rtl-nodes", rtl);
  cosim.vcd = take("--trace");
  if (const std::string c = take("--max-cycles"); !c.empty()) {
    cosim.max_cycles = parseNumber("--max-cycles", c);
  }
  for (const auto& [name, value] : options) spec.params[name.substr(2)] = value;

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

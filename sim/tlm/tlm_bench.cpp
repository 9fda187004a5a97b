// hcube-tlm-bench: simulated cycles per second of the SystemC-TLM cube against the C++ table
// executor on Edelman's AAPC (K = 2^n), checking on the way that both agree.
//
//   hcube-tlm-bench [--repeat R] [n ...]      (default: n = 6 8 10, R = 3; best of R runs)
//   hcube-tlm-bench --in-process n             (one TLM run without fork, for a profiler)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "algorithms.h"
#include "error.h"
#include "executor.h"
#include "tlm_backend.h"

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool sameRun(const hcube::RunResult& a, const hcube::RunResult& b) {
  return a.cycles == b.cycles && a.transfer_cycles == b.transfer_cycles && a.words == b.words &&
         a.timeout == b.timeout && a.errors == b.errors && a.memory.words == b.memory.words &&
         a.link_words == b.link_words && a.span == b.span;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace hcube;
  std::vector<int> dims;
  int repeat = 3;
  bool in_process = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--in-process") {
      in_process = true;
    } else if (arg == "-h" || arg == "--help") {
      std::cout << "usage: hcube-tlm-bench [--repeat R] [n ...]\n";
      return 0;
    } else {
      dims.push_back(std::atoi(arg.c_str()));
    }
  }
  if (dims.empty()) dims = {6, 8, 10};
  try {
    if (in_process) {
      const BuiltCase c = buildCase({"edelman", dims.front(), 0, 1, false});
      const auto t0 = std::chrono::steady_clock::now();
      const RunResult r = runOnTlmInThisProcess(c.tables, TlmOptions{});
      std::printf("n = %d: %llu cycles, %.6f s simulated, %.6f s in all\n", dims.front(),
                  static_cast<unsigned long long>(r.cycles), r.wall_seconds, secondsSince(t0));
      return 0;
    }
    std::printf("%3s %6s %7s %9s | %12s %14s | %12s %12s %14s | %7s %s\n", "n", "nodes", "cycles",
                "words", "table s", "table cyc/s", "tlm total s", "tlm sim s", "tlm cyc/s",
                "tlm/tbl", "agree");
    for (int n : dims) {
      const BuiltCase c = buildCase({"edelman", n, 0, 1, false});
      ExecOptions exec;
      exec.tagged_elements = c.perm.elements();
      const CubeMemory initial = taggedMemory(c.perm, c.tables.header.memoryWords());
      double table_s = 1e300;
      double tlm_total_s = 1e300;
      double tlm_sim_s = 1e300;
      RunResult table;
      RunResult tlm;
      for (int r = 0; r < repeat; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        table = executeTables(c.tables, initial, exec);
        table_s = std::min(table_s, secondsSince(t0));
        t0 = std::chrono::steady_clock::now();
        tlm = runOnTlm(c.tables, TlmOptions{});
        tlm_total_s = std::min(tlm_total_s, secondsSince(t0));
        tlm_sim_s = std::min(tlm_sim_s, tlm.wall_seconds);
      }
      const double cycles = static_cast<double>(table.cycles);
      std::printf("%3d %6llu %7llu %9llu | %12.6f %14.0f | %12.6f %12.6f %14.0f | %7.1f %s\n", n,
                  static_cast<unsigned long long>(c.tables.header.nodes()),
                  static_cast<unsigned long long>(table.cycles),
                  static_cast<unsigned long long>(table.words), table_s, cycles / table_s,
                  tlm_total_s, tlm_sim_s, cycles / tlm_sim_s, tlm_sim_s / table_s,
                  sameRun(table, tlm) ? "yes" : "NO");
    }
  } catch (const hcube::Error& e) {
    std::cerr << "hcube-tlm-bench: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

// hcube-tlm-bench: simulated cycles per second of the SystemC-TLM cube against the C++ table
// executor and (with --rtl) the Verilated RTL cube, on Edelman's AAPC, checking on the way that
// they agree exactly. The backends run interleaved, R rounds, best of R each, so that a machine
// whose load changes during the benchmark treats them alike.
//
//   hcube-tlm-bench [--repeat R] [--rtl] [--cache DIR] [n[:K] ...]
//                                      (default: 6:256 8:1024 10:1024, R = 3)
//   hcube-tlm-bench --in-process n[:K]  (one TLM run without fork, for a profiler)
//
// "sim s" is each backend's own measure of the simulation from start to done (RunResult::
// wall_seconds: the TLM testbench's start-to-done, the RTL runner's, the executor's run); "total
// s" is the whole call (TLM: fork, elaboration, loading, read-back).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "tlm_backend.h"

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool sameRun(const hcube::RunResult& a, const hcube::RunResult& b) {
  return a.cycles == b.cycles && a.transfer_cycles == b.transfer_cycles &&
         a.local_cycles == b.local_cycles && a.words == b.words && a.timeout == b.timeout &&
         a.errors == b.errors && a.memory.words == b.memory.words && a.link_words == b.link_words &&
         a.span == b.span;
}

struct Size {
  int n;
  hcube::u64 k;  ///< 0: 2^n
};

Size parseSize(const std::string& text) {
  const size_t colon = text.find(':');
  Size s{std::atoi(text.substr(0, colon).c_str()), 0};
  if (colon != std::string::npos) s.k = std::strtoull(text.c_str() + colon + 1, nullptr, 10);
  if (s.n < 1 || s.n > 16) throw hcube::Error("size '" + text + "': n must be 1..16");
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace hcube;
  std::vector<Size> sizes;
  int repeat = 3;
  bool in_process = false;
  bool rtl = false;
  std::string cache;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--repeat" && i + 1 < argc) {
        repeat = std::max(1, std::atoi(argv[++i]));
      } else if (arg == "--in-process") {
        in_process = true;
      } else if (arg == "--rtl") {
        rtl = true;
      } else if (arg == "--cache" && i + 1 < argc) {
        cache = argv[++i];
      } else if (arg == "-h" || arg == "--help") {
        std::cout << "usage: hcube-tlm-bench [--repeat R] [--rtl] [--cache DIR] [n[:K] ...]\n"
                     "       hcube-tlm-bench --in-process n[:K]\n";
        return 0;
      } else {
        sizes.push_back(parseSize(arg));
      }
    }
    if (sizes.empty()) sizes = {{6, 256}, {8, 1024}, {10, 1024}};
    if (in_process) {
      const BuiltCase c = buildCase({"edelman", sizes.front().n, sizes.front().k, 1, false});
      const auto t0 = std::chrono::steady_clock::now();
      const RunResult r = runOnTlmInThisProcess(c.tables, TlmOptions{});
      std::printf("n = %d: %llu cycles, %.6f s simulated, %.6f s in all\n", sizes.front().n,
                  static_cast<unsigned long long>(r.cycles), r.wall_seconds, secondsSince(t0));
      return 0;
    }
    std::printf("%3s %5s %6s %7s %9s | %10s %11s | %10s %10s %11s | %10s %11s | %s\n", "n", "K",
                "nodes", "cycles", "words", "table s", "table cyc/s", "tlm total", "tlm sim s",
                "tlm cyc/s", "rtl sim s", "rtl cyc/s", "agree");
    for (const Size& size : sizes) {
      const BuiltCase c = buildCase({"edelman", size.n, size.k, 1, false});
      ExecOptions exec;
      exec.tagged_elements = c.perm.elements();
      const CubeMemory initial = taggedMemory(c.perm, c.tables.header.memoryWords());
      RtlOptions rtl_options;
      rtl_options.cache_dir = cache;
      rtl_options.progress = &std::cerr;
      double table_s = 1e300;
      double tlm_total_s = 1e300;
      double tlm_sim_s = 1e300;
      double rtl_sim_s = 1e300;
      RunResult table;
      RunResult tlm;
      RunResult rtl_run;
      for (int r = 0; r < repeat; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        table = executeTables(c.tables, initial, exec);
        table_s = std::min(table_s, secondsSince(t0));
        t0 = std::chrono::steady_clock::now();
        tlm = runOnTlm(c.tables, TlmOptions{});
        tlm_total_s = std::min(tlm_total_s, secondsSince(t0));
        tlm_sim_s = std::min(tlm_sim_s, tlm.wall_seconds);
        if (rtl) {
          rtl_run = runOnRtl(c.tables, rtl_options);
          rtl_sim_s = std::min(rtl_sim_s, rtl_run.wall_seconds);
        }
      }
      const double cycles = static_cast<double>(table.cycles);
      const bool agree = sameRun(table, tlm) && (!rtl || sameRun(table, rtl_run));
      std::printf("%3d %5llu %6llu %7llu %9llu | %10.6f %11.0f | %10.6f %10.6f %11.0f | ", size.n,
                  static_cast<unsigned long long>(c.perm.slots()),
                  static_cast<unsigned long long>(c.tables.header.nodes()),
                  static_cast<unsigned long long>(table.cycles),
                  static_cast<unsigned long long>(table.words), table_s, cycles / table_s,
                  tlm_total_s, tlm_sim_s, cycles / tlm_sim_s);
      if (rtl) {
        std::printf("%10.6f %11.0f | %s\n", rtl_sim_s, cycles / rtl_sim_s, agree ? "yes" : "NO");
      } else {
        std::printf("%10s %11s | %s\n", "-", "-", agree ? "yes" : "NO");
      }
      std::fflush(stdout);
    }
  } catch (const hcube::Error& e) {
    std::cerr << "hcube-tlm-bench: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

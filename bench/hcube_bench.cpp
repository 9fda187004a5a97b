// hcube-bench: Google Benchmark microbenchmarks of the hot paths — the table
// executor's run, the relative-schedule compiler, the static verifier and the table text
// reader — on Edelman's AAPC (Edelman 1991 Theorem 3.1, K = 2^n). CI builds this target but
// never times it; run it by hand:
//
//   build/bench/hcube-bench [--benchmark_filter=Executor]
//
// Every benchmark reports its rate as counters: the executor simulated cycles, node-cycles and
// words per second; the others instructions (table words) per second.
#include <benchmark/benchmark.h>

#include <sstream>

#include "algorithms/aapc/edelman.h"
#include "algorithms/algorithms.h"
#include "exec/executor.h"
#include "tables/compiler.h"
#include "tables/table_text.h"
#include "tables/verifier.h"

namespace {

hcube::BuiltCase edelman(int n) {
  return hcube::buildCase({"edelman", n, hcube::u64{1} << n, 1, false, {}});
}

double instructions(const hcube::TableSet& set) {
  double total = 0;
  for (const hcube::Table& t : set.tables) total += static_cast<double>(t.size());
  return total;
}

void BM_Executor(benchmark::State& state) {
  const hcube::BuiltCase c = edelman(static_cast<int>(state.range(0)));
  hcube::ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  const hcube::CubeMemory initial = hcube::taggedMemory(c.perm, c.tables.header.memoryWords());
  hcube::RunResult r;
  for (auto _ : state) {
    r = hcube::executeTables(c.tables, initial, opt);
    benchmark::DoNotOptimize(r.memory.words.data());
  }
  const double runs = static_cast<double>(state.iterations());
  const double cycles = static_cast<double>(r.cycles) * runs;
  state.counters["cycles/s"] = benchmark::Counter(cycles, benchmark::Counter::kIsRate);
  state.counters["node-cycles/s"] = benchmark::Counter(
      cycles * static_cast<double>(c.tables.header.nodes()), benchmark::Counter::kIsRate);
  state.counters["words/s"] =
      benchmark::Counter(static_cast<double>(r.words) * runs, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Executor)->Arg(6)->Arg(8)->Arg(10)->Arg(12)->Unit(benchmark::kMillisecond);

void BM_CompileRelative(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const hcube::RelativeSchedule schedule = hcube::edelmanSchedule(n);
  const hcube::PermutationSpec perm = hcube::PermutationSpec::aapc(n, 1);
  hcube::TableSet set;
  for (auto _ : state) {
    set = hcube::compileRelative(schedule, perm, hcube::CompileOptions{});
    benchmark::DoNotOptimize(set.tables.data());
  }
  state.counters["instructions/s"] = benchmark::Counter(
      instructions(set) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CompileRelative)->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond);

void BM_Verify(benchmark::State& state) {
  const hcube::BuiltCase c = edelman(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const hcube::VerifyReport report = hcube::verifyTables(c.tables);
    benchmark::DoNotOptimize(&report);
  }
  state.counters["node-instructions/s"] =
      benchmark::Counter(instructions(c.tables) * static_cast<double>(c.tables.header.nodes()) *
                             static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Verify)->Arg(6)->Arg(8)->Unit(benchmark::kMillisecond);

void BM_ReadTableText(benchmark::State& state) {
  const hcube::BuiltCase c = edelman(static_cast<int>(state.range(0)));
  std::ostringstream text;
  hcube::writeTableText(text, c.tables);
  const std::string file = text.str();
  for (auto _ : state) {
    std::istringstream in(file);
    const hcube::TableSet set = hcube::readTableText(in, "bench");
    benchmark::DoNotOptimize(set.tables.data());
  }
  state.counters["bytes/s"] =
      benchmark::Counter(static_cast<double>(file.size()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReadTableText)->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

// The collectives of TR-623 §2 from seeded values (sw/spec/seeded_words.h,
// `--seed S`) instead of tags, on the table executor, the TLM and the RTL (the CI models of n = 2
// and 3), which must agree exactly; every checked slot against the sums and copies computed here
// from the generator, independently of sw/spec/initial_values.cpp. Matmul's seeded runs are in
// matmul_test.cpp (Matmul.SeededValuesOnEveryExecutor).
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "spec/initial_values.h"
#include "spec/seeded_words.h"
#include "test_util.h"
#include "tlm_backend.h"

namespace hcube {
namespace {

/// Runs `algo` from seeded memory on the three executors and returns the table executor's run.
RunResult runSeeded(const BuiltCase& c, u64 seed, CubeMemory* initial_out) {
  const CubeMemory init = seededMemory(c.perm, c.tables.header.memoryWords(), seed);
  ExecOptions exec;
  exec.tagged_elements = c.perm.elements();
  exec.max_cycles = c.tables.cycles() + 1000;
  const RunResult table = executeTables(c.tables, init, exec);
  TlmOptions tlm;
  tlm.initial = &init;
  testing::expectSameRun("tlm", runOnTlm(c.tables, tlm), table);
  RtlOptions rtl;
  rtl.progress = &std::cerr;
  rtl.initial = &init;
  testing::expectSameRun("rtl", runOnRtl(c.tables, rtl), table);
  EXPECT_TRUE(table.errors.empty()) << testing::errorList(table.errors);
  *initial_out = init;
  return table;
}

BuiltCase collective(const char* algo, int n, u64 m, const char* tree, bool one_port,
                     u64 root = 0) {
  std::map<std::string, std::string> params{{"m", std::to_string(m)}, {"tree", tree}};
  if (std::string(algo).find("-one") != std::string::npos) params["root"] = std::to_string(root);
  return buildCase(testing::caseSpec(algo, n, 0, 1, one_port, params));
}

TEST(SeededValues, AllToAllReductionSumsTheSeededWords) {
  for (const auto& [n, tree, one_port] :
       {std::tuple{2, "sbt", true}, std::tuple{2, "nrsbt", false}, std::tuple{3, "nrsbt", false}}) {
    SCOPED_TRACE("reduce-all n = " + std::to_string(n) + " " + tree);
    const u64 m = 3;
    const BuiltCase c = collective("reduce-all", n, m, tree, one_port);
    CubeMemory init;
    const RunResult r = runSeeded(c, 2026, &init);
    const u64 nodes = u64{1} << n;
    const u64 k = nodes * m;
    for (u64 x = 0; x < nodes; ++x) {
      for (u64 l = x * m; l < (x + 1) * m; ++l) {
        u32 sum = 0;
        for (u64 y = 0; y < nodes; ++y) sum += seededWord(2026, y, l, k);
        EXPECT_EQ(r.memory.at(x, l), sum) << "node " << x << " slot " << l;
      }
    }
    const CheckResult check = checkFromInitial(c.perm, init, r.memory);
    EXPECT_EQ(check.mismatches, 0U);
    EXPECT_EQ(check.correct, nodes * m);
    // The tag check does not hold for values: the run is checked from its own initial memory.
    EXPECT_NE(checkAgainstReference(c.perm, r.memory).mismatches, 0U);
  }
}

TEST(SeededValues, BroadcastsCopyAndReduceOneSumsTheSeededWords) {
  const int n = 3;
  const u64 nodes = u64{1} << n;
  {
    const u64 m = 2;
    const BuiltCase c = collective("broadcast-all", n, m, "nrsbt", false);
    CubeMemory init;
    const RunResult r = runSeeded(c, 5, &init);
    for (u64 x = 0; x < nodes; ++x) {
      for (u64 l = 0; l < nodes * m; ++l) {
        EXPECT_EQ(r.memory.at(x, l), seededWord(5, l / m, l, nodes * m)) << x << " " << l;
      }
    }
    EXPECT_EQ(checkFromInitial(c.perm, init, r.memory).correct, nodes * nodes * m);
  }
  {
    const u64 m = 4;
    const BuiltCase c = collective("reduce-one", n, m, "sbt", true, 6);
    CubeMemory init;
    const RunResult r = runSeeded(c, 77, &init);
    for (u64 l = 0; l < m; ++l) {
      u32 sum = 0;
      for (u64 y = 0; y < nodes; ++y) sum += seededWord(77, y, l, m);
      EXPECT_EQ(r.memory.at(6, l), sum) << "slot " << l;
    }
    EXPECT_EQ(checkFromInitial(c.perm, init, r.memory).mismatches, 0U);
  }
  {
    const BuiltCase c = collective("broadcast-one", n, 3, "nrsbt", false, 5);
    CubeMemory init;
    const RunResult r = runSeeded(c, 1, &init);
    for (u64 x = 0; x < nodes; ++x) {
      for (u64 l = 0; l < 3; ++l) EXPECT_EQ(r.memory.at(x, l), seededWord(1, 5, l, 3));
    }
  }
}

TEST(SeededValues, PermutationsKeepTheirTags) {
  const BuiltCase c = buildCase(testing::caseSpec("edelman", 2));
  EXPECT_EQ(testing::errorOf([&] { initialMemory(c.perm, c.perm.slots(), 3); }),
            "--seed: aapc n=2 m=1 is a permutation, checked by its tags; seeded values are for "
            "the collectives and matmul");
  EXPECT_EQ(initialMemory(c.perm, c.perm.slots(), std::nullopt).words,
            taggedMemory(c.perm, c.perm.slots()).words);
}

}  // namespace
}  // namespace hcube

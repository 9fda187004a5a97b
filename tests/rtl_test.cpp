// The Verilated RTL cube against the C++ table executor: identical final memories, cycle
// counts, words, link counts, spans and hardware error counters, and every element where the
// reference model says. n = 1..6 run in CI; n = 7..10 are the *Long* tests (label "long").
#include <gtest/gtest.h>

#include <iostream>

#include "algorithms.h"
#include "executor.h"
#include "rtl_backend.h"
#include "run_compare.h"

namespace hcube {
namespace {

RunResult onTable(const TableSet& set) {
  ExecOptions opt;
  opt.tagged_elements = set.header.perm.elements();
  return executeTables(set, taggedMemory(set.header.perm, set.header.memoryWords()), opt);
}

RunResult onRtl(const TableSet& set) {
  RtlOptions opt;
  opt.progress = &std::cerr;
  return runOnRtl(set, opt);
}

void expectSameRun(const RunResult& rtl, const RunResult& table) {
  testing::expectSameRun("rtl", rtl, table);
}

void expectEdelmanOnRtl(int n, u64 k) {
  const BuiltCase c = buildCase({"edelman", n, k, 1, false});
  const RunResult table = onTable(c.tables);
  const RunResult rtl = onRtl(c.tables);
  expectSameRun(rtl, table);
  const CheckResult check = checkAgainstReference(c.perm, rtl.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, c.perm.elements());
  EXPECT_EQ(rtl.transfer_cycles, c.perm.slots() / 2);
  EXPECT_EQ(rtl.cycles, c.perm.slots() / 2);
  EXPECT_TRUE(rtl.errors.empty());
}

class RtlEdelman : public ::testing::TestWithParam<int> {};
TEST_P(RtlEdelman, MatchesTableExecutorAndReference) { expectEdelmanOnRtl(GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(Ci, RtlEdelman, ::testing::Range(1, 7));

class RtlEdelmanLong : public ::testing::TestWithParam<int> {};
TEST_P(RtlEdelmanLong, MatchesTableExecutorAndReference) { expectEdelmanOnRtl(GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(Big, RtlEdelmanLong, ::testing::Range(7, 11));

// Every algorithm of the catalogue on the RTL, identical to the executor (n = 3..6; the models
// of the CI fixture serve them).
TEST(RtlCatalogue, EveryAlgorithmAgreesWithTheExecutor) {
  for (const AlgorithmInfo& algo : algorithmCatalogue()) {
    for (int n = 3; n <= 6; ++n) {
      SCOPED_TRACE(algo.name + " n = " + std::to_string(n));
      const BuiltCase c = buildCase({algo.name, n, 0, 1, false});
      const RunResult rtl = onRtl(c.tables);
      expectSameRun(rtl, onTable(c.tables));
      EXPECT_EQ(checkAgainstReference(c.perm, rtl.memory).mismatches, 0U);
      EXPECT_TRUE(rtl.errors.empty());
    }
  }
}

TEST(RtlEdelmanRepeated, KEqualsMTimes2ToTheN) {
  expectEdelmanOnRtl(2, 12);
  expectEdelmanOnRtl(3, 32);
  expectEdelmanOnRtl(4, 48);
}

TEST(RtlErrors, LostAndMissingWordsAreCountedLikeTheExecutor) {
  BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  Table& t = c.tables.tables[0];
  t[0].channels[0].in = {};   // lost on port 0, cycle 0
  t[2].channels[2].out = {};  // nodata on port 2, cycle 2
  const RunResult table = onTable(c.tables);
  ASSERT_FALSE(table.errors.empty());
  expectSameRun(onRtl(c.tables), table);
}

TEST(RtlErrors, WaitOnePortForwardDropAndConflictMatchTheExecutor) {
  TableSet set;
  set.header.perm = PermutationSpec::aapc(2, 1);
  set.header.n = 2;
  set.header.slots = 4;
  set.header.one_port = true;
  set.shared = false;
  set.tables.assign(4, Table{Instruction::waitFor(3), Instruction::xfer(2), Instruction::xfer(2),
                             Instruction::end()});
  set.tables[0][1].channels[0].out = {OutOp::kMem, false, 1};
  set.tables[0][1].channels[1].out = {OutOp::kMem, false, 2};
  set.tables[1][1].channels[0].in = {InOp::kPass, false, 0};
  set.tables[2][1].channels[1].in = {InOp::kPass, false, 0};
  set.tables[1][2].channels[1].out = {OutOp::kFwd, false, 0};
  set.tables[3][2].channels[1].in = {InOp::kMem, false, 0};
  set.tables[3][2].channels[0].out = {OutOp::kFwd, false, 1};
  set.tables[2][2].channels[0].in = {InOp::kMem, false, 3};
  // Conflict: node 3 also writes slot 0 from port 0 in cycle 1 of the transfers.
  set.tables[2][1].channels[0].out = {OutOp::kMem, false, 2};
  set.tables[3][1].channels[0].in = {InOp::kMem, false, 0};
  set.tables[1][1].channels[1].out = {OutOp::kMem, false, 3};
  set.tables[3][1].channels[1].in = {InOp::kMem, false, 0};
  const RunResult table = onTable(set);
  EXPECT_EQ(table.cycles, 5U);
  std::vector<HwError> kinds;
  for (const NodeErrorCount& e : table.errors) kinds.push_back(e.kind);
  for (HwError k : {HwError::kOnePort, HwError::kFwd, HwError::kDropped, HwError::kConflict}) {
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), k), kinds.end()) << hwErrorName(k);
  }
  expectSameRun(onRtl(set), table);
}

}  // namespace
}  // namespace hcube

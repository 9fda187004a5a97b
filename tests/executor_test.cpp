// The table executor on Edelman's AAPC: every element where the reference model says, exactly
// K/2 transfer cycles, and the hardware error counters on broken tables.
#include "executor.h"

#include <gtest/gtest.h>

#include "algorithms.h"
#include "schedules/edelman.h"

namespace hcube {
namespace {

RunResult runCase(const BuiltCase& c) {
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  return executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
}

TEST(Executor, EdelmanAapcIsCorrectInKOver2CyclesForDimensions1To10) {
  for (int d = 1; d <= 10; ++d) {
    const BuiltCase c = buildCase({"edelman", d, 0, 1, false});
    const RunResult r = runCase(c);
    const u64 k = u64{1} << d;
    const CheckResult check = checkAgainstReference(c.perm, r.memory);
    EXPECT_EQ(check.mismatches, 0U) << "d = " << d;
    EXPECT_EQ(check.correct, k * k) << "d = " << d;
    EXPECT_EQ(r.transfer_cycles, k / 2) << "d = " << d;
    EXPECT_EQ(r.cycles, k / 2) << "d = " << d;
    // Every element crosses Sum(i ^ j) links: N * K * d / 2 words in all, every link busy in
    // every cycle.
    EXPECT_EQ(r.words, k * k * static_cast<u64>(d) / 2) << "d = " << d;
    for (u64 w : r.link_words) ASSERT_EQ(w, k / 2) << "d = " << d;
    EXPECT_EQ(r.span, relativeScheduleSpan(edelmanSchedule(d))) << "d = " << d;
    EXPECT_TRUE(r.errors.empty()) << "d = " << d;
    EXPECT_FALSE(r.timeout);
  }
}

TEST(Executor, EdelmanSpanForSmallCubes) {
  // Spans measured in cycles; Johnsson & Ho 1992 §1 note that Edelman's span exceeds 2^(d-2).
  const u64 expected[] = {1, 2, 4, 7, 14};
  for (int d = 1; d <= 5; ++d) {
    const RunResult r = runCase(buildCase({"edelman", d, 0, 1, false}));
    EXPECT_EQ(r.span, expected[d - 1]) << "d = " << d;
  }
}

TEST(Executor, RepeatedAapcKEqualsMTimes2ToTheN) {
  for (const auto& [d, k] :
       std::vector<std::pair<int, u64>>{{1, 6}, {2, 12}, {3, 24}, {4, 48}, {5, 64}}) {
    const BuiltCase c = buildCase({"edelman", d, k, 1, false});
    const RunResult r = runCase(c);
    EXPECT_EQ(checkAgainstReference(c.perm, r.memory).mismatches, 0U) << d << " " << k;
    EXPECT_EQ(r.transfer_cycles, k / 2) << d << " " << k;
    EXPECT_EQ(r.cycles, k / 2) << d << " " << k;
  }
}

TEST(Executor, WaitCyclesCount) {
  BuiltCase c = buildCase({"edelman", 2, 0, 1, false});
  Table& t = c.tables.tables[0];
  t.insert(t.begin() + 1, Instruction::waitFor(5));
  const RunResult r = runCase(c);
  EXPECT_EQ(r.cycles, 7U);
  EXPECT_EQ(r.transfer_cycles, 2U);
  EXPECT_EQ(checkAgainstReference(c.perm, r.memory).mismatches, 0U);
}

TEST(Executor, CountsHardwareErrorsLikeTheRtl) {
  BuiltCase c = buildCase({"edelman", 2, 0, 1, false});
  Table& t = c.tables.tables[0];
  t[0].channels[0].in = {};   // every node: the word arriving on port 0 in cycle 0 is lost
  t[1].channels[1].out = {};  // every node: expects a word on port 1 in cycle 1, none comes
  const RunResult r = runCase(c);
  ASSERT_EQ(r.errors.size(), 8U);
  for (u64 x = 0; x < 4; ++x) {
    EXPECT_EQ(r.errors[2 * x], (NodeErrorCount{x, HwError::kLost, 1}));
    EXPECT_EQ(r.errors[2 * x + 1], (NodeErrorCount{x, HwError::kNoData, 1}));
  }
  EXPECT_GT(checkAgainstReference(c.perm, r.memory).mismatches, 0U);
}

TEST(Executor, OnePortForwardAndDropErrors) {
  TableSet set;
  set.header.perm = PermutationSpec::aapc(2, 1);
  set.header.n = 2;
  set.header.slots = 4;
  set.header.one_port = true;
  set.shared = false;
  set.tables.assign(4, Table{Instruction::xfer(2), Instruction::xfer(2), Instruction::end()});
  // Node 0 sends on both ports in cycle 0 (one-port violation); nodes 1 and 2 receive with
  // PASS; node 1 forwards in cycle 1 to node 3, node 2 drops its word.
  set.tables[0][0].channels[0].out = {OutOp::kMem, false, 1};
  set.tables[0][0].channels[1].out = {OutOp::kMem, false, 2};
  set.tables[1][0].channels[0].in = {InOp::kPass, false, 0};
  set.tables[2][0].channels[1].in = {InOp::kPass, false, 0};
  set.tables[1][1].channels[1].out = {OutOp::kFwd, false, 0};
  set.tables[3][1].channels[1].in = {InOp::kMem, false, 0};
  set.tables[3][1].channels[0].out = {OutOp::kFwd, false, 1};  // nothing to forward
  set.tables[2][1].channels[0].in = {InOp::kMem, false, 3};
  ExecOptions opt;
  opt.tagged_elements = 16;
  const RunResult r = executeTables(set, taggedMemory(set.header.perm, 4), opt);
  EXPECT_EQ(r.cycles, 2U);
  EXPECT_EQ(r.memory.at(3, 0), 1U);  // node 0's slot 1 reached node 3 through node 1
  const std::vector<NodeErrorCount> want = {{0, HwError::kOnePort, 1},
                                            {2, HwError::kNoData, 1},
                                            {2, HwError::kDropped, 1},
                                            {3, HwError::kFwd, 1}};
  EXPECT_EQ(r.errors, want);
  EXPECT_EQ(r.span, 2U);
}

}  // namespace
}  // namespace hcube

// The table executor on Edelman's AAPC: every element where the reference model says, exactly
// K/2 transfer cycles, and the hardware error counters on broken tables.
#include "exec/executor.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "algorithms/aapc/edelman.h"
#include "algorithms/algorithms.h"
#include "exec/progress.h"

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

// Cycles in which every node waits are run in one step. A 1-cube whose tables move
// one word, wait `wait` cycles and move it back: exact cycle count, and the same cycles stepped
// one by one whatever the wait.
TableSet waitingOneCube(u32 wait) {
  TableSet set;
  set.header.algo = "handmade";
  set.header.perm = PermutationSpec::aapc(1, 1);
  set.header.n = 1;
  set.header.slots = 2;
  set.shared = true;
  Instruction there = Instruction::xfer(1);
  there.channels[0] = {{OutOp::kMem, true, 1}, {InOp::kMem, true, 1}};
  set.tables = {{there, Instruction::waitFor(wait), there, Instruction::end()}};
  return set;
}

ExecStats runWaiting(u32 wait, u64 max_cycles, RunResult* out) {
  const TableSet set = waitingOneCube(wait);
  ExecStats stats;
  ExecOptions opt;
  opt.tagged_elements = 4;
  opt.max_cycles = max_cycles;
  opt.stats = &stats;
  *out = executeTables(set, taggedMemory(set.header.perm, 2), opt);
  return stats;
}

TEST(ExecutorWait, AWaitOfTwoToThe32MinusOneCyclesIsExactAndCostsOneStep) {
  for (u32 wait : {1U, 10U, 1000000000U, 4294967295U}) {
    SCOPED_TRACE("wait " + std::to_string(wait));
    RunResult r;
    const ExecStats stats = runWaiting(wait, u64{1} << 40, &r);
    EXPECT_FALSE(r.timeout);
    EXPECT_EQ(r.cycles, u64{wait} + 2);
    EXPECT_EQ(r.transfer_cycles, 2U);
    EXPECT_EQ(r.words, 4U);
    EXPECT_TRUE(r.errors.empty());
    // Slot 1 went to the other node and came back: every word where it started.
    EXPECT_EQ(r.memory.words, (std::vector<u32>{0, 1, 2, 3}));
    EXPECT_EQ(r.span, u64{wait} + 2);     // sent in cycle 0, last stored in cycle wait + 1
    EXPECT_EQ(stats.stepped_cycles, 2U);  // the two XFERs; the wait is one skip
    EXPECT_EQ(stats.skips, 1U);
  }
}

TEST(ExecutorWait, TheCycleLimitStopsASkippedWaitExactly) {
  // The default limit of 2^32 cycles falls inside a wait of 2^32 - 1 cycles (after cycle 0).
  RunResult r;
  const ExecStats stats = runWaiting(4294967295U, u64{1} << 32, &r);
  EXPECT_TRUE(r.timeout);
  EXPECT_EQ(r.cycles, u64{1} << 32);
  EXPECT_EQ(r.transfer_cycles, 1U);
  EXPECT_EQ(stats.stepped_cycles, 1U);
  EXPECT_EQ(stats.skips, 1U);
  for (u64 limit : {1U, 2U, 5U, 11U, 12U, 13U}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    runWaiting(10, limit, &r);
    EXPECT_EQ(r.cycles, std::min<u64>(limit, 12));
    EXPECT_EQ(r.timeout, limit < 12);
    EXPECT_EQ(r.transfer_cycles, limit < 12 ? 1U : 2U);
  }
}

TEST(ExecutorWait, SkippedWaitsKeepOverrunsDropsAndUnequalWaitsExact) {
  // Node 0 receives a PASS word and then waits (the word is dropped in the first waiting
  // cycle, which is stepped, not skipped); node 1 waits 7 cycles and runs off its table (an
  // overrun at the end of the wait); node 0 waits 1000 and ends.
  TableSet set;
  set.header.algo = "handmade";
  set.header.perm = PermutationSpec::aapc(1, 1);
  set.header.n = 1;
  set.header.slots = 2;
  set.shared = false;
  Instruction pass = Instruction::xfer(1);
  pass.channels[0].in = {InOp::kPass, false, 0};
  Instruction send = Instruction::xfer(1);
  send.channels[0].out = {OutOp::kMem, false, 1};
  set.tables = {{pass, Instruction::waitFor(1000), Instruction::end()},
                {send, Instruction::waitFor(7)}};
  ExecStats stats;
  ExecOptions opt;
  opt.tagged_elements = 4;
  opt.stats = &stats;
  const RunResult r = executeTables(set, taggedMemory(set.header.perm, 2), opt);
  EXPECT_EQ(r.cycles, 1001U);
  EXPECT_EQ(r.errors,
            (std::vector<NodeErrorCount>{{0, HwError::kDropped, 1}, {1, HwError::kOverrun, 1}}));
  EXPECT_EQ(stats.stepped_cycles, 2U);  // the XFER, and the cycle that drops the PASS word
  EXPECT_EQ(stats.skips, 2U);           // to the end of node 1's wait, then to node 0's
}

TEST(ExecutorWait, ProgressIsReportedAfterEveryCycleAndEverySkip) {
  const TableSet set = waitingOneCube(10);
  std::vector<u64> reported;
  ExecOptions opt;
  opt.progress = [&reported](u64 done) { reported.push_back(done); };
  const RunResult r = executeTables(set, taggedMemory(set.header.perm, 2), opt);
  EXPECT_EQ(r.cycles, 12U);
  EXPECT_EQ(reported, (std::vector<u64>{1, 11, 12}));  // XFER, the skipped wait, XFER
}

TEST(Progress, TheBarLineShowsCyclesDoneOfExpectedElapsedAndRate) {
  EXPECT_EQ(ProgressBar::line("table run", "", 256, 1024, 2.0),
            "hcube: table run |#######                       |  25% 256/1024 cycles 2.0 s "
            "128 cycles/s");
  EXPECT_EQ(ProgressBar::line("tables", "verify", 0, 0, 3.3), "hcube: tables [verify] 3.3 s");
  EXPECT_EQ(ProgressBar::line("tlm run", "", 3000000, 3000000, 1.5),
            "hcube: tlm run |##############################| 100% 3000000/3000000 cycles 1.5 s "
            "2.00M cycles/s");
}

TEST(Progress, ABarThatFinishesBeforeItsDelayLeavesTheStreamEmpty) {
  std::ostringstream out;
  {
    ProgressBar bar(&out, "table run", 100, std::chrono::hours(1));
    bar.update(99);
  }
  EXPECT_EQ(out.str(), "");
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

// ---------------------------------------------------------------------------------------------
// PERMUTE (docs/hardware/node.md §2.1)
// ---------------------------------------------------------------------------------------------

// A header for hand-made tables on a 2-cube with K = 4 (+ scratch) and `lanes` lanes.
TableSet handmade(int lanes, u64 scratch = 0) {
  TableSet set;
  set.header.algo = "handmade";
  set.header.perm = PermutationSpec::aapc(2, 1);
  set.header.n = 2;
  set.header.slots = 4;
  set.header.scratch = scratch;
  set.header.lanes = lanes;
  return set;
}

Channel copy(u32 from, u32 to, bool rel_from = false, bool rel_to = false) {
  return {{OutOp::kMem, rel_from, from}, {InOp::kMem, rel_to, to}};
}

RunResult runTables(const TableSet& set) {
  ExecOptions opt;
  opt.tagged_elements = set.header.perm.elements();
  return executeTables(set, taggedMemory(set.header.perm, set.header.memoryWords()), opt);
}

std::vector<u32> memoryOf(const RunResult& r, u64 node) {
  return {
      r.memory.words.begin() + static_cast<std::ptrdiff_t>(node * r.memory.words_per_node),
      r.memory.words.begin() + static_cast<std::ptrdiff_t>((node + 1) * r.memory.words_per_node)};
}

TEST(ExecutorPermute, SwapsInOneCycleReadingTheStartOfCycleState) {
  TableSet set = handmade(1);
  Instruction swap01 = Instruction::permute(2);
  swap01.channels = {copy(0, 1), copy(1, 0)};
  Instruction swap23 = Instruction::permute(2);
  swap23.channels = {copy(3, 2), copy(2, 3)};
  set.tables = {{swap01, swap23, Instruction::end()}};
  const RunResult r = runTables(set);
  EXPECT_EQ(r.cycles, 2U);
  EXPECT_EQ(r.local_cycles, 2U);
  EXPECT_EQ(r.transfer_cycles, 0U);
  EXPECT_EQ(r.words, 0U);
  EXPECT_EQ(r.span, 0U);
  EXPECT_TRUE(r.errors.empty());
  for (u32 x = 0; x < 4; ++x) {
    EXPECT_EQ(memoryOf(r, x), (std::vector<u32>{4 * x + 1, 4 * x, 4 * x + 3, 4 * x + 2})) << x;
  }
}

TEST(ExecutorPermute, RotatesNTimesBSlotsInOneCycle) {
  // n * b = 4 channels: the 4-cycle 0 -> 1 -> 2 -> 3 -> 0 in one PERMUTE.
  TableSet set = handmade(2);
  Instruction rot = Instruction::permute(4);
  rot.channels = {copy(0, 1), copy(1, 2), copy(2, 3), copy(3, 0)};
  set.tables = {{rot, Instruction::end()}};
  const RunResult r = runTables(set);
  EXPECT_EQ(r.cycles, 1U);
  EXPECT_EQ(r.local_cycles, 1U);
  EXPECT_TRUE(r.errors.empty());
  for (u32 x = 0; x < 4; ++x) {
    EXPECT_EQ(memoryOf(r, x), (std::vector<u32>{4 * x + 3, 4 * x, 4 * x + 1, 4 * x + 2})) << x;
  }
}

TEST(ExecutorPermute, RelativeSourceSlotsAlignByNodeAddress) {
  // Johnsson & Ho 1992 §2.2 phase 1 on a 2-cube: slot r <- slot r ^ x, one shared PERMUTE.
  TableSet set = handmade(2);
  Instruction align = Instruction::permute(4);
  for (u32 r = 0; r < 4; ++r) align.channels[r] = copy(r, r, true, false);
  set.tables = {{align, Instruction::end()}};
  const RunResult r = runTables(set);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(memoryOf(r, 0), (std::vector<u32>{0, 1, 2, 3}));
  EXPECT_EQ(memoryOf(r, 1), (std::vector<u32>{5, 4, 7, 6}));
  EXPECT_EQ(memoryOf(r, 2), (std::vector<u32>{10, 11, 8, 9}));
  EXPECT_EQ(memoryOf(r, 3), (std::vector<u32>{15, 14, 13, 12}));
}

TEST(ExecutorPermute, IllegalCellsCopyNothingAndCountOncePerCycle) {
  TableSet set = handmade(2);
  Instruction p = Instruction::permute(4);
  p.channels[0] = copy(0, 1);                                          // legal
  p.channels[1] = {{OutOp::kFwd, false, 0}, {InOp::kMem, false, 2}};   // FWD out
  p.channels[2] = {{OutOp::kMem, false, 3}, {InOp::kPass, false, 0}};  // PASS in
  p.channels[3] = {{OutOp::kMem, false, 2}, {InOp::kIdle, false, 0}};  // MEM on one side
  Instruction q = Instruction::permute(4);
  q.channels[2] = {{OutOp::kIdle, false, 0}, {InOp::kMem, false, 3}};
  set.tables = {{p, q, Instruction::end()}};
  const RunResult r = runTables(set);
  EXPECT_EQ(r.cycles, 2U);
  EXPECT_EQ(r.local_cycles, 2U);
  for (u32 x = 0; x < 4; ++x) {
    EXPECT_EQ(memoryOf(r, x), (std::vector<u32>{4 * x, 4 * x, 4 * x + 2, 4 * x + 3})) << x;
    EXPECT_EQ(r.errors[x], (NodeErrorCount{x, HwError::kIllegal, 2})) << x;
  }
  EXPECT_EQ(r.errors.size(), 4U);
}

TEST(ExecutorPermute, WordsArrivingDuringAPermuteAreLostAndHeldPassWordsDropped) {
  TableSet set = handmade(1);
  set.shared = false;
  Instruction swap = Instruction::permute(2);
  swap.channels = {copy(0, 1), copy(1, 0)};
  set.tables.assign(4, Table{swap, Instruction::end()});
  // Cycle 0: node 0 sends slot 3 to node 1, which executes a PERMUTE (lost). Node 2 receives
  // node 3's slot 2 with PASS; in cycle 1 node 2 executes a PERMUTE (dropped).
  Instruction send = Instruction::xfer(2);
  send.channels[0].out = {OutOp::kMem, false, 3};
  set.tables[0] = {send, Instruction::end()};
  Instruction pass = Instruction::xfer(2);
  pass.channels[0].in = {InOp::kPass, false, 0};
  set.tables[2] = {pass, swap, Instruction::end()};
  Instruction send3 = Instruction::xfer(2);
  send3.channels[0].out = {OutOp::kMem, false, 2};
  set.tables[3] = {send3, Instruction::end()};
  const RunResult r = runTables(set);
  EXPECT_EQ(r.cycles, 2U);
  EXPECT_EQ(r.local_cycles, 2U);  // node 1 in cycle 0, node 2 in cycle 1
  EXPECT_EQ(r.transfer_cycles, 1U);
  EXPECT_EQ(r.words, 2U);
  const std::vector<NodeErrorCount> want = {{1, HwError::kLost, 1}, {2, HwError::kDropped, 1}};
  EXPECT_EQ(r.errors, want);
  EXPECT_EQ(memoryOf(r, 0), (std::vector<u32>{0, 1, 2, 3}));
  EXPECT_EQ(memoryOf(r, 1), (std::vector<u32>{5, 4, 6, 7}));
  EXPECT_EQ(memoryOf(r, 2), (std::vector<u32>{9, 8, 10, 11}));
}

TEST(ExecutorPermute, ConflictKeepsTheHigherChannelsWord) {
  TableSet set = handmade(2, 1);  // M = 5: slots 0..3 and scratch slot 4 (zero)
  Instruction p = Instruction::permute(4);
  p.channels[0] = copy(0, 2);
  p.channels[1] = copy(1, 2);  // conflict: slot 2 keeps channel 1's word
  p.channels[2] = copy(4, 3);  // the scratch word 0 into slot 3
  Instruction q = Instruction::permute(4);
  q.channels[3] = copy(2, 0);
  q.channels[1] = copy(3, 0);  // conflict again: channel 3 (slot 2) wins over channel 1
  set.tables = {{p, q, Instruction::end()}};
  const RunResult r = runTables(set);
  EXPECT_EQ(r.cycles, 2U);
  EXPECT_EQ(r.local_cycles, 2U);
  ASSERT_EQ(r.errors.size(), 4U);
  for (u32 x = 0; x < 4; ++x) {
    EXPECT_EQ(r.errors[x], (NodeErrorCount{x, HwError::kConflict, 2})) << x;
    EXPECT_EQ(memoryOf(r, x), (std::vector<u32>{4 * x + 1, 4 * x + 1, 4 * x + 1, 0, 0})) << x;
  }
}

TEST(ExecutorPermute, OnePortDoesNotRestrictItAndLocalCyclesCountCubeCycles) {
  TableSet set = handmade(1);
  set.header.one_port = true;
  set.shared = false;
  Instruction swap = Instruction::permute(2);  // uses the channels of ports 0 and 1
  swap.channels = {copy(0, 1), copy(1, 0)};
  set.tables.assign(4, Table{Instruction::waitFor(3), Instruction::end()});
  set.tables[0] = {swap, Instruction::waitFor(1), swap, Instruction::end()};
  set.tables[3] = {Instruction::waitFor(2), swap, Instruction::end()};
  const RunResult r = runTables(set);
  EXPECT_EQ(r.cycles, 3U);
  EXPECT_EQ(r.local_cycles, 2U);  // cycle 0 (node 0) and cycle 2 (nodes 0 and 3)
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(memoryOf(r, 0), (std::vector<u32>{0, 1, 2, 3}));
  EXPECT_EQ(memoryOf(r, 1), (std::vector<u32>{4, 5, 6, 7}));
  EXPECT_EQ(memoryOf(r, 3), (std::vector<u32>{13, 12, 14, 15}));
}

// ---------------------------------------------------------------------------------------------
// Lockstep cycles (sw/exec/executor.cpp): a shared table's error-free XFERs run as row moves, and
// where words only move the span comes from first-send cycles carried with the words. The same
// tables given once per node (not shared) run node by node through the general sweeps with the
// monitor's per-element record: every result must be the same.
// ---------------------------------------------------------------------------------------------

TableSet unshared(const TableSet& set) {
  TableSet copy = set;
  copy.shared = false;
  copy.tables.assign(set.header.nodes(), set.tables.at(0));
  return copy;
}

void expectSameRun(const RunResult& a, const RunResult& b, const std::string& what) {
  EXPECT_EQ(a.cycles, b.cycles) << what;
  EXPECT_EQ(a.transfer_cycles, b.transfer_cycles) << what;
  EXPECT_EQ(a.local_cycles, b.local_cycles) << what;
  EXPECT_EQ(a.words, b.words) << what;
  EXPECT_EQ(a.timeout, b.timeout) << what;
  EXPECT_EQ(a.errors, b.errors) << what;
  EXPECT_EQ(a.memory.words, b.memory.words) << what;
  EXPECT_EQ(a.link_words, b.link_words) << what;
  EXPECT_EQ(a.span, b.span) << what;
}

struct TwoRuns {
  RunResult lockstep;
  RunResult general;
  ExecStats stats;  ///< of the lockstep run
};

TwoRuns runBothWays(const TableSet& set, const CubeMemory& initial, u64 tagged,
                    u64 max_cycles = u64{1} << 32) {
  TwoRuns out;
  ExecOptions opt;
  opt.tagged_elements = tagged;
  opt.max_cycles = max_cycles;
  opt.stats = &out.stats;
  out.lockstep = executeTables(set, initial, opt);
  ExecStats general;
  opt.stats = &general;
  out.general = executeTables(unshared(set), initial, opt);
  EXPECT_EQ(general.lockstep_cycles, 0U);
  EXPECT_FALSE(general.carried_span);
  return out;
}

TEST(ExecutorLockstep, EdelmanRunsEveryCycleAsMovesWithTheCarriedSpan) {
  for (int d = 1; d <= 7; ++d) {
    const BuiltCase c = buildCase({"edelman", d, 0, 1, false});
    const TwoRuns runs = runBothWays(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()),
                                     c.perm.elements());
    expectSameRun(runs.lockstep, runs.general, "d = " + std::to_string(d));
    EXPECT_EQ(runs.stats.lockstep_cycles, runs.lockstep.cycles) << d;
    EXPECT_TRUE(runs.stats.carried_span) << d;
    EXPECT_EQ(runs.lockstep.span, relativeScheduleSpan(edelmanSchedule(d))) << d;
    EXPECT_EQ(checkAgainstReference(c.perm, runs.lockstep.memory).mismatches, 0U) << d;
  }
  // Scratch words hold 0 (tag 0 again) but no move reads them: the span is still carried.
  BuiltCase c = buildCase({"edelman", 4, 0, 1, false});
  c.tables.header.scratch = 3;
  const TwoRuns runs =
      runBothWays(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), c.perm.elements());
  expectSameRun(runs.lockstep, runs.general, "scratch");
  EXPECT_TRUE(runs.stats.carried_span);
  EXPECT_EQ(runs.lockstep.span, relativeScheduleSpan(edelmanSchedule(4)));
}

TEST(ExecutorLockstep, EverySharedTableAlgorithmAgreesWithItsPerNodeCopy) {
  // The library's shared tables: relative schedules (swaps and moves), repeated AAPCs, lanes,
  // the one-port exchange.
  const std::vector<CaseSpec> specs = {
      {"edelman", 4, 48, 1, false}, {"jh1", 4, 0, 1, false}, {"jh2", 4, 0, 1, false},
      {"jh3", 4, 0, 1, false},      {"jh4", 4, 0, 1, false}, {"exchange", 4, 0, 1, false},
      {"sbnt", 4, 0, 1, false},     {"jh3", 3, 0, 2, false}, {"exchange", 3, 0, 1, true}};
  for (const CaseSpec& spec : specs) {
    const std::string what = spec.algo + " n = " + std::to_string(spec.n);
    const BuiltCase c = buildCase(spec);
    ASSERT_TRUE(c.tables.shared) << what;
    const TwoRuns runs = runBothWays(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()),
                                     c.perm.elements());
    expectSameRun(runs.lockstep, runs.general, what);
    EXPECT_EQ(runs.stats.lockstep_cycles, runs.lockstep.cycles) << what;
    EXPECT_TRUE(runs.stats.carried_span) << what;
    EXPECT_EQ(checkAgainstReference(c.perm, runs.lockstep.memory).mismatches, 0U) << what;
  }
}

TEST(ExecutorLockstep, SweepsAndMovesInterleaveInOneSharedTable) {
  // A shared table mixing steps the decode cannot prove error-free or that are not plain moves
  // (PASS and FWD, a combining receive, a PERMUTE, a WAIT) with lockstep moves: the general
  // sweeps and the moves hand the state over to each other exactly.
  TableSet set = handmade(1);
  Instruction pass = Instruction::xfer(2);  // relative 0 across port 0 into PASS register 0
  pass.channels[0] = {{OutOp::kMem, true, 0}, {InOp::kPass, false, 0}};
  Instruction fwd = Instruction::xfer(2);  // ... forwarded across port 1 into relative 1
  fwd.channels[1] = {{OutOp::kFwd, false, 0}, {InOp::kMem, true, 1}};
  Instruction swap = Instruction::xfer(2);  // relative 2 swapped across port 1
  swap.channels[1] = {{OutOp::kMem, true, 2}, {InOp::kMem, true, 2}};
  Instruction permute = Instruction::permute(2);  // relative 3 into relative 0
  permute.channels[0] = copy(3, 0, true, true);
  Instruction add = Instruction::xfer(2);  // relative 1 across port 0, added into relative 1
  add.channels[0] = {{OutOp::kMem, true, 1}, {InOp::kAdd, true, 1}};
  Instruction move = Instruction::xfer(2);  // relative 1 across port 1 into relative 3
  move.channels[1] = {{OutOp::kMem, true, 1}, {InOp::kMem, true, 3}};
  set.tables = {
      {pass, fwd, swap, Instruction::waitFor(3), permute, add, swap, move, Instruction::end()}};
  const CubeMemory initial = taggedMemory(set.header.perm, set.header.memoryWords());
  const TwoRuns runs = runBothWays(set, initial, 16);
  expectSameRun(runs.lockstep, runs.general, "mixed");
  EXPECT_EQ(runs.stats.lockstep_cycles, 3U);  // swap, swap, move
  EXPECT_FALSE(runs.stats.carried_span);
  EXPECT_EQ(runs.lockstep.cycles, 10U);
  EXPECT_EQ(runs.lockstep.transfer_cycles, 6U);
  EXPECT_EQ(runs.lockstep.local_cycles, 1U);
  EXPECT_EQ(runs.lockstep.words, 6U * 4);
  EXPECT_TRUE(runs.lockstep.errors.empty());
  // Node y's relative 1 (address y ^ 1) got the word of relative 0 of y ^ 3 (through y ^ 2),
  // then added the word of y ^ 1's relative 1, then went out; relative 3 got y ^ 2's relative 1.
  const auto fetched = [](u32 y) { return 4 * (y ^ 3) + (y ^ 3); };
  for (u32 y = 0; y < 4; ++y) {
    EXPECT_EQ(runs.lockstep.memory.at(y, y ^ 3), fetched(y ^ 2) + fetched(y ^ 2 ^ 1)) << y;
  }
}

TEST(ExecutorLockstep, ATagInTwoSlotsFallsBackToTheMonitorsRecord) {
  // Node 0 holds tag 5 in two slots: relative slot 1 goes out in cycle 0, the copy in relative
  // slot 2 only in cycle 1. Its first send is cycle 0 for both, so the span counts the copy's
  // arrival in cycle 1 as 2 cycles; a first-send cycle carried per slot would say 1.
  TableSet set = handmade(1);
  Instruction first = Instruction::xfer(2);
  first.channels[0] = {{OutOp::kMem, true, 1}, {InOp::kMem, true, 1}};
  Instruction second = Instruction::xfer(2);
  second.channels[1] = {{OutOp::kMem, true, 2}, {InOp::kMem, true, 2}};
  set.tables = {{first, second, Instruction::end()}};
  CubeMemory initial = taggedMemory(set.header.perm, set.header.memoryWords());
  for (u32& word : initial.words) word += 16;  // no other tags
  initial.at(0, 1) = 5;
  initial.at(0, 2) = 5;
  const TwoRuns runs = runBothWays(set, initial, 16);
  expectSameRun(runs.lockstep, runs.general, "tag in two slots");
  EXPECT_FALSE(runs.stats.carried_span);
  EXPECT_EQ(runs.stats.lockstep_cycles, 2U);
  EXPECT_EQ(runs.lockstep.span, 2U);
  // With the tag in one slot only the carried span applies, and still gives 1.
  initial.at(0, 2) = 21;
  const TwoRuns single = runBothWays(set, initial, 16);
  expectSameRun(single.lockstep, single.general, "tag in one slot");
  EXPECT_TRUE(single.stats.carried_span);
  EXPECT_EQ(single.lockstep.span, 1U);
}

TEST(ExecutorLockstep, MovesThatReadRowsOthersWriteAreStagedSwapsAndDirectMoves) {
  // A 2-cube with K = 4, slot a of node x holding tag 4 x + a (relative slot r: address r ^ x).
  TableSet set = handmade(1);
  // Two moves that write each other's source rows (relative 0 -> 1 across port 0, 1 -> 0 across
  // port 1): every row is read before any is written. Then two in-place swaps (2 -> 2 across
  // port 0, 3 -> 3 across port 1).
  Instruction cross = Instruction::xfer(2);
  cross.channels[0] = {{OutOp::kMem, true, 0}, {InOp::kMem, true, 1}};
  cross.channels[1] = {{OutOp::kMem, true, 1}, {InOp::kMem, true, 0}};
  Instruction swap = Instruction::xfer(2);
  swap.channels[0] = {{OutOp::kMem, true, 2}, {InOp::kMem, true, 2}};
  swap.channels[1] = {{OutOp::kMem, true, 3}, {InOp::kMem, true, 3}};
  set.tables = {{cross, swap, Instruction::end()}};
  const CubeMemory initial = taggedMemory(set.header.perm, set.header.memoryWords());
  const TwoRuns runs = runBothWays(set, initial, 16);
  expectSameRun(runs.lockstep, runs.general, "staged and swaps");
  EXPECT_EQ(runs.stats.lockstep_cycles, 2U);
  EXPECT_TRUE(runs.stats.carried_span);
  EXPECT_TRUE(runs.lockstep.errors.empty());
  EXPECT_EQ(runs.lockstep.span, 1U);
  for (u32 y = 0; y < 4; ++y) {
    std::vector<u32> expect(4);
    expect[y ^ 1] = 4 * (y ^ 1) + (y ^ 1);  // relative 1 <- relative 0 of y ^ 1
    expect[y] = 4 * (y ^ 2) + (y ^ 3);      // relative 0 <- relative 1 of y ^ 2
    expect[y ^ 2] = 4 * (y ^ 1) + (y ^ 3);  // relative 2 <- relative 2 of y ^ 1
    expect[y ^ 3] = 4 * (y ^ 2) + (y ^ 1);  // relative 3 <- relative 3 of y ^ 2
    EXPECT_EQ(memoryOf(runs.lockstep, y), expect) << y;
  }
  // Moves into rows nobody reads (relative 2 -> 3 across port 0, 0 -> 1 across port 1).
  Instruction direct = Instruction::xfer(2);
  direct.channels[0] = {{OutOp::kMem, true, 2}, {InOp::kMem, true, 3}};
  direct.channels[1] = {{OutOp::kMem, true, 0}, {InOp::kMem, true, 1}};
  set.tables = {{direct, Instruction::end()}};
  const TwoRuns other = runBothWays(set, initial, 16);
  expectSameRun(other.lockstep, other.general, "direct");
  EXPECT_EQ(other.stats.lockstep_cycles, 1U);
  for (u32 y = 0; y < 4; ++y) {
    std::vector<u32> expect(4);
    expect[y] = 4 * y + y;
    expect[y ^ 2] = 4 * y + (y ^ 2);
    expect[y ^ 3] = 4 * (y ^ 1) + (y ^ 3);  // relative 3 <- relative 2 of y ^ 1
    expect[y ^ 1] = 4 * (y ^ 2) + (y ^ 2);  // relative 1 <- relative 0 of y ^ 2
    EXPECT_EQ(memoryOf(other.lockstep, y), expect) << y;
  }
}

TEST(ExecutorLockstep, BrokenSharedTablesStayOnTheCheckedSweeps) {
  // A lost word, a missing one, an overrun (no END) and a slot outside the memory: exact
  // counters either way, and no step with a possible error runs as moves.
  BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  c.tables.header.scratch = 8;  // the tables may name slots up to 15...
  Table& t = c.tables.tables[0];
  t[0].channels[0].in = {};
  t[1].channels[1].out = {};
  t[2].channels[2].out.idx = 9;  // relative slot 9: address 9 ^ x, outside M at nodes 2 to 7
  t.pop_back();                  // no END: the sequencer runs past the table
  const CubeMemory initial = taggedMemory(c.perm, 10);  // ...but the memory has 10
  const TwoRuns runs = runBothWays(c.tables, initial, c.perm.elements());
  expectSameRun(runs.lockstep, runs.general, "broken");
  EXPECT_EQ(runs.stats.lockstep_cycles, runs.lockstep.cycles - 3);
  EXPECT_FALSE(runs.stats.carried_span);
  std::map<HwError, u64> kinds;
  for (const NodeErrorCount& e : runs.lockstep.errors) kinds[e.kind] += e.count;
  EXPECT_EQ(kinds[HwError::kLost], 8U);
  EXPECT_EQ(kinds[HwError::kNoData], 8U);
  EXPECT_EQ(kinds[HwError::kSlot], 6U);
  EXPECT_EQ(kinds[HwError::kOverrun], 8U);
}

TEST(ExecutorLockstep, ACycleLimitAbove2To32KeepsTheMonitorsSpan) {
  const BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  const CubeMemory initial = taggedMemory(c.perm, c.tables.header.memoryWords());
  const TwoRuns runs = runBothWays(c.tables, initial, c.perm.elements(), u64{1} << 33);
  expectSameRun(runs.lockstep, runs.general, "2^33");
  EXPECT_FALSE(runs.stats.carried_span);
  EXPECT_EQ(runs.stats.lockstep_cycles, runs.lockstep.cycles);
  // The cycle limit stops a lockstep run exactly.
  const TwoRuns cut = runBothWays(c.tables, initial, c.perm.elements(), 3);
  expectSameRun(cut.lockstep, cut.general, "limit 3");
  EXPECT_TRUE(cut.lockstep.timeout);
  EXPECT_EQ(cut.lockstep.cycles, 3U);
}

}  // namespace
}  // namespace hcube

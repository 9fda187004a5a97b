// The SystemC-TLM cube against the C++ table executor: identical final memories, cycle counts,
// transfer and local cycles, words, link counts, spans and hardware error counters, on Edelman's
// AAPC (n = 1..6 in CI, n = 7..10 as the *Long* tests, label "long"), on Johnsson & Ho's
// Algorithm 4 with explicit PERMUTE alignment phases, and on hand-made tables that exercise
// WAIT, PASS/FWD, PERMUTE (swaps, rotations, illegal channels, lost and dropped words), one-port
// violations, conflicts, lanes = 2, timeouts and corrupted tables (which the static verifier
// must reject).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "hc_tlm_run.h"
#include "run_compare.h"
#include "tables/verifier.h"
#include "test_util.h"
#include "tlm_backend.h"

namespace hcube {
namespace {

using testing::chan;
using testing::errorList;
using testing::handMade;
using testing::move;
using testing::onTable;

RunResult onTlm(const TableSet& set, u64 max_cycles = 0) {
  TlmOptions opt;
  opt.max_cycles = max_cycles;
  return runOnTlm(set, opt);
}

void expectSameRun(const RunResult& tlm, const RunResult& table) {
  testing::expectSameRun("tlm", tlm, table);
  EXPECT_EQ(tlm.local_cycles, table.local_cycles);
}

/// Runs `set` on both and expects the same result; returns the TLM's.
RunResult expectAgreement(const TableSet& set, u64 max_cycles = 0) {
  const RunResult table = onTable(set, max_cycles);
  const RunResult tlm = onTlm(set, max_cycles);
  expectSameRun(tlm, table);
  return tlm;
}

void expectEdelman(int n, u64 k) {
  SCOPED_TRACE("edelman n = " + std::to_string(n) + " K = " + std::to_string(k));
  const BuiltCase c = buildCase({"edelman", n, k, 1, false});
  const RunResult tlm = expectAgreement(c.tables);
  const CheckResult check = checkAgainstReference(c.perm, tlm.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, c.perm.elements());
  EXPECT_EQ(tlm.cycles, c.perm.slots() / 2);
  EXPECT_EQ(tlm.transfer_cycles, c.perm.slots() / 2);
  EXPECT_TRUE(tlm.errors.empty()) << errorList(tlm.errors);
  EXPECT_FALSE(tlm.timeout);
}

// ---------------------------------------------------------------------------------------------
// Edelman's AAPC, every algorithm the catalogue has today
// ---------------------------------------------------------------------------------------------

TEST(TlmCatalogue, EveryAlgorithmAgreesWithTheExecutor) {
  std::vector<std::string> ran;
  for (int n = 1; n <= 6; ++n) {
    for (const testing::CatalogueCase& c : testing::catalogueCases(n, nullptr)) {
      SCOPED_TRACE(c.name);
      const RunResult tlm = expectAgreement(c.built.tables);
      EXPECT_EQ(checkAgainstReference(c.built.perm, tlm.memory).mismatches, 0U);
      ran.push_back(c.name);
    }
  }
  for (const std::string& name : testing::requiredCatalogueCases(1, 6)) {
    EXPECT_NE(std::find(ran.begin(), ran.end(), name), ran.end()) << name << " did not run";
  }
}

// Johnsson & Ho 1992 §2.2: Algorithm 4 with its pre- and post-alignment as PERMUTE phases.
class TlmJh4ExplicitAlignment : public ::testing::TestWithParam<int> {};
TEST_P(TlmJh4ExplicitAlignment, MatchesTableExecutorAndReference) {
  const int n = GetParam();
  const BuiltCase c = buildCase({"jh4", n, 0, 1, false, {{"alignment", "explicit"}}});
  const RunResult tlm = expectAgreement(c.tables);
  EXPECT_EQ(checkAgainstReference(c.perm, tlm.memory).mismatches, 0U);
  EXPECT_TRUE(tlm.errors.empty()) << errorList(tlm.errors);
  EXPECT_EQ(tlm.transfer_cycles, c.perm.slots() / 2);
  EXPECT_GT(tlm.local_cycles, 0U);
  EXPECT_EQ(tlm.cycles, tlm.transfer_cycles + tlm.local_cycles);
}
INSTANTIATE_TEST_SUITE_P(Ci, TlmJh4ExplicitAlignment, ::testing::Range(1, 7));

class TlmEdelman : public ::testing::TestWithParam<int> {};
TEST_P(TlmEdelman, MatchesTableExecutorAndReference) { expectEdelman(GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(Ci, TlmEdelman, ::testing::Range(1, 7));

class TlmEdelmanLong : public ::testing::TestWithParam<int> {};
TEST_P(TlmEdelmanLong, MatchesTableExecutorAndReference) { expectEdelman(GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(Big, TlmEdelmanLong, ::testing::Range(7, 11));

TEST(TlmEdelmanRepeated, KEqualsMTimes2ToTheN) {
  expectEdelman(1, 6);
  expectEdelman(2, 12);
  expectEdelman(3, 24);
  expectEdelman(4, 48);
  expectEdelman(5, 64);
  expectEdelman(6, 128);
}

TEST(TlmEdelmanRepeatedLong, KEqualsMTimes2ToTheN) {
  expectEdelman(7, 256);
  expectEdelman(8, 512);
}

TEST(TlmScratch, EdelmanWithScratchSlotsKeepsThemUntouched) {
  BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  c.tables.header.scratch = 3;  // memory M = K + 3, the scratch words start at zero
  const RunResult tlm = expectAgreement(c.tables);
  EXPECT_EQ(tlm.memory.words_per_node, 11U);
  EXPECT_EQ(checkAgainstReference(c.perm, tlm.memory).mismatches, 0U);
  for (u64 x = 0; x < 8; ++x) {
    for (u64 s = 8; s < 11; ++s) EXPECT_EQ(tlm.memory.at(x, s), 0U);
  }
}

// ---------------------------------------------------------------------------------------------
// Sequencer: WAIT, END, unequal tables, timeouts
// ---------------------------------------------------------------------------------------------

TEST(TlmSequencer, WaitCyclesCountLikeTheExecutor) {
  BuiltCase c = buildCase({"edelman", 2, 0, 1, false});
  Table& t = c.tables.tables[0];
  t.insert(t.begin() + 1, Instruction::waitFor(5));
  t.insert(t.begin(), Instruction::waitFor(1));
  const RunResult tlm = expectAgreement(c.tables);
  EXPECT_EQ(tlm.cycles, 8U);
  EXPECT_EQ(tlm.transfer_cycles, 2U);
  EXPECT_EQ(checkAgainstReference(c.perm, tlm.memory).mismatches, 0U);
}

TEST(TlmSequencer, TablesThatStartWithEndMeasureZeroCycles) {
  TableSet set = handMade(3, 1, 0);
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 0U);
  EXPECT_EQ(tlm.words, 0U);
  EXPECT_EQ(checkAgainstReference(set.header.perm, tlm.memory).mismatches,
            set.header.perm.elements() - set.header.nodes());  // only the diagonal is in place
}

TEST(TlmSequencer, UnequalTablesAndWordsArrivingAtAnEndedOrWaitingNodeAreLost) {
  TableSet set = handMade(2, 1, 3);
  set.tables[1] = {Instruction::end()};  // node 1 is done from the start
  set.tables[2] = {Instruction::waitFor(3), Instruction::end()};
  chan(set, 0, 0, 0).out = {OutOp::kMem, false, 1};  // to node 1 (ended): lost
  chan(set, 0, 1, 1).out = {OutOp::kMem, false, 2};  // to node 2 (waiting): lost
  chan(set, 3, 2, 1).out = {OutOp::kMem, false, 3};  // to node 1: lost ...
  chan(set, 0, 2, 0).out = {OutOp::kMem, false, 0};  // ... in the same cycle
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 3U);
  EXPECT_EQ(tlm.words, 4U);
  // Counters count cycles (docs/hardware/checks.md): two words lost by node 1 in cycle 2 count
  // once.
  EXPECT_EQ(tlm.errors,
            (std::vector<NodeErrorCount>{{1, HwError::kLost, 2}, {2, HwError::kLost, 1}}));
}

TEST(TlmSequencer, WaitOfTwentyThousandCyclesIsCountedExactly) {
  TableSet set = handMade(2, 1, 1);
  set.tables[0] = {Instruction::xfer(2), Instruction::waitFor(20000), Instruction::xfer(2),
                   Instruction::end()};
  move(set, 0, 0, 1, 2, 2);                          // node 0 -> node 2 in cycle 0
  chan(set, 0, 2, 0).out = {OutOp::kMem, false, 3};  // to node 1 in cycle 20001: ended long ago
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 20002U);
  EXPECT_EQ(tlm.transfer_cycles, 2U);
  EXPECT_EQ(tlm.errors, (std::vector<NodeErrorCount>{{1, HwError::kLost, 1}}));
}

// Cycles in which every node only waits are skipped in one step. A 1-cube moves a
// word, waits, and moves it back.
TableSet waitingOneCube(u32 wait) {
  TableSet set = handMade(1, 1, 2);
  set.shared = true;
  set.tables.resize(1);
  set.tables[0].insert(set.tables[0].begin() + 1, Instruction::waitFor(wait));
  chan(set, 0, 0, 0) = {{OutOp::kMem, true, 1}, {InOp::kMem, true, 1}};
  chan(set, 0, 2, 0) = chan(set, 0, 0, 0);
  return set;
}

/// The run in a child process, with wall_seconds replaced by the SystemC time it took.
RunResult tlmWithSystemCTime(const TableSet& set) {
  return runInChildProcess([&set] {
    RunResult r = runCubeInThisProcess(set, TlmOptions{}, {}, "tlm");
    r.wall_seconds = sc_core::sc_time_stamp().to_seconds();
    return r;
  });
}

TEST(TlmSequencer, AWaitOfTwoToThe32MinusOneCyclesIsExactAndSkipped) {
  for (u32 wait : {10U, 1000000000U, 4294967295U}) {
    SCOPED_TRACE("wait " + std::to_string(wait));
    const RunResult tlm = expectAgreement(waitingOneCube(wait));
    EXPECT_FALSE(tlm.timeout);
    EXPECT_EQ(tlm.cycles, u64{wait} + 2);
    EXPECT_EQ(tlm.transfer_cycles, 2U);
    EXPECT_EQ(tlm.span, u64{wait} + 2);
    EXPECT_TRUE(tlm.errors.empty());
  }
  // The simulated SystemC time does not grow with the wait: the waiting cycles are not run.
  const RunResult short_wait = tlmWithSystemCTime(waitingOneCube(10));
  const RunResult long_wait = tlmWithSystemCTime(waitingOneCube(1000000000U));
  EXPECT_EQ(long_wait.cycles, 1000000002U);
  EXPECT_GT(short_wait.wall_seconds, 0.0);
  EXPECT_EQ(long_wait.wall_seconds, short_wait.wall_seconds);
}

TEST(TlmSequencer, SkippedWaitsKeepOverrunsDropsAndTheCycleLimitExact) {
  TableSet set = handMade(1, 1, 1);
  set.tables[0] = {Instruction::xfer(1), Instruction::waitFor(1000), Instruction::end()};
  set.tables[1] = {Instruction::xfer(1), Instruction::waitFor(7)};  // no END: an overrun
  chan(set, 1, 0, 0).out = {OutOp::kMem, false, 1};
  chan(set, 0, 0, 0).in = {InOp::kPass, false, 0};  // held, then dropped in the first wait cycle
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 1001U);
  EXPECT_EQ(tlm.errors,
            (std::vector<NodeErrorCount>{{0, HwError::kDropped, 1}, {1, HwError::kOverrun, 1}}));
  for (u64 limit : {1U, 2U, 3U, 8U, 9U, 10U, 500U, 1000U, 1001U, 1002U}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    expectAgreement(set, limit);
  }
}

TEST(TlmSequencer, RunningOffATableWithoutEndIsAnOverrun) {
  TableSet set = handMade(2, 1, 2);
  set.tables[0].pop_back();                   // XFER, XFER and no END
  set.tables[3] = {Instruction::waitFor(4)};  // a WAIT and no END
  move(set, 1, 1, 0, 0, 1);                   // node 1 -> node 0 in the last cycle
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 4U);
  EXPECT_EQ(tlm.errors,
            (std::vector<NodeErrorCount>{{0, HwError::kOverrun, 1}, {3, HwError::kOverrun, 1}}));
  TableSet shared = handMade(1, 1, 3);  // one shared table without END
  shared.shared = true;
  shared.tables.resize(1);
  shared.tables[0].pop_back();
  EXPECT_EQ(expectAgreement(shared).errors,
            (std::vector<NodeErrorCount>{{0, HwError::kOverrun, 1}, {1, HwError::kOverrun, 1}}));
}

TEST(TlmSequencer, CycleLimitTimesOutLikeTheExecutor) {
  BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  c.tables.tables[0][1].channels[0].in = {};  // an error before the limit
  c.tables.tables[0][3].channels[1].in = {};  // an error after it
  const RunResult tlm = expectAgreement(c.tables, 2);
  EXPECT_TRUE(tlm.timeout);
  EXPECT_EQ(tlm.cycles, 2U);
  EXPECT_EQ(tlm.transfer_cycles, 2U);
}

TEST(TlmSequencer, CycleLimitInsideAWaitAndAtAPassWord) {
  TableSet set = handMade(1, 1, 2);
  set.tables[0] = {Instruction::xfer(1), Instruction::waitFor(10), Instruction::end()};
  set.tables[1] = {Instruction::xfer(1), Instruction::end()};
  chan(set, 1, 0, 0).out = {OutOp::kMem, false, 0};
  chan(set, 0, 0, 0).in = {InOp::kPass, false, 0};  // held, then a WAIT drops it
  for (u64 limit : {1, 2, 5, 11, 12}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    expectAgreement(set, limit);
  }
}

// ---------------------------------------------------------------------------------------------
// PERMUTE (docs/hardware/node.md §2.1)
// ---------------------------------------------------------------------------------------------

/// A PERMUTE for `channels` channels with channel c copying slot from[c] into slot to[c].
Instruction permute(size_t channels, const std::vector<std::pair<u32, u32>>& copies) {
  Instruction p = Instruction::permute(channels);
  for (size_t c = 0; c < copies.size(); ++c) {
    p.channels[c] = {{OutOp::kMem, false, copies[c].first}, {InOp::kMem, false, copies[c].second}};
  }
  return p;
}

TEST(TlmPermute, SwapAndRotationReadTheMemoryAsAtTheStartOfTheCycle) {
  TableSet set = handMade(3, 1, 0);  // K = 8; every table: the PERMUTEs below, then END
  set.shared = true;
  set.tables.resize(1);
  Table& t = set.tables[0];
  t.insert(t.begin(), permute(3, {{0, 1}, {1, 0}}));              // swap slots 0 and 1
  t.insert(t.begin() + 1, permute(3, {{2, 3}, {3, 4}, {4, 2}}));  // rotate 2 -> 3 -> 4 -> 2
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 2U);
  EXPECT_EQ(tlm.local_cycles, 2U);
  EXPECT_EQ(tlm.transfer_cycles, 0U);
  EXPECT_EQ(tlm.words, 0U);
  EXPECT_TRUE(tlm.errors.empty()) << errorList(tlm.errors);
  for (u64 x = 0; x < 8; ++x) {
    const std::vector<u64> expected{1, 0, 4, 2, 3, 5, 6, 7};
    for (u64 s = 0; s < 8; ++s) EXPECT_EQ(tlm.memory.at(x, s), 8 * x + expected[s]) << x << s;
  }
}

TEST(TlmPermute, RelativeSlotsOnePortAndALocalCycleCountedOncePerCycle) {
  // One-port hardware: a PERMUTE uses no port, so three copies in one cycle are fine. Node 0 and
  // node 3 permute in the same cycle (one local cycle); node 5 one cycle later.
  TableSet set = handMade(3, 1, 2, 1, true);
  Instruction rel = Instruction::permute(3);
  for (size_t c = 0; c < 3; ++c) {
    rel.channels[c] = {{OutOp::kMem, true, static_cast<u32>(c)},
                       {InOp::kMem, false, static_cast<u32>(7 - c)}};
  }
  set.tables[0][0] = rel;
  set.tables[3][0] = rel;
  set.tables[5][1] = rel;
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.local_cycles, 2U);
  EXPECT_TRUE(tlm.errors.empty()) << errorList(tlm.errors);
  EXPECT_EQ(tlm.memory.at(3, 7), 3U * 8U + 3U);  // slot 0 ^ 3
  EXPECT_EQ(tlm.memory.at(5, 5), 5U * 8U + 7U);  // slot 2 ^ 5
}

// (Slot-range errors cannot come from a TableSet: checkTableShape rejects such tables.)
TEST(TlmPermute, IllegalChannelsAndConflicts) {
  TableSet set = handMade(2, 2, 0, 2);  // K = 8 and two scratch slots: M = 10; two lanes
  set.header.scratch = 2;
  Instruction p = Instruction::permute(4);
  p.channels[0] = {{OutOp::kFwd, false, 1}, {InOp::kMem, false, 0}};   // FWD out: illegal
  p.channels[1] = {{OutOp::kMem, false, 1}, {InOp::kPass, false, 0}};  // PASS in: illegal
  p.channels[2] = {{OutOp::kMem, false, 2}, {InOp::kMem, false, 9}};
  p.channels[3] = {{OutOp::kMem, false, 3}, {InOp::kMem, false, 9}};  // conflict: lane 3 wins
  Instruction q = Instruction::permute(4);
  q.channels[0] = {{OutOp::kMem, false, 4}, {InOp::kMem, false, 8}};
  q.channels[1] = {{OutOp::kMem, false, 5}, {InOp::kMem, false, 8}};   // conflict: lane 1 wins
  q.channels[3] = {{OutOp::kIdle, false, 0}, {InOp::kMem, false, 8}};  // illegal, not a conflict
  set.tables.assign(4, Table{p, q, Instruction::end()});
  set.tables[2] = {q, Instruction::end()};
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.local_cycles, 2U);
  std::vector<NodeErrorCount> expected;
  for (u64 x = 0; x < 4; ++x) {
    const u64 cycles = x == 2 ? 1 : 2;
    expected.push_back({x, HwError::kIllegal, cycles});
    expected.push_back({x, HwError::kConflict, cycles});
  }
  EXPECT_EQ(tlm.errors, expected) << errorList(tlm.errors);
  for (u64 x = 0; x < 4; ++x) {
    EXPECT_EQ(tlm.memory.at(x, 8), 8 * x + 5) << "node " << x;
    EXPECT_EQ(tlm.memory.at(x, 9), x == 2 ? 0 : 8 * x + 3) << "node " << x;
  }
}

TEST(TlmPermute, WordsArrivingAreLostAndAHeldPassWordIsDropped) {
  TableSet set = handMade(2, 1, 2);
  set.tables[1][1] = permute(2, {{0, 3}});
  chan(set, 0, 0, 0).out = {OutOp::kMem, false, 2};
  chan(set, 1, 0, 0).in = {InOp::kPass, false, 0};   // held, then the PERMUTE drops it
  chan(set, 3, 1, 1).out = {OutOp::kMem, false, 1};  // to node 1 during its PERMUTE: lost
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.local_cycles, 1U);
  EXPECT_EQ(tlm.transfer_cycles, 2U);
  EXPECT_EQ(tlm.memory.at(1, 3), 4U);
  EXPECT_EQ(tlm.errors,
            (std::vector<NodeErrorCount>{{1, HwError::kLost, 1}, {1, HwError::kDropped, 1}}));
}

TEST(TlmPermute, ImageWordWithOpcodeThreeRunsAsPermuteThroughTheLoadPath) {
  // The TLM nodes decode the loaded table words: a PERMUTE must survive encode -> load -> decode
  // with three lanes and relative slots on both sides.
  TableSet set = handMade(2, 2, 0, 3);
  set.shared = true;
  set.tables.resize(1);
  Instruction p = Instruction::permute(6);
  for (size_t c = 0; c < 6; ++c) {
    p.channels[c] = {{OutOp::kMem, true, static_cast<u32>(c)},
                     {InOp::kMem, true, static_cast<u32>((c + 1) % 6)}};
  }
  set.tables[0].insert(set.tables[0].begin(), p);
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.local_cycles, 1U);
  EXPECT_TRUE(tlm.errors.empty()) << errorList(tlm.errors);
  EXPECT_EQ(tlm.memory.at(2, 1 ^ 2), 2U * 8U + (0 ^ 2));
}

// ---------------------------------------------------------------------------------------------
// PASS / FWD, one-port, conflicts, lanes
// ---------------------------------------------------------------------------------------------

TEST(TlmForwarding, OnePortForwardAndDropErrors) {
  TableSet set = handMade(2, 1, 2, 1, true);
  // Node 0 sends on both ports in cycle 0 (one-port violation); nodes 1 and 2 receive with
  // PASS; node 1 forwards in cycle 1 to node 3, node 2 drops its word.
  chan(set, 0, 0, 0).out = {OutOp::kMem, false, 1};
  chan(set, 0, 0, 1).out = {OutOp::kMem, false, 2};
  chan(set, 1, 0, 0).in = {InOp::kPass, false, 0};
  chan(set, 2, 0, 1).in = {InOp::kPass, false, 0};
  chan(set, 1, 1, 1).out = {OutOp::kFwd, false, 0};
  chan(set, 3, 1, 1).in = {InOp::kMem, false, 0};
  chan(set, 3, 1, 0).out = {OutOp::kFwd, false, 1};  // nothing to forward
  chan(set, 2, 1, 0).in = {InOp::kMem, false, 3};
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 2U);
  EXPECT_EQ(tlm.memory.at(3, 0), 1U);  // node 0's slot 1 reached node 3 through node 1
  EXPECT_EQ(tlm.errors, (std::vector<NodeErrorCount>{{0, HwError::kOnePort, 1},
                                                     {2, HwError::kNoData, 1},
                                                     {2, HwError::kDropped, 1},
                                                     {3, HwError::kFwd, 1}}));
  EXPECT_EQ(tlm.span, 2U);
}

TEST(TlmForwarding, WordCrossesTheCubeThroughTwoForwards) {
  TableSet set = handMade(3, 1, 3);
  // Node 0's slot 5 goes 0 -> 1 -> 3 -> 7 without touching memory in nodes 1 and 3.
  chan(set, 0, 0, 0).out = {OutOp::kMem, false, 5};
  chan(set, 1, 0, 0).in = {InOp::kPass, false, 0};
  chan(set, 1, 1, 1).out = {OutOp::kFwd, false, 0};
  chan(set, 3, 1, 1).in = {InOp::kPass, false, 0};
  chan(set, 3, 2, 2).out = {OutOp::kFwd, false, 1};
  chan(set, 7, 2, 2).in = {InOp::kMem, false, 6};
  const RunResult tlm = expectAgreement(set);
  EXPECT_TRUE(tlm.errors.empty()) << errorList(tlm.errors);
  EXPECT_EQ(tlm.memory.at(7, 6), 5U);
  EXPECT_EQ(tlm.words, 3U);
  EXPECT_EQ(tlm.span, 3U);
}

TEST(TlmForwarding, PassWordHeldAtTheEndIsDropped) {
  TableSet set = handMade(1, 1, 1);
  chan(set, 0, 0, 0).out = {OutOp::kMem, false, 1};
  chan(set, 1, 0, 0).in = {InOp::kPass, false, 0};
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.cycles, 1U);
  EXPECT_EQ(tlm.errors, (std::vector<NodeErrorCount>{{1, HwError::kDropped, 1}}));
}

TEST(TlmForwarding, PassWordBeforeAWaitIsDroppedAndForwardingTwiceIsNot) {
  TableSet set = handMade(2, 1, 3);
  chan(set, 0, 0, 0).out = {OutOp::kMem, false, 1};
  chan(set, 1, 0, 0).in = {InOp::kPass, false, 0};
  set.tables[1][1] = Instruction::waitFor(2);  // drops node 0's word
  chan(set, 2, 0, 1).out = {OutOp::kMem, false, 3};
  chan(set, 0, 0, 1).in = {InOp::kPass, false, 0};
  chan(set, 0, 1, 0).out = {OutOp::kFwd, false, 1};  // the same PASS word on two ports
  chan(set, 0, 1, 1).out = {OutOp::kFwd, false, 1};
  chan(set, 2, 1, 1).in = {InOp::kMem, false, 0};
  const RunResult tlm = expectAgreement(set);  // node 1 waits: the word on port 0 is lost
  EXPECT_EQ(tlm.errors,
            (std::vector<NodeErrorCount>{{1, HwError::kLost, 1}, {1, HwError::kDropped, 1}}));
  EXPECT_EQ(tlm.memory.at(2, 0), 11U);  // node 2's slot 3 came back
}

TEST(TlmOnePort, SendingAndReceivingOnTwoPortsAreViolations) {
  TableSet set = handMade(3, 1, 2, 1, true);
  move(set, 0, 0, 0, 1, 1);
  move(set, 0, 0, 2, 4, 4);  // node 0 sends on two ports
  move(set, 3, 1, 0, 2, 2);
  move(set, 0, 1, 1, 3, 3);  // node 2 receives on ports 0 and 1
  move(set, 5, 1, 2, 1, 1);  // node 1 receives on port 2 only: fine
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.errors,
            (std::vector<NodeErrorCount>{{0, HwError::kOnePort, 1}, {2, HwError::kOnePort, 1}}));
  set.header.one_port = false;  // the same tables on all-port hardware: no errors
  EXPECT_TRUE(expectAgreement(set).errors.empty());
}

TEST(TlmConflicts, TwoChannelsWritingOneSlotConflict) {
  TableSet set = handMade(2, 1, 2);
  move(set, 1, 0, 0, 1, 3);
  move(set, 2, 0, 1, 2, 3);  // node 0 stores two words into slot 3 in cycle 0
  move(set, 1, 1, 0, 0, 0);
  chan(set, 3, 1, 1).out = {OutOp::kMem, false, 0};
  chan(set, 1, 1, 1).in = {InOp::kMem, false, 0};  // node 1: slot 0 from ports 0 ... and 1
  chan(set, 1, 1, 0).in = {InOp::kMem, false, 0};
  chan(set, 0, 1, 0).out = {OutOp::kMem, false, 2};
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.errors,
            (std::vector<NodeErrorCount>{{0, HwError::kConflict, 1}, {1, HwError::kConflict, 1}}));
}

// The model skips the conflict search for an instruction whose MEM inputs share one relative
// flag and name distinct slots (no node can see two of them meet); with mixed flags a relative
// and an absolute slot meet at some nodes only.
TEST(TlmConflicts, RelativeAndAbsoluteSlotsMeetAtSomeNodes) {
  TableSet set = handMade(2, 1, 3);
  for (u64 x = 0; x < set.header.nodes(); ++x) {
    chan(set, x, 0, 0).in = {InOp::kMem, true, 1};   // slot 1 ^ x ...
    chan(set, x, 0, 1).in = {InOp::kMem, false, 0};  // ... and slot 0: they meet at node 1
    chan(set, x, 1, 0).in = {InOp::kMem, true, 2};   // 2 ^ x and 3 ^ x never meet
    chan(set, x, 1, 1).in = {InOp::kMem, true, 3};
    chan(set, x, 2, 0).in = {InOp::kMem, true, 1};  // 1 ^ x twice: every node
    chan(set, x, 2, 1).in = {InOp::kMem, true, 1};
  }
  const RunResult tlm = expectAgreement(set);
  std::vector<NodeErrorCount> expected;
  for (u64 x = 0; x < set.header.nodes(); ++x) {
    expected.push_back({x, HwError::kNoData, 3});  // nothing is sent
    expected.push_back({x, HwError::kConflict, x == 1 ? u64{2} : u64{1}});
  }
  EXPECT_EQ(tlm.errors, expected);
}

TEST(TlmLanes, TwoLanesSwapTwoWordsPerPortAndCycle) {
  // n = 2, K = 8: in one cycle every node swaps slots (2j, 2j + 1) with its neighbour across
  // dimension j, one word per lane, relative addressing off.
  TableSet set = handMade(2, 2, 1, 2);
  for (u64 x = 0; x < 4; ++x) {
    for (int j = 0; j < 2; ++j) {
      for (int l = 0; l < 2; ++l) {
        const u32 slot = static_cast<u32>(2 * j + l);
        chan(set, x, 0, j, l) = {{OutOp::kMem, false, slot}, {InOp::kMem, false, slot}};
      }
    }
  }
  const RunResult tlm = expectAgreement(set);
  EXPECT_TRUE(tlm.errors.empty()) << errorList(tlm.errors);
  EXPECT_EQ(tlm.cycles, 1U);
  EXPECT_EQ(tlm.words, 16U);
  for (u64 x = 0; x < 4; ++x) {
    for (int j = 0; j < 2; ++j) {
      for (u64 l = 0; l < 2; ++l) {
        EXPECT_EQ(tlm.memory.at(x, 2 * j + l), neighbour(x, j) * 8 + 2 * j + l);
      }
    }
  }
  for (u64 w : tlm.link_words) EXPECT_EQ(w, 2U);
}

TEST(TlmLanes, OneLaneOfTwoLostConflictsAndForwardsAcrossLanes) {
  TableSet set = handMade(2, 1, 2, 2);
  chan(set, 0, 0, 0, 1).out = {OutOp::kMem, false, 2};  // only lane 1 carries a word
  chan(set, 1, 0, 0, 1).in = {InOp::kPass, false, 0};
  chan(set, 1, 0, 0, 0).in = {InOp::kMem, false, 3};    // lane 0: nothing arrives
  chan(set, 1, 1, 1, 0).out = {OutOp::kFwd, false, 1};  // forward channel 1 (port 0, lane 1)
  chan(set, 3, 1, 1, 0).in = {InOp::kMem, false, 1};
  chan(set, 3, 1, 1, 1).in = {InOp::kMem, false, 1};  // nothing arrives; a conflict anyway
  move(set, 2, 0, 0, 1, 0, 0);
  move(set, 2, 0, 0, 2, 0, 1);                          // node 3 stores two lanes into slot 0
  chan(set, 2, 1, 0, 1).out = {OutOp::kMem, false, 0};  // node 3 does not listen: lost
  const RunResult tlm = expectAgreement(set);
  EXPECT_EQ(tlm.memory.at(3, 1), 2U);
  EXPECT_EQ(tlm.errors, (std::vector<NodeErrorCount>{{1, HwError::kNoData, 1},
                                                     {3, HwError::kLost, 1},
                                                     {3, HwError::kNoData, 1},
                                                     {3, HwError::kConflict, 2}}));
}

TEST(TlmLanes, FourLanesOnAThreeCubeWithRelativeSlots) {
  TableSet set = handMade(3, 2, 2, 4);
  set.shared = true;
  set.tables.resize(1);
  for (int j = 0; j < 3; ++j) {
    for (int l = 0; l < 4; ++l) {
      if ((j + l) % 3 == 0) continue;                                   // some lanes idle
      const u32 slot = static_cast<u32>((l & 1) << 3 | (l >> 1) << j);  // relative
      Channel& c0 = set.tables[0][0].channels[static_cast<size_t>(j * 4 + l)];
      c0 = {{OutOp::kMem, true, slot}, {InOp::kMem, true, slot}};
      Channel& c1 = set.tables[0][1].channels[static_cast<size_t>(j * 4 + l)];
      c1 = {{OutOp::kMem, true, slot ^ 8U}, {InOp::kMem, true, slot ^ 8U}};
    }
  }
  expectAgreement(set);
}

// ---------------------------------------------------------------------------------------------
// Corrupted tables: the same hardware errors, and the static verifier rejects them
// ---------------------------------------------------------------------------------------------

TEST(TlmCorruptedTable, SameErrorCountersAsTheExecutorAndTheVerifierRejectsIt) {
  BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  ASSERT_TRUE(verifyTables(c.tables).ok());
  Table& t = c.tables.tables[0];
  t[0].channels[0].in = {};       // every node: the word arriving on port 0 in cycle 0 is lost
  t[2].channels[2].out = {};      // every node: expects a word on port 2 in cycle 2, none comes
  t[3].channels[1].in.slot ^= 1;  // stores into the wrong slot: two words in one slot
  const RunResult tlm = expectAgreement(c.tables);
  EXPECT_EQ(tlm.errors.size(), 16U) << errorList(tlm.errors);
  for (u64 x = 0; x < 8; ++x) {
    EXPECT_EQ(tlm.errors[2 * x], (NodeErrorCount{x, HwError::kLost, 1}));
    EXPECT_EQ(tlm.errors[2 * x + 1], (NodeErrorCount{x, HwError::kNoData, 1}));
  }
  EXPECT_GT(checkAgainstReference(c.perm, tlm.memory).mismatches, 0U);
  const VerifyReport v = verifyTables(c.tables);
  EXPECT_FALSE(v.ok());
  EXPECT_GE(v.total_errors, 3U);
}

TEST(TlmCorruptedTable, ForwardWithoutPassAndConflictPerNode) {
  BuiltCase c = buildCase({"edelman", 2, 0, 1, false});
  c.tables.shared = false;
  c.tables.tables.assign(4, c.tables.tables[0]);
  c.tables.tables[2][1].channels[0].out = {OutOp::kFwd, false, 1};  // nothing to forward
  c.tables.tables[1][0].channels[1].in = c.tables.tables[1][0].channels[0].in;  // conflict
  const RunResult tlm = expectAgreement(c.tables);
  EXPECT_FALSE(tlm.errors.empty());
  EXPECT_FALSE(verifyTables(c.tables).ok());
}

TEST(TlmBackend, MalformedTableSetIsAnError) {
  BuiltCase c = buildCase({"edelman", 2, 0, 1, false});
  c.tables.tables[0][0].channels.pop_back();
  EXPECT_THROW(runOnTlm(c.tables, TlmOptions{}), Error);
}

// ---------------------------------------------------------------------------------------------
// Waveforms
// ---------------------------------------------------------------------------------------------

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TlmTrace, VcdHasOneScopePerNodeAndPortWithTheTraffic) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("hcube_tlm_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const BuiltCase c = buildCase({"edelman", 2, 0, 1, false});
  TlmOptions opt;
  opt.vcd = (dir / "edelman.vcd").string();
  const RunResult traced = runOnTlm(c.tables, opt);
  expectSameRun(traced, onTable(c.tables));  // tracing does not change the run
  const std::string vcd = readFile(opt.vcd);
  for (const char* scope :
       {"$scope module cube $end", "$scope module node_3 $end", "$scope module port_1 $end"}) {
    EXPECT_NE(vcd.find(scope), std::string::npos) << scope;
  }
  for (const char* signal : {" clk ", " start ", " run ", " done ", " pc ", " out_valid ",
                             " out_data ", " in_valid ", " in_data "}) {
    EXPECT_NE(vcd.find(signal), std::string::npos) << signal;
  }
  EXPECT_NE(vcd.find("#10"), std::string::npos);  // time advances in ns

  // Lanes become one more scope level; a name without .vcd is written as given.
  TableSet lanes = handMade(1, 1, 1, 2);
  chan(lanes, 0, 0, 0, 1) = {{OutOp::kMem, false, 0}, {InOp::kIdle, false, 0}};
  chan(lanes, 1, 0, 0, 1).in = {InOp::kMem, false, 1};
  opt.vcd = (dir / "lanes.trace").string();
  runOnTlm(lanes, opt);
  const std::string lanes_vcd = readFile(opt.vcd);
  EXPECT_NE(lanes_vcd.find("$scope module lane_1 $end"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Untraced, a node writes its words straight into the neighbour's input registers (DMI);
// traced, the port targets deny DMI and every word takes b_transport. Both paths must count
// the same lost, dropped, nodata and conflict errors (words arriving at ended, waiting and
// permuting nodes, on idle lanes, PASS words held too long).
TEST(TlmTrace, TracedAndUntracedRunsCountTheSameErrors) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("hcube_tlm_dmi_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  TableSet set = handMade(3, 1, 4, 2);
  set.tables[1] = {Instruction::end()};  // ended from the start
  set.tables[2] = {Instruction::waitFor(2), Instruction::permute(6), Instruction::end()};
  chan(set, 0, 0, 0, 1).out = {OutOp::kMem, false, 1};  // to node 1 (ended): lost
  chan(set, 0, 1, 1, 0).out = {OutOp::kMem, false, 2};  // to node 2 (waiting): lost
  chan(set, 0, 2, 1, 1).out = {OutOp::kMem, false, 3};  // to node 2 (permuting): lost
  chan(set, 4, 0, 0, 0).out = {OutOp::kMem, false, 4};  // to node 5 ...
  chan(set, 5, 0, 0, 0).in = {InOp::kPass, false, 0};   // ... held, never forwarded: dropped
  chan(set, 5, 0, 0, 1).in = {InOp::kMem, false, 0};    // nothing arrives: nodata
  move(set, 6, 3, 1, 6, 7, 0);  // node 6 sends two words to node 4 into slot 7: a conflict,
  move(set, 6, 3, 1, 5, 7, 1);  // the word of the higher lane is kept
  const RunResult table = onTable(set);
  const RunResult direct = onTlm(set);
  expectSameRun(direct, table);
  TlmOptions opt;
  opt.vcd = (dir / "errors.vcd").string();
  const RunResult traced = runOnTlm(set, opt);
  expectSameRun(traced, table);
  EXPECT_EQ(direct.errors, (std::vector<NodeErrorCount>{{1, HwError::kLost, 1},
                                                        {2, HwError::kLost, 2},
                                                        {4, HwError::kConflict, 1},
                                                        {5, HwError::kNoData, 1},
                                                        {5, HwError::kDropped, 1}}));
  const CubeMemory initial = taggedMemory(set.header.perm, set.header.memoryWords());
  EXPECT_EQ(direct.memory.at(4, 7), initial.at(6, 5));
  EXPECT_EQ(direct.words, 6U);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hcube

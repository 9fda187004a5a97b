// The static verifier: correct tables pass; each kind of broken table is rejected with an error
// naming node, cycle, port and slot.
#include "tables/verifier.h"

#include <gtest/gtest.h>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "tables/compiler.h"

namespace hcube {
namespace {

TEST(Verifier, EdelmanTablesVerifyForDimensions1To8) {
  for (int n = 1; n <= 8; ++n) {
    const VerifyReport v = verifyTables(buildCase({"edelman", n, 0, 1, false}).tables);
    EXPECT_TRUE(v.ok()) << "n = " << n << ": " << (v.errors.empty() ? "" : v.errors[0]);
    EXPECT_EQ(v.cycles, u64{1} << (n - 1));
  }
}

TEST(Verifier, RepeatedAapcVerifies) {
  const VerifyReport v = verifyTables(buildCase({"edelman", 3, 40, 1, false}).tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  EXPECT_EQ(v.cycles, 20U);
}

TableSet edelman3() { return buildCase({"edelman", 3, 0, 1, false}).tables; }

TEST(Verifier, ASendWithoutReceiveIsALostWord) {
  TableSet set = edelman3();
  // Step 1, port 2: nobody receives. Node 4 sends its relative slot 110 ^ 100 = 2, which in
  // step 0 received element (6|0) over port 1.
  set.tables[0][1].channels[2].in = {};
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "cycle 1, node 4, port 2, lane 0: sends element 48 (from node 6 slot 0) to node 0, "
            "which does not receive it (word lost)");
}

TEST(Verifier, AReceiveWithoutSendIsNamed) {
  TableSet set = edelman3();
  set.tables[0][0].channels[1].out = {};  // step 0, port 1: nobody sends
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 0, port 1, lane 0: expects a word from node 2, which sends none");
}

TEST(Verifier, OverwritingTheLastCopyOfAnElementIsRejected) {
  TableSet set = edelman3();
  // Step 0, port 0 receives into relative slot 6 instead of 3: slot 6 ^ x still holds an
  // element that has not left (6 is sent on port 1 in the same step only as a copy... it is
  // sent, so use slot 5, which is not sent in step 0).
  set.tables[0][0].channels[0].in = {InOp::kMem, true, 5};
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 0, port 0, lane 0, slot 5: overwrites element 5 (from node 0 slot 5) "
            "before it was sent (its last copy)");
}

TEST(Verifier, TwoWordsIntoOneSlotInOneCycleIsAConflict) {
  TableSet set = edelman3();
  set.tables[0][0].channels[1].in = {InOp::kMem, true, 3};  // port 0 also writes rel 3
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 0, port 1, lane 0, slot 3: a second word is written into this slot in "
            "the same cycle");
}

TEST(Verifier, OnePortViolationIsNamed) {
  TableSet set = edelman3();
  set.header.one_port = true;
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0], "cycle 0, node 0: one-port mode, but 3 ports send and 3 ports receive");
}

TEST(Verifier, MissingEndAndWrongFinalStateAreReported) {
  TableSet set = edelman3();
  set.tables[0].pop_back();  // no END
  set.tables[0].pop_back();  // and the last step is gone: element (1|2), relative address
                             // 011, crossed dimension 0 in step 0 but never dimension 1
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "shared table: no END instruction (the sequencer would run past the table)");
  EXPECT_EQ(v.errors[1],
            "final state, node 0, slot 3: holds element 10 (from node 1 slot 2), the reference "
            "'aapc n=3 m=1' expects element 24 (from node 3 slot 0)");
}

TEST(Verifier, ForwardWithoutPassAndDroppedPassAreNamed) {
  TableSet set;
  set.header.perm = PermutationSpec::aapc(2, 1);
  set.header.n = 2;
  set.header.slots = 4;
  set.shared = false;
  set.tables.assign(4, Table{Instruction::xfer(2), Instruction::end()});
  // Node 0 sends slot 1 on port 0 to node 1, which PASSes it but never forwards it.
  set.tables[0][0].channels[0].out = {OutOp::kMem, false, 1};
  set.tables[1][0].channels[0].in = {InOp::kPass, false, 0};
  // Node 2 forwards from channel 1 with nothing there.
  set.tables[2][0].channels[0].out = {OutOp::kFwd, false, 1};
  const VerifyReport v = verifyTables(set);
  ASSERT_GE(v.errors.size(), 2U);
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 2, port 0, lane 0: FWD from port 1 lane 0, which received no PASS word "
            "in the previous cycle");
  EXPECT_EQ(v.errors[1],
            "cycle 1, node 1, port 0, lane 0: the word received with PASS in cycle 0 "
            "(element 1 (from node 0 slot 1)) is not forwarded (the node has ended)");
}

// ---------------------------------------------------------------------------------------------
// PERMUTE
// ---------------------------------------------------------------------------------------------

Channel copy(u32 from, u32 to, bool rel_from = false) {
  return {{OutOp::kMem, rel_from, from}, {InOp::kMem, false, to}};
}

// The AAPC on a 1-cube with two lanes by Johnsson & Ho 1992 §2.2: align (slot r <- slot r ^ x),
// exchange absolute slot 1 across dimension 0, realign.
TableSet alignedAapc1() {
  TableSet set;
  set.header.algo = "handmade";
  set.header.perm = PermutationSpec::aapc(1, 1);
  set.header.n = 1;
  set.header.slots = 2;
  set.header.lanes = 2;
  Instruction align = Instruction::permute(2);
  align.channels = {copy(0, 0, true), copy(1, 1, true)};
  Instruction exchange = Instruction::xfer(2);
  exchange.channels[0] = {{OutOp::kMem, false, 1}, {InOp::kMem, false, 1}};
  set.tables = {{align, exchange, align, Instruction::end()}};
  return set;
}

// A WAIT costs one step of the symbolic run however long it is: the cycles grow with
// the wait, the work done (steps) does not.
TEST(VerifierWait, LongestWaitInAOneCubeVerifiesInOneStep) {
  for (const u32 wait : {1U, 1000U, 4294967295U}) {
    TableSet set = buildCase({"edelman", 1, 0, 1, false}).tables;
    ASSERT_EQ(set.tables[0].size(), 2U);  // X, E
    set.tables[0].insert(set.tables[0].begin() + 1, Instruction::waitFor(wait));
    const VerifyReport v = verifyTables(set);
    EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
    EXPECT_EQ(v.cycles, 1 + u64{wait});
    EXPECT_EQ(v.steps, 2U) << "wait " << wait;
  }
}

TEST(VerifierWait, WaitsBetweenTransfersDoNotGrowTheWork) {
  for (const u32 wait : {2U, 70000U, 4000000000U}) {
    TableSet set = edelman3();
    // Between step 0 and step 1, and a second, shorter wait between steps 2 and 3.
    set.tables[0].insert(set.tables[0].begin() + 3, Instruction::waitFor(3));
    set.tables[0].insert(set.tables[0].begin() + 1, Instruction::waitFor(wait));
    const VerifyReport v = verifyTables(set);
    EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
    EXPECT_EQ(v.cycles, 4 + u64{wait} + 3);
    EXPECT_EQ(v.steps, 6U) << "wait " << wait;
  }
}

TEST(VerifierWait, PerNodeWaitsOfDifferentLengthsAreSkippedTogether) {
  // Node tables: node x waits 10^9 + x cycles after the exchange; the run lasts as long as the
  // longest table and takes one step per distinct wait end, plus the exchange.
  const TableSet shared = buildCase({"edelman", 2, 0, 1, false}).tables;
  TableSet set = shared;
  set.shared = false;
  set.tables.assign(4, shared.tables[0]);
  for (u64 x = 0; x < 4; ++x) {
    Table& t = set.tables[x];
    t.insert(t.end() - 1, Instruction::waitFor(static_cast<u32>(1000000000 + x)));
  }
  const VerifyReport v = verifyTables(set);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  EXPECT_EQ(v.cycles, 2 + 1000000003U);
  EXPECT_EQ(v.steps, 2U + 4U);
}

TEST(VerifierPermute, AlignExchangeRealignVerifies) {
  const VerifyReport v = verifyTables(alignedAapc1());
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  EXPECT_EQ(v.cycles, 3U);
}

TEST(VerifierPermute, IllegalCellIsNamed) {
  TableSet set = alignedAapc1();
  set.tables[0][0].channels[1].in = {InOp::kPass, false, 0};
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 0, port 0, lane 1: PERMUTE channel 'm^1>p' is neither a local copy "
            "(MEM/MEM) nor idle (illegal)");
}

TEST(VerifierPermute, OverwritingALastCopyAndCopyingAnEmptySlotAreNamed) {
  TableSet set = alignedAapc1();
  set.header.scratch = 1;
  // Cycle 0: slot 1 <- slot 0 ^ x drops slot 1's element on node 0; slot 0 <- scratch slot 2,
  // which is empty.
  set.tables[0][0].channels = {copy(2, 0), copy(0, 1, true)};
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  ASSERT_GE(v.errors.size(), 4U);
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 0, port 0, lane 0, slot 2: PERMUTE copies a slot that holds no element");
  EXPECT_EQ(v.errors[1],
            "cycle 0, node 1, port 0, lane 0, slot 2: PERMUTE copies a slot that holds no element");
  // Node 0's element 0 survives in slot 1; its element 1 and node 1's element 2 do not.
  EXPECT_EQ(v.errors[2],
            "cycle 0, node 0, port 0, lane 1, slot 1: overwrites element 1 (from node 0 slot 1) "
            "before it was sent (its last copy)");
  EXPECT_EQ(v.errors[3],
            "cycle 0, node 1, port 0, lane 0, slot 0: overwrites element 2 (from node 1 slot 0) "
            "before it was sent (its last copy)");
}

TEST(VerifierPermute, ConflictIsNamed) {
  TableSet set = alignedAapc1();
  set.tables[0][0].channels = {copy(0, 1), copy(1, 1)};
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 0, port 0, lane 1, slot 1: PERMUTE copies a second word into this slot "
            "in the same cycle (conflict)");
}

TEST(VerifierPermute, AWordArrivingDuringAPermuteIsLost) {
  TableSet set = alignedAapc1();
  set.shared = false;
  set.tables.push_back(set.tables[0]);
  // Node 1 starts the exchange one cycle early: its word reaches node 0 during the PERMUTE.
  set.tables[1][0] = set.tables[1][1];
  const VerifyReport v = verifyTables(set);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors[0],
            "cycle 0, node 1, port 0, lane 0: sends element 3 (from node 1 slot 1) to node 0, "
            "which does not receive it (word lost: it executes a PERMUTE)");
}

TEST(Compiler, TwoWordsOnOneLinkInOneStepAreRejected) {
  MoveSchedule s{"handmade", 2, {{{0, 1, 0, 1}, {0, 3, 0, 3}}}};
  try {
    compileMoves(s, PermutationSpec::aapc(2, 1), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: handmade step 0, node 0, port 0: slots 1 and 3 both cross this link, "
                 "which carries 1 word(s) per cycle");
  }
  // With two lanes the same moves fit.
  CompileOptions wide;
  wide.lanes = 2;
  const TableSet set = compileMoves(s, PermutationSpec::aapc(2, 1), wide);
  EXPECT_EQ(set.tables[0][0].channels[1].out, (OutField{OutOp::kMem, false, 3}));
  EXPECT_EQ(set.tables[1][0].channels[1].in, (InField{InOp::kMem, false, 3}));
}

TEST(Compiler, RejectsOptionsTheScheduleCannotUse) {
  EXPECT_THROW(buildCase({"edelman", 3, 0, 1, true}), Error);    // one-port
  EXPECT_THROW(buildCase({"edelman", 3, 0, 2, false}), Error);   // lanes
  EXPECT_THROW(buildCase({"edelman", 3, 12, 1, false}), Error);  // K not a multiple of 8
  EXPECT_THROW(buildCase({"edelman", 0, 0, 1, false}), Error);
  EXPECT_THROW(buildCase({"nosuch", 3, 0, 1, false}), Error);
}

}  // namespace
}  // namespace hcube

// AAPC schedules beyond Johnsson & Ho Algorithms 1-4: the compiler's local copies (PERMUTE),
// the one-port standard exchange algorithm and spanning balanced n-trees (Johnsson & Ho 1987
// §3.2, §5), blocking with a start-up cost and wide channels (Johnsson & Ho 1992 §5, §6).
#include <gtest/gtest.h>

#include "algorithms.h"
#include "compiler.h"
#include "error.h"
#include "executor.h"
#include "test_util.h"
#include "verifier.h"

namespace hcube {
namespace {

// ---------------------------------------------------------------------------------------------
// compileMoves: local copies become PERMUTE instructions (docs/hardware.md §2.1)
// ---------------------------------------------------------------------------------------------

Channel copy(u32 from, u32 to) { return {{OutOp::kMem, false, from}, {InOp::kMem, false, to}}; }

TEST(CompileLocal, AStepOfLocalCopiesBecomesOnePermutePerNode) {
  // n = 2, K = 4: node 0 swaps slots 0 and 1 (two copies), node 3 copies slot 2 to 3; then a
  // link step; nodes 1 and 2 have no copies and get an empty PERMUTE.
  MoveSchedule s{"handmade", 2, {}};
  s.steps.push_back({{0, 0, Move::kLocal, 1}, {0, 1, Move::kLocal, 0}, {3, 2, Move::kLocal, 3}});
  s.steps.push_back({{1, 2, 1, 2}});
  const TableSet set = compileMoves(s, PermutationSpec::aapc(2, 1), {});
  ASSERT_EQ(set.tables.size(), 4U);
  Instruction p0 = Instruction::permute(2);
  p0.channels = {copy(0, 1), copy(1, 0)};
  Instruction p3 = Instruction::permute(2);
  p3.channels[0] = copy(2, 3);
  Instruction x1 = Instruction::xfer(2);
  x1.channels[1].out = {OutOp::kMem, false, 2};
  Instruction x3 = Instruction::xfer(2);
  x3.channels[1].in = {InOp::kMem, false, 2};
  EXPECT_EQ(set.tables[0], (Table{p0, Instruction::xfer(2), Instruction::end()}));
  EXPECT_EQ(set.tables[1], (Table{Instruction::permute(2), x1, Instruction::end()}));
  EXPECT_EQ(set.tables[2],
            (Table{Instruction::permute(2), Instruction::xfer(2), Instruction::end()}));
  EXPECT_EQ(set.tables[3], (Table{p3, x3, Instruction::end()}));
  EXPECT_EQ(set.cycles(), 2U);
}

TEST(CompileLocal, TooManyCopiesAreSplitIntoPermuteCyclesWhenExact) {
  // n = 1 (one channel): node 0 copies 0 -> 2 and 1 -> 3; neither reads a slot the other writes,
  // so two PERMUTE cycles do exactly what the step says. Node 1 pads with empty PERMUTEs.
  MoveSchedule s{"handmade", 1, {{{0, 0, Move::kLocal, 2}, {0, 1, Move::kLocal, 3}}}};
  CompileOptions o;
  o.scratch = 2;
  const TableSet set = compileMoves(s, PermutationSpec::aapc(1, 1), o);
  Instruction a = Instruction::permute(1);
  a.channels[0] = copy(0, 2);
  Instruction b = Instruction::permute(1);
  b.channels[0] = copy(1, 3);
  EXPECT_EQ(set.tables[0], (Table{a, b, Instruction::end()}));
  EXPECT_EQ(set.tables[1],
            (Table{Instruction::permute(1), Instruction::permute(1), Instruction::end()}));
  o.split_local = false;
  try {
    compileMoves(s, PermutationSpec::aapc(1, 1), o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: handmade step 0, node 0: 2 local copies do not fit one PERMUTE cycle of "
                 "1 channels (n * b)");
  }
}

TEST(CompileLocal, ASwapThatDoesNotFitOneCycleIsRejected) {
  // A swap needs both reads before either write: split over two cycles the second copy would
  // read the slot the first one overwrote.
  MoveSchedule s{"handmade", 1, {{{1, 0, Move::kLocal, 1}, {1, 1, Move::kLocal, 0}}}};
  try {
    compileMoves(s, PermutationSpec::aapc(1, 1), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: handmade step 0, node 1: the copy 1 -> 0 would read slot 1 after an "
                 "earlier PERMUTE cycle of the step overwrote it; the step cannot be split "
                 "exactly into cycles of 1 copies");
  }
}

TEST(CompileLocal, MixedStepsAndBadCopiesAreNamed) {
  MoveSchedule mixed{"handmade", 2, {{{0, 0, 1, 0}, {2, 1, Move::kLocal, 3}}}};
  try {
    compileMoves(mixed, PermutationSpec::aapc(2, 1), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: handmade step 0, node 2: the step mixes link moves and local copies (a "
                 "step is either a transfer or a PERMUTE)");
  }
  MoveSchedule range{"handmade", 2, {{{1, 0, Move::kLocal, 4}}}};
  try {
    compileMoves(range, PermutationSpec::aapc(2, 1), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: handmade step 0, node 1: local copy 0 -> 4 is outside the memory of 4 "
                 "slots");
  }
}

TEST(CompileLocal, OnePortHardwareRejectsTwoSendingPorts) {
  MoveSchedule s{"handmade", 2, {{{0, 1, 0, 1}, {0, 2, 1, 2}}}};
  CompileOptions o;
  o.one_port = true;
  try {
    compileMoves(s, PermutationSpec::aapc(2, 1), o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: handmade step 0, node 0: one-port hardware, but the node sends on "
                 "ports 0 and 1 of its 2");
  }
  o.one_port = false;
  EXPECT_NO_THROW(compileMoves(s, PermutationSpec::aapc(2, 1), o));
}

}  // namespace
}  // namespace hcube

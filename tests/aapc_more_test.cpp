// AAPC schedules beyond Johnsson & Ho Algorithms 1-4: the compiler's local copies (PERMUTE),
// the one-port standard exchange algorithm and spanning balanced n-trees (Johnsson & Ho 1987
// §3.2, §5), blocking with a start-up cost and wide channels (Johnsson & Ho 1992 §5, §6).
#include <gtest/gtest.h>

#include <numeric>
#include <tuple>

#include "algorithms/aapc/blocking.h"
#include "algorithms/aapc/exchange.h"
#include "algorithms/aapc/jh1_packed.h"
#include "algorithms/aapc/johnsson_ho.h"
#include "algorithms/aapc/sbnt.h"
#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "tables/compiler.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

// ---------------------------------------------------------------------------------------------
// compileMoves: local copies become PERMUTE instructions (docs/hardware/node.md §2.1)
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

// ---------------------------------------------------------------------------------------------
// Running a case: table executor, reference model, static verifier
// ---------------------------------------------------------------------------------------------

using testing::caseSpec;

/// Runs a case on the table executor and checks every element against the reference model, the
/// hardware error counters and the static verifier (whose symbolic run takes as many cycles);
/// returns the run for the cycle counts.
RunResult runClean(const BuiltCase& c) {
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.elements(), c.tables.header.algo);
  EXPECT_EQ(r.verify.cycles, r.run.cycles);
  return r.run;
}

/// Words of a minimum-path AAPC: every element crosses the dimensions of its aligned address.
u64 minimalWords(int d, u64 k) { return (u64{1} << d) * k * static_cast<u64>(d) / 2; }

TEST(CompileLocal, StoreAndForwardThroughScratchWithAPermuteRunsExactly) {
  // AAPC on a 1-cube (node 0 slot 1 <-> node 1 slot 0) through scratch slot 2: the link step
  // stores the arriving word in scratch, a PERMUTE step copies it into place. 2 cycles, 1 of
  // them local.
  MoveSchedule s{"handmade", 1, {}};
  s.steps.push_back({{0, 1, 0, 2}, {1, 0, 0, 2}});
  s.steps.push_back({{0, 2, Move::kLocal, 1}, {1, 2, Move::kLocal, 0}});
  CompileOptions o;
  o.scratch = 1;
  BuiltCase c;
  c.perm = PermutationSpec::aapc(1, 1);
  c.tables = compileMoves(s, c.perm, o);
  ExecOptions opt;
  opt.tagged_elements = 4;
  const RunResult r = executeTables(c.tables, taggedMemory(c.perm, 3), opt);
  EXPECT_EQ(r.cycles, 2U);
  EXPECT_EQ(r.transfer_cycles, 1U);
  EXPECT_EQ(r.local_cycles, 1U);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(checkAgainstReference(c.perm, r.memory).correct, 4U);
  const VerifyReport v = verifyTables(c.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
}

// ---------------------------------------------------------------------------------------------
// The standard exchange algorithm (Johnsson & Ho 1987 §3.2, §5)
// ---------------------------------------------------------------------------------------------

TEST(Exchange, OnePortTakesNExchangesOfKOver2ForDimensions1To8) {
  for (int d = 1; d <= 8; ++d) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const u64 k = u64{1} << d;
    const BuiltCase c = buildCase(caseSpec("exchange", d, 0, 1, true));
    EXPECT_TRUE(c.tables.header.one_port);
    EXPECT_EQ(c.lower_bound, static_cast<u64>(d) * k / 2);
    const RunResult r = runClean(c);
    EXPECT_EQ(r.transfer_cycles, static_cast<u64>(d) * k / 2);
    EXPECT_EQ(r.cycles, static_cast<u64>(d) * k / 2);
    EXPECT_EQ(r.words, minimalWords(d, k));
  }
}

TEST(Exchange, ScansDimensionsFromTheHighestAndSendsTheSlotsWithThatBit) {
  const SlotSchedule s = exchangeSchedule(3, 8, 1, 4);
  ASSERT_EQ(s.steps.size(), 12U);
  const u32 idle = SlotSchedule::kIdle;
  // Exchange of dimension 2 first: slots 4..7 on port 2.
  for (u32 i = 0; i < 4; ++i) EXPECT_EQ(s.steps[i], (std::vector<u32>{idle, idle, 4 + i}));
  EXPECT_EQ(s.steps[4], (std::vector<u32>{idle, 2, idle}));
  EXPECT_EQ(s.steps[11], (std::vector<u32>{7, idle, idle}));
  EXPECT_EQ(s.blocks(), 3U);
  EXPECT_TRUE(checkAapcSlotSchedule(s).empty());
}

TEST(Exchange, StartUpCostPerPacketAsInTheFormula) {
  // T = n (K/2 t_c + ceil(K/2B) tau): d = 4, K = 32, tau = 5.
  const int d = 4;
  const u64 k = 32;
  for (const auto& [packet, blocks] :
       std::vector<std::pair<u64, u64>>{{16, 1}, {5, 4}, {4, 4}, {1, 16}}) {
    SCOPED_TRACE("packet " + std::to_string(packet));
    const BuiltCase c = buildCase(
        caseSpec("exchange", d, k, 1, true, {{"tau", "5"}, {"packet", std::to_string(packet)}}));
    const RunResult r = runClean(c);
    EXPECT_EQ(r.transfer_cycles, 4U * 16U);
    EXPECT_EQ(r.cycles, 4U * (16U + blocks * 5U));
  }
}

TEST(Exchange, AllPortAndWideChannels) {
  // The same schedule on all-port hardware: n*K/2 cycles against the K/2 bound.
  const BuiltCase all = buildCase(caseSpec("exchange", 5, 0, 1, false));
  EXPECT_EQ(all.lower_bound, 16U);
  EXPECT_EQ(runClean(all).cycles, 80U);
  // b lanes carry b elements of one exchange per cycle: n * ceil(K/2b).
  const BuiltCase wide = buildCase(caseSpec("exchange", 4, 32, 3, true));
  EXPECT_EQ(wide.lower_bound, 4U * 6U);
  const RunResult r = runClean(wide);
  EXPECT_EQ(r.transfer_cycles, 24U);
  EXPECT_EQ(r.words, minimalWords(4, 32));
}

TEST(Exchange, BadOptionsAreNamed) {
  try {
    buildCase(caseSpec("exchange", 3, 0, 1, true, {{"packet", "0"}}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--packet 0: must be 1..8");
  }
  EXPECT_THROW(buildCase(caseSpec("exchange", 3, 0, 1, true, {{"tau", "-1"}})), Error);
  EXPECT_THROW(buildCase(caseSpec("exchange", 3, 0, 1, true, {{"blocking", "on"}})), Error);
}

TEST(CompileSlots, OnePortLanesAndWaitsAreChecked) {
  const u32 idle = SlotSchedule::kIdle;
  SlotSchedule s("handmade", 2, 1, 4);
  s.addStep(true) = {1, 2};
  s.addStep(false) = {3, idle};
  s.addStep(true) = {idle, 3};
  CompileOptions one_port{1, true, 0};
  try {
    compileSlots(s, PermutationSpec::aapc(2, 1), one_port);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: the handmade schedule step 0, port 1 lane 0: one-port hardware, but "
                 "the step also uses port 0");
  }
  SlotSchedule wide = s;
  wide.lanes = 2;
  wide.steps = {{1, idle, 2, idle}};
  try {
    compileSlots(wide, PermutationSpec::aapc(2, 1), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: the handmade schedule sends 2 words per port and cycle; the hardware "
                 "has 1 lane(s)");
  }
  // WAIT tau before the steps that start a block: steps 0 and 2.
  CompileOptions tau;
  tau.startup = 5;
  const TableSet set = compileSlots(s, PermutationSpec::aapc(2, 1), tau);
  ASSERT_EQ(set.tables.size(), 1U);
  const Table& t = set.tables[0];
  ASSERT_EQ(t.size(), 6U);
  EXPECT_EQ(t[0], Instruction::waitFor(5));
  EXPECT_EQ(t[1].op, Opcode::kXfer);
  EXPECT_EQ(t[1].channels[0], (Channel{{OutOp::kMem, true, 1}, {InOp::kMem, true, 1}}));
  EXPECT_EQ(t[1].channels[1], (Channel{{OutOp::kMem, true, 2}, {InOp::kMem, true, 2}}));
  EXPECT_EQ(t[2].op, Opcode::kXfer);
  EXPECT_EQ(t[3], Instruction::waitFor(5));
  EXPECT_EQ(t[5], Instruction::end());
  EXPECT_EQ(set.cycles(), 13U);
  try {
    buildCase(caseSpec("jh4", 3, 0, 1, true));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "--ports one: jh4 sends on every port in every step (all-port); the one-port "
                 "AAPC is --algo exchange");
  }
}

// ---------------------------------------------------------------------------------------------
// Spanning balanced n-trees (Johnsson & Ho 1987 §3.1-3.2, §5)
// ---------------------------------------------------------------------------------------------

TEST(Sbnt, BaseAndPathFollowThePseudoCode) {
  // base(r): least right rotations giving the smallest rotation.
  EXPECT_EQ(sbntBase(0b0110, 4), 1);  // 0011
  EXPECT_EQ(sbntBase(0b1010, 4), 1);  // 0101
  EXPECT_EQ(sbntBase(0b0101, 4), 0);
  EXPECT_EQ(sbntBase(0b1000, 4), 3);
  EXPECT_EQ(sbntBase(0b1111, 4), 0);
  EXPECT_EQ(sbntBase(0b1001, 4), 3);  // 0011 after 3 rotations
  EXPECT_EQ(sbntPath(0b0110, 4), (std::vector<int>{1, 2}));
  EXPECT_EQ(sbntPath(0b1001, 4), (std::vector<int>{3, 0}));  // cyclically to the left
  EXPECT_EQ(sbntPath(0b1101, 4), (std::vector<int>{2, 3, 0}));
  EXPECT_EQ(sbntPath(0b1111, 4), (std::vector<int>{0, 1, 2, 3}));
  // The subtrees of the root of a 4-cube: port 0 takes 0001 0011 0101 0111 1111, port 1 0010
  // 0110 1010 1110, port 2 0100 1100 1101, port 3 1000 1001 1011.
  std::vector<int> subtree(4, 0);
  for (u32 r = 1; r < 16; ++r) ++subtree[static_cast<size_t>(sbntBase(r, 4))];
  EXPECT_EQ(subtree, (std::vector<int>{5, 4, 3, 3}));
}

TEST(Sbnt, RoundsAndGreedyForDimensions1To8) {
  // Rounds: the pseudo-code's n rounds, each as long as its busiest port; greedy reaches K/2.
  const std::vector<u64> rounds_total = {1, 3, 6, 11, 20, 39, 70, 138};
  for (int d = 1; d <= 8; ++d) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const u64 k = u64{1} << d;
    const std::vector<u64> lengths = sbntRoundLengths(d, k);
    EXPECT_EQ(lengths.size(), static_cast<size_t>(d));
    EXPECT_EQ(std::accumulate(lengths.begin(), lengths.end(), u64{0}), rounds_total[d - 1]);
    const BuiltCase rounds = buildCase(caseSpec("sbnt", d));
    EXPECT_EQ(rounds.lower_bound, k / 2);
    const RunResult r = runClean(rounds);
    EXPECT_EQ(r.transfer_cycles, rounds_total[d - 1]);
    EXPECT_EQ(r.cycles, rounds_total[d - 1]);
    EXPECT_EQ(r.words, minimalWords(d, k));
    const BuiltCase greedy = buildCase(caseSpec("sbnt", d, 0, 1, false, {{"schedule", "greedy"}}));
    const RunResult g = runClean(greedy);
    EXPECT_EQ(g.transfer_cycles, k / 2);
    EXPECT_EQ(g.cycles, k / 2);
    EXPECT_EQ(g.words, minimalWords(d, k));
  }
}

TEST(Sbnt, RoundsAreBlockTransfersWithOneStartUpEach) {
  // T = sum of round lengths + n tau (the paper's T_min = K/2 t_c + n tau, up to the imbalance of
  // the cyclic addresses' routes): d = 6, tau = 9.
  const BuiltCase c = buildCase(caseSpec("sbnt", 6, 128, 1, false, {{"tau", "9"}}));
  const RunResult r = runClean(c);
  const std::vector<u64> lengths = sbntRoundLengths(6, 128);
  const u64 sum = std::accumulate(lengths.begin(), lengths.end(), u64{0});
  EXPECT_EQ(r.transfer_cycles, sum);
  EXPECT_EQ(r.cycles, sum + 6U * 9U);
  const BuiltCase g = buildCase(caseSpec("sbnt", 6, 128, 1, false, {{"schedule", "greedy"}}));
  EXPECT_EQ(runClean(g).cycles, 64U);
}

TEST(Sbnt, RotatedSpanningBinomialTreesAreBalancedWhenNDividesKOverN) {
  EXPECT_EQ(rotatedBinomialPath(0b1011, 0, 4), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(rotatedBinomialPath(0b1011, 2, 4), (std::vector<int>{3, 0, 1}));
  // m = K / 2^d = d elements per destination, one on each rotation: every round balanced, the
  // d rounds take exactly K/2 cycles, T = K/2 + d tau (Johnsson & Ho 1987 §3.1-3.2).
  for (int d = 1; d <= 6; ++d) {
    const u64 k = static_cast<u64>(d) << d;
    SCOPED_TRACE("d = " + std::to_string(d));
    const std::vector<u64> lengths = sbntRoundLengths(d, k, SbntTree::kRotatedBinomial);
    EXPECT_EQ(std::accumulate(lengths.begin(), lengths.end(), u64{0}), k / 2);
    const BuiltCase c =
        buildCase(caseSpec("sbnt", d, k, 1, false, {{"tree", "rsbt"}, {"tau", "3"}}));
    EXPECT_EQ(c.lower_bound, k / 2);
    const RunResult r = runClean(c);
    EXPECT_EQ(r.transfer_cycles, k / 2);
    EXPECT_EQ(r.cycles, k / 2 + 3 * static_cast<u64>(d));
    EXPECT_EQ(r.words, minimalWords(d, k));
  }
  EXPECT_THROW(buildCase(caseSpec("sbnt", 3, 0, 1, false, {{"tree", "oak"}})), Error);
}

TEST(Sbnt, BadOptionsAreNamed) {
  EXPECT_THROW(buildCase(caseSpec("sbnt", 3, 0, 1, true)), Error);
  EXPECT_THROW(buildCase(caseSpec("sbnt", 3, 0, 2, false)), Error);
  EXPECT_THROW(buildCase(caseSpec("sbnt", 3, 0, 1, false, {{"schedule", "greedy"}, {"tau", "3"}})),
               Error);
  try {
    buildCase(caseSpec("sbnt", 3, 0, 1, false, {{"schedule", "fast"}}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--schedule 'fast': must be rounds or greedy");
  }
}

// ---------------------------------------------------------------------------------------------
// Blocking (Johnsson & Ho 1992 §5, Table 8, Lemma 4) and wide channels (§6, Table 9, Lemma 5)
// ---------------------------------------------------------------------------------------------

u64 ceilDiv(u64 a, u64 b) { return (a + b - 1) / b; }

TEST(Blocking, ReproducesTable8ForDimension5) {
  const SlotSchedule s = repeatRelative(jhAlgorithm4(5), 32);
  const BlockingTable t = blockingTable(s);
  const std::vector<std::string> lines = testing::goldenLines("jh_table8_d5.txt");
  ASSERT_EQ(t.rows, lines.size());
  for (u64 r = 0; r < t.rows; ++r) {
    std::string row = std::to_string(r);
    for (const BlockEntry& e : t.row(r)) row += " " + formatBlockSubset(t.subsets[e.subset], 5);
    EXPECT_EQ(row, lines[r]);
  }
  // The subsets' times T_s of the paper: 5, 2, 3, 2, 3, 1 (T_sum = K/2 = 16, T_max = 5).
  std::vector<u64> times;
  for (const BlockSubset& b : t.subsets) times.push_back(b.time());
  EXPECT_EQ(times, (std::vector<u64>{5, 2, 3, 2, 3, 1}));
  EXPECT_EQ(t.maxBlockSize(), 4U);
}

TEST(Blocking, ReproducesTable9ForDimension5AndWidth3) {
  const SlotSchedule s = repeatRelative(jhAlgorithm4(5), 32);
  const BlockingTable t = blockingTable(s);
  const std::vector<std::vector<u64>> times = wideTimeSteps(t, s, 3);
  const std::vector<std::string> lines = testing::goldenLines("jh_table9_d5_b3.txt");
  ASSERT_EQ(t.rows, lines.size());
  for (u64 r = 0; r < t.rows; ++r) {
    std::string row;
    for (size_t c = 0; c < t.columns.size(); ++c) {
      if (r >= t.columns[c].size()) continue;
      row += (row.empty() ? "" : " ") + formatBlockSubset(t.subsets[t.columns[c][r].subset], 5) +
             " " + std::to_string(times[c][r]);
    }
    EXPECT_EQ(row, lines[r]);
  }
  // Run it: 6 time steps, each using 3 lanes on every port but the last.
  const BuiltCase c = buildCase(caseSpec("jh4", 5, 0, 3));
  const RunResult r = runClean(c);
  EXPECT_EQ(r.transfer_cycles, 6U);
  EXPECT_EQ(r.words, minimalWords(5, 32));
}

TEST(Blocking, Lemma4BlockCountsAndSizesForDimensions1To8) {
  for (int d = 1; d <= 8; ++d) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const u64 k = u64{1} << d;
    const u64 dd = static_cast<u64>(d);
    // Algorithm 4: d block transfers of at most ceil(K/2d) (Lemma 4).
    const BlockingTable t4 = blockingTable(repeatRelative(jhAlgorithm4(d), k));
    EXPECT_EQ(t4.rows, dd);
    EXPECT_EQ(t4.maxBlockSize(), ceilDiv(k / 2, dd));
    // Algorithm 3: d + (K/2 mod d) blocks of at most ceil(K / 2(d + K/2 mod d)) (Lemma 4).
    const BlockingTable t3 = blockingTable(repeatRelative(jhAlgorithm3(d), k));
    const u64 rows3 = dd + (k / 2) % dd;
    EXPECT_EQ(t3.rows, std::min(rows3, k / 2));
    EXPECT_EQ(t3.maxBlockSize(), ceilDiv(k / 2, t3.rows));
    // Algorithm 1: d rows, ceil(K/2d) groups; Algorithm 2: K/2 rows.
    const BlockingTable t1 = blockingTable(jhAlgorithm1Packed(d, k));
    EXPECT_EQ(t1.rows, dd);
    EXPECT_EQ(t1.maxBlockSize(), ceilDiv(k / 2, dd));
    EXPECT_EQ(blockingTable(repeatRelative(jhAlgorithm2(d), k)).rows, k / 2);
  }
}

TEST(Blocking, StartUpCostBlockedAgainstUnblockedForDimensions1To8) {
  // With tau per block transfer: blocked Algorithm 4 takes K/2 + d tau, unblocked K/2 (1 + tau).
  const u64 tau = 7;
  for (int d = 1; d <= 8; ++d) {
    for (const u64 m : {u64{1}, u64{3}}) {
      const u64 k = m << d;
      SCOPED_TRACE("d = " + std::to_string(d) + " K = " + std::to_string(k));
      const BuiltCase blocked =
          buildCase(caseSpec("jh4", d, k, 1, false, {{"tau", "7"}, {"blocking", "on"}}));
      const RunResult b = runClean(blocked);
      EXPECT_EQ(b.transfer_cycles, k / 2);
      EXPECT_EQ(b.cycles, k / 2 + static_cast<u64>(d) * tau);
      EXPECT_EQ(b.words, minimalWords(d, k));
      const BuiltCase plain = buildCase(caseSpec("jh4", d, k, 1, false, {{"tau", "7"}}));
      const RunResult p = runClean(plain);
      EXPECT_EQ(p.transfer_cycles, k / 2);
      EXPECT_EQ(p.cycles, k / 2 * (1 + tau));
    }
  }
}

TEST(Blocking, EveryAlgorithmBlockedWithStartUp) {
  // Algorithm 1: d blocks; 3: d + (K/2 mod d); 2: K/2 (its span); all at their unblocked
  // transfer cycles. d = 6, tau = 4.
  const int d = 6;
  const u64 k = 64;
  const std::vector<std::tuple<std::string, u64, u64>> want = {
      {"jh1", 6 * 6, 6}, {"jh2", 32, 32}, {"jh3", 32, 6 + 2}, {"jh4", 32, 6}};
  for (const auto& [algo, transfers, blocks] : want) {
    SCOPED_TRACE(algo);
    const BuiltCase c =
        buildCase(caseSpec(algo, d, k, 1, false, {{"tau", "4"}, {"blocking", "on"}}));
    const RunResult r = runClean(c);
    EXPECT_EQ(r.transfer_cycles, transfers);
    EXPECT_EQ(r.cycles, transfers + 4 * blocks);
  }
}

TEST(WideChannels, Lemma5ForAlgorithm4) {
  // hcube run --algo jh4 --n 5 --k 256 --width 3: Lemma 5 bounds the transfer cycles by
  // d * ceil(K/2db) = 45; the table labelling reaches ceil(K/2b) = 43, the all-port bound for b
  // lanes.
  const BuiltCase c = buildCase(caseSpec("jh4", 5, 256, 3));
  EXPECT_EQ(c.lower_bound, 43U);
  const RunResult r = runClean(c);
  EXPECT_EQ(r.transfer_cycles, 43U);
  EXPECT_EQ(r.words, minimalWords(5, 256));
  for (int d = 1; d <= 8; ++d) {
    for (const int b : {2, 3, 4}) {
      const u64 dd = static_cast<u64>(d);
      const u64 bb = static_cast<u64>(b);
      // Smallest K = m * 2^d with floor(K/2d) >= b, and twice that.
      u64 k = u64{1} << d;
      while (k / (2 * dd) < bb) k += u64{1} << d;
      for (const u64 kk : {k, 2 * k}) {
        SCOPED_TRACE("d = " + std::to_string(d) + " b = " + std::to_string(b) +
                     " K = " + std::to_string(kk));
        const BuiltCase w = buildCase(caseSpec("jh4", d, kk, b));
        const RunResult rw = runClean(w);
        EXPECT_LE(rw.transfer_cycles, dd * ceilDiv(kk, 2 * dd * bb));
        EXPECT_EQ(rw.transfer_cycles, ceilDiv(kk, 2 * bb));
        EXPECT_EQ(rw.words, minimalWords(d, kk));
      }
    }
  }
}

TEST(WideChannels, AnEntryWhoseSlotsAlreadyMoveStartsANewTimeStep) {
  // d = 2: step 0 moves 1 (dim 0) and 2 (dim 1), steps 1 and 2 move 3 (dims 0, 1). Subsets
  // {1, 2} (T = 1) and {0, 3} (T = 2); two rows: row 0 = {1,2} step 0 | {0,3} step 2,
  // row 1 = {0,3} step 1. With b = 3 row 1's entry would join time step 0, but slot 3 already
  // moves there: it gets time step 1.
  SlotSchedule s("handmade", 2, 1, 4);
  s.addStep(true) = {1, 2};
  s.addStep(true) = {3, SlotSchedule::kIdle};
  s.addStep(true) = {SlotSchedule::kIdle, 3};
  ASSERT_TRUE(checkAapcSlotSchedule(s).empty());
  const BlockingTable t = blockingTable(s);
  EXPECT_EQ(t.rows, 2U);
  EXPECT_EQ(wideTimeSteps(t, s, 3), (std::vector<std::vector<u64>>{{0, 1}, {0}}));
  const SlotSchedule wide = blockedSchedule(s, t, 3, true);
  const u32 idle = SlotSchedule::kIdle;
  ASSERT_EQ(wide.steps.size(), 2U);
  EXPECT_EQ(wide.steps[0], (std::vector<u32>{idle, 1, idle, 3, 2, idle}));
  EXPECT_EQ(wide.steps[1], (std::vector<u32>{3, idle, idle, idle, idle, idle}));
  EXPECT_EQ(wide.block_starts, (std::vector<bool>{true, true}));
  EXPECT_TRUE(checkAapcSlotSchedule(wide).empty());
  // compileSlots refuses a step that moves one element twice.
  SlotSchedule twice("handmade", 2, 2, 4);
  twice.addStep(true) = {3, idle, 3, idle};
  try {
    compileSlots(twice, PermutationSpec::aapc(2, 1), CompileOptions{2, false, 0});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "compile: the handmade schedule step 0, port 1 lane 0: slot 3 already moves in "
                 "this step (an element crosses one link per cycle)");
  }
  // Algorithm 2 (span K/2, one subset) gains little from wide channels, but stays exact.
  const BuiltCase c = buildCase(caseSpec("jh2", 5, 0, 2));
  const RunResult r = runClean(c);
  EXPECT_GE(r.transfer_cycles, 8U);
  EXPECT_LE(r.transfer_cycles, 16U);
}

TEST(WideChannels, BlockedWideWithStartUp) {
  // d = 5, K = 256, b = 3, blocked: 5 block transfers, each one start-up.
  const BuiltCase c =
      buildCase(caseSpec("jh4", 5, 256, 3, false, {{"tau", "10"}, {"blocking", "on"}}));
  const RunResult r = runClean(c);
  EXPECT_EQ(r.transfer_cycles, 43U);
  EXPECT_EQ(r.cycles, 43U + 5U * 10U);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 1 with K = m * 2^d: d * ceil(K/2d) steps
// ---------------------------------------------------------------------------------------------

TEST(Algorithm1Packed, ReachesDTimesCeilKOver2DForRepeatedAapcs) {
  for (int d = 1; d <= 8; ++d) {
    EXPECT_EQ(jhAlgorithm1Packed(d, u64{1} << d).steps,
              repeatRelative(jhAlgorithm1(d), u64{1} << d).steps)
        << "d = " << d;
    for (const u64 m : {u64{1}, u64{2}, u64{3}, u64{5}}) {
      const u64 k = m << d;
      const u64 dd = static_cast<u64>(d);
      SCOPED_TRACE("d = " + std::to_string(d) + " K = " + std::to_string(k));
      const BuiltCase c = buildCase(caseSpec("jh1", d, k));
      EXPECT_EQ(c.schedule_span, dd);
      const RunResult r = runClean(c);
      EXPECT_EQ(r.transfer_cycles, dd * ceilDiv(k, 2 * dd));
      EXPECT_EQ(r.span, dd);
      EXPECT_EQ(r.words, minimalWords(d, k));
    }
  }
}

}  // namespace
}  // namespace hcube

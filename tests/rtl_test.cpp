// The Verilated RTL cube against the C++ table executor: identical final memories, cycle
// counts (local PERMUTE cycles included), words, link counts, spans and hardware error counters,
// and every element where the reference model says. n = 1..6 run in CI; n = 7..10 are the *Long*
// tests (label "long").
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "exec/fault.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "test_util.h"

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
  EXPECT_EQ(rtl.local_cycles, table.local_cycles);
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

// 2048 and 4096 nodes (K = 2^n) on the RTL, every AAPC schedule and the
// transposes (the two-dimensional ones need an even n), identical to the executor and correct.
// Each distinct table depth is its own Verilated model; a 12-cube model takes about 30 CPU
// minutes and 7 GB to build (sw/tables/resource_limits.cpp), so these run by hand (label long).
struct ScaleCase {
  const char* algo;
  int n;
};
void PrintTo(const ScaleCase& c, std::ostream* os) { *os << c.algo << " n = " << c.n; }

class RtlScaleLong : public ::testing::TestWithParam<ScaleCase> {};
TEST_P(RtlScaleLong, MatchesTableExecutorAndReference) {
  const BuiltCase c = buildCase({GetParam().algo, GetParam().n, 0, 1, false});
  const RunResult rtl = onRtl(c.tables);
  // What the README reports for these runs: the simulated rate. (The runner's peak memory is
  // measured apart, with /usr/bin/time on hcube-rtl-sim: the peak a child reports through
  // getrusage includes the pages it shared with this process when it was forked.)
  std::cout << GetParam().algo << " n = " << GetParam().n << ": " << rtl.cycles << " cycles, "
            << rtl.wall_seconds << " s, " << static_cast<double>(rtl.cycles) / rtl.wall_seconds
            << " cycles/s, table depth " << c.tables.depth() << "\n";
  expectSameRun(rtl, onTable(c.tables));
  const CheckResult check = checkAgainstReference(c.perm, rtl.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, c.perm.elements());
  EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
}
std::vector<ScaleCase> scaleCases() {
  std::vector<ScaleCase> cases;
  for (int n : {11, 12}) {
    for (const char* algo :
         {"edelman", "jh1", "jh2", "jh3", "jh4", "exchange", "sbnt", "transpose-1d"}) {
      cases.push_back({algo, n});
    }
    if (n % 2 != 0) continue;
    for (const char* algo : {"spt", "dpt", "mpt"}) cases.push_back({algo, n});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Big, RtlScaleLong, ::testing::ValuesIn(scaleCases()),
                         [](const ::testing::TestParamInfo<ScaleCase>& info) {
                           std::string name = info.param.algo;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name + "_n" + std::to_string(info.param.n);
                         });

// Every algorithm of the catalogue on the RTL, identical to the executor, at each n = 1..6 its
// default parameters allow (dimperm gets a --delta). The two-dimensional transposes need an even
// n; buildCase rejects the other cases with an Error naming the parameter and the test lists
// them on stderr. The required lists below make sure no family silently drops out.
TEST(RtlCatalogue, EveryAlgorithmAgreesWithTheExecutor) {
  std::vector<std::string> ran;
  std::vector<std::string> skipped;
  for (int n = 1; n <= 6; ++n) {
    for (const testing::CatalogueCase& c : testing::catalogueCases(n, &skipped)) {
      SCOPED_TRACE(c.name);
      const RunResult rtl = onRtl(c.built.tables);
      expectSameRun(rtl, onTable(c.built.tables));
      EXPECT_EQ(checkAgainstReference(c.built.perm, rtl.memory).mismatches, 0U);
      EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
      ran.push_back(c.name);
    }
  }
  for (const std::string& s : skipped)
    std::cerr << "not run (the defaults do not build): " << s << "\n";
  for (const std::string& name : testing::requiredCatalogueCases(1, 6)) {
    EXPECT_NE(std::find(ran.begin(), ran.end(), name), ran.end()) << name << " did not run";
  }
}

// Johnsson & Ho 1992 §2.2: jh4 with explicit alignment phases (--alignment explicit), binary
// and Gray code (§2.2.2): per-node PERMUTE pre-alignment, the exchange and the re-alignment on
// the RTL, identical to the executor, local cycles included (n = 3..6).
TEST(RtlExplicitAlignment, Jh4WithPermutePhasesAgreesWithTheExecutor) {
  for (int n = 3; n <= 6; ++n) {
    for (const char* code : {"binary", "gray"}) {
      SCOPED_TRACE("jh4 --alignment explicit --code " + std::string(code) +
                   " n = " + std::to_string(n));
      const BuiltCase c =
          buildCase({"jh4", n, 0, 1, false, {{"alignment", "explicit"}, {"code", code}}});
      const RunResult table = onTable(c.tables);
      const RunResult rtl = onRtl(c.tables);
      expectSameRun(rtl, table);
      EXPECT_GT(rtl.local_cycles, 0U);
      EXPECT_EQ(rtl.transfer_cycles, c.perm.slots() / 2);
      EXPECT_EQ(rtl.cycles, rtl.transfer_cycles + rtl.local_cycles);
      EXPECT_EQ(checkAgainstReference(c.perm, rtl.memory).mismatches, 0U);
      EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
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

// ---------------------------------------------------------------------------------------------
// PERMUTE (docs/hardware/node.md §2.1), wide channels and one-port mode with hand-made tables. The
// expected values are worked out by hand from the contract; the executor must agree with them
// and the RTL with the executor.
// ---------------------------------------------------------------------------------------------

/// A table set of hand-made tables: one shared table, or one per node. Tags are the AAPC's
/// (node x slot l holds x * K + l), K = slots.
TableSet handMade(int n, u64 slots, int lanes, bool one_port, std::vector<Table> tables) {
  TableSet set;
  set.header.algo = "hand-made";
  set.header.perm = PermutationSpec::aapc(n, slots >> n);
  set.header.n = n;
  set.header.slots = slots;
  set.header.lanes = lanes;
  set.header.one_port = one_port;
  set.shared = tables.size() == 1;
  set.tables = std::move(tables);
  return set;
}

Channel copyCh(u32 from, u32 to, bool rel = false) {
  return {{OutOp::kMem, rel, from}, {InOp::kMem, rel, to}};
}

u32 tagOf(u64 node, u64 slot, u64 k) { return static_cast<u32>(node * k + slot); }

/// Runs `set` on the executor and the RTL, expects exact agreement and returns the RTL's run.
RunResult agreeOnRtl(const TableSet& set) {
  const RunResult table = onTable(set);
  const RunResult rtl = onRtl(set);
  expectSameRun(rtl, table);
  return rtl;
}

// Swap, relative copy, a copied word sent on in the next cycle, WAIT, and a rotation of n*b = 3
// slots in one PERMUTE.
TEST(RtlPermute, SwapCopyRotationMatchExecutorAndHandResult) {
  const int n = 3;
  const u64 k = 16;
  Instruction swap = Instruction::permute(3);
  swap.channels[0] = copyCh(0, 1);
  swap.channels[1] = copyCh(1, 0);
  swap.channels[2] = copyCh(8, 15, true);  // slot 8^x -> slot 15^x, both in 8..15
  Instruction send = Instruction::xfer(3);
  send.channels[2] = {{OutOp::kMem, false, 0}, {InOp::kMem, false, 0}};
  Instruction rotate = Instruction::permute(3);
  for (u32 c = 0; c < 3; ++c) rotate.channels[c] = copyCh(4 + c, 4 + (c + 1) % 3);
  const TableSet set =
      handMade(n, k, 1, false, {{swap, send, Instruction::waitFor(2), rotate, Instruction::end()}});
  const RunResult rtl = agreeOnRtl(set);
  EXPECT_EQ(rtl.cycles, 5U);
  EXPECT_EQ(rtl.transfer_cycles, 1U);
  EXPECT_EQ(rtl.local_cycles, 2U);
  EXPECT_EQ(rtl.words, 8U);
  EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
  for (u64 x = 0; x < 8; ++x) {
    std::vector<u32> want(k);
    for (u64 l = 0; l < k; ++l) want[l] = tagOf(x, l, k);
    want[0] = tagOf(x ^ 4, 1, k);  // swapped into slot 0 of x ^ 4, then sent across dim 2
    want[1] = tagOf(x, 0, k);
    want[15 ^ x] = tagOf(x, 8 ^ x, k);
    want[4] = tagOf(x, 6, k);  // rotation 4 -> 5 -> 6 -> 4
    want[5] = tagOf(x, 4, k);
    want[6] = tagOf(x, 5, k);
    for (u64 l = 0; l < k; ++l) {
      EXPECT_EQ(rtl.memory.at(x, l), want[l]) << "node " << x << " slot " << l;
    }
  }
}

// Every PERMUTE channel pair other than IDLE/IDLE and MEM/MEM is illegal, copies nothing and is
// neither range- nor conflict-checked; a legal copy in the same cycle still happens.
TEST(RtlPermute, IllegalChannelsMatchExecutor) {
  const int n = 3;
  const u64 k = 8;
  Instruction a = Instruction::permute(3);
  a.channels[0] = {{OutOp::kMem, false, 0}, {}};  // MEM / IDLE
  a.channels[1] = {{}, {InOp::kMem, false, 3}};   // IDLE / MEM (would conflict with ch 2)
  a.channels[2] = copyCh(2, 3);
  Instruction b = Instruction::permute(3);
  b.channels[0] = {{OutOp::kFwd, false, 1}, {InOp::kMem, false, 5}};   // FWD / MEM
  b.channels[2] = {{OutOp::kMem, false, 6}, {InOp::kPass, false, 0}};  // MEM / PASS
  const TableSet set = handMade(n, k, 1, false, {{a, b, Instruction::end()}});
  const RunResult rtl = agreeOnRtl(set);
  EXPECT_EQ(rtl.cycles, 2U);
  EXPECT_EQ(rtl.local_cycles, 2U);
  EXPECT_EQ(rtl.words, 0U);
  ASSERT_EQ(rtl.errors.size(), 8U) << testing::errorList(rtl.errors);
  for (u64 x = 0; x < 8; ++x) {
    EXPECT_EQ(rtl.errors[x], (NodeErrorCount{x, HwError::kIllegal, 2}));
    for (u64 l = 0; l < k; ++l) {
      EXPECT_EQ(rtl.memory.at(x, l), tagOf(x, l == 3 ? 2 : l, k)) << "node " << x << " slot " << l;
    }
  }
}

// A neighbour's word arriving during a PERMUTE is lost (on a copying channel too, which still
// copies); a PASS word held into a PERMUTE is dropped; two copies into one slot conflict and the
// higher channel's word is kept.
TEST(RtlPermute, LostDroppedAndConflictMatchExecutor) {
  const int n = 3;
  const u64 k = 8;
  std::vector<Table> tables(8, Table{Instruction::end()});
  // Node 0 exchanges slot 2 with node 2 on port 1, but node 2 runs a PERMUTE copying slot 0
  // into slot 2 on channel 1: node 2 loses node 0's word, node 0 gets none (nodata).
  Instruction x0 = Instruction::xfer(3);
  x0.channels[1] = {{OutOp::kMem, false, 2}, {InOp::kMem, false, 2}};
  tables[0] = {x0, Instruction::end()};
  Instruction p2 = Instruction::permute(3);
  p2.channels[1] = copyCh(0, 2);
  tables[2] = {p2, Instruction::end()};
  // Node 1 sends slot 5 to node 3 on port 1; node 3 PASSes it, then runs a PERMUTE in which
  // channels 0 and 2 both copy into slot 6 (conflict, slot 4's word kept).
  Instruction x1 = Instruction::xfer(3);
  x1.channels[1] = {{OutOp::kMem, false, 5}, {}};
  tables[1] = {x1, Instruction::end()};
  Instruction x3 = Instruction::xfer(3);
  x3.channels[1] = {{}, {InOp::kPass, false, 0}};
  Instruction p3 = Instruction::permute(3);
  p3.channels[0] = copyCh(1, 6);
  p3.channels[2] = copyCh(4, 6);
  tables[3] = {x3, p3, Instruction::end()};
  const TableSet set = handMade(n, k, 1, false, tables);
  const RunResult rtl = agreeOnRtl(set);
  EXPECT_EQ(rtl.cycles, 2U);
  EXPECT_EQ(rtl.transfer_cycles, 1U);
  EXPECT_EQ(rtl.local_cycles, 2U);
  EXPECT_EQ(rtl.words, 2U);
  const std::vector<NodeErrorCount> want = {{0, HwError::kNoData, 1},
                                            {2, HwError::kLost, 1},
                                            {3, HwError::kConflict, 1},
                                            {3, HwError::kDropped, 1}};
  EXPECT_EQ(rtl.errors, want) << testing::errorList(rtl.errors);
  EXPECT_EQ(rtl.memory.at(0, 2), tagOf(0, 2, k));
  EXPECT_EQ(rtl.memory.at(2, 2), tagOf(2, 0, k));
  EXPECT_EQ(rtl.memory.at(3, 6), tagOf(3, 4, k));
  EXPECT_EQ(rtl.link_words[0 * n + 1], 1U);
  EXPECT_EQ(rtl.link_words[1 * n + 1], 1U);
}

// Wide channels (b = 3 lanes; the CI fixture builds one 3-lane model, n = 3): one XFER moves
// three words per port, a word PASSed on one lane is forwarded on a lane of another port, and
// one PERMUTE rotates a cycle of n*b = 9 slots.
TEST(RtlWideChannels, ThreeLanesTransferForwardAndRotateMatchExecutor) {
  const int n = 3;
  const int lanes = 3;
  const u64 k = 16;
  const size_t chans = static_cast<size_t>(n * lanes);
  auto ch = [&](int port, int lane) { return static_cast<size_t>(port * lanes + lane); };
  Instruction exchange = Instruction::xfer(chans);
  for (u32 c = 0; c < chans; ++c)
    exchange.channels[c] = {{OutOp::kMem, false, c}, {InOp::kMem, false, c}};
  Instruction rotate = Instruction::permute(chans);
  for (u32 c = 0; c < chans; ++c) rotate.channels[c] = copyCh(c, (c + 1) % 9);
  std::vector<Table> tables(8, Table{exchange, rotate, Instruction::end()});
  // Node 0 then sends slot 15 on port 0 lane 2; node 1 PASSes it and forwards it on port 1
  // lane 1 to node 3, which stores it in slot 12.
  Instruction send = Instruction::xfer(chans);
  send.channels[ch(0, 2)] = {{OutOp::kMem, false, 15}, {}};
  Instruction pass = Instruction::xfer(chans);
  pass.channels[ch(0, 2)] = {{}, {InOp::kPass, false, 0}};
  Instruction forward = Instruction::xfer(chans);
  forward.channels[ch(1, 1)] = {{OutOp::kFwd, false, static_cast<u32>(ch(0, 2))}, {}};
  Instruction store = Instruction::xfer(chans);
  store.channels[ch(1, 1)] = {{}, {InOp::kMem, false, 12}};
  tables[0] = {exchange, rotate, send, Instruction::end()};
  tables[1] = {exchange, rotate, pass, forward, Instruction::end()};
  tables[3] = {exchange, rotate, Instruction::waitFor(1), store, Instruction::end()};
  const TableSet set = handMade(n, k, lanes, false, tables);
  const RunResult rtl = agreeOnRtl(set);
  EXPECT_EQ(rtl.cycles, 4U);
  EXPECT_EQ(rtl.transfer_cycles, 3U);
  EXPECT_EQ(rtl.local_cycles, 1U);
  EXPECT_EQ(rtl.words, 8U * 9U + 2U);
  EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
  for (u64 x = 0; x < 8; ++x) {
    // After the exchange slot l < 9 of x holds slot l of x ^ (1 << l / 3) (lane l % 3 of port
    // l / 3); the rotation then moves slot c to slot c + 1 mod 9.
    for (u64 l = 0; l < k; ++l) {
      const u64 from = (l + 8) % 9;
      const u32 want = l < 9                 ? tagOf(x ^ (u64{1} << (from / 3)), from, k)
                       : (x == 3 && l == 12) ? tagOf(0, 15, k)
                                             : tagOf(x, l, k);
      EXPECT_EQ(rtl.memory.at(x, l), want) << "node " << x << " slot " << l;
    }
  }
}

// Compiled schedules on three lanes (Johnsson & Ho 1992 §6): jh4 with K = 48 sends K/(2b) = 8
// cycles of three words per port, also with the explicit alignment phases (§2.2), whose PERMUTEs
// copy n*b = 9 words per cycle.
TEST(RtlWideChannels, Jh4OnThreeLanesAgreesWithTheExecutor) {
  for (const bool explicit_alignment : {false, true}) {
    SCOPED_TRACE(explicit_alignment ? "--alignment explicit" : "relative slots");
    CaseSpec spec{"jh4", 3, 48, 3, false, {}};
    if (explicit_alignment) spec.params["alignment"] = "explicit";
    const BuiltCase c = buildCase(spec);
    const RunResult table = onTable(c.tables);
    const RunResult rtl = onRtl(c.tables);
    expectSameRun(rtl, table);
    EXPECT_EQ(rtl.transfer_cycles, 8U);
    EXPECT_EQ(rtl.local_cycles > 0, explicit_alignment);
    EXPECT_EQ(checkAgainstReference(c.perm, rtl.memory).mismatches, 0U);
    EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
  }
}

// One-port mode (runtime input of the cube): a dimension-ordered exchange that uses one port per
// cycle runs without errors, a PERMUTE copying on every channel is not restricted, and a cycle
// sending on two ports is a oneport error on both sides.
TEST(RtlOnePort, ExchangesPermuteAndViolationMatchExecutor) {
  const int n = 3;
  const u64 k = 8;
  Table t;
  for (int j = 0; j < n; ++j) {
    Instruction x = Instruction::xfer(3);
    x.channels[static_cast<size_t>(j)] = {{OutOp::kMem, false, static_cast<u32>(j)},
                                          {InOp::kMem, false, static_cast<u32>(j)}};
    t.push_back(x);
  }
  Instruction rotate = Instruction::permute(3);
  for (u32 c = 0; c < 3; ++c) rotate.channels[c] = copyCh(c, (c + 1) % 3);
  t.push_back(rotate);
  t.push_back(Instruction::end());
  const TableSet good = handMade(n, k, 1, true, {t});
  const RunResult rtl = agreeOnRtl(good);
  EXPECT_EQ(rtl.cycles, 4U);
  EXPECT_EQ(rtl.transfer_cycles, 3U);
  EXPECT_EQ(rtl.local_cycles, 1U);
  EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
  for (u64 x = 0; x < 8; ++x) {
    for (u64 l = 0; l < 3; ++l) {
      const u64 from = (l + 2) % 3;
      EXPECT_EQ(rtl.memory.at(x, l), tagOf(x ^ (u64{1} << from), from, k));
    }
  }
  Instruction both = Instruction::xfer(3);
  both.channels[0] = {{OutOp::kMem, false, 4}, {InOp::kMem, false, 4}};
  both.channels[2] = {{OutOp::kMem, false, 5}, {InOp::kMem, false, 5}};
  t.insert(t.begin() + 1, both);
  const RunResult bad = agreeOnRtl(handMade(n, k, 1, true, {t}));
  ASSERT_EQ(bad.errors.size(), 8U) << testing::errorList(bad.errors);
  for (u64 x = 0; x < 8; ++x) EXPECT_EQ(bad.errors[x], (NodeErrorCount{x, HwError::kOnePort, 1}));
}

// Compiled one-port schedules: the exchange algorithm (n = 3..6) and a k-shuffle whose local
// bits move by PERMUTE (n = 3), on the fixture's models with one_port_i set.
TEST(RtlOnePort, CompiledSchedulesAgreeWithTheExecutor) {
  std::vector<CaseSpec> cases;
  for (int n = 3; n <= 6; ++n) cases.push_back({"exchange", n, 0, 1, true, {}});
  cases.push_back({"k-shuffle", 3, 0, 1, true, {}});
  for (const CaseSpec& spec : cases) {
    SCOPED_TRACE(spec.algo + " --ports one n = " + std::to_string(spec.n));
    const BuiltCase c = buildCase(spec);
    ASSERT_TRUE(c.tables.header.one_port);
    const RunResult table = onTable(c.tables);
    const RunResult rtl = onRtl(c.tables);
    expectSameRun(rtl, table);
    EXPECT_EQ(checkAgainstReference(c.perm, rtl.memory).mismatches, 0U);
    EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
    if (spec.algo == "k-shuffle") {
      EXPECT_GT(rtl.local_cycles, 0U);
    }
  }
}

// A model per thread count and per tracing, named so in the cache.
TEST(RtlModelKey, NamesThreadsAndTracing) {
  RtlModelConfig c{3, 32, 1, 64};
  EXPECT_EQ(c.key(), "rtl-n3-m32-b1-t64-j1-w0");
  c.threads = 2;
  c.trace = true;
  EXPECT_EQ(c.key(), "rtl-n3-m32-b1-t64-j2-w1");
  RtlModelConfig a{3, 32, 1, 64};
  a.array = true;
  EXPECT_EQ(a.key(), "rtl-n3-m32-b1-t64-j1-w0-a");
  a.router = true;
  EXPECT_EQ(a.key(), "rtl-n3-m32-b1-t64-j1-w0-r-a");
  EXPECT_EQ(requireRtlThreads(1), 1);
  EXPECT_EQ(requireRtlThreads(kRtlMaxThreads), kRtlMaxThreads);
  EXPECT_EQ(testing::errorOf([] { requireRtlThreads(0); }),
            "--threads 0: must be 1..64 (threads of the Verilated model)");
  EXPECT_EQ(testing::errorOf([] { requireRtlThreads(65); }),
            "--threads 65: must be 1..64 (threads of the Verilated model)");
}

// Verilator's multithreaded flat model (--rtl-model flat --threads 2) is cycle-exact like the
// single-threaded one: the same run as the executor, n = 4 (a model of its own, small enough for
// CI).
TEST(RtlThreads, TwoThreadFlatModelMatchesTheExecutor) {
  const BuiltCase c = buildCase({"edelman", 4, 0, 1, false});
  RtlOptions opt;
  opt.progress = &std::cerr;
  opt.threads = 2;
  opt.flat = true;
  const RunResult rtl = runOnRtl(c.tables, opt);
  expectSameRun(rtl, onTable(c.tables));
  EXPECT_EQ(checkAgainstReference(c.perm, rtl.memory).correct, c.perm.elements());
  EXPECT_EQ(rtl.cycles, c.perm.slots() / 2);
}

// The node-array model's nodes evaluated by 2 and 3 threads (hcube-rtl-sim --threads; the same
// model as one thread) at n = 6 (64 nodes, split in 32-node blocks): an all-port AAPC, the
// one-port exchange, jh4 with its PERMUTE alignment phases and a broken table set, exactly as the
// executor, error counters included.
TEST(RtlThreads, NodeArrayOnSeveralThreadsMatchesTheExecutor) {
  std::vector<TableSet> sets;
  sets.push_back(buildCase({"edelman", 6, 0, 1, false}).tables);
  sets.push_back(buildCase({"exchange", 6, 0, 1, true}).tables);
  sets.push_back(buildCase({"jh4", 6, 0, 1, false, {{"alignment", "explicit"}}}).tables);
  TableSet broken = sets.front();
  broken.tables.assign(broken.header.nodes(), broken.tables.at(0));
  broken.shared = false;
  broken.tables[9][0].channels[0].in = {};    // lost at node 9
  broken.tables[40][3].channels[2].out = {};  // nodata at node 44
  sets.push_back(broken);
  for (size_t i = 0; i < sets.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    const RunResult table = onTable(sets[i]);
    for (int threads : {2, 3}) {
      if (threads == 3 && i != 0) continue;
      RtlOptions opt;
      opt.progress = &std::cerr;
      opt.threads = threads;
      expectSameRun(runOnRtl(sets[i], opt), table);
    }
  }
}

// The flat model (hc_cube verilated whole, docs/hardware/testbench.md §2.1) against the executor,
// as every other test here holds the node-array model to it: the catalogue at n = 2 and 3, the
// broken tables of RtlErrors, and one link fault of each kind with the traffic log and the error
// events. Both models equal to the executor means equal to each other.
RunResult onFlatRtl(const TableSet& set, const Fault* fault = nullptr, bool traffic = false) {
  RtlOptions opt;
  opt.progress = &std::cerr;
  opt.flat = true;
  opt.fault = fault;
  opt.record_traffic = traffic;
  return runOnRtl(set, opt);
}

TEST(RtlFlatModel, CatalogueAgreesWithTheExecutor) {
  std::vector<std::string> skipped;
  int ran = 0;
  for (int n = 2; n <= 3; ++n) {
    for (const testing::CatalogueCase& c : testing::catalogueCases(n, &skipped)) {
      SCOPED_TRACE(c.name);
      expectSameRun(onFlatRtl(c.built.tables), onTable(c.built.tables));
      ++ran;
    }
  }
  EXPECT_GE(ran, 40);
}

TEST(RtlFlatModel, BrokenTablesAndFaultsAgreeWithTheExecutor) {
  BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  {
    TableSet broken = c.tables;
    broken.tables.assign(8, broken.tables.at(0));
    broken.shared = false;
    broken.tables[0][0].channels[0].in = {};                       // lost
    broken.tables[0][2].channels[2].out = {};                      // nodata at the neighbour
    broken.tables[5][1].channels[1].in = {InOp::kPass, false, 0};  // dropped
    const RunResult table = onTable(broken);
    ASSERT_FALSE(table.errors.empty());
    expectSameRun(onFlatRtl(broken), table);
  }
  for (const char* spec : {"flip:5:2:0:1:7", "stuck:2:1:0:0:4:1", "dead:3:0:0:2", "drop:7:1:0:1"}) {
    SCOPED_TRACE(spec);
    const Fault fault = parseFault(spec, c.tables);
    ExecOptions opt;
    opt.tagged_elements = c.perm.elements();
    opt.max_cycles = c.tables.cycles() + 1000;
    opt.fault = &fault;
    opt.record_traffic = true;
    const RunResult table =
        executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
    const RunResult flat = onFlatRtl(c.tables, &fault, true);
    expectSameRun(flat, table);
    EXPECT_EQ(flat.traffic, table.traffic);
    EXPECT_EQ(flat.error_events, table.error_events);
    RtlOptions array_opt;
    array_opt.fault = &fault;
    array_opt.record_traffic = true;
    const RunResult array = runOnRtl(c.tables, array_opt);
    expectSameRun(array, table);
    EXPECT_EQ(array.traffic, table.traffic);
    EXPECT_EQ(array.error_events, table.error_events);
  }
}

// Models are built without waveform tracing unless a run asks for a trace; such a run builds
// (once) a traced model, which writes the FST and the GTKWave save file and runs the same.
TEST(RtlTrace, TracedRunBuildsATracedModelAndMatchesTheExecutor) {
  const BuiltCase c = buildCase({"edelman", 2, 0, 1, false});
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("hcube-rtl-trace-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  RtlOptions opt;
  opt.progress = &std::cerr;
  opt.trace = (dir / "run.fst").string();
  opt.gtkw = (dir / "run.gtkw").string();
  const RunResult rtl = runOnRtl(c.tables, opt);
  expectSameRun(rtl, onTable(c.tables));
  EXPECT_GT(std::filesystem::file_size(opt.trace), 0U);
  std::ifstream gtkw(opt.gtkw);
  const std::string save((std::istreambuf_iterator<char>(gtkw)), std::istreambuf_iterator<char>());
  EXPECT_NE(save.find("u_node"), std::string::npos) << save;

  // The save file opens on the run: the view starts at the start edge (marker A) and marker B
  // is done, 2 cycles of 10 ns later; the trace runs on after done so that GTKWave can place
  // the view there (it needs a page of trace after the start time).
  const size_t at = save.find("[timestart] ");
  ASSERT_NE(at, std::string::npos) << save;
  const unsigned long long start = std::stoull(save.substr(at + 12));
  const std::string zoom_line = "\n*";
  const size_t z = save.find(zoom_line);
  ASSERT_NE(z, std::string::npos) << save;
  std::istringstream zoom(save.substr(z + 2, save.find('\n', z + 2) - z - 2));
  double factor = 0;
  unsigned long long marker = 0, a = 0, b = 0;
  zoom >> factor >> marker >> a >> b;
  EXPECT_EQ(a, start);
  EXPECT_EQ(marker, start);
  EXPECT_EQ(b, start + 2 * 10);
  std::ifstream fst(opt.trace, std::ios::binary);
  unsigned char head[25] = {};
  fst.read(reinterpret_cast<char*>(head), sizeof head);
  unsigned long long end_time = 0;  // the FST header block: type, length, start, end (big endian)
  for (int i = 17; i < 25; ++i) end_time = (end_time << 8) | head[i];
  EXPECT_GE(end_time, b + 2 * (b - a)) << "the trace ends at " << end_time;

  // Translate filter files beside it name the opcodes and show words as (node|slot) tags.
  auto read = [](const std::filesystem::path& p) {
    std::ifstream f(p);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  const std::string opcodes = read(dir / "run-opcode.filter");
  // Every value of the 2-bit opcode has its name (rtl/hc_pkg.sv opcode_e).
  EXPECT_NE(opcodes.find("\n0 END/MAC\n1 XFER\n2 WAIT\n3 PERMUTE\n"), std::string::npos) << opcodes;
  const std::string tags = read(dir / "run-tags.filter");
  EXPECT_NE(tags.find("\n6 (1|2)\n"), std::string::npos) << tags;  // K = 4: 6 = 1 * 4 + 2
  EXPECT_NE(save.find("run-opcode.filter"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hcube

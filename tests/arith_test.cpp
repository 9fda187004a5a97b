// The combining receive ADD(slot) (docs/hardware/arithmetic.md §1) on hand-made tables.
// Every run goes through the table executor, the SystemC-TLM cube and the Verilated RTL cube
// (the rtl_models fixture's n = 2 and n = 3 models), which must agree exactly on memories, cycles,
// words, links, span and error counters; the tests also state the exact memories by hand. The
// formats (text cell a<s>, image input op 3) and the static verifier's sums are tested here too.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "spec/reference.h"
#include "tables/table_image.h"
#include "tables/table_text.h"
#include "tables/verifier.h"
#include "test_util.h"
#include "tlm_backend.h"

namespace hcube {
namespace {

using testing::errorList;

/// Hand-made tables for the n-cube with K = slots (+ scratch), one shared table or one per node;
/// tags are the AAPC's: node x slot l holds x * K + l (scratch slots hold 0).
TableSet handMade(int n, u64 slots, std::vector<Table> tables, u64 scratch = 0) {
  TableSet set;
  set.header.algo = "hand-made";
  set.header.perm = PermutationSpec::aapc(n, slots >> n);
  set.header.n = n;
  set.header.slots = slots;
  set.header.scratch = scratch;
  set.shared = tables.size() == 1;
  set.tables = std::move(tables);
  return set;
}

u32 tagOf(u64 node, u64 slot, u64 k) { return static_cast<u32>(node * k + slot); }

Channel sendAdd(u32 from, u32 into, bool rel = false) {
  return {{OutOp::kMem, false, from}, {InOp::kAdd, rel, into}};
}

/// Runs `set` on the executor, the TLM and the RTL; expects exact agreement; returns the RTL's.
RunResult onAllThree(const TableSet& set) {
  const RunResult table = testing::onTable(set);
  const RunResult tlm = runOnTlm(set, TlmOptions{});
  testing::expectSameRun("tlm", tlm, table);
  RtlOptions opt;
  opt.progress = &std::cerr;
  const RunResult rtl = runOnRtl(set, opt);
  testing::expectSameRun("rtl", rtl, table);
  return rtl;
}

// ---------------------------------------------------------------------------------------------
// The three executors
// ---------------------------------------------------------------------------------------------

// Port 0 adds the neighbour's slot 0 into slot 2, port 1 the neighbour's slot 1 into slot 3.
TEST(ArithAdd, AddsTheArrivingWordIntoTheSlot) {
  Instruction x = Instruction::xfer(2);
  x.channels = {sendAdd(0, 2), sendAdd(1, 3)};
  const TableSet set = handMade(2, 4, {{x, Instruction::end()}});
  const RunResult r = onAllThree(set);
  EXPECT_EQ(r.cycles, 1U);
  EXPECT_EQ(r.transfer_cycles, 1U);
  EXPECT_EQ(r.words, 8U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  for (u64 y = 0; y < 4; ++y) {
    EXPECT_EQ(r.memory.at(y, 0), tagOf(y, 0, 4));
    EXPECT_EQ(r.memory.at(y, 1), tagOf(y, 1, 4));
    EXPECT_EQ(r.memory.at(y, 2), tagOf(y, 2, 4) + tagOf(y ^ 1, 0, 4)) << y;
    EXPECT_EQ(r.memory.at(y, 3), tagOf(y, 3, 4) + tagOf(y ^ 2, 1, 4)) << y;
  }
}

// Sending slot 2 and adding into slot 2 in one cycle sends the old value (the sum reads the
// start of the cycle): two such exchanges, on port 0 then port 1, leave the sum of every node's
// slot 2 in slot 2 of every node (an all-reduce by recursive doubling, TR-623 §2).
TEST(ArithAdd, ExchangeAddReadsTheStartOfTheCycleAndReducesOverTheCube) {
  const int n = 3;
  const u64 k = 8;
  Table t;
  for (int p = 0; p < n; ++p) {
    Instruction x = Instruction::xfer(static_cast<size_t>(n));
    x.channels[static_cast<size_t>(p)] = sendAdd(2, 2);
    t.push_back(x);
  }
  t.push_back(Instruction::end());
  const RunResult r = onAllThree(handMade(n, k, {t}));
  EXPECT_EQ(r.cycles, 3U);
  EXPECT_EQ(r.words, 24U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  u32 total = 0;
  for (u64 y = 0; y < 8; ++y) total += tagOf(y, 2, k);
  for (u64 y = 0; y < 8; ++y) {
    EXPECT_EQ(r.memory.at(y, 2), total) << y;
    for (u64 l : {0, 1, 3, 4, 5, 6, 7}) EXPECT_EQ(r.memory.at(y, l), tagOf(y, l, k));
  }
}

// W = 32: 25 exchange-adds on port 0 of a 3-cube (K = 32) leave (s + s') * 2^24 mod 2^32 in
// slot 31, s and s' the pair's slot-31 tags; for nodes 6 and 7, (223 + 255) * 2^24 > 2^32 wraps.
// (25 instructions fit the CI model's table depth of 32.)
TEST(ArithAdd, SumsWrapAroundAtTheWordWidth) {
  Table t;
  Instruction x = Instruction::xfer(3);
  x.channels[0] = sendAdd(31, 31);
  for (int i = 0; i < 25; ++i) t.push_back(x);
  t.push_back(Instruction::end());
  const RunResult r = onAllThree(handMade(3, 32, {t}));
  EXPECT_EQ(r.cycles, 25U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  for (u64 y = 0; y < 8; ++y) {
    const u64 pair = u64{tagOf(y, 31, 32)} + tagOf(y ^ 1, 31, 32);
    EXPECT_EQ(r.memory.at(y, 31), static_cast<u32>((pair << 24) & 0xFFFFFFFFU)) << y;
  }
  EXPECT_EQ(r.memory.at(7, 31), 111U << 25);  // 239 * 2^25 mod 2^32
}

// Relative ADD slots: slot 1 ^ x of node x gets the port-0 neighbour's slot 0 added.
TEST(ArithAdd, RelativeSlots) {
  Instruction x = Instruction::xfer(2);
  x.channels[0] = sendAdd(0, 1, true);
  const RunResult r = onAllThree(handMade(2, 4, {{x, Instruction::end()}}));
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  for (u64 y = 0; y < 4; ++y) {
    for (u64 l = 0; l < 4; ++l) {
      const u32 want = tagOf(y, l, 4) + (l == (1 ^ y) ? tagOf(y ^ 1, 0, 4) : 0U);
      EXPECT_EQ(r.memory.at(y, l), want) << "node " << y << " slot " << l;
    }
  }
}

// Named errors, identical on the three executors: an ADD and a MEM receive into one slot
// conflict (the higher channel's value is kept: here the ADD's start-of-cycle sum); an ADD with
// no word arriving is nodata and leaves the slot; an ADD input in a PERMUTE is illegal and adds
// nothing.
TEST(ArithAdd, ConflictNodataAndIllegalInAPermute) {
  Instruction conflict = Instruction::xfer(2);
  conflict.channels[0] = {{OutOp::kMem, false, 0}, {InOp::kMem, false, 3}};
  conflict.channels[1] = sendAdd(1, 3);
  Instruction nodata = Instruction::xfer(2);
  nodata.channels[0] = {{}, {InOp::kAdd, false, 2}};
  Instruction permute = Instruction::permute(2);
  permute.channels[0] = {{OutOp::kMem, false, 0}, {InOp::kAdd, false, 1}};
  const TableSet set = handMade(2, 4, {{conflict, nodata, permute, Instruction::end()}});
  const RunResult r = onAllThree(set);
  EXPECT_EQ(r.cycles, 3U);
  EXPECT_EQ(r.local_cycles, 1U);
  EXPECT_EQ(r.words, 8U);
  ASSERT_EQ(r.errors.size(), 12U) << errorList(r.errors);
  for (u64 y = 0; y < 4; ++y) {
    EXPECT_EQ(r.errors[3 * y], (NodeErrorCount{y, HwError::kNoData, 1}));
    EXPECT_EQ(r.errors[3 * y + 1], (NodeErrorCount{y, HwError::kIllegal, 1}));
    EXPECT_EQ(r.errors[3 * y + 2], (NodeErrorCount{y, HwError::kConflict, 1}));
    EXPECT_EQ(r.memory.at(y, 0), tagOf(y, 0, 4));
    EXPECT_EQ(r.memory.at(y, 1), tagOf(y, 1, 4));
    EXPECT_EQ(r.memory.at(y, 2), tagOf(y, 2, 4));
    EXPECT_EQ(r.memory.at(y, 3), tagOf(y, 3, 4) + tagOf(y ^ 2, 1, 4)) << y;
  }
}

// A word arriving on an ADD input during a PASS/FWD route is combined at the end of the route:
// node 0's slot 0 travels 0 -> 1 -> 3 and is added into node 3's slot 0.
TEST(ArithAdd, ForwardedWordIsCombinedAtTheEndOfItsRoute) {
  std::vector<Table> tables(4,
                            Table{Instruction::xfer(2), Instruction::xfer(2), Instruction::end()});
  tables[0][0].channels[0].out = {OutOp::kMem, false, 0};
  tables[1][0].channels[0].in = {InOp::kPass, false, 0};
  tables[1][1].channels[1].out = {OutOp::kFwd, false, 0};
  tables[3][1].channels[1].in = {InOp::kAdd, false, 0};
  const RunResult r = onAllThree(handMade(2, 4, tables));
  EXPECT_EQ(r.cycles, 2U);
  EXPECT_EQ(r.words, 2U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  EXPECT_EQ(r.memory.at(3, 0), tagOf(3, 0, 4) + tagOf(0, 0, 4));
  EXPECT_EQ(r.memory.at(1, 0), tagOf(1, 0, 4));
}

// ---------------------------------------------------------------------------------------------
// Shape check, formats, verifier
// ---------------------------------------------------------------------------------------------

TEST(ArithAdd, AnAddSlotOutsideTheMemoryIsRefusedBeforeAnyRun) {
  Instruction x = Instruction::xfer(2);
  x.channels[0] = sendAdd(0, 4);
  const TableSet set = handMade(2, 4, {{x, Instruction::end()}});
  EXPECT_EQ(testing::errorOf([&] { checkTableShape(set); }),
            "shared table, instruction 0, port 0 lane 0: receive slot 4 is out of range (memory "
            "has 4 slots)");
}

TEST(ArithAdd, TextCellsRoundTripAndAPermuteRefusesThem) {
  const std::string text =
      "hcube-table 1\nalgo hand\nperm aapc n=1 m=2\ndim 1\nslots 4\nscratch 0\nlanes 1\n"
      "ports all\ntable *\nX m0>a3\nX m1>a^2\nE\nend\n";
  std::istringstream in(text);
  const TableSet set = readTableText(in, "t.hct");
  ASSERT_EQ(set.tables[0].size(), 3U);
  EXPECT_EQ(set.tables[0][0].channels[0].in, (InField{InOp::kAdd, false, 3}));
  EXPECT_EQ(set.tables[0][1].channels[0].in, (InField{InOp::kAdd, true, 2}));
  EXPECT_EQ(formatChannel(set.tables[0][0].channels[0]), "m0>a3");
  EXPECT_EQ(formatChannel(set.tables[0][1].channels[0]), "m1>a^2");
  std::ostringstream out;
  writeTableText(out, set);
  std::istringstream back(out.str());
  EXPECT_EQ(readTableText(back, "back.hct"), set);

  std::string bad = text;
  bad.replace(bad.find("X m0>a3"), 7, "P m0>a3");
  std::istringstream bad_in(bad);
  EXPECT_NE(testing::errorOf([&] { readTableText(bad_in, "bad.hct"); }).find("bad.hct:10: 'P'"),
            std::string::npos);
}

TEST(ArithAdd, ImageInputOp3IsAdd) {
  TableHeader h;
  h.perm = PermutationSpec::aapc(2, 1);
  h.n = 2;
  h.slots = 4;
  const ImageLayout l = ImageLayout::of(h);
  Instruction x = Instruction::xfer(2);
  x.channels[0] = sendAdd(1, 3, true);
  const TableWord w = encodeInstruction(x, l);
  // Channel 0's input op sits at bit 2 + 3 + IdxBits.
  EXPECT_EQ((w[0] >> (5 + l.idxBits())) & 3U, 3U);
  EXPECT_EQ(decodeInstruction(w, l), x);
}

TEST(ArithAdd, VerifierTracksSumsAsValues) {
  // The reduction of slot 2 over a 1-cube leaves a sum where the AAPC expects an element: the
  // verifier names the sum it found.
  Instruction x = Instruction::xfer(1);
  x.channels[0] = sendAdd(0, 0);
  const VerifyReport rep = verifyTables(handMade(1, 2, {{x, Instruction::end()}}));
  EXPECT_FALSE(rep.ok());
  ASSERT_FALSE(rep.errors.empty());
  EXPECT_NE(rep.errors[0].find("holds the sum of 2 elements (0 + 2)"), std::string::npos)
      << rep.errors[0];
  // ADD into an empty scratch slot is an error naming node, cycle and slot.
  Instruction y = Instruction::xfer(1);
  y.channels[0] = sendAdd(0, 2);
  const VerifyReport empty = verifyTables(handMade(1, 2, {{y, Instruction::end()}}, 1));
  ASSERT_FALSE(empty.errors.empty());
  EXPECT_EQ(empty.errors[0],
            "cycle 0, node 0, port 0, lane 0, slot 2: ADD combines into a slot that holds no "
            "element");
}

// ---------------------------------------------------------------------------------------------
// TR-623 §2: all-to-all broadcast and reduction (sw/algorithms/matmul/collectives.h)
// ---------------------------------------------------------------------------------------------

struct CollectiveCase {
  const char* algo;
  int n;
  u64 m;
  bool one_port;
  const char* tree;
  u32 tau;
};

/// Builds the case, verifies its tables statically, runs it on the executor and the TLM (and the
/// RTL where a CI model is big enough: K = m 2^n <= 4 * 2^n), checks every slot against the
/// reference sums/blocks and the exact counts of TR-623 Tables 2 and 3.
void expectCollective(const CollectiveCase& cc) {
  SCOPED_TRACE(std::string(cc.algo) + " n = " + std::to_string(cc.n) +
               " m = " + std::to_string(cc.m) + " tree " + cc.tree +
               (cc.one_port ? " one-port" : "") + " tau " + std::to_string(cc.tau));
  const BuiltCase c = buildCase(testing::caseSpec(
      cc.algo, cc.n, 0, 1, cc.one_port,
      {{"m", std::to_string(cc.m)}, {"tree", cc.tree}, {"tau", std::to_string(cc.tau)}}));
  const VerifyReport v = verifyTables(c.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  const RunResult table = testing::onTable(c.tables);
  const RunResult tlm = runOnTlm(c.tables, TlmOptions{});
  testing::expectSameRun("tlm", tlm, table);
  if (cc.m <= 4) {
    RtlOptions opt;
    opt.progress = &std::cerr;
    testing::expectSameRun("rtl", runOnRtl(c.tables, opt), table);
  }
  const u64 nodes = u64{1} << cc.n;
  const u64 parts = std::string(cc.tree) == "nrsbt" ? static_cast<u64>(cc.n) : 1;
  const CheckResult check = checkAgainstReference(c.perm, table.memory);
  EXPECT_EQ(check.mismatches, 0U);
  // Broadcast: every slot of every node; reduction: node x's block x.
  const bool reduce = std::string(cc.algo) == "reduce-all";
  EXPECT_EQ(check.correct, reduce ? nodes * cc.m : nodes * nodes * cc.m);
  EXPECT_TRUE(table.errors.empty()) << errorList(table.errors);
  // Tables 2 and 3: (N - 1) M element transfers one-port, (N - 1) M / n n-port (M = m for the
  // broadcast, M = N m for the reduction, whose result is m per node), and n start-ups; where n
  // does not divide m, the largest of the n parts has ceil(m / n) words per block.
  const u64 transfers = (nodes - 1) * ((cc.m + parts - 1) / parts);
  EXPECT_EQ(c.lower_bound, transfers);
  EXPECT_EQ(table.transfer_cycles, transfers);
  EXPECT_EQ(table.cycles, transfers + static_cast<u64>(cc.n) * cc.tau);
  EXPECT_EQ(table.words, nodes * (nodes - 1) * cc.m);
  // The reduction's sums, independently: slot l of node l / m holds the sum of every node's
  // initial word x K + l (W = 32 bit wrap-around).
  if (reduce) {
    const u64 k = nodes * cc.m;
    for (u64 x = 0; x < nodes; ++x) {
      for (u64 i = 0; i < cc.m; ++i) {
        const u64 l = x * cc.m + i;
        u32 sum = 0;
        for (u64 y = 0; y < nodes; ++y) sum += static_cast<u32>(y * k + l);
        EXPECT_EQ(table.memory.at(x, l), sum) << "node " << x << " slot " << l;
      }
    }
  }
}

TEST(ArithCollectives, BroadcastAndReductionOneAndNPortMatchTables2And3OnAllExecutors) {
  for (const char* algo : {"broadcast-all", "reduce-all"}) {
    for (int n = 1; n <= 6; ++n) {
      expectCollective({algo, n, 1, true, "sbt", 0});
      expectCollective({algo, n, 3, false, "sbt", 2});
      expectCollective({algo, n, static_cast<u64>(n), false, "nrsbt", 0});
    }
    expectCollective({algo, 4, 8, false, "nrsbt", 3});
    expectCollective({algo, 3, 4, false, "nrsbt", 0});  // uneven parts: 2, 1, 1 words
    expectCollective({algo, 6, 4, false, "nrsbt", 0});  // 4 words on 6 parts: 1,1,1,1,0,0
  }
}

/// One-to-all broadcast / all-to-one reduction: verified, three-way (RTL where m <= 4), every
/// checked slot where the reference says, n steps of ceil(m / ports) cycles and n start-ups.
void expectRooted(const char* algo, int n, u64 m, bool one_port, const char* tree, u64 root,
                  u32 tau) {
  SCOPED_TRACE(std::string(algo) + " n = " + std::to_string(n) + " m = " + std::to_string(m) +
               " tree " + tree + " root " + std::to_string(root));
  const BuiltCase c = buildCase(testing::caseSpec(algo, n, 0, 1, one_port,
                                                  {{"m", std::to_string(m)},
                                                   {"tree", tree},
                                                   {"root", std::to_string(root)},
                                                   {"tau", std::to_string(tau)}}));
  const VerifyReport v = verifyTables(c.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  const RunResult table = testing::onTable(c.tables);
  testing::expectSameRun("tlm", runOnTlm(c.tables, TlmOptions{}), table);
  if (m <= 4) testing::expectSameRun("rtl", runOnRtl(c.tables, RtlOptions{}), table);
  const u64 nodes = u64{1} << n;
  const bool reduce = std::string(algo) == "reduce-one";
  const CheckResult check = checkAgainstReference(c.perm, table.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, reduce ? m : nodes * m);
  EXPECT_TRUE(table.errors.empty()) << errorList(table.errors);
  const u64 parts = std::string(tree) == "nrsbt" ? static_cast<u64>(n) : 1;
  EXPECT_EQ(table.cycles, static_cast<u64>(n) * ((m + parts - 1) / parts + tau));
  EXPECT_EQ(table.words, (nodes - 1) * m);  // every node but the root receives (sends) m words
  if (reduce) {
    for (u64 l = 0; l < m; ++l) {
      u32 sum = 0;
      for (u64 y = 0; y < nodes; ++y) sum += static_cast<u32>(y * m + l);
      EXPECT_EQ(table.memory.at(root, l), sum) << "slot " << l;
    }
  }
}

TEST(ArithCollectives, OneToAllBroadcastAndAllToOneReductionOnAllExecutors) {
  for (const char* algo : {"broadcast-one", "reduce-one"}) {
    for (int n = 1; n <= 6; ++n) {
      const u64 root = (u64{5} * static_cast<u64>(n)) % (u64{1} << n);
      expectRooted(algo, n, 3, true, "sbt", root, 0);
      expectRooted(algo, n, 4, false, "nrsbt", root, 1);
    }
    expectRooted(algo, 4, 11, false, "nrsbt", 9, 0);
  }
}

TEST(ArithCollectives, BadParametersAreNamed) {
  auto err = [](const char* algo, bool one_port, std::map<std::string, std::string> p, u64 k = 0) {
    return testing::errorOf(
        [&] { buildCase(testing::caseSpec(algo, 3, k, 1, one_port, std::move(p))); });
  };
  EXPECT_EQ(err("reduce-all", true, {{"tree", "nrsbt"}, {"m", "3"}}),
            "--tree nrsbt: uses every port at once, not one-port hardware (--ports one)");
  EXPECT_EQ(err("reduce-all", false, {{"tree", "binomial"}}),
            "--tree 'binomial': must be sbt (one-port) or nrsbt (n-port)");
  EXPECT_EQ(err("broadcast-all", false, {}, 12),
            "--k 12: 'broadcast-all' needs K = m * 2^n slots (blocks of m words, one per node)");
  EXPECT_EQ(err("broadcast-all", false, {{"m", "2"}}, 8),
            "--k 8 and --m 2: K must be m * 2^n = 16");
}

TEST(ArithCollectives, SpecsReadBackFromText) {
  EXPECT_EQ(PermutationSpec::parse("reduce-all n=3 m=2").str(), "reduce-all n=3 m=2");
  EXPECT_EQ(PermutationSpec::parse("broadcast-all n=2 m=5").slots(), 20U);
  EXPECT_EQ(parsePermText("broadcast-all n=2 m=1").str(), "broadcast-all n=2 m=1");
  EXPECT_NE(testing::errorOf([] { parsePermText("reduce-all n=2 k=1"); }), "(no error)");
}

}  // namespace
}  // namespace hcube

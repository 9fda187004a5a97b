// The block multiply-accumulate MAC (docs/hardware/arithmetic.md §2) on hand-made tables. Every
// run that fits the CI's RTL models goes through the table executor, the SystemC-TLM cube and the
// Verilated RTL cube (the rtl_models fixture's n = 2 model, K = 16, MacUnits = 1), which must
// agree exactly; the expected memories are computed here by hand, in the order the hardware
// works (element by element, row-major, chunks of U products). Formats and verifier too.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "inspect/report.h"
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

constexpr u64 kSlots = 16;  // the CI's n = 2 RTL model: K = 4 * 2^n

TableSet handMade(std::vector<Table> tables, u32 mac_units = 1, int n = 2) {
  TableSet set;
  set.header.algo = "hand-made";
  set.header.perm = PermutationSpec::aapc(n, kSlots >> n);
  set.header.n = n;
  set.header.slots = kSlots;
  set.header.mac_units = mac_units;
  set.shared = tables.size() == 1;
  set.tables = std::move(tables);
  return set;
}

u32 tag(u64 node, u64 slot) { return static_cast<u32>(node * kSlots + slot); }

MacField mac(u32 a, u32 b, u32 c, u32 m, u32 k, u32 p) { return {a, b, c, m, k, p}; }

/// The memory after MAC f on node x's tagged memory, computed here sequentially: element by
/// element, products in order of l, W = 32 wrap-around, reads outside give 0, writes are dropped.
std::vector<u32> afterMac(u64 x, const MacField& f) {
  std::vector<u32> mem(kSlots);
  for (u64 l = 0; l < kSlots; ++l) mem[l] = tag(x, l);
  auto read = [&](u64 s) { return s < kSlots ? mem[s] : 0U; };
  for (u64 i = 0; i < f.m; ++i) {
    for (u64 j = 0; j < f.p; ++j) {
      u32 sum = 0;
      for (u64 l = 0; l < f.k; ++l) sum += read(f.a + i * f.k + l) * read(f.b + l * f.p + j);
      const u64 c = f.c + i * f.p + j;
      if (c < kSlots) mem[c] = read(c) + sum;
    }
  }
  return mem;
}

RunResult onTableAndTlm(const TableSet& set) {
  const RunResult table = testing::onTable(set);
  testing::expectSameRun("tlm", runOnTlm(set, TlmOptions{}), table);
  return table;
}

RunResult onAllThree(const TableSet& set) {
  const RunResult table = onTableAndTlm(set);
  RtlOptions opt;
  opt.progress = &std::cerr;
  testing::expectSameRun("rtl", runOnRtl(set, opt), table);
  return table;
}

void expectMemory(const RunResult& r, u64 x, const std::vector<u32>& want) {
  for (u64 l = 0; l < kSlots; ++l)
    EXPECT_EQ(r.memory.at(x, l), want[l]) << "node " << x << " slot " << l;
}

// A 2 x 2 x 2 block product on every node: m p k = 8 cycles; then an exchange of slot 8 on port
// 0, which the sequencer starts in cycle 8, sends the new c(0,0).
TEST(Mac, BlockProductOnAllThreeExecutors) {
  const MacField f = mac(0, 4, 8, 2, 2, 2);
  Instruction x = Instruction::xfer(2);
  x.channels[0] = {{OutOp::kMem, false, 8}, {InOp::kMem, false, 12}};
  const RunResult r = onAllThree(handMade({{Instruction::macBlock(f), x, Instruction::end()}}));
  EXPECT_EQ(r.cycles, 9U);
  EXPECT_EQ(r.transfer_cycles, 1U);
  EXPECT_EQ(r.mac_cycles, 8U);
  EXPECT_EQ(r.words, 4U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  for (u64 y = 0; y < 4; ++y) {
    std::vector<u32> want = afterMac(y, f);
    want[12] = afterMac(y ^ 1, f)[8];
    expectMemory(r, y, want);
    // By hand for node 0 (tags = slots): c(0,0) = 8 + 0*4 + 1*6 = 14, c(1,1) = 11 + 2*5 + 3*7.
    if (y == 0) {
      EXPECT_EQ(r.memory.at(0, 8), 14U);
      EXPECT_EQ(r.memory.at(0, 11), 42U);
    }
  }
}

// Not square, per-node tables of different lengths: node 1 computes a 1 x 3 by 3 x 2 product
// (6 cycles) while the others end at once.
TEST(Mac, RectangularBlocksAndPerNodeTables) {
  const MacField f = mac(0, 3, 9, 1, 3, 2);
  std::vector<Table> tables(4, Table{Instruction::end()});
  tables[1] = {Instruction::macBlock(f), Instruction::end()};
  const RunResult r = onAllThree(handMade(tables));
  EXPECT_EQ(r.cycles, 6U);
  EXPECT_EQ(r.mac_cycles, 6U);
  EXPECT_EQ(r.words, 0U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  expectMemory(r, 1, afterMac(1, f));
  // By hand: node 1's tags are 16 + slot; c(0,0) = 25 + 16*19 + 17*21 + 18*23.
  EXPECT_EQ(r.memory.at(1, 9), 25U + 16U * 19U + 17U * 21U + 18U * 23U);
  for (const u64 y : {0U, 2U, 3U}) {
    for (u64 l = 0; l < kSlots; ++l) EXPECT_EQ(r.memory.at(y, l), tag(y, l));
  }
}

// Errors, identical on the three executors, counted per cycle of the MAC:
// * reading past the memory: A at slot 15, 1 x 2 (slot 16 does not exist) reads 0 there, one
//   `slot` cycle; writing past it: C at 15, 1 x 2, drops c(0,1), one more `slot` cycle;
// * C overlapping A (C at 2 over A at 0..3): `conflict` in each of its 8 cycles, and the result
//   is the sequential one;
// * a word arriving while a node runs a MAC is `lost` (node 1 sends to node 0 in cycle 0).
TEST(Mac, SlotConflictAndLostErrors) {
  const MacField past_read = mac(15, 0, 8, 1, 2, 1);
  const MacField past_write = mac(0, 1, 15, 1, 1, 2);
  const MacField overlap = mac(0, 4, 2, 2, 2, 2);
  Instruction send = Instruction::xfer(2);
  send.channels[0].out = {OutOp::kMem, false, 0};
  std::vector<Table> tables(
      4, Table{Instruction::macBlock(past_read), Instruction::macBlock(past_write),
               Instruction::macBlock(overlap), Instruction::end()});
  tables[1] = {send, Instruction::end()};
  const RunResult r = onAllThree(handMade(tables));
  EXPECT_EQ(r.cycles, 2U + 2U + 8U);
  EXPECT_EQ(r.mac_cycles, 2U + 2U + 8U);  // node 1 only sends; the others are busy throughout
  for (const u64 y : {0U, 2U, 3U}) {
    std::vector<u32> want = afterMac(y, past_read);
    // Apply the next two to `want` in order (afterMac starts from tags, so chain by hand).
    auto apply = [&](const MacField& f) {
      auto read = [&](u64 s) { return s < kSlots ? want[s] : 0U; };
      for (u64 i = 0; i < f.m; ++i) {
        for (u64 j = 0; j < f.p; ++j) {
          u32 sum = 0;
          for (u64 l = 0; l < f.k; ++l) sum += read(f.a + i * f.k + l) * read(f.b + l * f.p + j);
          const u64 c = f.c + i * f.p + j;
          if (c < kSlots) want[c] = read(c) + sum;
        }
      }
    };
    apply(past_write);
    apply(overlap);
    expectMemory(r, y, want);
  }
  EXPECT_EQ(r.memory.at(0, 8), tag(0, 8) + tag(0, 15) * tag(0, 0));
  const std::vector<NodeErrorCount> want_errors = {
      {0, HwError::kLost, 1},    {0, HwError::kSlot, 2},     {0, HwError::kConflict, 8},
      {2, HwError::kSlot, 2},    {2, HwError::kConflict, 8}, {3, HwError::kSlot, 2},
      {3, HwError::kConflict, 8}};
  EXPECT_EQ(r.errors, want_errors) << errorList(r.errors);
}

// U = 2 units: ceil(k / 2) cycles per element (k = 3: 2 cycles, the second with one product),
// same result. The CI's RTL models have one unit, so the runner refuses the image by name.
TEST(Mac, TwoUnitsOnTheTableExecutorAndTheTlm) {
  const MacField f = mac(0, 6, 12, 2, 3, 2);
  const TableSet set = handMade({{Instruction::macBlock(f), Instruction::end()}}, 2);
  EXPECT_EQ(set.cycles(), 8U);
  const RunResult r = onTableAndTlm(set);
  EXPECT_EQ(r.cycles, 8U);
  EXPECT_EQ(r.mac_cycles, 8U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  for (u64 y = 0; y < 4; ++y) expectMemory(r, y, afterMac(y, f));
  const std::string err = testing::errorOf([&] { runOnRtl(set, RtlOptions{}); });
  EXPECT_NE(err.find("mac-units 2"), std::string::npos) << err;
}

// The MAC cycle counter (RunResult::mac_cycles) counts the cycles in which the units of at least
// one node are busy, the union over the nodes: node 2 multiplies in cycles 0..1 (2 x 1 x 1),
// node 1 waits 3 cycles and multiplies in cycles 3..8 (1 x 3 x 2), node 3 exchanges nothing and
// copies in cycle 0 (a PERMUTE is a local cycle, not a MAC one). 2 + 6 = 8 MAC cycles of 9.
TEST(Mac, CycleCounterIsTheUnionOverTheNodes) {
  std::vector<Table> tables(4, Table{Instruction::end()});
  tables[1] = {Instruction::waitFor(3), Instruction::macBlock(mac(0, 3, 9, 1, 3, 2)),
               Instruction::end()};
  tables[2] = {Instruction::macBlock(mac(0, 4, 8, 2, 1, 1)), Instruction::end()};
  Instruction copy = Instruction::permute(2);
  copy.channels[0] = {{OutOp::kMem, false, 0}, {InOp::kMem, false, 1}};
  tables[3] = {copy, Instruction::end()};
  const RunResult r = onAllThree(handMade(tables));
  EXPECT_EQ(r.cycles, 9U);
  EXPECT_EQ(r.mac_cycles, 8U);
  EXPECT_EQ(r.local_cycles, 1U);
  EXPECT_EQ(r.transfer_cycles, 0U);
  EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
  EXPECT_EQ(r.memory.at(3, 1), tag(3, 0));
  EXPECT_EQ(r.memory.at(2, 8), tag(2, 8) + tag(2, 0) * tag(2, 4));
  EXPECT_EQ(r.memory.at(2, 9), tag(2, 9) + tag(2, 1) * tag(2, 4));
}

// The measured arithmetic time of the matrix multiplications (TR-623 §3) on the table executor
// and the TLM: every node multiplies in the same cycles, so the MAC cycles are each node's
// arithmetic time, PQR/N multiply-adds on U units (Table 5's 2PQ ceil(R/N) operations, and
// Table 7's equal count on the grids), which the report computes beside them. Except where U
// does not divide the MACs' inner length: `exchange` at 8x8x8 multiplies m x 1 by 1 x 1 blocks
// (k = 1), so 3 of its 4 units idle and it measures 64 cycles where Table 5 / U is 16.
TEST(Mac, MatmulMacCyclesEqualTable5OnTheTableExecutorAndTheTlm) {
  struct Case {
    const char* method;
    const char* shape;
    const char* units;
    u64 mac_cycles;
  };
  for (const Case& c : {Case{"rotation", "8x8x8", "1", 64}, Case{"cannon", "8x16x8", "1", 128},
                        Case{"broadcast", "16x8x8", "2", 64}, Case{"a114", "8x8x16", "1", 128},
                        Case{"exchange", "8x8x8", "4", 64}}) {
    SCOPED_TRACE(std::string(c.method) + " " + c.shape + " U = " + c.units);
    const BuiltCase b = buildCase(testing::caseSpec(
        "matmul", 3, 0, 1, false, {{"method", c.method}, {"shape", c.shape}, {"units", c.units}}));
    const RunResult r = onTableAndTlm(b.tables);
    EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
    EXPECT_EQ(checkAgainstReference(b.perm, r.memory).mismatches, 0U);
    EXPECT_EQ(r.mac_cycles, c.mac_cycles);
    RunReport report;
    report.perm = b.perm;
    report.mac_units = b.tables.header.mac_units;
    report.run = r;
    EXPECT_TRUE(hasArithmetic(report));
    const u64 table5 = std::string(c.method) == "exchange" ? 16 : c.mac_cycles;
    EXPECT_EQ(table5MacCycles(report), table5);
    EXPECT_EQ(reportJson(report)["mac_cycles"], c.mac_cycles);
    EXPECT_EQ(reportJson(report)["table5_mac_cycles"], table5);
  }
}

TEST(Mac, ShapeCheckRefusesFieldsTheImageCannotHold) {
  EXPECT_EQ(testing::errorOf([&] {
              checkTableShape(handMade({{Instruction::macBlock(mac(16, 0, 0, 1, 1, 1))}}));
            }),
            "shared table, instruction 0: MAC base slot 16 is out of range (memory has 16 slots)");
  EXPECT_EQ(testing::errorOf([&] {
              checkTableShape(handMade({{Instruction::macBlock(mac(0, 0, 0, 1, 17, 1))}}));
            }),
            "shared table, instruction 0: MAC block size 17 is not in 1..16");
}

TEST(Mac, TextAndImageRoundTrip) {
  const std::string text =
      "hcube-table 1\nalgo hand\nperm aapc n=1 m=8\ndim 1\nslots 16\nscratch 0\nlanes 1\n"
      "ports all\nmac-units 3\ntable *\nM 0 4 8 2 2 2\nE\nend\n";
  std::istringstream in(text);
  const TableSet set = readTableText(in, "t.hct");
  EXPECT_EQ(set.header.mac_units, 3U);
  ASSERT_EQ(set.tables[0].size(), 2U);
  EXPECT_EQ(set.tables[0][0], Instruction::macBlock(mac(0, 4, 8, 2, 2, 2)));
  std::ostringstream out;
  writeTableText(out, set);
  EXPECT_EQ(out.str().find("mac-units 3\n") != std::string::npos, true);
  EXPECT_NE(out.str().find("\nM 0 4 8 2 2 2\n"), std::string::npos);
  std::istringstream back(out.str());
  EXPECT_EQ(readTableText(back, "back.hct"), set);

  std::ostringstream image;
  writeImage(image, set);
  EXPECT_NE(image.str().find("\nmac-units 3\n"), std::string::npos);
  std::istringstream image_in(image.str());
  EXPECT_EQ(readImage(image_in, "t.hex"), set);

  std::string bad = text;
  bad.replace(bad.find("M 0 4 8 2 2 2"), 13, "M 0 4 8 2 2");
  std::istringstream bad_in(bad);
  EXPECT_NE(testing::errorOf([&] {
              readTableText(bad_in, "bad.hct");
            }).find("bad.hct:11: 'M' takes six operands"),
            std::string::npos);
}

// The word: opcode 0, sub-opcode 1 in bits [4:2], then a, b, c, m-1, k-1, p-1 in SlotBits each;
// the table width grows to 5 + 6 SlotBits where the channel fields are narrower (n = 1, M = 64).
TEST(Mac, ImageEncoding) {
  const ImageLayout l{1, 1, 64};
  EXPECT_EQ(l.slotBits(), 6);
  EXPECT_EQ(l.tableWidth(), 41);
  EXPECT_EQ((ImageLayout{3, 1, 8}.tableWidth()), 38);  // unchanged where channels are wider
  const MacField f = mac(1, 2, 3, 4, 5, 64);
  const TableWord w = encodeInstruction(Instruction::macBlock(f), l);
  EXPECT_EQ(w[0] & 3U, 0U);
  EXPECT_EQ((w[0] >> 2) & 7U, 1U);
  EXPECT_EQ((w[0] >> 5) & 63U, 1U);
  EXPECT_EQ((w[0] >> 17) & 63U, 3U);
  EXPECT_EQ((w[0] >> 35) & 63U, 63U);  // p - 1
  EXPECT_EQ(decodeInstruction(w, l), Instruction::macBlock(f));
  // Other sub-opcodes are reserved and execute as END.
  TableWord reserved(1, 2U << 2);
  EXPECT_EQ(decodeInstruction(reserved, l), Instruction::end());
}

// The verifier tracks a MAC's result as a sum of products of element identities, reports a
// block past the memory, C overlapping A or B, and multiplying a slot with no element.
TEST(Mac, VerifierTracksProducts) {
  const VerifyReport rep = verifyTables(
      handMade({{Instruction::macBlock(mac(0, 1, 2, 1, 1, 1)), Instruction::end()}}, 1, 1));
  // Node 0: slot 2 (element 2) + element 0 * element 1.
  bool named = false;
  for (const std::string& e : rep.errors) {
    named =
        named || e.find("node 0, slot 2: holds the sum of 2 terms (2 + 0*1)") != std::string::npos;
  }
  EXPECT_TRUE(named) << (rep.errors.empty() ? "" : rep.errors[0]);
  const VerifyReport past = verifyTables(
      handMade({{Instruction::macBlock(mac(15, 0, 0, 1, 2, 1)), Instruction::end()}}, 1, 1));
  ASSERT_FALSE(past.errors.empty());
  EXPECT_EQ(past.errors[0],
            "cycle 0, node 0, MAC 15 0 0 1x2x1: a block runs past the memory of 16 slots");
  const VerifyReport overlap = verifyTables(
      handMade({{Instruction::macBlock(mac(0, 4, 2, 2, 2, 2)), Instruction::end()}}, 1, 1));
  ASSERT_FALSE(overlap.errors.empty());
  EXPECT_EQ(overlap.errors[0],
            "cycle 0, node 0, MAC 0 4 2 2x2x2: the C block overlaps the A or the B block "
            "(conflict)");
}

}  // namespace
}  // namespace hcube

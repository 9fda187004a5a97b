// MAC overlap mode (docs/hardware/arithmetic.md §3). A MAC occupies the sequencer for
// one cycle and its units run on beside the next instructions; a transfer or PERMUTE that reads
// the running MAC's C block or writes its A, B or C block, and a MAC issued while the units are
// busy, are `overlap` errors. Hand-made tables on the table executor, the SystemC-TLM cube and the
// Verilated RTL cube (the rtl_models fixture's n = 2 model, K = 16, MacUnits = 1), which must
// agree exactly; the expected memories are computed here cycle by cycle. Then the formats, the
// verifier, and Cannon's algorithm with its overlapped schedule (sw/algorithms/matmul/matmul.h).
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "algorithms/matmul/matmul.h"
#include "base/error.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "spec/matmul_layout.h"
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

TableSet handMade(std::vector<Table> tables, bool overlap) {
  TableSet set;
  set.header.algo = "hand-made";
  set.header.perm = PermutationSpec::aapc(2, kSlots >> 2);
  set.header.n = 2;
  set.header.slots = kSlots;
  set.header.mac_overlap = overlap;
  set.shared = tables.size() == 1;
  set.tables = std::move(tables);
  return set;
}

u32 tag(u64 node, u64 slot) { return static_cast<u32>(node * kSlots + slot); }

std::vector<u32> tags(u64 node) {
  std::vector<u32> mem(kSlots);
  for (u64 l = 0; l < kSlots; ++l) mem[l] = tag(node, l);
  return mem;
}

/// Cycles [from, to) of MAC f on one unit, in order: cycle t adds a(i,l) b(l,j) into c(i,j),
/// element e = t / k (i = e / p, j = e mod p), l = t mod k. Each cycle writes one element that
/// the next reads, so running the cycles in sequence is the hardware's per-cycle result.
void runMac(std::vector<u32>& mem, const MacField& f, u64 from, u64 to) {
  for (u64 t = from; t < to; ++t) {
    const u64 e = t / f.k;
    const u64 l = t % f.k;
    const u64 i = e / f.p;
    const u64 j = e % f.p;
    mem[f.c + i * f.p + j] += mem[f.a + i * f.k + l] * mem[f.b + l * f.p + j];
  }
}

std::vector<u32> afterMac(u64 node, const MacField& f) {
  std::vector<u32> mem = tags(node);
  runMac(mem, f, 0, macCycles(f, 1));
  return mem;
}

RunResult onAllThree(const TableSet& set) {
  const RunResult table = testing::onTable(set);
  testing::expectSameRun("tlm", runOnTlm(set, TlmOptions{}), table);
  RtlOptions opt;
  opt.progress = &std::cerr;
  testing::expectSameRun("rtl", runOnRtl(set, opt), table);
  return table;
}

void expectMemory(const RunResult& r, u64 x, const std::vector<u32>& want) {
  for (u64 l = 0; l < kSlots; ++l)
    EXPECT_EQ(r.memory.at(x, l), want[l]) << "node " << x << " slot " << l;
}

// f: A 2 x 2 at 0..3, B 2 x 2 at 4..7, C 2 x 2 at 8..11; 8 cycles on one unit.
const MacField kF{0, 4, 8, 2, 2, 2};

/// An XFER that reads the MAC's A and B blocks (allowed beside it) and receives outside them:
/// port 0 sends slot 0 into the neighbour's slot 14, port 1 slot 5 into slot 15.
Instruction readsAAndB() {
  Instruction x = Instruction::xfer(2);
  x.channels[0] = {{OutOp::kMem, false, 0}, {InOp::kMem, false, 14}};
  x.channels[1] = {{OutOp::kMem, false, 5}, {InOp::kMem, false, 15}};
  return x;
}

// The MAC issues in cycle 0 and runs in cycles 0..7; in overlap mode the XFER executes in
// cycle 1 beside it and END waits for the units (done after cycle 7): 8 cycles. Without overlap
// the same table takes 9 (the XFER after the MAC). Same memories, no error.
TEST(MacOverlap, TransfersRunBesideTheMacAndEndWaitsForIt) {
  const Table table = {Instruction::macBlock(kF), readsAAndB(), Instruction::end()};
  for (const bool overlap : {true, false}) {
    SCOPED_TRACE(overlap ? "overlap" : "no overlap");
    const TableSet set = handMade({table}, overlap);
    EXPECT_EQ(set.cycles(), overlap ? 8U : 9U);
    const RunResult r = onAllThree(set);
    EXPECT_EQ(r.cycles, overlap ? 8U : 9U);
    EXPECT_EQ(r.mac_cycles, 8U);
    EXPECT_EQ(r.transfer_cycles, 1U);
    EXPECT_EQ(r.words, 8U);
    EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
    for (u64 y = 0; y < 4; ++y) {
      std::vector<u32> want = afterMac(y, kF);
      want[14] = tag(y ^ 1, 0);
      want[15] = tag(y ^ 2, 5);
      expectMemory(r, y, want);
    }
    for (const std::string& e : verifyTables(set, 1000).errors) {
      EXPECT_EQ(e.find("(overlap"), std::string::npos) << e;
    }
  }
}

// A MAC issued in the cycle after the running one's last is started (8 + 4 cycles); one cycle
// earlier it is refused: an `overlap` error at every node, nothing of it computed, and the run
// ends when the first MAC does.
TEST(MacOverlap, ASecondMacNeedsTheUnitsIdle) {
  const MacField g{0, 4, 12, 1, 2, 2};  // C at 12..13, 4 cycles
  {
    const TableSet set = handMade({{Instruction::macBlock(kF), Instruction::waitFor(7),
                                    Instruction::macBlock(g), Instruction::end()}},
                                  true);
    EXPECT_EQ(set.cycles(), 12U);
    const RunResult r = onAllThree(set);
    EXPECT_EQ(r.cycles, 12U);
    EXPECT_EQ(r.mac_cycles, 12U);
    EXPECT_TRUE(r.errors.empty()) << errorList(r.errors);
    for (u64 y = 0; y < 4; ++y) {
      std::vector<u32> want = afterMac(y, kF);
      runMac(want, g, 0, 4);
      expectMemory(r, y, want);
    }
  }
  const TableSet set = handMade({{Instruction::macBlock(kF), Instruction::waitFor(6),
                                  Instruction::macBlock(g), Instruction::end()}},
                                true);
  EXPECT_EQ(set.cycles(), 8U);
  const RunResult r = onAllThree(set);
  EXPECT_EQ(r.cycles, 8U);
  EXPECT_EQ(r.mac_cycles, 8U);
  const std::vector<NodeErrorCount> want_errors = {{0, HwError::kOverlap, 1},
                                                   {1, HwError::kOverlap, 1},
                                                   {2, HwError::kOverlap, 1},
                                                   {3, HwError::kOverlap, 1}};
  EXPECT_EQ(r.errors, want_errors) << errorList(r.errors);
  for (u64 y = 0; y < 4; ++y) expectMemory(r, y, afterMac(y, kF));
}

// The units finish inside a WAIT (the executor and the TLM step every cycle while they are busy
// and skip the rest of the wait), and a table without END overruns when its last word, the
// WAIT, ends: 1 + 20 cycles, the MAC in cycles 0..7. The table that ends with the MAC overruns
// in the MAC's issue cycle and drains like END: 8 cycles.
TEST(MacOverlap, WaitsAndOverrunsBesideTheUnits) {
  const TableSet waits = handMade({{Instruction::macBlock(kF), Instruction::waitFor(20)}}, true);
  EXPECT_EQ(waits.cycles(), 21U);
  const RunResult r = onAllThree(waits);
  EXPECT_EQ(r.cycles, 21U);
  EXPECT_EQ(r.mac_cycles, 8U);
  const std::vector<NodeErrorCount> overruns = {{0, HwError::kOverrun, 1},
                                                {1, HwError::kOverrun, 1},
                                                {2, HwError::kOverrun, 1},
                                                {3, HwError::kOverrun, 1}};
  EXPECT_EQ(r.errors, overruns) << errorList(r.errors);
  for (u64 y = 0; y < 4; ++y) expectMemory(r, y, afterMac(y, kF));
  const TableSet last = handMade({{Instruction::macBlock(kF)}}, true);
  EXPECT_EQ(last.cycles(), 8U);
  const RunResult e = onAllThree(last);
  EXPECT_EQ(e.cycles, 8U);
  EXPECT_EQ(e.mac_cycles, 8U);
  EXPECT_EQ(e.errors, overruns) << errorList(e.errors);
  for (u64 y = 0; y < 4; ++y) expectMemory(e, y, afterMac(y, kF));
}

/// The four conflicts of docs/hardware/arithmetic.md §3, one per node, all in cycle 1 beside MAC f
/// (issued in cycle 0): node 0 sends a slot of C (8) to node 1, which receives it into a slot of B
/// (4); node 2 issues a second MAC; node 3 copies slot 14 into slot 8 with a PERMUTE, in the cycle
/// in which the MAC writes c(0,0) there too (the MAC's write port wins).
std::vector<Table> conflictTables() {
  std::vector<Table> tables(4);
  Instruction send = Instruction::xfer(2);
  send.channels[0].out = {OutOp::kMem, false, 8};
  Instruction receive = Instruction::xfer(2);
  receive.channels[0].in = {InOp::kMem, false, 4};
  Instruction copy = Instruction::permute(2);
  copy.channels[0] = {{OutOp::kMem, false, 14}, {InOp::kMem, false, 8}};
  tables[0] = {Instruction::macBlock(kF), send, Instruction::end()};
  tables[1] = {Instruction::macBlock(kF), receive, Instruction::end()};
  tables[2] = {Instruction::macBlock(kF), Instruction::macBlock({0, 4, 12, 1, 2, 2}),
               Instruction::end()};
  tables[3] = {Instruction::macBlock(kF), copy, Instruction::end()};
  return tables;
}

TEST(MacOverlap, EachConflictIsAnOverlapErrorOnAllThreeExecutors) {
  const TableSet set = handMade(conflictTables(), true);
  EXPECT_EQ(set.cycles(), 8U);
  const RunResult r = onAllThree(set);
  EXPECT_EQ(r.cycles, 8U);
  EXPECT_EQ(r.mac_cycles, 8U);
  EXPECT_EQ(r.transfer_cycles, 1U);
  EXPECT_EQ(r.local_cycles, 1U);
  EXPECT_EQ(r.words, 1U);
  const std::vector<NodeErrorCount> want_errors = {{0, HwError::kOverlap, 1},
                                                   {1, HwError::kOverlap, 1},
                                                   {2, HwError::kOverlap, 1},
                                                   {3, HwError::kOverlap, 1}};
  EXPECT_EQ(r.errors, want_errors) << errorList(r.errors);
  // Node 0 sent c(0,0) as it was at the start of cycle 1: after one product.
  const u32 sent = tag(0, 8) + tag(0, 0) * tag(0, 4);
  std::vector<u32> node1 = tags(1);
  runMac(node1, kF, 0, 2);
  node1[4] = sent;  // written at the end of cycle 1: b(0,0) changes under the running MAC
  runMac(node1, kF, 2, 8);
  expectMemory(r, 0, afterMac(0, kF));
  expectMemory(r, 1, node1);
  EXPECT_NE(node1, afterMac(1, kF));
  expectMemory(r, 2, afterMac(2, kF));  // the refused MAC computed nothing
  expectMemory(r, 3, afterMac(3, kF));  // the MAC's write of c(0,0) kept, the copy's lost
  EXPECT_NE(r.memory.at(3, 8), tag(3, 14));
  // Without overlap the same tables are correct programs: no error, 8 + 1 cycles (node 2: 12).
  const RunResult blocking = onAllThree(handMade(conflictTables(), false));
  EXPECT_EQ(blocking.cycles, 12U);
  EXPECT_TRUE(blocking.errors.empty()) << errorList(blocking.errors);
}

TEST(MacOverlap, TheVerifierNamesEveryConflict) {
  const VerifyReport rep = verifyTables(handMade(conflictTables(), true), 100);
  std::vector<std::string> overlaps;
  for (const std::string& e : rep.errors) {
    if (e.find("(overlap") != std::string::npos) overlaps.push_back(e);
  }
  const std::string running = "while the MAC 0 4 8 2x2x2 issued in cycle 0 still runs";
  const std::vector<std::string> want = {
      "cycle 1, node 0, port 0, lane 0, slot 8: sends a slot of the C block " + running +
          " (overlap)",
      "cycle 1, node 1, port 0, lane 0, slot 4: receives into a slot of the A, B or C block " +
          running + " (overlap)",
      "cycle 1, node 2: a MAC is issued " + running + " (overlap: it is not started)",
      "cycle 1, node 3, port 0, lane 0, slot 8: PERMUTE copies into a slot of the A, B or C "
      "block " +
          running + " (overlap)"};
  EXPECT_EQ(overlaps, want);
  // Without overlap mode none of them is a conflict.
  for (const std::string& e : verifyTables(handMade(conflictTables(), false), 100).errors) {
    EXPECT_EQ(e.find("(overlap"), std::string::npos) << e;
  }
}

// Slots are checked after the relative XOR: with MAC h (A at 0..1, B at 4..7, C at 10..11),
// node x sends its slot 12 ^ x and receives into slot 8 ^ x, which is C at nodes 2 and 3 only.
// At node 2 the received word and the MAC's c(0,0) land in slot 10 in the same cycle (the MAC's
// is kept); at node 3 it overwrites c(0,1) before the MAC's two cycles on it.
TEST(MacOverlap, RelativeSlotsAreCheckedAfterTheXor) {
  const MacField h{0, 4, 10, 1, 2, 2};
  Instruction x = Instruction::xfer(2);
  x.channels[0] = {{OutOp::kMem, true, 12}, {InOp::kMem, true, 8}};
  const RunResult r =
      onAllThree(handMade({{Instruction::macBlock(h), x, Instruction::end()}}, true));
  EXPECT_EQ(r.cycles, 4U);
  EXPECT_EQ(r.mac_cycles, 4U);
  const std::vector<NodeErrorCount> want_errors = {{2, HwError::kOverlap, 1},
                                                   {3, HwError::kOverlap, 1}};
  EXPECT_EQ(r.errors, want_errors) << errorList(r.errors);
  std::vector<u32> node0 = afterMac(0, h);
  node0[8] = tag(1, 13);
  std::vector<u32> node1 = afterMac(1, h);
  node1[9] = tag(0, 12);
  std::vector<u32> node3 = tags(3);
  runMac(node3, h, 0, 2);
  node3[11] = tag(2, 14);
  runMac(node3, h, 2, 4);
  expectMemory(r, 0, node0);
  expectMemory(r, 1, node1);
  expectMemory(r, 2, afterMac(2, h));
  expectMemory(r, 3, node3);
}

TEST(MacOverlap, TextAndImageCarryTheMode) {
  const std::string text =
      "hcube-table 1\nalgo hand\nperm aapc n=1 m=8\ndim 1\nslots 16\nscratch 0\nlanes 1\n"
      "ports all\nmac-overlap 1\ntable *\nM 0 4 8 2 2 2\nE\nend\n";
  std::istringstream in(text);
  const TableSet set = readTableText(in, "t.hct");
  EXPECT_TRUE(set.header.mac_overlap);
  std::ostringstream out;
  writeTableText(out, set);
  EXPECT_NE(out.str().find("\nmac-overlap 1\n"), std::string::npos);
  std::istringstream back(out.str());
  EXPECT_EQ(readTableText(back, "back.hct"), set);
  std::ostringstream image;
  writeImage(image, set);
  EXPECT_NE(image.str().find("\nmac-overlap 1\n"), std::string::npos);
  std::istringstream image_in(image.str());
  EXPECT_EQ(readImage(image_in, "t.hex"), set);
  // Without the mode the line is left out, so earlier files read and write as before.
  TableSet off = set;
  off.header.mac_overlap = false;
  std::ostringstream off_text;
  writeTableText(off_text, off);
  EXPECT_EQ(off_text.str().find("mac-overlap"), std::string::npos);
  std::string bad = text;
  bad.replace(bad.find("mac-overlap 1"), 13, "mac-overlap 2");
  std::istringstream bad_in(bad);
  const std::string err = testing::errorOf([&] { readTableText(bad_in, "bad.hct"); });
  EXPECT_NE(err.find("bad.hct:9:"), std::string::npos) << err;
  EXPECT_NE(err.find("mac-overlap"), std::string::npos) << err;
}

// ---------------------------------------------------------------------------------------------
// Cannon's algorithm A(.,2,1) with the overlapped schedule (square grids)
// ---------------------------------------------------------------------------------------------

BuiltCase cannon(int n, const std::string& shape, bool overlap, bool one_port = false,
                 u32 tau = 0) {
  std::map<std::string, std::string> params = {
      {"method", "cannon"}, {"shape", shape}, {"tau", std::to_string(tau)}};
  if (overlap) params["mac-overlap"] = "1";
  return buildCase(testing::caseSpec("matmul", n, 0, 1, one_port, params));
}

/// The overlapped schedule against the plain one: the same alignment, then S MACs of L cycles
/// with a rotation of R cycles (C and D, all-port together, one-port one after the other, each
/// after tau) beside each of the first S - 1: alignment + (S - 1) max(L, 1 + R) + L cycles,
/// where the plain schedule takes alignment + S L + (S - 1) R.
void expectOverlappedCannon(int n, u64 p, u64 q, u64 r, bool one_port, u32 tau, bool rtl) {
  const std::string shape = std::to_string(p) + "x" + std::to_string(q) + "x" + std::to_string(r);
  SCOPED_TRACE("n = " + std::to_string(n) + " " + shape + (one_port ? " one-port" : "") + " tau " +
               std::to_string(tau));
  const BuiltCase over = cannon(n, shape, true, one_port, tau);
  const BuiltCase plain = cannon(n, shape, false, one_port, tau);
  EXPECT_TRUE(over.tables.header.mac_overlap);
  const VerifyReport v = verifyTables(over.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  const RunResult a = testing::onTable(over.tables);
  const RunResult b = testing::onTable(plain.tables);
  testing::expectSameRun("tlm", runOnTlm(over.tables, TlmOptions{}), a);
  if (rtl) {
    RtlOptions opt;
    opt.progress = &std::cerr;
    testing::expectSameRun("rtl", runOnRtl(over.tables, opt), a);
  }
  EXPECT_TRUE(a.errors.empty()) << errorList(a.errors);
  EXPECT_EQ(checkAgainstReference(over.perm, a.memory).mismatches, 0U);
  EXPECT_EQ(checkAgainstReference(over.perm, a.memory).correct, p * r);
  const u64 side = u64{1} << (n / 2);
  const u64 cb = (p / side) * (q / side);
  const u64 db = (q / side) * (r / side);
  const u64 mac = p * q * r / (u64{1} << n) / side;  // L: P/S x Q/S x R/S, one unit
  const u64 rotation = one_port ? cb + db + 2 * tau : std::max(cb, db) + tau;
  const u64 alignment = (side - 1) * rotation;
  EXPECT_EQ(a.mac_cycles, side * mac);
  EXPECT_EQ(b.mac_cycles, side * mac);
  EXPECT_EQ(a.cycles, alignment + (side - 1) * std::max(mac, 1 + rotation) + mac);
  EXPECT_EQ(b.cycles, alignment + side * mac + (side - 1) * rotation);
  EXPECT_EQ(a.transfer_cycles, b.transfer_cycles);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(over.tables.cycles(), a.cycles);
}

TEST(MacOverlap, CannonOverlappedMatchesItsFormulaOnAllThreeExecutors) {
  expectOverlappedCannon(2, 4, 2, 4, false, 0, true);  // blocks 2x1, 1x2, 2x2: MAC 4, rotation 2
  expectOverlappedCannon(2, 4, 4, 4, true, 1, false);  // M = 20 exceeds the n = 2 model
  expectOverlappedCannon(4, 8, 8, 8, false, 0, true);
  expectOverlappedCannon(4, 16, 8, 8, true, 2, true);
  expectOverlappedCannon(4, 8, 4, 4, false, 3, false);  // rotation longer than the MAC
}

TEST(MacOverlap, CannonOverlappedRefusesWhatItCannotBuild) {
  auto err = [](int n, const std::string& method, const std::string& shape,
                const std::string& grid) {
    std::map<std::string, std::string> params = {
        {"method", method}, {"shape", shape}, {"mac-overlap", "1"}};
    if (!grid.empty()) params["grid"] = grid;
    return testing::errorOf(
        [&] { buildCase(testing::caseSpec("matmul", n, 0, 1, false, params)); });
  };
  EXPECT_EQ(err(2, "broadcast", "4x4x4", ""),
            "--mac-overlap: only --method cannon has an overlapped schedule (got 'broadcast')");
  EXPECT_EQ(err(3, "cannon", "8x8x8", ""),
            "--mac-overlap: the overlapped Cannon schedule needs a square grid (got 2x4; an even "
            "--n with --grid auto or N1 = N2)");
  EXPECT_EQ(err(4, "cannon", "8x8x8", "2x8"),
            "--mac-overlap: the overlapped Cannon schedule needs a square grid (got 2x8; an even "
            "--n with --grid auto or N1 = N2)");
}

// 64 x 64 x 64 on the 6-cube, one MAC unit, grid 8 x 8: arithmetic PQR/N =
// 4,096 cycles; the alignment (7 rotations of 64 cycles) is not hidden, the 7 rotations of the
// multiply phase are: 448 + 8 x 512 = 4,544 cycles, 1.11 x max(arithmetic, communication bound)
// = 4,096, against 4,992 without overlap. Table executor and TLM (the n = 6 RTL run is behind
// the `long` label: tests/CMakeLists.txt).
TEST(MacOverlap, Cannon64CubedOnTheSixCube) {
  const BuiltCase over = cannon(6, "64x64x64", true);
  const RunResult a = testing::onTable(over.tables);
  EXPECT_TRUE(a.errors.empty()) << errorList(a.errors);
  EXPECT_EQ(checkAgainstReference(over.perm, a.memory).mismatches, 0U);
  EXPECT_EQ(a.cycles, 4544U);
  EXPECT_EQ(a.mac_cycles, 4096U);
  EXPECT_EQ(a.transfer_cycles, 896U);
  EXPECT_EQ(testing::onTable(cannon(6, "64x64x64", false).tables).cycles, 4992U);
  testing::expectSameRun("tlm", runOnTlm(over.tables, TlmOptions{}), a);
}

// The same on the RTL (a model n = 6, M = 512 of its own; label long): the overlapped and the
// plain schedule, both exactly as on the table executor.
TEST(MacOverlap, LongCannon64CubedOnTheRtl) {
  for (const bool overlap : {true, false}) {
    SCOPED_TRACE(overlap ? "overlap" : "no overlap");
    const BuiltCase c = cannon(6, "64x64x64", overlap);
    const RunResult a = testing::onTable(c.tables);
    EXPECT_EQ(a.cycles, overlap ? 4544U : 4992U);
    RtlOptions opt;
    opt.progress = &std::cerr;
    testing::expectSameRun("rtl", runOnRtl(c.tables, opt), a);
  }
}

}  // namespace
}  // namespace hcube

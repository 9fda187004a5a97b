// Virtual elements (Johnsson & Ho 1987 Definition 2, §3.3, §5): matrices whose layouts would
// leave nodes empty are extended in the high-order index bits; the permutation spec marks the
// virtual elements by parity checks (perm ... virtual=), the transposes drop every move of a
// virtual element and pack the rest. Exact cycle counts, every real element where the reference
// model says, tables the static verifier accepts (it treats virtual elements as empty slots, so
// a table that sent or copied one would fail), and words on the links equal to the real
// elements' distances: a virtual element never crosses a link.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "algorithms/algorithms.h"
#include "algorithms/transpose/layout.h"
#include "inspect/report.h"
#include "schedule/virtual_elements.h"
#include "tables/table_text.h"
#include "test_util.h"

namespace hcube {
namespace {

using testing::errorOf;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

BuiltCase build(const std::string& algo, int n, std::map<std::string, std::string> params,
                bool one_port = false) {
  return buildCase(testing::caseSpec(algo, n, 0, 1, one_port, std::move(params)));
}

struct Expect {
  u64 cycles;
  u64 transfer;
  u64 local;
  u64 real;
};

/// Runs the case and checks the exact counts, every real element, the verifier and that the
/// words on the links are exactly the real elements' distances.
testing::CheckedRun expectVirtualCase(const BuiltCase& c, const Expect& e,
                                      const std::string& what) {
  EXPECT_TRUE(c.perm.hasVirtual()) << what;
  EXPECT_EQ(c.perm.participating(), e.real) << what;
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, e.real, what);
  EXPECT_EQ(r.run.cycles, e.cycles) << what;
  EXPECT_EQ(r.run.transfer_cycles, e.transfer) << what;
  EXPECT_EQ(r.run.local_cycles, e.local) << what;
  EXPECT_EQ(r.run.words, c.perm.participatingDistance()) << what;
  EXPECT_GE(r.run.transfer_cycles, c.lower_bound) << what;
  return r;
}

TEST(VirtualSpec, LinearChecksRoundTripAndMarkTheVirtualElements) {
  // 1 node bit, 2 slot bits, the identity; addresses with bit 2 (the node bit) set are virtual.
  const PermutationSpec p = PermutationSpec::parse("linear n=1 k=2 rows=1,2,4 virtual=4");
  EXPECT_EQ(p.str(), "linear n=1 k=2 rows=1,2,4 virtual=4");
  EXPECT_EQ(PermutationSpec::parse(p.str()).virtualChecks(), std::vector<u64>{4});
  EXPECT_TRUE(p.hasVirtual());
  EXPECT_EQ(p.participating(), 4U);
  EXPECT_TRUE(p.participates({0, 3}));
  EXPECT_FALSE(p.participates({1, 0}));
  // A parity check over two bits: slot bit 0 XOR node bit.
  const PermutationSpec q = PermutationSpec::parse("linear n=1 k=2 rows=1,2,4 virtual=5");
  EXPECT_TRUE(q.participates({1, 1}));
  EXPECT_FALSE(q.participates({1, 0}));
  EXPECT_FALSE(q.participates({0, 1}));
  // Old forms carry no checks, and everything takes part.
  const PermutationSpec old = PermutationSpec::parse("linear n=1 k=1 rows=2,1");
  EXPECT_FALSE(old.hasVirtual());
  EXPECT_EQ(old.participating(), 4U);
  EXPECT_EQ(old.str(), "linear n=1 k=1 rows=2,1");
}

TEST(VirtualSpec, BadChecksNameWhatIsWrong) {
  EXPECT_TRUE(contains(errorOf([] { PermutationSpec::parse("linear n=1 k=1 rows=1,2 virtual=0"); }),
                       "virtual check 0 = 0 is zero"));
  EXPECT_TRUE(contains(errorOf([] { PermutationSpec::parse("linear n=1 k=1 rows=1,2 virtual=4"); }),
                       "virtual check 0 = 4 names a bit above n + k = 2"));
  EXPECT_TRUE(
      contains(errorOf([] { PermutationSpec::parse("linear n=1 k=2 rows=1,2,4 virtual=3,5,6"); }),
               "virtual check 2 = 6 is the sum of earlier checks"));
  EXPECT_TRUE(
      contains(errorOf([] { PermutationSpec::parse("linear n=1 k=1 rows=1,2 virtual=1,x"); }),
               "virtual check 'x' is not a non-negative integer"));
  EXPECT_TRUE(contains(errorOf([] { PermutationSpec::parse("linear n=1 k=1 rows=1,2 virtual="); }),
                       "virtual= needs a comma-separated list"));
  EXPECT_TRUE(contains(errorOf([] { PermutationSpec::parse("aapc n=2 m=1 virtual=1"); }),
                       "only for linear permutations, not 'aapc'"));
}

TEST(VirtualSpec, TableFileRoundTripAndMalformedCheckNamesFileAndLine) {
  const BuiltCase c = build("transpose-1d", 2, {{"matrix", "2x16"}});
  EXPECT_EQ(c.perm.str(), "linear n=2 k=4 rows=16,32,1,2,4,8 virtual=32");
  std::ostringstream out;
  writeTableText(out, c.tables);
  std::istringstream in(out.str());
  const TableSet back = readTableText(in, "v.hct");
  EXPECT_EQ(back.header.perm.str(), c.perm.str());
  EXPECT_EQ(back.header.perm.virtualChecks(), std::vector<u64>{32});
  EXPECT_TRUE(verifyTables(back).ok());

  const std::string text =
      "hcube-table 1\n"
      "algo hand\n"
      "perm linear n=1 k=1 rows=2,1 virtual=2,x\n"
      "dim 1\nslots 2\nscratch 0\nlanes 1\nports all\n"
      "table *\nE\nend\n";
  std::istringstream bad(text);
  const std::string e = errorOf([&] { readTableText(bad, "bad.hct"); });
  EXPECT_TRUE(contains(e, "bad.hct:3: permutation spec: virtual check 'x'")) << e;
}

TEST(VirtualLayout, ShortIndexIsExtendedInItsHighOrderBits) {
  CaseSpec spec = testing::caseSpec("transpose-1d", 6, 0, 1, false,
                                    {{"matrix", "8x1024"}, {"partition", "row-consecutive"}});
  CaseParams params(spec);
  LayoutDefaults d;
  d.allow_virtual = true;
  const TransposeLayouts t = layoutsFromParams(params, spec, d);
  EXPECT_EQ(t.before.str(), "8x1024(64x1024)/row-consecutive/binary");
  EXPECT_EQ(t.after.str(), "1024x8(1024x64)/row-consecutive/binary");
  EXPECT_EQ(t.before.k(), 10);
  EXPECT_EQ(t.before.virtualChecks().size(), 3U);
  // Row i of the 8 real rows lies on node i; rows 8..63 are virtual.
  for (u64 u = 0; u < 8; ++u) EXPECT_EQ(t.before.place(u, 5).node, u);
  EXPECT_TRUE(t.before.isReal(7, 1023));
  EXPECT_FALSE(t.before.isReal(8, 0));
  // The one-token form parses back.
  const MatrixLayout again = MatrixLayout::parse(t.before.str(), 6);
  EXPECT_EQ(again.str(), t.before.str());
  EXPECT_EQ(again.placeRows(), t.before.placeRows());
  // --virtual square: Definition 2's square 1024 x 1024.
  spec.params["virtual"] = "square";
  CaseParams sq(spec);
  const TransposeLayouts s = layoutsFromParams(sq, spec, d);
  EXPECT_EQ(s.before.str(), "8x1024(1024x1024)/row-consecutive/binary");
  // A matrix that fills the nodes is not extended.
  CaseSpec full = testing::caseSpec("transpose-1d", 6, 0, 1, false, {{"matrix", "64x1024"}});
  CaseParams fp(full);
  EXPECT_FALSE(layoutsFromParams(fp, full, d).before.hasVirtual());
}

TEST(VirtualTranspose, SomeToAllRowConsecutiveAapcAndExchange) {
  // 8 x 1024 on 64 nodes, row-consecutive: the 8 real rows start on nodes 0..7 (some-to-all,
  // §3.3) and end on all 64 nodes. The same AAPC schedule on 64 x 1024 real elements takes 716
  // cycles (512 transfer); without the virtual moves 588 (384). Node 0 sends 1008 real
  // elements: at least 168 transfer cycles on 6 ports.
  const BuiltCase a = build("transpose-1d", 6, {{"matrix", "8x1024"}});
  expectVirtualCase(a, {588, 384, 204, 8192}, "8x1024 aapc");
  EXPECT_EQ(a.lower_bound, 168U);
  // One-port exchange algorithm, 8 x 512 on 32 nodes: 32 x 512 real takes 1778 cycles (1280
  // transfer); node 0 sends 496 real elements through one port at a time.
  const BuiltCase e = build("transpose-1d", 5, {{"matrix", "8x512"}}, true);
  expectVirtualCase(e, {719, 576, 143, 4096}, "8x512 exchange one-port");
  EXPECT_EQ(e.lower_bound, 496U);
}

TEST(VirtualTranspose, AllToSomeRowCyclic) {
  // 1024 x 8 row-cyclic: A^T (8 x 1024) has too few rows for 64 nodes, so A gets 56 virtual
  // columns; all 64 nodes send to nodes 0..7 (all-to-some). 1024 x 64 takes 512 transfer cycles.
  expectVirtualCase(build("transpose-1d", 6, {{"matrix", "1024x8"}, {"partition", "row-cyclic"}}),
                    {320, 320, 0, 8192}, "1024x8 aapc");
  // The exchange algorithm on 256 x 4 and 16 nodes (256 x 16 real: 819 cycles, 512 transfer).
  expectVirtualCase(
      build("transpose-1d", 4,
            {{"matrix", "256x4"}, {"partition", "row-cyclic"}, {"method", "exchange"}}),
      {682, 448, 234, 1024}, "256x4 exchange");
}

TEST(VirtualTranspose, GrayCodedTwoDimensionalAndStorageConversion) {
  // Gray-coded rows: 8 x 256 row-cyclic on 16 nodes (16 x 256 real: 248 cycles, 128 transfer);
  // --virtual square (256 x 256) sends the same words in 224 cycles (96 local), too slow here.
  expectVirtualCase(build("transpose-1d", 4,
                          {{"matrix", "8x256"}, {"partition", "row-cyclic"}, {"encoding", "gray"}}),
                    {216, 128, 88, 2048}, "8x256 gray");
  // Two-dimensional partitioning with too few row bits: 2 x 256 2d-consecutive needs 2 row bits
  // (4 x 256 real: 52 cycles, 32 transfer).
  expectVirtualCase(
      build("transpose-1d", 4,
            {{"matrix", "2x256"}, {"partition", "2d-consecutive"}, {"to-partition", "row-cyclic"}}),
      {40, 32, 8, 512}, "2x256 2d-consecutive");
  // §6.3 on 2 x 64: 18 instead of 64 transfer cycles (4 x 64 real), and 20 instead of 96.
  const BuiltCase g = build("transpose-gray", 4, {{"matrix", "2x64"}});
  const testing::CheckedRun gr = testing::runChecked(g);
  testing::expectCleanRun(gr, 128, "transpose-gray 2x64");
  EXPECT_EQ(gr.run.transfer_cycles, 18U);
  const testing::CheckedRun gs =
      testing::runChecked(build("transpose-gray-separate", 4, {{"matrix", "2x64"}}));
  testing::expectCleanRun(gs, 128, "transpose-gray-separate 2x64");
  EXPECT_EQ(gs.run.transfer_cycles, 20U);
  // Storage conversion (Corollaries 6-7) of 8 x 64 on 16 nodes (16 x 64 real: 52, 32 transfer).
  expectVirtualCase(
      build("storage-convert", 4,
            {{"matrix", "8x64"}, {"partition", "row-consecutive"}, {"to-partition", "col-cyclic"}}),
      {40, 32, 8, 512}, "8x64 storage-convert");
}

TEST(VirtualTranspose, LayoutsWithoutVirtualElementsNameTheOption) {
  // transposeLayoutsFromParams takes no virtual elements: the layout error names the option and
  // the algorithm.
  const CaseSpec spec = testing::caseSpec("some-transpose", 4, 0, 1, false, {{"matrix", "2x64"}});
  CaseParams params(spec);
  const std::string e =
      errorOf([&] { transposeLayoutsFromParams(params, spec, "2d-consecutive"); });
  EXPECT_TRUE(contains(e, "--partition '2d-consecutive'")) << e;
  EXPECT_TRUE(contains(e, "some-transpose takes no virtual elements")) << e;
  EXPECT_TRUE(contains(errorOf([] {
                         build("transpose-1d", 4, {{"matrix", "2x64"}, {"virtual", "x"}});
                       }),
                       "--virtual 'x'"));
}

TEST(VirtualTranspose, TwoDimensionalPacketTransposesSendOnlyRealElements) {
  // §6.1 on 2 x 64 (extended to 4 x 64) on 16 nodes: only real elements are planned into
  // packets, so half the words of 4 x 64 cross the links. The cycles stay those of 4 x 64 (19,
  // 11 and 9): the virtual elements fill whole nodes (node rows 2 and 3), and a real node at
  // distance n, e.g. (00||11), still sends all K = 16 of its elements.
  for (const auto& [algo, cycles] :
       std::vector<std::pair<std::string, u64>>{{"spt", 19}, {"dpt", 11}, {"mpt", 9}}) {
    const BuiltCase c = build(algo, 4, {{"matrix", "2x64"}});
    EXPECT_TRUE(c.perm.hasVirtual()) << algo;
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, 128, algo + " 2x64");
    EXPECT_EQ(r.run.cycles, cycles) << algo;
    EXPECT_EQ(r.run.words, c.perm.participatingDistance()) << algo;
    EXPECT_EQ(r.run.words, 256U) << algo;
    // 128 virtual elements, 32 of them on the two diagonal nodes with row bit u1 = 1 (they stay
    // and are not copied): 96 leave the packets.
    EXPECT_TRUE(contains(c.bound_source,
                         "96 virtual elements (Definition 2) left out of the "
                         "packets, not sent"))
        << c.bound_source;
  }
}

TEST(VirtualTranspose, ReportCountsRealAndVirtualElements) {
  const BuiltCase c = build("transpose-1d", 2, {{"matrix", "2x16"}});
  RunReport r;
  r.algo = "transpose-1d";
  r.perm = c.perm;
  const testing::CheckedRun run = testing::runChecked(c);
  r.run = run.run;
  r.check = run.check;
  EXPECT_TRUE(contains(formatReportText(r),
                       "elements         32 of 32 real where the reference model says (0 "
                       "mismatches), 32 virtual not sent\n"))
      << formatReportText(r);
  EXPECT_TRUE(contains(formatReportJson(r),
                       "\"elements\":32,\"correct\":32,\"mismatches\":0,"
                       "\"virtual\":32"))
      << formatReportJson(r);
}

TEST(VirtualDropMoves, DropsVirtualMovesAndPacksTheRest) {
  // n = 1, K = 2, the swap of node bit and slot bit; slot bit 0 marks virtual elements:
  // (0,0) stays, (1,0) -> (0,1) is real; (0,1) -> (1,0) and (1,1) are virtual.
  const PermutationSpec p = PermutationSpec::parse("linear n=1 k=1 rows=2,1 virtual=1");
  MoveSchedule s;
  s.algo = "hand";
  s.dims = 1;
  s.steps = {
      {{1, 0, 0, 2}},             // real (1,0) to node 0, scratch slot 2
      {{0, 1, 0, 0}},             // virtual (0,1) to node 1 slot 0
      {{1, 1, 0, 3}},             // virtual (1,1) to node 0 slot 3 (a detour)
      {{0, 2, Move::kLocal, 1}},  // real: node 0 slot 2 -> slot 1
  };
  const VirtualDrop d = dropVirtualMoves(s, p, 4, 1, false);
  EXPECT_EQ(d.dropped_moves, 2U);
  EXPECT_EQ(d.dropped_words, 2U);
  EXPECT_EQ(d.steps_before, 4U);
  ASSERT_EQ(d.steps_after, 2U);
  ASSERT_EQ(d.moves.steps[0].size(), 1U);
  EXPECT_EQ(d.moves.steps[0][0].node, 1U);
  EXPECT_EQ(d.moves.steps[1][0].dim, Move::kLocal);
  // Two real link moves on different links in successive steps share one packed step; the
  // local copy that reads what the second one wrote stays after it.
  const PermutationSpec id = PermutationSpec::parse("linear n=1 k=2 rows=1,2,4 virtual=2");
  MoveSchedule t;
  t.algo = "hand";
  t.dims = 1;
  t.steps = {{{0, 0, 0, 4}}, {{1, 0, 0, 4}}, {{0, 2, 0, 5}}, {{1, 4, Move::kLocal, 6}}};
  const VirtualDrop e = dropVirtualMoves(t, id, 8, 1, false);
  EXPECT_EQ(e.dropped_moves, 1U);  // slot 2 holds element 2: slot bit 1 set, virtual
  ASSERT_EQ(e.steps_after, 2U);
  EXPECT_EQ(e.moves.steps[0].size(), 2U);
  EXPECT_EQ(e.moves.steps[1][0].to_slot, 6U);
}

}  // namespace
}  // namespace hcube

namespace hcube {
namespace {

TEST(VirtualTranspose, EveryLayoutPairWithVirtualElementsOnTheFourCube) {
  // Every partitioning pair and encoding of three matrices that leave nodes empty on 16 nodes,
  // for every transpose that takes virtual elements: each case an algorithm accepts moves every
  // real element where the reference model says, the verifier accepts its tables (virtual
  // elements are empty slots there, so none is sent or copied), and the minimal-path algorithms
  // put exactly the real elements' distances on the links. Refusals name an option or the
  // algorithm.
  const std::vector<std::string> partitions = {
      "row-consecutive", "row-cyclic", "col-consecutive",       "col-cyclic",
      "2d-consecutive",  "2d-cyclic",  "2d-consecutive-cyclic", "2d-cyclic-consecutive"};
  struct Family {
    std::string algo;
    std::map<std::string, std::string> extra;
    bool minimal_paths;
    int accepted;  ///< cases with virtual elements the algorithm accepts
  };
  const std::vector<Family> families = {
      {"transpose-1d", {{"method", "aapc"}}, true, 64},
      {"transpose-1d", {{"method", "exchange"}}, true, 64},
      {"transpose-1d", {{"method", "dimperm"}}, false, 136},
      {"storage-convert", {{"method", "aapc"}}, true, 64},
      {"transpose-gray", {}, false, 40},
      {"transpose-gray-separate", {}, false, 16},
      {"spt", {{"packet", "2"}, {"tau", "1"}}, true, 16},
      {"dpt", {{"packet", "2"}}, true, 16},
      {"mpt", {{"packet", "2"}}, true, 16},
  };
  for (const Family& f : families) {
    int count = 0;
    for (const std::string matrix : {"2x64", "8x32", "64x4"}) {
      for (const std::string& pb : partitions) {
        for (const std::string& pa : partitions) {
          for (const std::string encoding : {"binary", "gray"}) {
            std::map<std::string, std::string> params = f.extra;
            params["matrix"] = matrix;
            params["partition"] = pb;
            params["to-partition"] = pa;
            params["encoding"] = encoding;
            const std::string what = f.algo + " " + matrix + " " + pb + " > " + pa + " " + encoding;
            BuiltCase c;
            try {
              c = build(f.algo, 4, params);
            } catch (const Error& e) {
              const std::string msg = e.what();
              EXPECT_TRUE(contains(msg, "--") || contains(msg, f.algo) ||
                          contains(msg, "SPT, DPT and MPT"))
                  << what << ": " << msg;
              continue;
            }
            if (!c.perm.hasVirtual()) continue;
            ++count;
            const testing::CheckedRun r = testing::runChecked(c);
            testing::expectCleanRun(r, c.perm.participating(), what);
            if (f.minimal_paths) {
              EXPECT_EQ(r.run.words, c.perm.participatingDistance()) << what;
            }
          }
        }
      }
    }
    EXPECT_EQ(count, f.accepted) << f.algo;
  }
}

}  // namespace
}  // namespace hcube

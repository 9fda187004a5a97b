// SPT, DPT and MPT (Johnsson & Ho 1987 §6.1) on the Verilated RTL cube: identical to the table
// executor in cycles (WAIT start-ups, FWD/PASS cut-through and PERMUTE local copies included),
// words, links, errors and memories; every element where the reference model says; transfer
// cycles as the §6.1 formulas say. n = 2, 4, 6 — the sizes fit the CI models of the rtl_models
// fixture (K = 4 * 2^n memory words, table depth K / 2, at least 16). Three cases carry virtual
// elements (Definition 2, --virtual square): their packets hold only real elements and their
// time is the busiest real path's (transpose2dRealCycles), below the extended matrix's.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "algorithms/transpose/transpose2d.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"

namespace hcube {
namespace {

struct RtlCase {
  std::string algo;
  int n;
  std::map<std::string, std::string> params;
  u64 packet;
  u64 tau;
  u64 formula;  ///< the §6.1 cycles until the last word arrives
};

std::vector<RtlCase> cases() {
  return {
      {"spt",
       2,
       {{"matrix", "4x4"}, {"tau", "1"}, {"packet", "1"}},
       1,
       1,
       sptFormulaCycles(2, 4, 1, 1)},
      {"dpt",
       2,
       {{"matrix", "4x4"}, {"packet", "1"}, {"forward", "cut"}},
       1,
       0,
       cutThroughFormulaCycles(true, 2, 4, 1, 0)},
      {"mpt", 2, {{"matrix", "4x4"}, {"packet", "1"}}, 1, 0, mptPerClassCycles(2, 4, 1, 0)},
      {"spt",
       4,
       {{"matrix", "16x16"}, {"packet", "4"}, {"route", "sync"}},
       4,
       0,
       sptFormulaCycles(4, 16, 4, 0)},
      {"dpt",
       4,
       {{"matrix", "16x16"}, {"packet", "2"}, {"tau", "1"}, {"encoding", "gray"}},
       2,
       1,
       dptFormulaCycles(4, 16, 2, 1)},
      {"mpt", 4, {{"matrix", "16x16"}, {"packet", "2"}}, 2, 0, mptPerClassCycles(4, 16, 2, 0)},
      {"spt",
       4,
       {{"matrix", "16x16"}, {"packet", "4"}, {"forward", "cut"}, {"tau", "2"}},
       4,
       2,
       cutThroughFormulaCycles(false, 4, 16, 4, 2)},
      {"spt",
       6,
       {{"matrix", "64x64"}, {"packet", "8"}, {"tau", "3"}, {"partition", "2d-cyclic"}},
       8,
       3,
       sptFormulaCycles(6, 64, 8, 3)},
      {"dpt",
       6,
       {{"matrix", "64x64"}, {"packet", "8"}, {"tau", "4"}, {"partition", "2d-cyclic"}},
       8,
       4,
       dptFormulaCycles(6, 64, 8, 4)},
      {"mpt",
       6,
       {{"matrix", "64x64"}, {"encoding", "gray"}, {"tau", "2"}, {"packet", "4"}},
       4,
       2,
       mptPerClassCycles(6, 64, 4, 2)},
      // 2 x 16 -> 16 x 16, 2d-cyclic: real rows 0 and 1 on node rows 0 and 1, R_x = 4 of K = 16:
      // (4 + 4 - 1)(1 + 1) = 14 (extended: (16 + 3) * 2 = 38).
      {"spt",
       4,
       {{"matrix", "2x16"},
        {"virtual", "square"},
        {"partition", "2d-cyclic"},
        {"tau", "1"},
        {"packet", "1"}},
       1,
       1,
       14},
      // 2d-consecutive: both real rows on node row 0, R_x = 8; H = 2: steps(2, 8) = 5, H = 1:
      // B = 1, steps(1, 8) = 5 (extended: 9).
      {"mpt", 4, {{"matrix", "2x16"}, {"virtual", "square"}, {"packet", "1"}}, 1, 0, 5},
      // 4 x 64 -> 64 x 64 on 64 nodes, 2d-cyclic: R_x = 8 of K = 64 on node rows 0..3, H up to 3:
      // ceil(8/4) * (2 + 1) + 6 - 1 = 11 (extended: 16 * 3 + 5 = 53).
      {"dpt",
       6,
       {{"matrix", "4x64"},
        {"virtual", "square"},
        {"partition", "2d-cyclic"},
        {"packet", "2"},
        {"tau", "1"},
        {"forward", "cut"}},
       2,
       1,
       11},
  };
}

TEST(RtlTranspose2d, SptDptMptAgreeWithTheExecutorAndTheFormulas) {
  for (const RtlCase& rc : cases()) {
    CaseSpec spec;
    spec.algo = rc.algo;
    spec.n = rc.n;
    spec.params = rc.params;
    const BuiltCase c = buildCase(spec);
    std::string what = rc.algo + " n=" + std::to_string(rc.n);
    for (const auto& [k, v] : rc.params) what += " --" + k + " " + v;
    SCOPED_TRACE(what);
    // The CI models: memory K = 4 * 2^n words, depth max(16, K / 2).
    const u64 memory = u64{4} << rc.n;
    EXPECT_LE(c.tables.header.memoryWords(), memory);
    EXPECT_LE(c.tables.depth(), std::max<u64>(16, memory / 2));

    ExecOptions eo;
    eo.tagged_elements = c.perm.elements();
    const RunResult table =
        executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), eo);
    RtlOptions ro;
    ro.progress = &std::cerr;
    const RunResult rtl = runOnRtl(c.tables, ro);
    testing::expectSameRun("rtl", rtl, table);
    EXPECT_EQ(rtl.local_cycles, table.local_cycles);
    const CheckResult check = checkAgainstReference(c.perm, rtl.memory);
    EXPECT_EQ(check.mismatches, 0U);
    EXPECT_EQ(check.correct, c.perm.participating());  // every element, or every real one
    EXPECT_TRUE(rtl.errors.empty()) << testing::errorList(rtl.errors);
    // The same plan lowered here: the last word crosses its last link in cycle formula - 1,
    // and the run ends after the local copies that did not fit into idle cycles.
    Transpose2dOptions o;
    o.algo = rc.algo == "spt"   ? Transpose2dAlgo::kSpt
             : rc.algo == "dpt" ? Transpose2dAlgo::kDpt
                                : Transpose2dAlgo::kMpt;
    o.packet = rc.packet;
    o.tau = rc.tau;
    o.cut_through = rc.params.count("forward") > 0;
    o.synchronous = rc.params.count("route") > 0;
    const Transpose2dTables lowered = lowerTranspose2d(planTranspose2d(c.perm, o), c.perm);
    EXPECT_EQ(lowered.tables.tables, c.tables.tables);
    EXPECT_EQ(lowered.transfer_end, rc.formula);
    EXPECT_EQ(transpose2dRealCycles(rc.n, realElementsSent(c.perm), o), rc.formula);
    EXPECT_EQ(rtl.cycles, rc.formula + lowered.local_tail);
    EXPECT_NE(c.bound_source.find("= " + std::to_string(rc.formula) + " cycles"), std::string::npos)
        << c.bound_source;
    EXPECT_EQ(c.lower_bound,
              c.perm.hasVirtual()
                  ? transposeRealLowerBound(c.perm, rc.tau, 1, o.cut_through).cycles
                  : transposeLowerBound(rc.n, c.perm.slots(), rc.tau, 1, o.cut_through));
    EXPECT_LE(c.lower_bound, rtl.cycles);
  }
}

}  // namespace
}  // namespace hcube

// Transposes that move whole address fields (Johnsson & Ho 1987 §5, §6.2, §6.3): every element
// where the reference model says, the static verifier clean, and transfer cycles from the table
// executor equal to the paper's counts (exchange: n x K/2; AAPC: K/2; §6.2: 2n and n routing
// steps; §6.3: n routing steps of K).
#include "algorithms/transpose/transpose.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "algorithms/algorithms.h"
#include "algorithms/transpose/layout.h"
#include "base/error.h"
#include "exec/executor.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

using testing::errorOf;

/// A case built from the catalogue and run on the table executor, checked (test_util.h).
struct Outcome : testing::CheckedRun {
  BuiltCase built;
};

Outcome runCase(const std::string& algo, int n, std::map<std::string, std::string> params,
                bool one_port = false, int lanes = 1) {
  Outcome o;
  o.built = buildCase(testing::caseSpec(algo, n, 0, lanes, one_port, std::move(params)));
  static_cast<testing::CheckedRun&>(o) = testing::runChecked(o.built);
  return o;
}

std::string describeOutcome(const Outcome& o) {
  return testing::describeRun(o, o.built.tables.header.algo);
}

void expectClean(const Outcome& o) {
  testing::expectCleanRun(o, o.built.perm.elements(), o.built.tables.header.algo);
  EXPECT_EQ(o.run.cycles, o.built.tables.cycles());
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Whether the real processor dimensions of the layouts before and after overlap (I != {}), in
/// the address bits of A (the layout after stores A^T, whose address is (v || u)).
bool realFieldsOverlap(const TransposeLayouts& t) {
  const int p = t.before.p();
  const int q = t.before.q();
  u64 after_in_a = 0;
  const u64 ra = t.after.realDims();  // over (v || u): u bits 0..p-1, v bits p..p+q-1
  for (int b = 0; b < p + q; ++b) {
    if (!bitOf(ra, b)) continue;
    after_in_a |= u64{1} << (b < p ? q + b : b - p);
  }
  return (after_in_a & t.before.realDims()) != 0;
}

// §5 and §2: every one-dimensional layout pair (row/column, consecutive/cyclic, binary/Gray, and
// a combined field) on n = 2 and 3. Disjoint real fields: the transpose is an AAPC, done in
// exactly K/2 transfer cycles by Edelman's schedule and n x K/2 by the exchange algorithm (with
// and without local shuffles, one-port); overlapping real fields are no AAPC (refused with an error
// naming the options) and go by default through the dimension permutation of §7.
TEST(Transpose1d, EveryOneDimensionalLayoutPair) {
  const char* partitions[] = {"row-consecutive", "row-cyclic", "col-consecutive", "col-cyclic",
                              "u4,u0"};
  const char* encodings[] = {"binary", "gray"};
  int aapc_cases = 0;
  int refused = 0;
  int dimperm_cases = 0;
  for (int n : {2, 3}) {
    const std::string matrix = n == 2 ? "32x32" : "16x64";
    for (const char* pb : partitions) {
      for (const char* eb : encodings) {
        for (const char* pa : partitions) {
          for (const char* ea : encodings) {
            // The combined field: row bits 4 and 0 (n = 2, p = 5) before; for n = 3 (16x64
            // before, 64x16 after) row bits 3, 1, 0 before and 5, 4, 0 after.
            std::string pbs = pb;
            std::string pas = pa;
            if (pbs == "u4,u0" && n == 3) pbs = "u3,u1-0";
            if (pas == "u4,u0" && n == 3) pas = "u5-4,u0";
            std::map<std::string, std::string> params = {{"matrix", matrix},
                                                         {"partition", pbs},
                                                         {"encoding", eb},
                                                         {"to-partition", pas},
                                                         {"to-encoding", ea}};
            CaseSpec spec;
            spec.algo = "transpose-1d";
            spec.n = n;
            spec.params = params;
            CaseParams cp(spec);
            const TransposeLayouts t = transposeLayoutsFromParams(cp, spec, "row-consecutive");
            if (realFieldsOverlap(t)) {
              // No AAPC: --method aapc is refused naming the options ...
              auto as_aapc = params;
              as_aapc["method"] = "aapc";
              const std::string e = errorOf([&] { runCase("transpose-1d", n, as_aapc); });
              EXPECT_TRUE(contains(e, "--partition / --to-partition")) << e;
              EXPECT_TRUE(contains(e, "I is not empty")) << e;
              ++refused;
              // ... and the default is the dimension permutation of §7, which binary fields
              // always are; Gray fields that mix address bits are refused naming the encodings.
              std::string why;
              try {
                const Outcome d = runCase("transpose-1d", n, params);
                expectClean(d);
                EXPECT_TRUE(d.built.tables.header.algo.ends_with(":dimperm"))
                    << d.built.tables.header.algo;
                ++dimperm_cases;
              } catch (const Error& err) {
                why = err.what();
                EXPECT_TRUE(contains(why, "--encoding / --to-encoding")) << why;
              }
              if (std::string(eb) == "binary" && std::string(ea) == "binary") {
                EXPECT_EQ(why, "") << "binary layouts are a dimension permutation";
              }
              continue;
            }
            const u64 k = t.before.slots();
            const Outcome a = runCase("transpose-1d", n, params);
            expectClean(a);
            EXPECT_EQ(a.run.transfer_cycles, k / 2) << describeOutcome(a);
            EXPECT_EQ(a.built.lower_bound, k / 2);
            auto ex = params;
            ex["method"] = "exchange";
            const Outcome e = runCase("transpose-1d", n, ex, true);
            expectClean(e);
            EXPECT_EQ(e.run.transfer_cycles, static_cast<u64>(n) * k / 2) << describeOutcome(e);
            EXPECT_EQ(e.built.lower_bound, static_cast<u64>(n) * k / 2);
            ex["shuffle"] = "no";
            const Outcome f = runCase("transpose-1d", n, ex, true);
            expectClean(f);
            EXPECT_EQ(f.run.transfer_cycles, static_cast<u64>(n) * k / 2) << describeOutcome(f);
            ++aapc_cases;
          }
        }
      }
    }
  }
  // Both kinds occur: rows before and rows of the transpose after use disjoint index bits.
  EXPECT_GT(aapc_cases, 40);
  EXPECT_GT(refused, 20);
  EXPECT_GT(dimperm_cases, 20);
}

// hcube run --algo transpose-1d --matrix 128x128 --n 5 --partition
// col-cyclic --ports one. The exchange algorithm: 5 exchanges of K/2 = 256 elements, one port
// at a time, exactly n K/2 = 1280 transfer cycles; the local phases are the blocking before, four
// shuffles between the exchanges and the final local transpose.
TEST(Transpose1d, OnePortColumnCyclic128x128N5) {
  const Outcome o =
      runCase("transpose-1d", 5, {{"matrix", "128x128"}, {"partition", "col-cyclic"}}, true);
  expectClean(o);
  EXPECT_EQ(o.built.perm.slots(), 512U);
  EXPECT_EQ(o.run.transfer_cycles, 1280U);
  EXPECT_EQ(o.built.lower_bound, 1280U);
  EXPECT_EQ(o.run.cycles, o.run.transfer_cycles + o.run.local_cycles);
  EXPECT_GT(o.run.local_cycles, 0U);
  EXPECT_TRUE(o.built.tables.header.one_port);
  EXPECT_EQ(o.built.tables.header.algo,
            "transpose-1d:128x128/col-cyclic/binary>128x128/col-cyclic/binary:exchange");
}

// The exchange algorithm's transfer time n x ceil(K/2b) (§3.2, T = n PQ/2N t_c) for n = 1..8 and
// wide channels; each AAPC schedule gives its own step count on the same transpose.
void expectOneDimensionalCycles(int n) {
  {
    const int m = 2 * n + (n <= 4 ? 2 : 0);
    const std::string matrix =
        std::to_string(u64{1} << (m - m / 2)) + "x" + std::to_string(u64{1} << (m / 2));
    const u64 k = u64{1} << (m - n);
    for (int lanes : {1, 2}) {
      const Outcome e = runCase(
          "transpose-1d", n, {{"matrix", matrix}, {"partition", "row-consecutive"}}, true, lanes);
      expectClean(e);
      const u64 half = (k / 2 + static_cast<u64>(lanes) - 1) / static_cast<u64>(lanes);
      EXPECT_EQ(e.run.transfer_cycles, static_cast<u64>(n) * half) << "n = " << n;
    }
    const Outcome a = runCase("transpose-1d", n, {{"matrix", matrix}, {"aapc", "jh4"}});
    expectClean(a);
    EXPECT_EQ(a.run.transfer_cycles, k / 2) << "n = " << n;  // Algorithm 4 is optimal
  }
}

TEST(Transpose1d, ExactTransferCyclesAcrossCubeSizes) {
  for (int n = 1; n <= 6; ++n) expectOneDimensionalCycles(n);
  // Algorithm 1 of Johnsson & Ho 1992 takes n ceil(2^(n-1)/n) steps per 2^n elements.
  const Outcome j1 = runCase("transpose-1d", 5, {{"matrix", "64x64"}, {"aapc", "jh1"}});
  expectClean(j1);
  EXPECT_EQ(j1.run.transfer_cycles, 4U * 20U);
}

// Corollaries 6-7: consecutive -> cyclic storage (and back, and with Gray codes) is an AAPC when
// P >= N^2; with P < N^2 the real fields overlap and the conversion is refused.
TEST(StorageConvert, ConsecutiveCyclicIsAnAapcWhenPIsAtLeastNSquared) {
  for (int n : {2, 3, 4}) {
    const std::string matrix = std::to_string(u64{1} << (2 * n)) + "x4";
    const u64 k = (u64{1} << (2 * n + 2)) >> n;
    for (auto [from, to] :
         {std::pair{"row-consecutive", "row-cyclic"}, std::pair{"row-cyclic", "row-consecutive"}}) {
      for (const char* enc : {"binary", "gray"}) {
        const Outcome o = runCase(
            "storage-convert", n,
            {{"matrix", matrix}, {"partition", from}, {"to-partition", to}, {"to-encoding", enc}});
        expectClean(o);
        EXPECT_EQ(o.run.transfer_cycles, k / 2) << describeOutcome(o);
        const Outcome e = runCase(
            "storage-convert", n,
            {{"matrix", matrix}, {"partition", from}, {"to-partition", to}, {"encoding", enc}},
            true);
        expectClean(e);
        EXPECT_EQ(e.run.transfer_cycles, static_cast<u64>(n) * k / 2) << describeOutcome(e);
      }
    }
  }
  // Without --matrix: the (N K) x 1 column vector, consecutive -> cyclic rows, an AAPC.
  const Outcome d = runCase("storage-convert", 3, {});
  expectClean(d);
  EXPECT_EQ(d.built.tables.header.algo,
            "storage-convert:64x1/row-consecutive/binary>64x1/row-cyclic/binary:aapc-edelman");
  EXPECT_EQ(d.run.transfer_cycles, 4U);
  // Columns alike (Q >= N^2), and a combined assignment (Corollary 6).
  for (const char* to : {"col-cyclic", "v4-2", "v4,v1-0"}) {
    const Outcome c =
        runCase("storage-convert", 3,
                {{"matrix", "4x256"}, {"partition", "col-consecutive"}, {"to-partition", to}});
    expectClean(c);
    EXPECT_EQ(c.run.transfer_cycles, 64U) << describeOutcome(c);
  }
  const std::string e = errorOf([] {
    runCase("storage-convert", 3,
            {{"matrix", "32x8"}, {"to-partition", "row-cyclic"}, {"method", "aapc"}});
  });
  EXPECT_TRUE(contains(e, "I is not empty")) << e;
  // Overlapping real fields by default: a dimension permutation (§7), every element in place.
  const Outcome dp =
      runCase("storage-convert", 3, {{"matrix", "32x8"}, {"to-partition", "row-cyclic"}});
  expectClean(dp);
  EXPECT_TRUE(dp.built.tables.header.algo.ends_with(":dimperm")) << dp.built.tables.header.algo;
}

// §6.3: the paper's case table of the combined transpose / Gray conversion. For the node
// executing iteration j, with E = even-block-row, F = even-parity-block-column and its bits
// (j + n/2, j): relay (recv on j + n/2, send on j), send the block on j + n/2, or send it on j.
enum class Role { kStay, kRelay, kSendRow, kSendCol };

Role paperRole(bool e, bool f, int r, int c) {
  const std::string key =
      std::string(e ? "T" : "F") + (f ? "T" : "F") + char('0' + r) + char('0' + c);
  for (const char* k : {"TT00", "TT11", "FF01", "FF10"}) {
    if (key == k) return Role::kRelay;
  }
  for (const char* k : {"TT01", "TT10", "FF00", "FF11", "TF01", "TF10", "FT00", "FT11"}) {
    if (key == k) return Role::kSendRow;
  }
  return Role::kSendCol;  // TF00, TF11, FT01, FT10
}

TEST(TransposeGray, ReproducesThePseudoCodeCaseTable) {
  for (int n : {2, 4, 6, 8}) {
    const int h = n / 2;
    const Outcome o = runCase("transpose-gray", n, {{"matrix", n == 8 ? "16x16" : "16x64"}});
    expectClean(o);
    const u64 k = o.built.perm.slots();
    // n/2 iterations of two routing steps of K elements: n K transfer cycles (not 2n - 2 steps).
    EXPECT_EQ(o.run.transfer_cycles, static_cast<u64>(n) * k) << "n = " << n;
    // Rebuild the schedule to read each node's role in each iteration.
    const PermutationSpec& perm = o.built.perm;
    const TransposeSchedule s = transposeWithGrayConversion("transpose-gray", perm, 1);
    EXPECT_EQ(s.routing_steps, static_cast<u64>(n));
    int checked = 0;
    for (int it = 0; it < h; ++it) {
      const int j = h - 1 - it;
      const auto& step1 = s.moves.steps[static_cast<size_t>(it) * 2 * k];
      const auto& step2 = s.moves.steps[static_cast<size_t>(it) * 2 * k + k];
      for (u64 x = 0; x < perm.nodes(); ++x) {
        bool e = j + 1 >= h || !bitOf(x, j + 1 + h);
        bool f = true;
        for (int b = j + 1; b < h; ++b) f = f != bitOf(x, b);
        Role got = Role::kStay;
        for (const Move& m : step1) {
          if (m.node == x) got = m.dim == j + h ? Role::kSendRow : Role::kSendCol;
        }
        for (const Move& m : step2) {
          if (m.node == x) {
            EXPECT_EQ(got, Role::kStay);
            got = Role::kRelay;
            EXPECT_EQ(m.dim, j);
          }
        }
        ASSERT_EQ(got, paperRole(e, f, bitOf(x, j + h), bitOf(x, j)))
            << "n = " << n << " iteration j = " << j << " node " << x;
        ++checked;
      }
    }
    EXPECT_EQ(checked, h << n);
  }
}

// The two variants at the end of §6.3 (binary -> Gray and Gray -> binary with the transpose)
// and wide channels, also n routing steps of K.
TEST(TransposeGray, VariantsTakeNRoutingSteps) {
  for (int n : {2, 4, 6}) {
    for (auto [from, to] : {std::pair{"binary", "gray"}, std::pair{"gray", "binary"},
                            std::pair{"gray-cols", "gray-cols"}, std::pair{"gray", "gray"}}) {
      for (int lanes : {1, 2}) {
        const Outcome o =
            runCase("transpose-gray", n,
                    {{"matrix", "32x16"}, {"encoding", from}, {"to-encoding", to}}, true, lanes);
        expectClean(o);
        const u64 k = o.built.perm.slots();
        EXPECT_EQ(o.run.transfer_cycles, static_cast<u64>(n) * (k / static_cast<u64>(lanes)))
            << describeOutcome(o);
      }
    }
  }
  // Pipelined: the relay forwards each word one step after it arrived, n/2 (ceil(K/b) + 1).
  for (int n : {2, 4, 6}) {
    for (int lanes : {1, 2}) {
      const Outcome p =
          runCase("transpose-gray", n, {{"matrix", "32x16"}, {"pipelined", "yes"}}, true, lanes);
      expectClean(p);
      const u64 k = p.built.perm.slots();
      EXPECT_EQ(p.run.transfer_cycles, static_cast<u64>(n / 2) * (k / static_cast<u64>(lanes) + 1))
          << describeOutcome(p);
      EXPECT_EQ(p.built.tables.header.scratch, 2U * static_cast<u64>(lanes));
    }
  }
  const std::string odd = errorOf([] { runCase("transpose-gray", 3, {{"matrix", "16x16"}}); });
  EXPECT_TRUE(contains(odd, "--n 3")) << odd;
  const std::string oneD = errorOf([] {
    runCase("transpose-gray", 2, {{"matrix", "16x16"}, {"partition", "row-consecutive"}});
  });
  EXPECT_TRUE(contains(oneD, "I = R")) << oneD;
}

TEST(Transpose1d, LongExactTransferCyclesSevenAndEightCubes) {
  for (int n = 7; n <= 8; ++n) expectOneDimensionalCycles(n);
}

// §6.3, first paragraph: the conversions done separately (n/2 - 1 routing steps in the column
// subcubes, n/2 - 1 in the row subcubes) and then the transpose (n steps): 2n - 2 routing steps
// of K elements, against n for the combined algorithm; with no encoding to change, only the n
// transpose steps remain.
TEST(TransposeGray, SeparateConversionsTakeTwoNMinusTwoRoutingSteps) {
  for (int n : {2, 4, 6}) {
    for (auto [from, to] : {std::pair{"gray-cols", "gray-cols"}, std::pair{"binary", "gray"},
                            std::pair{"gray", "binary"}, std::pair{"gray", "gray"}}) {
      const Outcome sep =
          runCase("transpose-gray-separate", n,
                  {{"matrix", "32x16"}, {"encoding", from}, {"to-encoding", to}}, true);
      expectClean(sep);
      const u64 k = sep.built.perm.slots();
      const u64 nn = static_cast<u64>(n);
      const bool converts =
          std::string(from) != std::string(to) || std::string(from) == "gray-cols";
      EXPECT_EQ(sep.run.transfer_cycles, (converts ? 2 * nn - 2 : nn) * k) << describeOutcome(sep);
    }
  }
  const std::string change = errorOf([] {
    runCase("transpose-gray-separate", 4, {{"matrix", "16x16"}, {"to-partition", "2d-cyclic"}});
  });
  EXPECT_TRUE(contains(change, "--to-partition '2d-cyclic'")) << change;
}

// §6.2: consecutive -> cyclic (and cyclic -> consecutive) with the transpose. Algorithm 1 takes
// 2n routing steps (n exchanges of K/2, then the global transpose, n steps of K), algorithms 2
// and 3 n exchanges of K/2; algorithm 3 needs no local phase when p = q = 2 n_r and algorithm 2
// always transposes locally first.
void expectAssignCycles(int n) {
  {
    const int h = n / 2;
    for (int extra : {0, 1}) {
      const int p = 2 * h + extra;
      const int q = 2 * h;
      const std::string matrix = std::to_string(u64{1} << p) + "x" + std::to_string(u64{1} << q);
      const u64 k = u64{1} << (p + q - n);
      for (auto [from, to] :
           {std::pair{"2d-consecutive", "2d-cyclic"}, std::pair{"2d-cyclic", "2d-consecutive"}}) {
        for (int algorithm = 1; algorithm <= 3; ++algorithm) {
          const std::string algo = "transpose-assign" + std::to_string(algorithm);
          const Outcome o = runCase(
              algo, n, {{"matrix", matrix}, {"partition", from}, {"to-partition", to}}, true);
          expectClean(o);
          const u64 nn = static_cast<u64>(n);
          const u64 want = algorithm == 1 ? nn * k / 2 + nn * k : nn * k / 2;
          EXPECT_EQ(o.run.transfer_cycles, want) << describeOutcome(o);
          if (algorithm == 2) {
            EXPECT_GT(o.run.local_cycles, 0U);
          }
          if (algorithm == 3 && extra == 0 && std::string(from) == "2d-consecutive") {
            EXPECT_EQ(o.run.local_cycles, 0U) << describeOutcome(o);
          }
        }
      }
    }
  }
}

TEST(TransposeAssign, RoutingStepsAndTransferCycles) {
  for (int n : {2, 4, 6}) expectAssignCycles(n);
}

TEST(TransposeAssign, LongRoutingStepsAndTransferCyclesEightCube) { expectAssignCycles(8); }

TEST(TransposeAssign, BadInputNamesTheOption) {
  const std::string gray = errorOf([] {
    runCase("transpose-assign3", 4, {{"matrix", "16x16"}, {"encoding", "gray"}});
  });
  EXPECT_TRUE(contains(gray, "--encoding 'gray'")) << gray;
  const std::string same = errorOf([] {
    runCase("transpose-assign2", 4, {{"matrix", "16x16"}, {"to-partition", "2d-consecutive"}});
  });
  EXPECT_TRUE(contains(same, "--to-partition '2d-consecutive'")) << same;
  const std::string oneD = errorOf([] {
    runCase("transpose-assign1", 4, {{"matrix", "16x16"}, {"partition", "row-cyclic"}});
  });
  EXPECT_TRUE(contains(oneD, "--partition 'row-cyclic'")) << oneD;
  const std::string odd = errorOf([] { runCase("transpose-assign1", 3, {{"matrix", "16x16"}}); });
  EXPECT_TRUE(contains(odd, "--n 3")) << odd;
}

TEST(Transpose1d, BadInputNamesTheOption) {
  // Layouts that leave nodes empty (4x4 on 2^5 nodes, 16 columns col-cyclic on 2^5 nodes) are
  // extended with virtual elements (virtual_test.cpp); malformed shapes and names stay errors.
  EXPECT_TRUE(contains(errorOf([] {
                         runCase("transpose-1d", 5, {{"matrix", "4x5"}});
                       }),
                       "--matrix '4x5'"));
  EXPECT_TRUE(
      contains(errorOf([] {
                 runCase("transpose-1d", 5, {{"matrix", "256x16"}, {"partition", "col-wise"}});
               }),
               "--partition 'col-wise'"));
  EXPECT_TRUE(contains(errorOf([] {
                         runCase("transpose-1d", 5, {{"matrix", "4x4"}, {"virtual", "low"}});
                       }),
                       "--virtual 'low'"));
  EXPECT_TRUE(contains(errorOf([] {
                         runCase("transpose-1d", 3, {{"matrix", "16x16"}, {"method", "fft"}});
                       }),
                       "--method 'fft'"));
  // --method dimperm with one element per node cannot swap node bits (no local bit to go
  // through), and Gray fields that mix address bits are no dimension permutation.
  const std::string k1 = errorOf([] {
    runCase("transpose-1d", 4,
            {{"matrix", "4x4"}, {"partition", "2d-consecutive"}, {"method", "dimperm"}});
  });
  EXPECT_TRUE(contains(k1, "--matrix: transpose-1d --method dimperm")) << k1;
  EXPECT_TRUE(contains(k1, "K >= 2 slots per node")) << k1;
  const std::string gray = errorOf([] {
    runCase("transpose-1d", 4,
            {{"matrix", "16x16"},
             {"partition", "row-consecutive"},
             {"to-partition", "2d-cyclic"},
             {"to-encoding", "gray"}});
  });
  EXPECT_TRUE(contains(gray, "--encoding / --to-encoding")) << gray;
  EXPECT_TRUE(contains(errorOf([] {
                         runCase("transpose-1d", 3, {{"matrix", "16x16"}, {"aapc", "x"}});
                       }),
                       "--aapc 'x'"));
  EXPECT_TRUE(
      contains(errorOf([] {
                 runCase("transpose-1d", 3, {{"matrix", "16x16"}, {"method", "aapc"}}, true);
               }),
               "--ports one"));
  EXPECT_TRUE(contains(errorOf([] {
                         runCase("transpose-1d", 3, {{"matrix", "16x16"}, {"shuffle", "no"}});
                       }),
                       "--shuffle"));
}

}  // namespace
}  // namespace hcube

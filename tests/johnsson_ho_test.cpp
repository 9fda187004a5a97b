// Johnsson & Ho 1992, Algorithms 1-4: Tables 1, 2, 4, 5 and 7, the necklace schedule of
// §3.5.1 and the d = 3 cyclic schedule of §3.5.2 reproduced exactly; the necklace and
// generating-table helpers; and every algorithm for d = 1..8 (Algorithm 4: 1..10) through
// buildCase, the table executor and the static verifier, with the paper's step counts and spans.
#include "algorithms/aapc/johnsson_ho.h"

#include <gtest/gtest.h>

#include <sstream>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

using testing::binary;

/// "(p iii)": a global address as the paper prints it in Tables 1, 2 and 4.
std::string element(const GlobalAddress& g, int d) {
  return "(" + std::to_string(g.node) + " " + binary(g.slot, d) + ")";
}

/// The contents of aligned address `a` on every node after `steps_done` steps of `s`.
std::string contentsRow(const RelativeSchedule& s, u64 steps_done, u32 a) {
  std::string row;
  for (u64 x = 0; x < (u64{1} << s.dims()); ++x) {
    row += (x ? " " : "") + element(alignedSlotContent(s, steps_done, x, a), s.dims());
  }
  return row;
}

void expectExchangeTable(const ExchangeTable& t, const std::string& golden) {
  const std::vector<std::string> lines = testing::goldenLines(golden);
  ASSERT_EQ(lines.size(), t.rows.size()) << golden;
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(formatExchangeRow(t.rows[i], t.d), lines[i]) << golden << ", row " << i + 1;
  }
}

/// Every exchange of the table is in the schedule, starting at `first_step`.
void expectScheduleHas(const RelativeSchedule& s, const ExchangeTable& t, u64 first_step) {
  const u32 ones = static_cast<u32>((u64{1} << t.d) - 1);
  for (const ExchangeRow& row : t.rows) {
    for (size_t k = 0; k < row.dims.size(); ++k) {
      const int dim = row.dims[k];
      if (dim == ExchangeRow::kNoExchange) continue;
      const u32 w = (!row.pair || bitOf(row.address, dim)) ? row.address : row.address ^ ones;
      EXPECT_EQ(s.at(first_step + k, dim), w)
          << s.algo() << " " << formatExchangeRow(row, t.d) << ", step " << first_step + k;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Golden tables
// ---------------------------------------------------------------------------------------------

TEST(JohnssonHo, ReproducesTable1AlignedDataForDimension3) {
  const std::vector<std::string> lines = testing::goldenLines("jh_table1_d3.txt");
  const RelativeSchedule s = jhAlgorithm1(3);
  ASSERT_EQ(lines.size(), 8U);
  for (u32 a = 0; a < 8; ++a) {
    EXPECT_EQ(std::to_string(a) + " " + contentsRow(s, 0, a), lines[a]) << "rel-addr " << a;
  }
}

TEST(JohnssonHo, ReproducesTable2ComplementPairsForDimension3) {
  const std::vector<std::string> lines = testing::goldenLines("jh_table2_d3.txt");
  const RelativeSchedule s = jhAlgorithm1(3);
  std::vector<std::string> rows;
  for (const auto& [low, high] : complementPairs(3)) {
    rows.push_back(contentsRow(s, 0, low));
    rows.push_back(contentsRow(s, 0, high));
  }
  EXPECT_EQ(rows, lines);
}

TEST(JohnssonHo, AlignmentIsAnInvolution) {
  for (u64 x = 0; x < 16; ++x) {
    for (u32 i = 0; i < 16; ++i) EXPECT_EQ(alignedAddress(x, alignedAddress(x, i)), i);
  }
}

TEST(JohnssonHo, ReproducesTable4Algorithm1ForDimension3) {
  const std::vector<std::string> lines = testing::goldenLines("jh_table4_d3.txt");
  const RelativeSchedule s = jhAlgorithm1(3);
  const std::vector<std::pair<u32, u32>> pairs = complementPairs(3);
  std::vector<std::string> rows;
  for (u64 t = 1; t <= 3; ++t) {
    for (size_t u = 0; u < 3; ++u) {
      for (const u32 a : {pairs[u].first, pairs[u].second}) {
        std::string dim = "-";
        for (int j = 0; j < 3; ++j) {
          if (s.at(t - 1, j) == a) dim = std::to_string(j);
        }
        rows.push_back(std::to_string(t) + " " + dim + " " + contentsRow(s, t, a));
      }
    }
  }
  ASSERT_EQ(rows.size(), lines.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i], lines[i]) << "row " << i + 1;
}

TEST(JohnssonHo, Algorithm1ForDimension3SchedulesTheFourthPairInALastBlock) {
  // 2^(d-1) mod d = 1 pair, (011,100), is left for a last block of d steps: dimensions 0, 1, 2.
  const RelativeSchedule s = jhAlgorithm1(3);
  ASSERT_EQ(s.steps(), 6U);
  const u32 idle = RelativeSchedule::kIdle;
  const std::vector<std::vector<u32>> want = {{0b111, 0b110, 0b101}, {0b101, 0b111, 0b110},
                                              {0b001, 0b010, 0b111}, {0b011, idle, idle},
                                              {idle, 0b011, idle},   {idle, idle, 0b100}};
  for (u64 t = 0; t < 6; ++t) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(s.at(t, j), want[t][j]) << "step " << t << " dim " << j;
  }
}

TEST(JohnssonHo, ReproducesTable5Algorithm2ForDimension4) {
  expectExchangeTable(algorithm2Table(4), "jh_table5_d4.txt");
  expectScheduleHas(jhAlgorithm2(4), algorithm2Table(4), 0);
}

TEST(JohnssonHo, ReproducesTheNecklaceScheduleOf0111) {
  const ExchangeTable t = necklaceSchedule(0b0111, 4);
  expectExchangeTable(t, "jh_necklace_0111.txt");
  // Any member names the same necklace.
  EXPECT_EQ(formatExchangeRow(necklaceSchedule(0b1101, 4).rows[0], 4), "0111: 0 1 2");
}

TEST(JohnssonHo, ReproducesTheCyclicScheduleForDimension3) {
  const ExchangeTable g = combinedGroupTable(3, 1, JhLineDrawing::kGreedy, {0});
  expectExchangeTable(g, "jh_cyclic_d3.txt");
  // Algorithm 4 for d = 3: that group in steps 0..2, then the 1-necklace 001, 010, 100 in one
  // step.
  const RelativeSchedule s = jhAlgorithm4(3);
  ASSERT_EQ(s.steps(), 4U);
  expectScheduleHas(s, g, 0);
  expectScheduleHas(s, necklaceSchedule(0b001, 3), 3);
}

TEST(JohnssonHo, ReproducesTable7BothLineDrawingsForDimension5) {
  const ExchangeTable left = combinedGroupTable(5, 1, JhLineDrawing::kDiagonal, {0});
  const ExchangeTable right = combinedGroupTable(5, 1, JhLineDrawing::kGreedy, {0});
  expectExchangeTable(left, "jh_table7_left_d5.txt");
  expectExchangeTable(right, "jh_table7_right_d5.txt");
  expectScheduleHas(jhAlgorithm4(5, JhLineDrawing::kDiagonal), left, 0);
  expectScheduleHas(jhAlgorithm4(5, JhLineDrawing::kGreedy), right, 0);
}

TEST(JohnssonHo, GeneratingTableOfFigure3) {
  const std::vector<std::vector<int>> want = {
      {0, 1, 2, 3, 4}, {1, 2, 3, 4, 0}, {2, 3, 4, 0, 1}, {3, 4, 0, 1, 2}, {4, 0, 1, 2, 3}};
  EXPECT_EQ(generatingTable(5), want);
}

// ---------------------------------------------------------------------------------------------
// Necklaces, cyclic addresses
// ---------------------------------------------------------------------------------------------

TEST(JohnssonHo, PeriodsAndCyclicAddressesOfSection21) {
  // "the address (0000) is cyclic with period one and the address (0101) is cyclic with period
  // two; the addresses (0001) and (0011) are noncyclic."
  EXPECT_EQ(addressPeriod(0b0000, 4), 1);
  EXPECT_EQ(addressPeriod(0b0101, 4), 2);
  EXPECT_TRUE(isCyclicAddress(0b0000, 4));
  EXPECT_TRUE(isCyclicAddress(0b0101, 4));
  EXPECT_FALSE(isCyclicAddress(0b0001, 4));
  EXPECT_FALSE(isCyclicAddress(0b0011, 4));
  EXPECT_EQ(distinguishedAddress(0b1011, 4), 0b0111U);
  EXPECT_EQ(necklaceMembers(0b1110, 4), (std::vector<u32>{0b0111, 0b1110, 0b1101, 0b1011}));
  EXPECT_EQ(necklaceMembers(0b1010, 4), (std::vector<u32>{0b0101, 0b1010}));
  EXPECT_EQ(rotateLeft(0b10111, 1, 5), 0b01111U);
}

TEST(JohnssonHo, CyclicComplementPairsAndRemainder) {
  // Two cyclic addresses when d is prime (§3.5.3); c = p mod d.
  for (const int d : {2, 3, 5, 7, 11, 13}) {
    EXPECT_EQ(cyclicComplementPairs(d).size(), 1U) << "d = " << d;
  }
  const auto four = cyclicComplementPairs(4);
  ASSERT_EQ(four.size(), 2U);
  EXPECT_EQ(four[0], std::make_pair(u32{0b0000}, u32{0b1111}));
  EXPECT_EQ(four[1], std::make_pair(u32{0b0101}, u32{0b1010}));
  const int c[] = {0, 1, 1, 2, 1, 5, 1, 0, 4, 7, 1, 2};
  for (int d = 1; d <= 12; ++d) EXPECT_EQ(jhCyclicRemainder(d), c[d - 1]) << "d = " << d;
  // The complement of a cyclic address is cyclic.
  for (int d = 1; d <= 12; ++d) {
    for (const auto& [x, y] : cyclicComplementPairs(d)) {
      EXPECT_TRUE(isCyclicAddress(x, d) && isCyclicAddress(y, d)) << d << " " << x;
    }
  }
}

TEST(JohnssonHo, EveryFullNecklaceScheduleUsesEveryChannelInEachOfItsSteps) {
  // Lemma 2: a full q-necklace completes in q steps on all d channels.
  for (int d = 2; d <= 8; ++d) {
    for (u32 a = 1; a + 1 < (u32{1} << d); ++a) {
      if (isCyclicAddress(a, d) || distinguishedAddress(a, d) != a) continue;
      const ExchangeTable t = necklaceSchedule(a, d);
      ASSERT_EQ(t.steps(), static_cast<u64>(popcount(a))) << d << " " << a;
      for (u64 k = 0; k < t.steps(); ++k) {
        u32 dims = 0;
        for (const ExchangeRow& row : t.rows) dims |= u32{1} << row.dims[k];
        EXPECT_EQ(dims, (u32{1} << d) - 1) << d << " " << a << " step " << k;
      }
    }
  }
  EXPECT_THROW(necklaceSchedule(0b0101, 4), Error);
}

TEST(JohnssonHo, GreedyLineDrawingIsValidForEveryC) {
  // Figure 3 right: for every 1 <= c < d the lines give the necklace 0^c 1^(d-c).
  for (int d = 2; d <= 16; ++d) {
    for (int c = 1; c < d; ++c) {
      const ExchangeTable t = combinedGroupTable(d, c, JhLineDrawing::kGreedy);
      EXPECT_EQ(t.rows[0].address, (u32{1} << (d - c)) - 1) << d << " " << c;
      EXPECT_EQ(t.rows.size(), static_cast<size_t>(d + c));
    }
  }
}

TEST(JohnssonHo, DiagonalLineDrawingFailsOnlyForCEqualHalfD) {
  // Figure 3 left: (2i + j) mod d is unique for d odd; for d even with c < d/2 lines
  // i >= d/2 are skewed. With c = d/2 the d/2 lines give the even bits, a cyclic address.
  for (int d = 2; d <= 16; ++d) {
    for (int c = 1; c < d; ++c) {
      if (d % 2 == 0 && c == d / 2 && d >= 4) {
        EXPECT_THROW(combinedGroupTable(d, c, JhLineDrawing::kDiagonal), Error) << d << " " << c;
      } else {
        EXPECT_NO_THROW(combinedGroupTable(d, c, JhLineDrawing::kDiagonal)) << d << " " << c;
      }
    }
  }
  EXPECT_THROW(jhAlgorithm4(4, JhLineDrawing::kDiagonal), Error);  // d = 4 has c = 2
}

// ---------------------------------------------------------------------------------------------
// Schedules: validity, steps and span (Table 6, Theorem 1)
// ---------------------------------------------------------------------------------------------

u64 half(int d) { return u64{1} << (d - 1); }
u64 alg1Steps(int d) { return static_cast<u64>(d) * ((half(d) + d - 1) / static_cast<u64>(d)); }
u64 alg3Span(int d) { return static_cast<u64>(d) + half(d) % static_cast<u64>(d); }

TEST(JohnssonHo, SchedulesAreValidWithThePapersStepsAndSpans) {
  for (int d = 1; d <= 14; ++d) {
    SCOPED_TRACE("d = " + std::to_string(d));
    struct Expect {
      RelativeSchedule s;
      u64 steps;
      u64 span;
    };
    std::vector<Expect> all = {{jhAlgorithm1(d), alg1Steps(d), static_cast<u64>(d)},
                               {jhAlgorithm2(d), half(d), half(d)},
                               {jhAlgorithm3(d), half(d), alg3Span(d)},
                               {jhAlgorithm4(d), half(d), static_cast<u64>(d)}};
    if (d != 4)
      all.push_back({jhAlgorithm4(d, JhLineDrawing::kDiagonal), half(d), static_cast<u64>(d)});
    for (const Expect& e : all) {
      const std::vector<std::string> bad = checkAapcRelativeSchedule(e.s);
      EXPECT_TRUE(bad.empty()) << e.s.algo() << ": " << (bad.empty() ? "" : bad.front());
      EXPECT_EQ(e.s.steps(), e.steps) << e.s.algo();
      EXPECT_EQ(relativeScheduleSpan(e.s), e.span) << e.s.algo();
    }
  }
}

TEST(JohnssonHo, Algorithm4HasSpanDAndKOver2StepsUpToDimension20) {
  for (const int d : {15, 16, 18, 20}) {
    const RelativeSchedule s = jhAlgorithm4(d);
    EXPECT_EQ(s.steps(), half(d)) << d;
    EXPECT_EQ(relativeScheduleSpan(s), static_cast<u64>(d)) << d;
    EXPECT_TRUE(checkAapcRelativeSchedule(s).empty()) << d;
  }
}

TEST(JohnssonHo, ScheduleCheckerCatchesViolations) {
  RelativeSchedule s = jhAlgorithm4(3);
  s.set(3, 0, 0b010);  // no bit 0; 001 now never crosses dimension 0; 010 sent twice in step 3
  const std::vector<std::string> bad = checkAapcRelativeSchedule(s);
  ASSERT_EQ(bad.size(), 4U);
  EXPECT_EQ(bad[0], "step 3, dimension 0: address 010 has no bit 0");
  EXPECT_EQ(bad[1], "step 3, dimension 1: address 010 is also sent across dimension 0");
  EXPECT_EQ(bad[2], "address 001 crosses dimensions 000, not its one bits");
  EXPECT_EQ(bad[3], "address 010 crosses dimensions 011, not its one bits");
}

TEST(JohnssonHo, RejectsImpossibleDimensions) {
  for (const int d : {0, 21}) {
    EXPECT_THROW(jhAlgorithm1(d), Error);
    EXPECT_THROW(jhAlgorithm2(d), Error);
    EXPECT_THROW(jhAlgorithm3(d), Error);
    EXPECT_THROW(jhAlgorithm4(d), Error);
  }
  try {
    jhAlgorithm4(21);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "jh4: dimension d = 21 is out of range (1..20)");
  }
  EXPECT_THROW(combinedGroupTable(5, 0, JhLineDrawing::kGreedy), Error);
  EXPECT_THROW(combinedGroupTable(5, 5, JhLineDrawing::kGreedy), Error);
}

// ---------------------------------------------------------------------------------------------
// Through the catalogue: table executor, reference model, static verifier
// ---------------------------------------------------------------------------------------------

RunResult runCase(const BuiltCase& c) {
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  return executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
}

struct Formula {
  const char* algo;
  u64 (*transfers)(int d);  ///< per AAPC of 2^d elements per node
  u64 (*span)(int d);
};

const Formula kFormulas[] = {
    {"jh1", alg1Steps, [](int d) { return static_cast<u64>(d); }},  // d * ceil(K/2d), span d
    {"jh2", half, half},                                            // K/2, span K/2
    {"jh3", half, alg3Span},                                        // K/2, span d + (K/2 mod d)
    {"jh4", half, [](int d) { return static_cast<u64>(d); }},       // K/2, span d
};

void expectCase(const Formula& f, int d, int max_d) {
  if (d > max_d) return;
  SCOPED_TRACE(std::string(f.algo) + " d = " + std::to_string(d));
  const BuiltCase c = buildCase({f.algo, d, 0, 1, false});
  const u64 k = u64{1} << d;
  EXPECT_EQ(c.lower_bound, k / 2);
  EXPECT_EQ(c.schedule_span, f.span(d));
  const RunResult r = runCase(c);
  const CheckResult check = checkAgainstReference(c.perm, r.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, k * k);
  EXPECT_EQ(r.transfer_cycles, f.transfers(d));
  EXPECT_EQ(r.cycles, f.transfers(d));
  EXPECT_EQ(r.span, f.span(d));
  // Minimum-length paths: every element crosses Sum(i ^ j) links, N * K * d / 2 words in all.
  EXPECT_EQ(r.words, k * k * static_cast<u64>(d) / 2);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_FALSE(r.timeout);
  const VerifyReport v = verifyTables(c.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  EXPECT_EQ(v.cycles, f.transfers(d));
}

TEST(JohnssonHoCatalogue, AllAlgorithmsRunCorrectlyForDimensions1To8) {
  for (const Formula& f : kFormulas) {
    for (int d = 1; d <= 8; ++d) expectCase(f, d, 8);
  }
}

TEST(JohnssonHoCatalogue, Algorithm4IsOptimalInStepsAndSpanForDimensions9And10) {
  for (int d = 9; d <= 10; ++d) expectCase(kFormulas[3], d, 10);
}

TEST(JohnssonHoCatalogue, RepeatedAapcKEqualsMTimes2ToTheN) {
  // The 2^d-element schedule runs m = K / 2^d times (Algorithm 1: packed, see below).
  for (const Formula& f : kFormulas) {
    for (const auto& [d, k] :
         std::vector<std::pair<int, u64>>{{1, 6}, {2, 12}, {3, 24}, {4, 48}, {5, 64}}) {
      SCOPED_TRACE(std::string(f.algo) + " d = " + std::to_string(d) + " K = " + std::to_string(k));
      const BuiltCase c = buildCase({f.algo, d, k, 1, false});
      const u64 m = k >> d;
      EXPECT_EQ(c.lower_bound, k / 2);
      const RunResult r = runCase(c);
      EXPECT_EQ(checkAgainstReference(c.perm, r.memory).mismatches, 0U);
      // Algorithm 1 packs the pairs of all repetitions: d * ceil(K/2d) (Johnsson & Ho 1992
      // §3.1, §5); the others repeat their 2^d-address schedule m times.
      const u64 dd = static_cast<u64>(d);
      EXPECT_EQ(r.transfer_cycles, std::string(f.algo) == "jh1" ? dd * ((k + 2 * dd - 1) / (2 * dd))
                                                                : m * f.transfers(d));
      EXPECT_EQ(r.span, f.span(d));
      EXPECT_TRUE(verifyTables(c.tables).ok());
    }
  }
}

TEST(JohnssonHoCatalogue, CatalogueEntriesNameTheirSource) {
  for (const std::string name : {"jh1", "jh2", "jh3", "jh4"}) {
    bool found = false;
    for (const AlgorithmInfo& a : algorithmCatalogue()) {
      if (a.name != name) continue;
      found = true;
      EXPECT_NE(a.source.find("Johnsson & Ho 1992"), std::string::npos) << name;
      EXPECT_NE(a.source.find("Algorithm " + name.substr(2)), std::string::npos) << name;
      EXPECT_FALSE(a.summary.empty());
    }
    EXPECT_TRUE(found) << name;
  }
}

TEST(JohnssonHoCatalogue, BadParametersAreNamed) {
  try {
    buildCase({"jh4", 0, 0, 1, false});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--n 0"), std::string::npos) << e.what();
  }
  try {
    buildCase({"jh2", 3, 12, 1, false});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--k 12"), std::string::npos) << e.what();
  }
  try {
    buildCase({"jh3", 3, 0, 1, false, {{"blocking", "yes"}}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--blocking 'yes': must be on or off");
  }
  EXPECT_THROW(buildCase({"jh3", 3, 0, 1, false, {{"packet", "4"}}}), Error);  // not jh3's
  EXPECT_THROW(buildCase({"jh1", 3, 0, 1, true}), Error);                      // one-port
}

}  // namespace
}  // namespace hcube

// Explicit alignment phases of the AAPC (Johnsson & Ho 1992 §2.2, §2.2.2): local permutations
// compiled into PERMUTE cycles, the paper's Tables 1 and 2 as memory states of the table
// executor after phase 1, exact cycle counts, and the Gray-code AAPC (j|i) -> (G(i)|G(j)).
#include "algorithms/aapc/alignment.h"

#include <gtest/gtest.h>

#include <sstream>

#include "base/error.h"
#include "exec/executor.h"
#include "spec/reference.h"
#include "tables/table_text.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

// ---------------------------------------------------------------------------------------------
// Local permutations into PERMUTE cycles
// ---------------------------------------------------------------------------------------------

TEST(LocalPermutation, ASwapIsOnePermute) {
  const std::vector<CopyCycle> c = compileLocalPermutation({1, 0, 2}, 2, -1);
  ASSERT_EQ(c.size(), 1U);
  EXPECT_EQ(c[0], (CopyCycle{{0, 1}, {1, 0}}));
}

TEST(LocalPermutation, ACycleLongerThanAPermuteIsRotatedInParts) {
  // 0 -> 1 -> 2 -> 3 -> 4 -> 0 with 3 copies per PERMUTE: rotate 0,1,2 (slots 1 and 2 are
  // done, slot 0 holds the word for slot 3), then the cycle 0 -> 3 -> 4 -> 0.
  const std::vector<CopyCycle> c = compileLocalPermutation({1, 2, 3, 4, 0}, 3, -1);
  ASSERT_EQ(c.size(), 2U);
  EXPECT_EQ(c[0], (CopyCycle{{0, 1}, {1, 2}, {2, 0}}));
  EXPECT_EQ(c[1], (CopyCycle{{0, 3}, {3, 4}, {4, 0}}));
}

TEST(LocalPermutation, OneCopyPerPermuteNeedsTheScratchSlot) {
  const std::vector<CopyCycle> c = compileLocalPermutation({1, 0}, 1, 2);
  EXPECT_EQ(c, (std::vector<CopyCycle>{{{1, 2}}, {{0, 1}}, {{2, 0}}}));
  try {
    compileLocalPermutation({1, 0}, 1, -1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "local permutation: 1 copy per PERMUTE cannot swap two slots without a scratch "
                 "slot");
  }
  EXPECT_THROW(compileLocalPermutation({1, 1}, 2, -1), Error);  // not a permutation
  EXPECT_THROW(compileLocalPermutation({1, 0}, 2, 1), Error);   // scratch inside the slots
}

TEST(LocalPermutation, TheScratchChainFillsTheOddCopyOfThreeCopyPermutes) {
  // Four swaps, three copies per PERMUTE: in place one swap per PERMUTE (4 cycles); through the
  // scratch slot the fourth swap runs as a chain in the idle third copies (3 cycles, the bound
  // ceil(8 / 3)).
  const std::vector<u32> swaps = {1, 0, 3, 2, 5, 4, 7, 6};
  EXPECT_EQ(compileLocalPermutation(swaps, 3, -1).size(), 4U);
  const std::vector<CopyCycle> c = compileLocalPermutation(swaps, 3, 8);
  ASSERT_EQ(c.size(), 3U);
  EXPECT_EQ(c[0], (CopyCycle{{0, 1}, {1, 0}, {3, 8}}));
  EXPECT_EQ(c[1], (CopyCycle{{4, 5}, {5, 4}, {2, 3}}));
  EXPECT_EQ(c[2], (CopyCycle{{6, 7}, {7, 6}, {8, 2}}));
}

TEST(LocalPermutation, EveryPermutationOfEightSlotsIsCompiledWithinItsCapacity) {
  // All 8! permutations for 2..4 copies per PERMUTE, with and without the scratch slot: the
  // compiled copies are checked by applying them (inside compileLocalPermutation); here each
  // PERMUTE stays within its capacity and the cycle count lies between the bound
  // ceil(moved / copies) and moved - 1 + cycles of the permutation.
  std::vector<u32> p = {0, 1, 2, 3, 4, 5, 6, 7};
  u64 checked = 0;
  do {
    size_t moved = 0;
    for (u32 s = 0; s < 8; ++s) moved += p[s] != s ? 1 : 0;
    for (size_t copies = 2; copies <= 4; ++copies) {
      for (long long scratch : {-1LL, 8LL}) {
        const std::vector<CopyCycle> c = compileLocalPermutation(p, copies, scratch);
        for (const CopyCycle& cycle : c) ASSERT_LE(cycle.size(), copies);
        ASSERT_GE(c.size() * copies, moved);
        ASSERT_LE(c.size(), moved);
        ++checked;
      }
    }
  } while (std::next_permutation(p.begin(), p.end()));
  EXPECT_EQ(checked, 40320U * 6U);
}

// ---------------------------------------------------------------------------------------------
// Johnsson & Ho 1992 Tables 1 and 2: the data after the alignment (phase 1), d = 3
// ---------------------------------------------------------------------------------------------

// Runs `c` on the table executor for `cycles` cycles (the executor stops with timeout set).
RunResult runFor(const BuiltCase& c, u64 cycles) {
  ExecOptions opt;
  opt.max_cycles = cycles;
  opt.tagged_elements = c.perm.elements();
  return executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
}

// "(p iii)": the element's initial node (decimal) and local address (binary), as the paper
// prints it.
std::string element(u32 tag, u64 k, int d) {
  return "(" + std::to_string(tag / k) + " " + testing::binary(tag % k, d) + ")";
}

std::string memoryRow(const RunResult& r, u64 slot, int d) {
  std::string row;
  for (u64 p = 0; p < r.memory.nodes; ++p) {
    row += (p ? " " : "") + element(r.memory.at(p, slot), u64{1} << d, d);
  }
  return row;
}

BuiltCase explicitCase(const std::string& algo, int d, const std::string& code = "binary",
                       u64 k = 0) {
  CaseSpec spec{algo, d, k, 1, false};
  spec.params = {{"alignment", "explicit"}, {"code", code}};
  return buildCase(spec);
}

TEST(Alignment, ReproducesTable1TheDataAfterPhase1ForDimension3) {
  const std::vector<std::string> lines = testing::goldenLines("jh_table1_d3.txt");
  ASSERT_EQ(lines.size(), 8U);
  AlignmentCost cost;
  const BuiltCase c =
      explicitAlignment(buildCase({"jh1", 3, 0, 1, false}), AddressCode::kBinary, &cost);
  EXPECT_EQ(cost.pre_cycles, 3U);
  const RunResult r = runFor(c, cost.pre_cycles);
  EXPECT_TRUE(r.timeout);
  EXPECT_EQ(r.local_cycles, 3U);
  EXPECT_EQ(r.transfer_cycles, 0U);
  EXPECT_TRUE(r.errors.empty());
  for (u64 a = 0; a < 8; ++a) {
    EXPECT_EQ(std::to_string(a) + " " + memoryRow(r, a, 3), lines[a]) << "rel-addr " << a;
  }
}

TEST(Alignment, ReproducesTable2TheComplementPairsAfterPhase1ForDimension3) {
  const std::vector<std::string> lines = testing::goldenLines("jh_table2_d3.txt");
  const BuiltCase c = explicitCase("jh4", 3);
  const RunResult r = runFor(c, 3);
  // The paper's rows: the complement pairs (000, 111), (001, 110), (010, 101), (011, 100).
  std::vector<std::string> rows;
  for (u64 low : {0, 1, 2, 3}) {
    rows.push_back(memoryRow(r, low, 3));
    rows.push_back(memoryRow(r, 7 - low, 3));
  }
  EXPECT_EQ(rows, lines);
}

// ---------------------------------------------------------------------------------------------
// Whole runs: exact cycle counts, every element, the verifier
// ---------------------------------------------------------------------------------------------

RunResult runAll(const BuiltCase& c) { return runFor(c, u64{1} << 32); }

// PERMUTE cycles of one alignment phase of the binary AAPC on a d-cube with K = 2^d, d copies per
// PERMUTE: every node but 0 swaps all K slots in pairs (slot s with s ^ x). d even: d/2 swaps per
// PERMUTE, K/d cycles rounded up (the bound ceil(K/d)); d odd: (d-1)/2 swaps plus a scratch
// chain in the odd copies; d = 1: one swap through the scratch slot, 3 cycles.
constexpr u64 kPhaseCycles[] = {0, 3, 2, 3, 4, 7, 11, 20, 32};
// Local-phase cycles (both phases) of the Gray-code AAPC, d = 1..8.
constexpr u64 kGrayLocalCycles[] = {0, 6, 6, 8, 10, 16, 24, 42, 68};

TEST(Alignment, EdelmanAndJh4ExplicitCycleCountsForDimensions1To8) {
  for (const char* algo : {"edelman", "jh4"}) {
    for (int d = 1; d <= 8; ++d) {
      const u64 k = u64{1} << d;
      AlignmentCost cost;
      const BuiltCase c =
          explicitAlignment(buildCase({algo, d, 0, 1, false}), AddressCode::kBinary, &cost);
      const RunResult r = runAll(c);
      const u64 phase = kPhaseCycles[d];
      EXPECT_EQ(cost.pre_cycles, phase) << algo << " d = " << d;
      EXPECT_EQ(cost.post_cycles, phase) << algo << " d = " << d;
      EXPECT_EQ(r.local_cycles, 2 * phase) << algo << " d = " << d;
      EXPECT_EQ(r.transfer_cycles, k / 2) << algo << " d = " << d;
      EXPECT_EQ(r.cycles, k / 2 + 2 * phase) << algo << " d = " << d;
      EXPECT_EQ(r.words, k * k * static_cast<u64>(d) / 2) << algo << " d = " << d;
      EXPECT_EQ(c.tables.header.scratch, d % 2 == 1 ? 1U : 0U) << algo << " d = " << d;
      EXPECT_TRUE(r.errors.empty()) << algo << " d = " << d;
      const CheckResult check = checkAgainstReference(c.perm, r.memory);
      EXPECT_EQ(check.mismatches, 0U) << algo << " d = " << d;
      EXPECT_EQ(check.correct, k * k) << algo << " d = " << d;
      // The exchange is the relative schedule's: same span.
      EXPECT_EQ(r.span, runAll(buildCase({algo, d, 0, 1, false})).span) << algo << " d = " << d;
      const VerifyReport v = verifyTables(c.tables);
      EXPECT_TRUE(v.ok()) << algo << " d = " << d << ": " << v.errors.at(0);
      EXPECT_EQ(v.cycles, k / 2 + 2 * phase);
    }
  }
}

TEST(Alignment, GrayCodeAapcPutsEveryElementWhereTheReferenceSaysForDimensions1To8) {
  for (int d = 1; d <= 8; ++d) {
    const u64 k = u64{1} << d;
    const BuiltCase c = explicitCase("jh4", d, "gray");
    EXPECT_EQ(c.perm.str(), grayAapc(d, k).str());
    const RunResult r = runAll(c);
    EXPECT_TRUE(r.errors.empty()) << "d = " << d;
    EXPECT_EQ(r.transfer_cycles, k / 2) << "d = " << d;
    // Both phases together: with G folded in, the local permutations have longer cycles than the
    // plain pairwise swaps, so a few cycles more than 2 * kPhaseCycles.
    EXPECT_EQ(r.local_cycles, kGrayLocalCycles[d]) << "d = " << d;
    EXPECT_EQ(r.cycles, k / 2 + kGrayLocalCycles[d]) << "d = " << d;
    EXPECT_EQ(r.span, static_cast<u64>(d)) << "d = " << d;  // Algorithm 4: optimal span d
    const CheckResult check = checkAgainstReference(c.perm, r.memory);
    EXPECT_EQ(check.mismatches, 0U) << "d = " << d;
    EXPECT_EQ(check.correct, k * k) << "d = " << d;
    for (u64 y = 0; y < std::min<u64>(k, 4); ++y) {
      for (u64 s = 0; s < k; ++s) {
        // (j|i) -> (G(i)|G(j)): node y slot s holds the element from node G^-1(s), slot G^-1(y).
        ASSERT_EQ(r.memory.at(y, s), grayDecode(s) * k + grayDecode(y)) << d << " " << y;
      }
    }
    const VerifyReport v = verifyTables(c.tables);
    EXPECT_TRUE(v.ok()) << "d = " << d << ": " << v.errors.at(0);
    EXPECT_EQ(v.cycles, k / 2 + kGrayLocalCycles[d]);
  }
}

TEST(Alignment, RepeatedAapcAlignsOnlyTheLowDSlotBits) {
  // K = m * 2^d: slot (h, i); the XOR touches i only.
  for (const auto& [d, k] : std::vector<std::pair<int, u64>>{{2, 8}, {3, 16}, {3, 24}, {4, 32}}) {
    const BuiltCase c = explicitCase("jh2", d, "binary", k);
    const RunResult r = runAll(c);
    EXPECT_EQ(checkAgainstReference(c.perm, r.memory).mismatches, 0U) << d << " " << k;
    EXPECT_EQ(r.transfer_cycles, k / 2) << d << " " << k;
    EXPECT_TRUE(r.errors.empty()) << d << " " << k;
    EXPECT_TRUE(verifyTables(c.tables).ok()) << d << " " << k;
  }
  const BuiltCase g = explicitCase("jh4", 3, "gray", 32);
  EXPECT_EQ(checkAgainstReference(g.perm, runAll(g).memory).mismatches, 0U);
  EXPECT_THROW(explicitCase("jh4", 3, "gray", 24), Error);  // K not a power of two
}

TEST(Alignment, AppliesToWideChannelsStartUpCostsAndTheOnePortExchange) {
  struct Want {
    CaseSpec spec;
    u64 phase;     // PERMUTE cycles per alignment phase
    u64 exchange;  // cycles of the relative case (transfers and WAITs), unchanged
    u64 transfer;
    u64 scratch;
  };
  CaseSpec tau{"jh4", 4, 0, 1, false};
  tau.params = {{"tau", "2"}};
  const std::vector<Want> cases = {
      // n*b = 15 copies per PERMUTE, K = 256: ceil(256/15) = 18 per phase.
      {{"jh4", 5, 256, 3, false}, 18, 43, 43, 1},
      // tau = 2: the WAITs of the exchange stay; 4 copies per PERMUTE, K/4 per phase.
      {tau, 4, 24, 8, 0},
      // One-port standard exchange (Johnsson & Ho 1987 §5): PERMUTE is not restricted by it.
      {{"exchange", 4, 0, 1, true}, 4, 32, 32, 0},
      // K = 32 on a 3-cube: 16 swaps, one per PERMUTE and the odd copies chain 4 more.
      {{"jh1", 3, 32, 1, false}, 12, 18, 18, 1},
      // n*b = 10: 5 swaps per PERMUTE.
      {{"jh3", 5, 0, 2, false}, 4, 8, 8, 0},
  };
  for (const Want& w : cases) {
    const std::string what = w.spec.algo + " n=" + std::to_string(w.spec.n);
    CaseSpec spec = w.spec;
    spec.params["alignment"] = "explicit";
    const BuiltCase c = buildCase(spec);
    const RunResult r = runAll(c);
    EXPECT_EQ(r.local_cycles, 2 * w.phase) << what;
    EXPECT_EQ(r.cycles, w.exchange + 2 * w.phase) << what;
    EXPECT_EQ(r.transfer_cycles, w.transfer) << what;
    EXPECT_EQ(c.tables.header.scratch, w.scratch) << what;
    EXPECT_TRUE(r.errors.empty()) << what;
    EXPECT_EQ(checkAgainstReference(c.perm, r.memory).mismatches, 0U) << what;
    EXPECT_TRUE(verifyTables(c.tables).ok()) << what;
  }
}

TEST(Alignment, GrayCodeTablesForDimension2MatchTheGoldenFile) {
  std::ostringstream text;
  writeTableText(text, explicitCase("jh4", 2, "gray").tables);
  std::vector<std::string> written;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] != '#') written.push_back(line);
  }
  EXPECT_EQ(written, testing::goldenLines("jh4_explicit_gray_d2.hct"));
  const TableSet back =
      readTableTextFile(std::string(HCUBE_GOLDEN_DIR) + "/jh4_explicit_gray_d2.hct");
  EXPECT_EQ(back, explicitCase("jh4", 2, "gray").tables);
}

TEST(Alignment, GrayAapcSpecIsTheGrayCodeExchange) {
  const PermutationSpec p = grayAapc(3, 16);  // m = 2: (j|h,i) -> (G(i)|h,G(j))
  for (u64 j = 0; j < 8; ++j) {
    for (u64 h = 0; h < 2; ++h) {
      for (u64 i = 0; i < 8; ++i) {
        EXPECT_EQ(p.dest({j, h * 8 + i}), (GlobalAddress{grayEncode(i), h * 8 + grayEncode(j)}));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

std::string errorOf(const CaseSpec& spec) {
  try {
    buildCase(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Alignment, OptionsAreCheckedAndRelativeIsTodaysBehaviour) {
  CaseSpec spec{"jh4", 4, 0, 1, false};
  const BuiltCase plain = buildCase(spec);
  spec.params = {{"alignment", "relative"}, {"code", "binary"}};
  const BuiltCase relative = buildCase(spec);
  EXPECT_EQ(relative.tables, plain.tables);
  spec.params = {{"alignment", "sideways"}};
  EXPECT_EQ(errorOf(spec), "--alignment 'sideways': must be 'explicit' or 'relative'");
  spec.params = {{"code", "hex"}};
  EXPECT_EQ(errorOf(spec), "--code 'hex': must be 'binary' or 'gray'");
  spec.params = {{"code", "gray"}};
  EXPECT_EQ(errorOf(spec),
            "--code gray: needs --alignment explicit (the Gray-code conversion is folded into the "
            "local alignment phases, Johnsson & Ho 1992 section 2.2.2)");
  spec.params = {{"alignment", "explicit"}, {"flavour", "3"}};  // the family still checks the rest
  EXPECT_EQ(errorOf(spec), "--flavour: algorithm 'jh4' takes no such option");
  CaseSpec other{"bit-reversal", 3, 0, 1, false};
  other.params = {{"alignment", "explicit"}};
  EXPECT_EQ(errorOf(other),
            "--alignment: algorithm 'bit-reversal' is not a relative-address AAPC (it performs "
            "'dim n=3 k=3 delta=5,4,3,2,1,0', not an AAPC), so it has no alignment phases to make "
            "explicit");
  other.params = {{"alignment", "relative"}, {"code", "binary"}};
  EXPECT_NE(errorOf(other).find("--alignment: algorithm 'bit-reversal' is not a relative-address "
                                "AAPC"),
            std::string::npos);
}

}  // namespace
}  // namespace hcube

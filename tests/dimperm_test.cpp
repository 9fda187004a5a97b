// Dimension permutations by transposition (Johnsson & Ho 1987 §7): Lemma 15's parallel
// swappings, the plans, and bit-reversal / k-shuffle / dimperm cases on the table executor with
// exact cycle counts, every element where the reference model says and the verifier clean.
#include "algorithms/permutations/dimperm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

int ceilLog2(int d) {
  int l = 0;
  while ((1 << l) < d) ++l;
  return l;
}

/// Applies swappings in order to positions: where[i] is where the content of position i ends.
std::vector<int> applySwappings(int d, const std::vector<std::vector<std::pair<int, int>>>& sw) {
  std::vector<int> at(d);  // at[p]: original position whose content is at p
  std::iota(at.begin(), at.end(), 0);
  for (const auto& level : sw) {
    std::vector<bool> touched(d, false);
    for (const auto& [a, b] : level) {
      EXPECT_FALSE(touched[a] || touched[b]) << "a parallel swapping touches a position twice";
      touched[a] = touched[b] = true;
      std::swap(at[a], at[b]);
    }
  }
  std::vector<int> where(d);
  for (int p = 0; p < d; ++p) where[at[p]] = p;
  return where;
}

TEST(ParallelSwappings, EveryPermutationOfUpTo7DimensionsTakesAtMostCeilLog2Swappings) {
  // Lemma 15: any dimension permutation by ceil(log2 n) parallel swappings (Definition 18).
  for (int d = 1; d <= 7; ++d) {
    std::vector<int> rho(d);
    std::iota(rho.begin(), rho.end(), 0);
    u64 count = 0;
    do {
      const auto sw = parallelSwappings(rho);
      ASSERT_LE(static_cast<int>(sw.size()), ceilLog2(d)) << "d = " << d;
      for (const auto& level : sw) ASSERT_FALSE(level.empty());
      ASSERT_EQ(applySwappings(d, sw), rho) << "d = " << d;
      ++count;
    } while (std::next_permutation(rho.begin(), rho.end()));
    EXPECT_EQ(count, static_cast<u64>(std::tgamma(d + 1) + 0.5));
  }
}

TEST(ParallelSwappings, ExactCountsForKnownPermutations) {
  EXPECT_TRUE(parallelSwappings({0, 1, 2, 3}).empty());  // identity
  // An involution (the node bit-reversal) is one parallel swapping.
  const auto rev = parallelSwappings({5, 4, 3, 2, 1, 0});
  ASSERT_EQ(rev.size(), 1U);
  EXPECT_EQ(rev[0], (std::vector<std::pair<int, int>>{{0, 5}, {1, 4}, {2, 3}}));
  // A cycle of three needs two; the 8-dimensional shuffle (Figure 8's size) three = log2 8.
  EXPECT_EQ(parallelSwappings({1, 2, 0}).size(), 2U);
  EXPECT_EQ(parallelSwappings({1, 2, 3, 4, 5, 6, 7, 0}).size(), 3U);
  // For larger n the bound holds on random permutations.
  std::mt19937 rng(15);
  for (int d : {9, 12, 16, 24}) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<int> rho(d);
      std::iota(rho.begin(), rho.end(), 0);
      std::shuffle(rho.begin(), rho.end(), rng);
      const auto sw = parallelSwappings(rho);
      ASSERT_LE(static_cast<int>(sw.size()), ceilLog2(d));
      ASSERT_EQ(applySwappings(d, sw), rho);
    }
  }
}

TEST(ParallelSwappings, TwoReflectionsAlwaysSuffice) {
  // Every permutation is a product of two involutions: each cycle c0 -> c1 -> ... as the
  // reflection c[i] <-> c[-i] followed by c[j] <-> c[1 - j]. So two parallel swappings always do,
  // fewer than Lemma 15's ceil(log2 n) from n = 5 on (the 8-dimensional shuffle: 2, not 3).
  for (int d = 1; d <= 7; ++d) {
    std::vector<int> rho(d);
    std::iota(rho.begin(), rho.end(), 0);
    do {
      const auto sw = twoReflections(rho);
      ASSERT_LE(sw.size(), 2U);
      for (const auto& level : sw) ASSERT_FALSE(level.empty());
      ASSERT_EQ(applySwappings(d, sw), rho) << "d = " << d;
      bool involution = true;
      for (int i = 0; i < d; ++i) involution = involution && rho[rho[i]] == i;
      const bool identity = std::is_sorted(rho.begin(), rho.end());
      ASSERT_EQ(sw.size(), identity ? 0U : involution ? 1U : 2U);
    } while (std::next_permutation(rho.begin(), rho.end()));
  }
  EXPECT_EQ(twoReflections({1, 2, 3, 4, 5, 6, 7, 0}).size(), 2U);
  std::mt19937 rng(18);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> rho(24);
    std::iota(rho.begin(), rho.end(), 0);
    std::shuffle(rho.begin(), rho.end(), rng);
    ASSERT_EQ(applySwappings(24, twoReflections(rho)), rho);
  }
}

TEST(ParallelSwappings, RejectsANonPermutation) {
  EXPECT_THROW(parallelSwappings({0, 0, 1}), Error);
  EXPECT_THROW(parallelSwappings({0, 3}), Error);
}

TEST(DimPermPlan, RealisesRandomPermutations) {
  std::mt19937 rng(7);
  for (int n = 1; n <= 8; ++n) {
    for (int k = 1; k <= 8; ++k) {
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<int> delta(n + k);
        std::iota(delta.begin(), delta.end(), 0);
        std::shuffle(delta.begin(), delta.end(), rng);
        const DimPermPlan plan = planDimensionPermutation(n, k, delta);
        ASSERT_EQ(planEffect(plan), delta);
        ASSERT_LE(static_cast<int>(plan.swappings.size()), ceilLog2(n));
        for (const DimPermPhase& p : plan.phases) {
          if (p.kind != DimPermPhase::Kind::kExchange) continue;
          ASSERT_LE(static_cast<int>(p.pairs.size()), std::min(n, k));
        }
      }
    }
  }
}

TEST(DimPermPlan, BitReversalWithKEqualNIsOneExchangeRound) {
  // Johnsson & Ho 1987 §7: f(i) = i, g(i) = q - 1 - i; with n = k every pair is a node bit and a
  // local bit, so the general exchange algorithm needs one round and nothing else.
  const int n = 4;
  std::vector<int> delta(2 * n);
  for (int b = 0; b < 2 * n; ++b) delta[b] = 2 * n - 1 - b;
  const DimPermPlan plan = planDimensionPermutation(n, n, delta);
  ASSERT_EQ(plan.phases.size(), 1U);
  EXPECT_EQ(plan.phases[0].pairs, (std::vector<BitExchange>{{0, 3}, {1, 2}, {2, 1}, {3, 0}}));
  EXPECT_TRUE(plan.swappings.empty());
  EXPECT_EQ(plan.transferCycles(false), 8U);      // K/2
  EXPECT_EQ(plan.transferCycles(true), 4U * 8U);  // n * K/2
}

TEST(DimPermPlan, NodeBitsWithoutALocalBitAreAnError) {
  EXPECT_THROW(planDimensionPermutation(2, 0, {1, 0}), Error);
  EXPECT_NO_THROW(planDimensionPermutation(2, 0, {0, 1}));
  EXPECT_THROW(planDimensionPermutation(2, 1, {0, 1}), Error);     // wrong length
  EXPECT_THROW(planDimensionPermutation(2, 1, {0, 1, 1}), Error);  // not a permutation
}

TEST(LocalPermute, CyclesOfSlotsPackedIntoPermuteCycles) {
  // Swapping local bits 0 and 1 of K = 4: slots 1 and 2 trade places, one PERMUTE of 2 copies.
  EXPECT_EQ(localPermuteCycles(2, {1, 0}, 2), 1U);
  // With one copy per cycle a swap goes through the scratch slot: 3 copies.
  EXPECT_EQ(localPermuteCycles(2, {1, 0}, 1), 3U);
  // A 3-cycle of local bits (K = 8) moves 6 slots in two 3-cycles: 2 PERMUTEs of 3 copies,
  // 3 PERMUTEs of 2 copies (each settles one slot of a cycle and closes it with the last copy).
  EXPECT_EQ(localPermuteCycles(3, {1, 2, 0}, 3), 2U);
  EXPECT_EQ(localPermuteCycles(3, {1, 2, 0}, 2), 4U);
  // Never fewer than the honest bound ceil(moved / copies) (docs/hardware/node.md §2.1).
  EXPECT_EQ(localPermuteCycles(4, {3, 2, 1, 0}, 6), 2U);  // 12 slots move; 6 pairs
}

using testing::caseSpec;
using testing::CheckedRun;
using testing::expectCleanRun;
using testing::runChecked;

TEST(BitReversal, KEqualsNMeetsTheBoundAllPortAndOnePortForNUpTo8) {
  // One exchange round: K/2 cycles all-port (Edelman's schedule within each subcube), n * K/2
  // one-port (the exchange algorithm): both equal Ho & Johnsson 1988 Theorem 1's bound.
  for (int n = 1; n <= 8; ++n) {
    const u64 k = u64{1} << n;
    for (bool one_port : {false, true}) {
      if (one_port && n > 6) continue;  // same schedule shape; keeps the test fast
      const BuiltCase c = buildCase(caseSpec("bit-reversal", n, k, 1, one_port));
      const CheckedRun m = runChecked(c);
      const std::string what = "n = " + std::to_string(n) + (one_port ? " one-port" : "");
      expectCleanRun(m, c.perm.elements(), what);
      const u64 want = one_port ? static_cast<u64>(n) * k / 2 : k / 2;
      EXPECT_EQ(m.run.cycles, want) << what;
      EXPECT_EQ(m.run.transfer_cycles, want) << what;
      EXPECT_EQ(m.run.local_cycles, 0U) << what;
      EXPECT_EQ(c.lower_bound, want) << what;
      // Every element whose address changes crosses one link per differing node bit.
      EXPECT_EQ(m.run.words, static_cast<u64>(n) * (u64{1} << n) * k / 2) << what;
    }
  }
}

TEST(BitReversal, KLargerThanNAddsALocalReversal) {
  // n = 3, K = 32 (k = 5): node bits 0, 1, 2 swap with local bits 2, 1, 0 (one round, K/2 = 16
  // cycles); local bits 3 and 4 swap: the 16 slots whose bits 3 and 4 differ trade places in 8
  // pairs, and a PERMUTE of n = 3 channels holds one pair (a pair needs both its copies in one
  // cycle), so 8 PERMUTE cycles.
  const BuiltCase c = buildCase(caseSpec("bit-reversal", 3, 32, 1, false));
  const CheckedRun m = runChecked(c);
  expectCleanRun(m, c.perm.elements(), "n=3 K=32");
  EXPECT_EQ(m.run.transfer_cycles, 16U);
  EXPECT_EQ(m.run.local_cycles, 8U);
  EXPECT_EQ(m.run.cycles, 24U);
  EXPECT_EQ(c.lower_bound, 16U);
}

TEST(BitReversal, NodeBitsOnlyIsOneParallelSwappingOfThreeRounds) {
  // --bits node, n = 6: rho = (0 5)(1 4)(2 3) is one parallel swapping (Definition 18), each
  // pair through its own local bit: 3 rounds of K/2 all-port, 3 rounds of 3 * K/2 one-port.
  for (bool one_port : {false, true}) {
    const BuiltCase c = buildCase(caseSpec("bit-reversal", 6, 64, 1, one_port, {{"bits", "node"}}));
    const CheckedRun m = runChecked(c);
    expectCleanRun(m, c.perm.elements(), one_port ? "one-port" : "all-port");
    EXPECT_EQ(m.run.cycles, one_port ? 9U * 32U : 3U * 32U);
    EXPECT_EQ(m.run.local_cycles, 0U);
    EXPECT_EQ(c.lower_bound, one_port ? 6U * 32U : 32U);
  }
  // k = 1: the three pairs share the one local bit, one after the other: 9 rounds of K/2 = 1.
  const BuiltCase c = buildCase(caseSpec("bit-reversal", 6, 2, 1, false, {{"bits", "node"}}));
  const CheckedRun m = runChecked(c);
  expectCleanRun(m, c.perm.elements(), "K = 2");
  EXPECT_EQ(m.run.cycles, 9U);
}

TEST(KShuffle, ThreeDimensionalExampleExactCycles) {
  // n = 3, K = 8, shift 1: bit b -> b + 1 mod 6. Node bit 2 leaves for local bit 0 and local
  // bit 2 enters node bit 0: one exchange round (n2<->l2); the node bits are then the 3-cycle
  // 0 -> 1 -> 2 -> 0: two parallel swappings of one pair, 6 rounds; 7 rounds of K/2 = 4 is
  // 28 transfer cycles. The local bits are left with the 3-cycle 0 -> 1 -> 2 -> 0: two 3-cycles
  // of slots, each one PERMUTE of n = 3 copies.
  const BuiltCase c = buildCase(caseSpec("k-shuffle", 3, 8, 1, false));
  const CheckedRun m = runChecked(c);
  expectCleanRun(m, c.perm.elements(), "shuffle");
  EXPECT_EQ(m.run.transfer_cycles, 28U);
  EXPECT_EQ(m.run.local_cycles, 2U);
  EXPECT_EQ(m.run.cycles, 30U);
  EXPECT_EQ(c.lower_bound, 4U);
}

TEST(KShuffle, ShuffleAndUnshuffleForManyShiftsAreCorrect) {
  for (int n = 1; n <= 5; ++n) {
    for (int k : {1, 2, 3, 5}) {
      const int q = n + k;
      for (int s = -(q - 1); s <= q - 1; ++s) {
        for (bool one_port : {false, true}) {
          const BuiltCase c = buildCase(
              caseSpec("k-shuffle", n, u64{1} << k, 1, one_port, {{"shift", std::to_string(s)}}));
          const CheckedRun m = runChecked(c);
          const std::string what = "n=" + std::to_string(n) + " k=" + std::to_string(k) +
                                   " s=" + std::to_string(s) + (one_port ? " one-port" : "");
          expectCleanRun(m, c.perm.elements(), what);
          const DimPermPlan plan = planDimensionPermutation(n, k, c.perm.delta());
          EXPECT_EQ(m.run.transfer_cycles, plan.transferCycles(one_port)) << what;
          EXPECT_GE(m.run.transfer_cycles, c.lower_bound) << what;
        }
      }
    }
  }
}

TEST(Dimperm, RandomPermutationsExactCyclesForNUpTo8) {
  std::mt19937 rng(1987);
  for (int n = 1; n <= 8; ++n) {
    for (int k : {1, 2, 4, 6}) {
      if (n + k > 12) continue;
      for (int trial = 0; trial < 4; ++trial) {
        std::vector<int> delta(n + k);
        std::iota(delta.begin(), delta.end(), 0);
        std::shuffle(delta.begin(), delta.end(), rng);
        std::string text;
        for (int d : delta) text += (text.empty() ? "" : ",") + std::to_string(d);
        for (bool one_port : {false, true}) {
          const BuiltCase c =
              buildCase(caseSpec("dimperm", n, u64{1} << k, 1, one_port, {{"delta", text}}));
          const CheckedRun m = runChecked(c);
          const std::string what = "n=" + std::to_string(n) + " k=" + std::to_string(k) +
                                   " delta=" + text + (one_port ? " one-port" : "");
          expectCleanRun(m, c.perm.elements(), what);
          const DimPermPlan plan = planDimensionPermutation(n, k, delta);
          u64 local = 0;
          for (const DimPermPhase& p : plan.phases) {
            if (p.kind == DimPermPhase::Kind::kLocal)
              local += localPermuteCycles(k, p.local_perm, n);
          }
          EXPECT_EQ(m.run.transfer_cycles, plan.transferCycles(one_port)) << what;
          EXPECT_EQ(m.run.local_cycles, local) << what;
          EXPECT_EQ(m.run.cycles, plan.transferCycles(one_port) + local) << what;
        }
      }
    }
  }
}

TEST(Dimperm, DeltaExampleN6K16) {
  // hcube run --algo dimperm --n 6 --k 16 --delta 3,0,5,1,4,2,9,8,7,6: positions 0..3 are the
  // local bits, 4..9 the node bits 0..5. Local bit 2 enters node bit 1 (position 5) and node bit
  // 1 leaves for local bit 2: one exchange round pairs them directly. Node bits 2..5 are
  // reversed: one parallel swapping of two pairs, 3 rounds. Local bits 0 -> 3 -> 1 -> 0 are a
  // 3-cycle: 12 slots move in four 3-cycles, two per PERMUTE of n = 6 channels.
  const std::string delta = "3,0,5,1,4,2,9,8,7,6";
  const BuiltCase c = buildCase(caseSpec("dimperm", 6, 16, 1, false, {{"delta", delta}}));
  const CheckedRun m = runChecked(c);
  expectCleanRun(m, c.perm.elements(), delta);
  const DimPermPlan plan = planDimensionPermutation(6, 4, c.perm.delta());
  // Local bit 2 enters node bit 1 (position 5), node bit 1 (position 5) leaves for local bit 2:
  // the exchange pairs them directly; then the node bits 2..5 are reversed (one parallel
  // swapping of two pairs, 3 rounds); the local bits 0, 1, 3 form a 3-cycle: 4 rounds of K/2.
  EXPECT_EQ(plan.exchangeRounds(), 4);
  EXPECT_EQ(plan.swappings.size(), 1U);
  EXPECT_EQ(m.run.transfer_cycles, 4U * 8U);
  EXPECT_EQ(m.run.local_cycles, 2U);
  EXPECT_EQ(m.run.cycles, 34U);
  EXPECT_EQ(c.lower_bound, 8U);
}

TEST(Dimperm, NodeBitsExchangedTwiceTakeTwoRounds) {
  // §7's other way: the moved node bits out to local bits, a local permutation, and back: two
  // exchange rounds whatever the node permutation (Lemma 15 needs three per parallel swapping).
  std::mt19937 rng(17);
  for (int n = 1; n <= 7; ++n) {
    for (int k = n; k <= n + 2; ++k) {
      std::vector<int> delta(n + k);
      std::iota(delta.begin(), delta.end(), 0);
      std::shuffle(delta.begin(), delta.end(), rng);
      const DimPermPlan plan =
          planDimensionPermutation(n, k, delta, NodePermMethod::kExchangeTwice);
      ASSERT_EQ(planEffect(plan), delta);
      EXPECT_TRUE(plan.swappings.empty());
      EXPECT_LE(plan.exchangeRounds(), 3);
    }
  }
  // Node bit-reversal, n = 6, K = 64: 2 rounds of K/2 = 64 transfer cycles; the local
  // permutation between them reverses local bits 0..5: 28 pairs of slots, 3 per PERMUTE of n = 6
  // channels, 10 cycles. Lemma 15's single parallel swapping takes 3 rounds, 96 cycles.
  const BuiltCase c = buildCase(caseSpec("bit-reversal", 6, 64, 1, false,
                                         {{"bits", "node"}, {"node-perm", "exchange-twice"}}));
  const CheckedRun m = runChecked(c);
  expectCleanRun(m, c.perm.elements(), "exchange-twice");
  EXPECT_EQ(m.run.transfer_cycles, 64U);
  EXPECT_EQ(m.run.local_cycles, 10U);
  EXPECT_EQ(m.run.cycles, 74U);
  // The dimperm example delta = 3,0,5,1,4,2,9,8,7,6: the exchange round and two more (3 x K/2 =
  // 24); local: reversing local bits 0..3 between the rounds (6 pairs, 2 PERMUTEs) and the final
  // 3-cycle of local bits (2 PERMUTEs).
  const BuiltCase d =
      buildCase(caseSpec("dimperm", 6, 16, 1, false,
                         {{"delta", "3,0,5,1,4,2,9,8,7,6"}, {"node-perm", "exchange-twice"}}));
  const CheckedRun md = runChecked(d);
  expectCleanRun(md, d.perm.elements(), "dimperm exchange-twice");
  EXPECT_EQ(md.run.transfer_cycles, 24U);
  EXPECT_EQ(md.run.local_cycles, 4U);
  // Not enough local bits for all moved node bits: an error naming the options.
  EXPECT_THROW(buildCase(caseSpec("k-shuffle", 6, 4, 1, false,
                                  {{"bits", "node"}, {"node-perm", "exchange-twice"}})),
               Error);
  EXPECT_THROW(buildCase(caseSpec("k-shuffle", 6, 64, 1, false, {{"node-perm", "both"}})), Error);
}

TEST(Dimperm, TwoSwappingsForTheNodeShuffle) {
  // The 6-dimensional node shuffle (a 6-cycle): Lemma 15 takes ceil(log2 6) = 3 parallel
  // swappings (9 rounds of K/2 = 288 cycles), two reflections take 2 (6 rounds, 192 cycles).
  for (const auto& [method, swappings] :
       {std::pair<std::string, u64>{"swappings", 3}, {"two-swappings", 2}}) {
    const BuiltCase c = buildCase(
        caseSpec("k-shuffle", 6, 64, 1, false, {{"bits", "node"}, {"node-perm", method}}));
    const CheckedRun m = runChecked(c);
    expectCleanRun(m, c.perm.elements(), method);
    EXPECT_EQ(m.run.cycles, swappings * 3 * 32) << method;
    EXPECT_EQ(m.run.local_cycles, 0U) << method;
  }
}

TEST(Dimperm, BadInputNamesTheOption) {
  auto message = [](const CaseSpec& s) { return testing::errorOf([&] { buildCase(s); }); };
  EXPECT_NE(message(caseSpec("dimperm", 2, 4, 1, false, {{"delta", "0,1,2,2"}})).find("--delta"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("dimperm", 2, 4, 1, false, {{"delta", "0,1,2,2"}}))
                .find("not a permutation"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("dimperm", 2, 4, 1, false, {{"delta", "0,1,2"}})).find("--delta"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("dimperm", 2, 4, 1, false, {{"delta", "0,1,2,4"}})).find("--delta"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("dimperm", 2, 4, 1, false, {{"delta", "0,1,x,3"}})).find("--delta"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("dimperm", 2, 4, 1, false)).find("--delta"), std::string::npos);
  EXPECT_NE(message(caseSpec("dimperm", 2, 6, 1, false, {{"delta", "0,1,2,3"}})).find("--k"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("bit-reversal", 3, 1, 1, false)).find("--k 1"), std::string::npos);
  EXPECT_NE(message(caseSpec("bit-reversal", 3, 8, 1, false, {{"bits", "some"}})).find("--bits"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("k-shuffle", 3, 8, 1, false, {{"shift", "6"}})).find("--shift"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("k-shuffle", 3, 8, 1, false, {{"tau", "6"}})).find("--tau"),
            std::string::npos);
}

}  // namespace
}  // namespace hcube

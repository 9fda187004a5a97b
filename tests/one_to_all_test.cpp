// One-to-all / all-to-one and some-to-all / all-to-some personalized communication (Johnsson &
// Ho 1987 §3.1, §3.3, Theorem 1, Table 3): the spanning trees, and the table executor with exact
// cycle counts, every element that takes part where the reference model says.
#include "algorithms/permutations/one_to_all.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

TEST(SpanningTrees, SbntBaseIsTheRotationToTheSmallestValue) {
  // §5 pseudo-code: base(j) = the smallest number of right rotations of j that yields the
  // smallest value among all rotations of j.
  EXPECT_EQ(sbntBase(0b0110, 4), 1);  // 0110 -> 0011
  EXPECT_EQ(sbntBase(0b0101, 4), 0);  // already the smallest (0101 and 1010 alternate)
  EXPECT_EQ(sbntBase(0b1000, 4), 3);  // -> 0001
  EXPECT_EQ(sbntBase(0b1101, 4), 2);  // rotations 1101, 1110, 0111, 1011: 0111 after 2
  EXPECT_EQ(treePath(SpanningTree::kSbnt, 0b0110, 4, 0), (std::vector<int>{1, 2}));
  EXPECT_EQ(treePath(SpanningTree::kSbnt, 0b1101, 4, 0), (std::vector<int>{2, 3, 0}));
  EXPECT_EQ(treePath(SpanningTree::kSbt, 0b1101, 4, 0), (std::vector<int>{3, 2, 0}));
  // Rotated by one (Definition 8): the SBT of the addresses rotated right by one.
  EXPECT_EQ(treePath(SpanningTree::kRsbt, 0b1101, 4, 1), (std::vector<int>{0, 3, 2}));
}

TEST(SpanningTrees, EveryPathIsShortestAndThePathsFormATree) {
  // A spanning tree rooted at 0: the path to r crosses each 1-bit of r once, and without its last
  // hop it is the path to r's parent (r with the last hop's bit cleared).
  for (int d = 1; d <= 10; ++d) {
    for (SpanningTree tree : {SpanningTree::kSbt, SpanningTree::kSbnt, SpanningTree::kRsbt}) {
      for (int rot = 0; rot < (tree == SpanningTree::kRsbt ? d : 1); ++rot) {
        for (u64 r = 1; r < (u64{1} << d); ++r) {
          const std::vector<int> p = treePath(tree, r, d, rot);
          u64 seen = 0;
          for (int dim : p) {
            ASSERT_TRUE(bitOf(r, dim) && !bitOf(seen, dim)) << d << " " << r;
            seen |= u64{1} << dim;
          }
          ASSERT_EQ(seen, r);
          const u64 parent = r ^ (u64{1} << p.back());
          std::vector<int> prefix(p.begin(), p.end() - 1);
          ASSERT_EQ(treePath(tree, parent, d, rot), prefix)
              << spanningTreeName(tree) << " d=" << d << " r=" << r << " rot=" << rot;
        }
      }
    }
  }
}

TEST(SpanningTrees, SbntSplitsTheNodesIntoNearlyEqualSubtrees) {
  // §3.1: the SBnT divides the nodes other than the root into n approximately equal sets (one per
  // port of the root); the SBT puts half of them behind one port. A necklace of full period d
  // (d distinct rotations) has one node behind every port, so only the nodes of shorter period
  // can make the subtrees unequal; for prime d these are just 11..1 (base 0): the subtrees hold
  // exactly (2^d - 2)/d nodes, one more behind port 0.
  for (int d = 2; d <= 12; ++d) {
    std::vector<u64> sbnt(d, 0);
    std::vector<u64> sbt(d, 0);
    u64 full_period = 0;
    for (u64 r = 1; r < (u64{1} << d); ++r) {
      ++sbnt[treePath(SpanningTree::kSbnt, r, d, 0).front()];
      ++sbt[treePath(SpanningTree::kSbt, r, d, 0).front()];
      bool full = true;
      for (int t = 1; t < d; ++t) {
        full = full && (((r >> t) | (r << (d - t))) & ((u64{1} << d) - 1)) != r;
      }
      full_period += full ? 1 : 0;
    }
    EXPECT_EQ(*std::max_element(sbt.begin(), sbt.end()), u64{1} << (d - 1));
    const u64 short_period = (u64{1} << d) - 1 - full_period;
    EXPECT_GE(*std::min_element(sbnt.begin(), sbnt.end()), full_period / d) << "d = " << d;
    EXPECT_LE(*std::max_element(sbnt.begin(), sbnt.end()), full_period / d + short_period)
        << "d = " << d;
    if (d == 2 || d == 3 || d == 5 || d == 7 || d == 11) {
      EXPECT_EQ(short_period, 1U);
      for (int j = 0; j < d; ++j) {
        EXPECT_EQ(sbnt[j], ((u64{1} << d) - 2) / d + (j == 0 ? 1 : 0)) << d << " " << j;
      }
    }
  }
}

using testing::caseSpec;
using testing::CheckedRun;
using testing::expectCleanRun;
using testing::runChecked;

TEST(OneToAll, OnePortSbtTakesExactlyTable3sTimeForNUpTo8) {
  // One-port SBT, all data for a subtree at once: (1 - 1/N) K = m (2^n - 1) cycles, which is
  // Table 3 with l = 0 and the §3.1 lower bound. All-to-one is the same schedule backwards.
  for (int n = 1; n <= 8; ++n) {
    for (u64 m : {1, 3}) {
      for (const char* algo : {"one-to-all", "all-to-one"}) {
        const u64 k = m << n;
        const BuiltCase c =
            buildCase(caseSpec(algo, n, k, 1, true, {{"root", std::to_string(n % 2)}}));
        const CheckedRun r = runChecked(c);
        const std::string what =
            std::string(algo) + " n=" + std::to_string(n) + " m=" + std::to_string(m);
        expectCleanRun(r, k, what);  // the root's K elements (scatter) or the K for it (gather)
        EXPECT_EQ(r.run.cycles, m * ((u64{1} << n) - 1)) << what;
        EXPECT_EQ(c.lower_bound, m * ((u64{1} << n) - 1)) << what;
        // Every element crosses one link per bit of its relative address: m n 2^(n-1) words.
        EXPECT_EQ(r.run.words, m * static_cast<u64>(n) * (u64{1} << (n - 1))) << what;
      }
    }
  }
}

TEST(OneToAll, AllPortCyclesPerTree) {
  // All-port, m = 1 and m = 4 elements per node. SBT: the root's port n-1 carries half the data,
  // m 2^(n-1) cycles (§3.1: "the minimum transmission time is 1/2 PQ t_c"). SBnT and rotated
  // SBTs come close to Table 3's m (2^n - 1) / n; the difference is the pipeline's fill and the
  // unequal subtrees. Measured by the table executor.
  struct Row {
    int n;
    u64 m;
    u64 sbt, sbnt, rsbt, table3;
  };
  const Row rows[] = {
      {2, 1, 2, 2, 2, 2},         {4, 1, 8, 5, 8, 4},     {6, 1, 32, 13, 32, 11},
      {8, 1, 128, 35, 128, 32},   {4, 4, 32, 20, 15, 15}, {6, 4, 128, 52, 54, 42},
      {8, 4, 512, 140, 170, 128},
  };
  for (const Row& row : rows) {
    const u64 k = row.m << row.n;
    for (const auto& [tree, want] :
         {std::pair<std::string, u64>{"sbt", row.sbt}, {"sbnt", row.sbnt}, {"rsbt", row.rsbt}}) {
      for (const char* algo : {"one-to-all", "all-to-one"}) {
        const BuiltCase c = buildCase(caseSpec(algo, row.n, k, 1, false, {{"tree", tree}}));
        const CheckedRun r = runChecked(c);
        const std::string what = std::string(algo) + " " + tree + " n=" + std::to_string(row.n) +
                                 " m=" + std::to_string(row.m);
        expectCleanRun(r, k, what);
        EXPECT_EQ(r.run.cycles, want) << what;
        EXPECT_EQ(c.lower_bound, row.table3) << what;
        EXPECT_GE(r.run.cycles, c.lower_bound) << what;
      }
    }
  }
}

TEST(SomeToAll, OnePortTakesExactlyTable3sTime) {
  // Splitting first (one-to-all in the k = n - l splitting dimensions, SBT), then the exchange
  // algorithm in the l-subcubes: l m 2^(l-1) + m 2^l (2^k - 1) cycles, Table 3's one-port row.
  // All-to-some runs it backwards (AAPC first, accumulation last: Theorem 1).
  for (int n = 1; n <= 6; ++n) {
    for (int l = 0; l <= n; ++l) {
      for (u64 m : {1, 2}) {
        for (const char* algo : {"some-to-all", "all-to-some"}) {
          const u64 k = m << n;
          const u64 root = (u64{1} << n) - 1;
          const BuiltCase c = buildCase(caseSpec(
              algo, n, k, 1, true, {{"l", std::to_string(l)}, {"root", std::to_string(root)}}));
          const CheckedRun r = runChecked(c);
          const std::string what = std::string(algo) + " n=" + std::to_string(n) +
                                   " l=" + std::to_string(l) + " m=" + std::to_string(m);
          expectCleanRun(r, k << l, what);  // 2^l sources' K elements, or K for each of 2^l
          const int kk = n - l;
          const u64 want = static_cast<u64>(l) * m * (u64{1} << l) / 2 +
                           m * (u64{1} << l) * ((u64{1} << kk) - 1);
          EXPECT_EQ(r.run.cycles, want) << what;
          EXPECT_EQ(c.lower_bound, want) << what;
        }
      }
    }
  }
}

TEST(SomeToAll, AllPortSplittingThenEdelmanAapc) {
  // All-port: the AAPC phase takes Edelman's m 2^(l-1) cycles after the splitting phase. Along
  // the SBT the source's port of the highest splitting dimension carries half of its m 2^l 2^k
  // words, so splitting takes m 2^l 2^(k-1) cycles; SBnT and rotated SBTs take less. With l = n
  // (every node a source) it is the AAPC alone, exactly K/2.
  for (int n = 1; n <= 6; ++n) {
    for (int l = 0; l <= n; ++l) {
      const u64 m = 2;
      const int kk = n - l;
      const u64 aapc = l > 0 ? m << (l - 1) : 0;
      const u64 sbt_split = kk > 0 ? (m << l) << (kk - 1) : 0;
      for (const char* tree : {"sbt", "sbnt", "rsbt"}) {
        for (const char* algo : {"some-to-all", "all-to-some"}) {
          const u64 k = m << n;
          const BuiltCase c =
              buildCase(caseSpec(algo, n, k, 1, false, {{"l", std::to_string(l)}, {"tree", tree}}));
          const CheckedRun r = runChecked(c);
          const std::string what = std::string(algo) + " " + tree + " n=" + std::to_string(n) +
                                   " l=" + std::to_string(l);
          expectCleanRun(r, k << l, what);
          if (std::string(tree) == "sbt") {
            EXPECT_EQ(r.run.cycles, sbt_split + aapc) << what;
          } else {
            EXPECT_LE(r.run.cycles, sbt_split + aapc) << what;
          }
          if (l == n) {
            EXPECT_EQ(r.run.cycles, k / 2) << what;
          }
          EXPECT_GE(r.run.cycles, c.lower_bound) << what;
        }
      }
    }
  }
}

TEST(SomeToAll, Theorem1TheOtherOrderIsSlower) {
  // Theorem 1: splitting first (scatter), accumulation last (gather). With the phases swapped the
  // AAPC runs among the 2^l sources on all K = m 2^n of their elements: one-port
  // l m 2^(n-1) + m 2^l (2^k - 1) cycles instead of l m 2^(l-1) + m 2^l (2^k - 1); all-port the
  // AAPC phase grows from m 2^(l-1) to m 2^(n-1) cycles.
  for (int n = 2; n <= 6; ++n) {
    for (int l = 1; l < n; ++l) {
      for (bool one_port : {true, false}) {
        for (const char* algo : {"some-to-all", "all-to-some"}) {
          const u64 m = 1;
          const u64 k = m << n;
          const int kk = n - l;
          const std::string what = std::string(algo) + " n=" + std::to_string(n) +
                                   " l=" + std::to_string(l) + (one_port ? " one-port" : "");
          const BuiltCase best =
              buildCase(caseSpec(algo, n, k, 1, one_port, {{"l", std::to_string(l)}}));
          const BuiltCase other = buildCase(
              caseSpec(algo, n, k, 1, one_port, {{"l", std::to_string(l)}, {"phases", "swapped"}}));
          const CheckedRun rb = runChecked(best);
          const CheckedRun ro = runChecked(other);
          expectCleanRun(rb, k << l, what);
          expectCleanRun(ro, k << l, what + " swapped");
          const u64 split = m * (u64{1} << l) * ((u64{1} << kk) - 1);
          if (one_port) {
            EXPECT_EQ(rb.run.cycles, static_cast<u64>(l) * (m << (l - 1)) + split) << what;
            EXPECT_EQ(ro.run.cycles, static_cast<u64>(l) * (m << (n - 1)) + split) << what;
          } else {
            EXPECT_EQ(ro.run.cycles - rb.run.cycles, (m << (n - 1)) - (m << (l - 1))) << what;
          }
          EXPECT_GT(ro.run.cycles, rb.run.cycles) << what;
        }
      }
    }
  }
}

TEST(Personalized, OnlyTheElementsThatTakePartAreChecked) {
  const BuiltCase c = buildCase(caseSpec("one-to-all", 3, 8, 1, false, {{"root", "5"}}));
  EXPECT_EQ(c.perm.str(), "scatter n=3 m=1 l=0 root=5");
  EXPECT_EQ(PermutationSpec::parse(c.perm.str()).str(), c.perm.str());
  EXPECT_TRUE(c.perm.participates({5, 3}));
  EXPECT_FALSE(c.perm.participates({4, 3}));
  const PermutationSpec g = PermutationSpec::parse("gather n=3 m=2 l=1 root=6");
  EXPECT_TRUE(g.participates({0, 8 + 7}));   // bound for node 7: shares bits 1..2 with 6
  EXPECT_FALSE(g.participates({0, 8 + 5}));  // bound for node 5
  CheckedRun r = runChecked(c);
  expectCleanRun(r, 8, "root 5");
  // A wrong word in a slot no participating element ends in is not a mismatch; in one that is,
  // it is.
  r.run.memory.at(0, 0) = 12345;  // node 0 slot 0: its own element, no part of the scatter
  EXPECT_EQ(checkAgainstReference(c.perm, r.run.memory).mismatches, 0U);
  r.run.memory.at(0, 5) = 12345;  // node 0 slot 5: the element from root 5
  EXPECT_EQ(checkAgainstReference(c.perm, r.run.memory).mismatches, 1U);
}

TEST(Personalized, BadInputNamesTheOption) {
  auto message = [](const CaseSpec& s) { return testing::errorOf([&] { buildCase(s); }); };
  EXPECT_NE(message(caseSpec("one-to-all", 3, 12, 1, false)).find("--k 12"), std::string::npos);
  EXPECT_NE(message(caseSpec("one-to-all", 3, 8, 1, false, {{"tree", "oak"}})).find("--tree 'oak'"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("one-to-all", 3, 8, 1, true, {{"tree", "sbnt"}})).find("--tree sbnt"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("one-to-all", 3, 8, 1, false, {{"root", "8"}})).find("--root"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("some-to-all", 3, 8, 1, false, {{"l", "4"}})).find("--l"),
            std::string::npos);
  EXPECT_NE(message(caseSpec("one-to-all", 3, 8, 1, false, {{"l", "1"}})).find("--l"),
            std::string::npos);
  EXPECT_NE(
      message(caseSpec("some-to-all", 3, 8, 1, false, {{"phases", "x"}})).find("--phases 'x'"),
      std::string::npos);
  EXPECT_THROW(PermutationSpec::personalized(3, 1, false, 4, 0), Error);
  EXPECT_THROW(PermutationSpec::personalized(3, 1, true, 0, 8), Error);
}

}  // namespace
}  // namespace hcube

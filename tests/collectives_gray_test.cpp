// The Gray code encoding of the TR-623 §2 collectives (Johnsson & Ho 1988,
// §1 Table 1 and §2.1, "for Gray code encoding, alpha is replaced by alpha-hat"): block b lives
// in node G(b). The paper's Tables 2 and 3 do not depend on the encoding, so the tests assert the
// very counts of the binary runs and the exact slots the Gray order puts every word in. Runs go
// through the table executor, the TLM and the RTL (the rtl_models fixture's K = 4 * 2^n models,
// n <= 4), which must agree exactly.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>

#include "algorithms/algorithms.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "spec/address.h"
#include "spec/initial_values.h"
#include "spec/reference.h"
#include "tables/table_text.h"
#include "tables/verifier.h"
#include "test_util.h"
#include "tlm_backend.h"

namespace hcube {
namespace {

BuiltCase build(const char* algo, int n, u64 m, bool one_port, const char* tree, u32 tau,
                const char* encoding, u64 root = 0) {
  std::map<std::string, std::string> p{{"m", std::to_string(m)},
                                       {"tree", tree},
                                       {"tau", std::to_string(tau)},
                                       {"encoding", encoding}};
  if (std::string(algo).find("-one") != std::string::npos) p["root"] = std::to_string(root);
  return buildCase(testing::caseSpec(algo, n, 0, 1, one_port, p));
}

/// Table executor, TLM and (m <= 4: a CI model) RTL; they must agree; returns the table's run.
RunResult onAllThree(const BuiltCase& c, u64 m) {
  const RunResult table = testing::onTable(c.tables);
  testing::expectSameRun("tlm", runOnTlm(c.tables, TlmOptions{}), table);
  if (m <= 4) {
    RtlOptions opt;
    opt.progress = &std::cerr;
    testing::expectSameRun("rtl", runOnRtl(c.tables, opt), table);
  }
  EXPECT_TRUE(table.errors.empty()) << testing::errorList(table.errors);
  return table;
}

void expectGrayAllToAll(const char* algo, int n, u64 m, bool one_port, const char* tree, u32 tau) {
  SCOPED_TRACE(std::string(algo) + " gray n = " + std::to_string(n) + " m = " + std::to_string(m) +
               " tree " + tree + (one_port ? " one-port" : "") + " tau " + std::to_string(tau));
  const BuiltCase gray = build(algo, n, m, one_port, tree, tau, "gray");
  const BuiltCase binary = build(algo, n, m, one_port, tree, tau, "binary");
  EXPECT_EQ(gray.perm.str(), std::string(algo) + " n=" + std::to_string(n) +
                                 " m=" + std::to_string(m) + " enc=gray");
  const VerifyReport v = verifyTables(gray.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  const RunResult g = onAllThree(gray, m);
  const RunResult b = testing::onTable(binary.tables);
  const u64 nodes = u64{1} << n;
  const u64 k = nodes * m;
  const bool reduce = std::string(algo) == "reduce-all";
  // The reference model (Gray-aware through the spec) accepts every checked slot.
  const CheckResult check = checkAgainstReference(gray.perm, g.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, reduce ? nodes * m : nodes * nodes * m);
  // Tables 2 and 3 do not depend on the encoding: the same element transfers, cycles, words and
  // per-link counts as the binary encoding, (N - 1) ceil(m / parts) transfer cycles, n start-ups.
  const u64 parts = std::string(tree) == "nrsbt" ? static_cast<u64>(n) : 1;
  const u64 transfers = (nodes - 1) * ((m + parts - 1) / parts);
  EXPECT_EQ(gray.lower_bound, transfers);
  EXPECT_EQ(g.transfer_cycles, transfers);
  EXPECT_EQ(g.cycles, transfers + static_cast<u64>(n) * tau);
  EXPECT_EQ(g.transfer_cycles, b.transfer_cycles);
  EXPECT_EQ(g.cycles, b.cycles);
  EXPECT_EQ(g.words, b.words);
  EXPECT_EQ(g.link_words, b.link_words);
  // The slots, by hand: block b belongs to node G(b); tags are node * K + slot.
  for (u64 blk = 0; blk < nodes; ++blk) {
    const u64 home = grayEncode(blk);
    for (u64 i = 0; i < m; ++i) {
      const u64 l = blk * m + i;
      if (reduce) {
        u32 sum = 0;
        for (u64 y = 0; y < nodes; ++y) sum += static_cast<u32>(y * k + l);
        EXPECT_EQ(g.memory.at(home, l), sum) << "block " << blk << " at node " << home;
      } else {
        for (u64 x = 0; x < nodes; ++x) {
          EXPECT_EQ(g.memory.at(x, l), static_cast<u32>(home * k + l))
              << "node " << x << " block " << blk;
        }
      }
    }
  }
}

TEST(CollectivesGray, AllToAllBroadcastAndReductionMatchTables2And3OnAllExecutors) {
  for (const char* algo : {"broadcast-all", "reduce-all"}) {
    for (int n = 1; n <= 4; ++n) {
      expectGrayAllToAll(algo, n, 1, true, "sbt", 0);
      expectGrayAllToAll(algo, n, 3, false, "sbt", 2);
      expectGrayAllToAll(algo, n, static_cast<u64>(n), false, "nrsbt", 0);
    }
    expectGrayAllToAll(algo, 3, 4, false, "nrsbt", 1);  // uneven parts: 2, 1, 1 words
    expectGrayAllToAll(algo, 6, 6, false, "nrsbt", 0);  // table and TLM only (K = 6 * 2^6)
  }
}

TEST(CollectivesGray, TheGrayOrderIsNotTheBinaryOne) {
  // n = 2: G = 0, 1, 3, 2. The reduction leaves block 2 (slots 2) in node 3 and block 3 in
  // node 2, where the binary encoding leaves block 2 in node 2.
  const BuiltCase c = build("reduce-all", 2, 1, true, "sbt", 0, "gray");
  const RunResult r = onAllThree(c, 1);
  const u32 sum2 = 0 * 4 + 2 + 1 * 4 + 2 + 2 * 4 + 2 + 3 * 4 + 2;  // 32
  EXPECT_EQ(r.memory.at(3, 2), sum2);
  EXPECT_TRUE(c.perm.checkedAtEnd(3, 2));
  EXPECT_FALSE(c.perm.checkedAtEnd(2, 2));
  EXPECT_TRUE(c.perm.checkedAtEnd(2, 3));
  // Broadcast: every node ends with node 3's slot 2 (tag 14) in slot 2 and node 2's slot 3
  // (tag 11) in slot 3.
  const RunResult b = onAllThree(build("broadcast-all", 2, 1, true, "sbt", 0, "gray"), 1);
  for (u64 x = 0; x < 4; ++x) {
    EXPECT_EQ(b.memory.at(x, 2), 14U) << "node " << x;
    EXPECT_EQ(b.memory.at(x, 3), 11U) << "node " << x;
  }
}

TEST(CollectivesGray, RootedFormsNameTheRootByItsGrayIndex) {
  // --root 5 with --encoding gray is node G(5) = 7 on the 3-cube; n steps of ceil(m / ports).
  for (const char* algo : {"broadcast-one", "reduce-one"}) {
    SCOPED_TRACE(algo);
    const BuiltCase c = build(algo, 3, 4, false, "nrsbt", 1, "gray", 5);
    EXPECT_EQ(c.perm.root(), 7U);
    const RunResult r = onAllThree(c, 4);
    const CheckResult check = checkAgainstReference(c.perm, r.memory);
    EXPECT_EQ(check.mismatches, 0U);
    EXPECT_EQ(r.cycles, 3U * (2 + 1));
    if (std::string(algo) == "reduce-one") {
      for (u64 l = 0; l < 4; ++l) {
        u32 sum = 0;
        for (u64 y = 0; y < 8; ++y) sum += static_cast<u32>(y * 4 + l);
        EXPECT_EQ(r.memory.at(7, l), sum) << "slot " << l;
      }
    } else {
      for (u64 x = 0; x < 8; ++x) EXPECT_EQ(r.memory.at(x, 1), 7U * 4 + 1) << "node " << x;
    }
  }
}

TEST(CollectivesGray, SeededValuesFollowTheGrayHomes) {
  // --seed: the reference computes the blocks' homes from the spec, here checked by hand too.
  const BuiltCase c = build("broadcast-all", 3, 2, false, "nrsbt", 0, "gray");
  const CubeMemory init = initialMemory(c.perm, c.tables.header.memoryWords(), u64{77});
  ExecOptions opt;
  opt.max_cycles = c.tables.cycles() + 1000;
  const RunResult r = executeTables(c.tables, init, opt);
  EXPECT_EQ(checkFromInitial(c.perm, init, r.memory).mismatches, 0U);
  for (u64 blk = 0; blk < 8; ++blk) {
    for (u64 x = 0; x < 8; ++x) {
      EXPECT_EQ(r.memory.at(x, blk * 2 + 1), init.at(grayEncode(blk), blk * 2 + 1));
    }
  }
}

TEST(CollectivesGray, BadEncodingsAreNamed) {
  EXPECT_EQ(testing::errorOf([] { build("reduce-all", 3, 1, false, "sbt", 0, "hex"); }),
            "--encoding 'hex': must be binary or gray");
  EXPECT_EQ(PermutationSpec::parse("reduce-all n=3 m=2 enc=gray").str(),
            "reduce-all n=3 m=2 enc=gray");
  EXPECT_EQ(PermutationSpec::parse("broadcast-all n=3 m=2 enc=binary").str(),
            "broadcast-all n=3 m=2");
  EXPECT_EQ(testing::errorOf([] { PermutationSpec::parse("aapc n=3 m=2 enc=gray"); }),
            "permutation spec: enc= (the block encoding) is only for broadcast-all and "
            "reduce-all, not 'aapc'");
  EXPECT_EQ(parsePermText("broadcast-all n=2 m=1 enc=gray").str(),
            "broadcast-all n=2 m=1 enc=gray");
  EXPECT_EQ(testing::errorOf([] { PermutationSpec::parse("reduce-all n=3 enc=grey"); }),
            "permutation spec: enc= takes binary or gray, got 'grey'");
}

}  // namespace
}  // namespace hcube

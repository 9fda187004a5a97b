// Ho & Johnsson 1988 Algorithms A5 and A6 (sw/algorithms/sdp/sdp_a5.h, sdp_a6.h): Table 2, A5's
// start-up counts, the partition example, Lemma 11's example, Table 4, and A6 / the n-port A1
// on the table executor.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "algorithms/sdp/sdp_a4.h"
#include "algorithms/sdp/sdp_a5.h"
#include "algorithms/sdp/sdp_a6.h"
#include "base/error.h"
#include "spec/sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

constexpr int P = kSdpDummy;

/// Real GSHs of the given orders on consecutive processor dimensions.
std::vector<Gsh> gshsOfOrders(const std::vector<int>& orders) {
  std::vector<Gsh> out;
  int d = 0;
  for (const int o : orders) {
    Gsh g;
    for (int i = 0; i < o; ++i) g.dims.push_back(d++);
    g.sigma_p = o;
    out.push_back(g);
  }
  return out;
}

SdpClass classOfOrders(const std::vector<int>& orders) {
  // The classification only (Table 4's third example needs 18 processor dimensions, more than
  // a cube we build).
  Sdp sdp;
  sdp.k = 1;
  std::string cycles;
  for (const int o : orders) {
    cycles += cycles.empty() ? "" : "/";
    for (int i = 0; i < o; ++i) cycles += (i ? "," : "") + std::to_string(sdp.n++);
  }
  sdp.mp = sdp.n;
  sdp.delta.resize(static_cast<size_t>(sdp.n + 1));
  for (int i = 0; i <= sdp.n; ++i) sdp.delta[static_cast<size_t>(i)] = i;
  for (const auto& c : parseCycles(cycles)) {
    for (size_t j = 0; j < c.size(); ++j)
      sdp.delta[static_cast<size_t>(c[j])] = c[(j + 1) % c.size()];
  }
  return classify(sdp, parseCycles(cycles));
}

// §4.3.3's partition example: J0 = 0..7, J1 = 8..10, gamma = 3.
TEST(SdpA5, PartitionExample) {
  const auto blocks = a5Blocks(gshsOfOrders({8, 3}), 3);
  const std::vector<std::vector<std::vector<int>>> want = {{{0, 1, 2}, {3, 4, 5}, {6, 7, P}},
                                                           {{8, 9, 10}}};
  EXPECT_EQ(blocks, want);
  EXPECT_EQ(a5Mu(gshsOfOrders({8, 3}), 3), 4);
}

// Table 2, as printed (phi = kSdpDummy).
TEST(SdpA5, Table2Sequences) {
  const std::vector<std::vector<int>> table2 = {{0, 3, 6, 8, 1, 4, 7, 9, 2, 5, P, 10, 3, 6, 0, 8},
                                                {3, 6, 8, 0, 4, 7, 9, 1, 5, P, 10, 2, 6, 0, 8, 3},
                                                {6, 8, 0, 3, 7, 9, 1, 4, P, 10, 2, 5, 0, 8, 3, 6},
                                                {8, 0, 3, 6, 9, 1, 4, 7, 10, 2, 5, P, 8, 3, 6, 0},
                                                {1, 4, 7, 9, 2, 5, P, 10, 3, 6, 0, 8, 4, 7, 1, 9},
                                                {4, 7, 9, 1, 5, P, 10, 2, 6, 0, 8, 3, 7, 1, 9, 4},
                                                {7, 9, 1, 4, P, 10, 2, 5, 0, 8, 3, 6, 1, 9, 4, 7},
                                                {9, 1, 4, 7, 10, 2, 5, P, 8, 3, 6, 0, 9, 4, 7, 1},
                                                {2, 5, P, 10, 3, 6, 0, 8, 4, 7, 1, 9, 5, P, 2, 10},
                                                {5, P, 10, 2, 6, 0, 8, 3, 7, 1, 9, 4, P, 2, 10, 5},
                                                {P, 10, 2, 5, 0, 8, 3, 6, 1, 9, 4, 7, 2, 10, 5, P},
                                                {10, 2, 5, P, 8, 3, 6, 0, 9, 4, 7, 1, 10, 5, P, 2}};
  EXPECT_EQ(a5Sequences(gshsOfOrders({8, 3}), 3), table2);
}

// §4.3.3: start-ups 21, 20, 20, 18, 20 for gamma = 2, 3, 4, 5, 9 (sigma = 9, 4) and 15, 16, 15,
// 14 for gamma = 2, 3, 4, 6 (sigma = 6, 4).
TEST(SdpA5, StartupCounts) {
  const auto a = gshsOfOrders({9, 4});
  EXPECT_EQ(a5Startups(a, 2), 21);
  EXPECT_EQ(a5Startups(a, 3), 20);
  EXPECT_EQ(a5Startups(a, 4), 20);
  EXPECT_EQ(a5Startups(a, 5), 18);
  EXPECT_EQ(a5Startups(a, 9), 20);
  const auto b = gshsOfOrders({6, 4});
  EXPECT_EQ(a5Startups(b, 2), 15);
  EXPECT_EQ(a5Startups(b, 3), 16);
  EXPECT_EQ(a5Startups(b, 4), 15);
  EXPECT_EQ(a5Startups(b, 6), 14);
  // Every sequence is (gamma + 1) mu routing cycles long; gamma mu of them.
  const auto seqs = a5Sequences(a, 3);
  EXPECT_EQ(seqs.size(), 15U);
  for (const auto& s : seqs) EXPECT_EQ(s.size(), 20U);
  EXPECT_THROW(a5Sequences(a, 1), Error);
  EXPECT_THROW(a5Sequences(a, 10), Error);
}

// The proof of Lemma 11: S(3) = {8, 9, 11, 13, 14, 17, 21} -> S(4) = {18, 26, 16, 17, 21}.
TEST(SdpA6, Lemma11PairingExample) {
  EXPECT_EQ(lemma11PairingStep({8, 9, 11, 13, 14, 17, 21}, 3),
            (std::vector<int>{18, 26, 16, 17, 21}));
}

TEST(SdpA6, Lemma11BoundsHold) {
  for (const std::vector<int>& s : std::vector<std::vector<int>>{
           {3, 4}, {3, 3, 6}, {3, 6, 12}, {4, 7}, {3, 3, 3}, {5, 5, 5, 5}, {3, 4, 5, 6, 7}}) {
    int sum = 0;
    for (const int x : s) sum += x;
    const int f = lemma11F(s);
    EXPECT_GE(f, sum);
    EXPECT_LT(f, 2 * sum);
  }
}

// Table 4: A4, A5 and A6 for sigma_i = {3, 6}, {2, 2, 5}, {2, 5, 11} (t_c coefficient as a
// fraction, start-up count).
TEST(SdpA456, Table4) {
  struct Row {
    std::vector<int> orders;
    std::pair<int, int> a4_tc;
    int a4_tau;
    int g1;
    std::pair<int, int> a5_tc1;
    int a5_tau1;
    int g2;
    std::pair<int, int> a5_tc2;
    int a5_tau2;
    std::pair<int, int> a6_tc;
    int a6_tau;
  };
  const Row rows[] = {{{3, 6}, {11, 13}, 11, 3, {2, 3}, 12, 6, {7, 12}, 14, {2, 3}, 14},
                      {{2, 2, 5}, {12, 13}, 12, 2, {3, 4}, 15, 3, {2, 3}, 16, {3, 4}, 12},
                      {{2, 5, 11}, {21, 22}, 21, 6, {7, 12}, 28, 11, {6, 11}, 36, {3, 4}, 24}};
  auto reduced = [](int num, int den) {
    const int g = std::gcd(num, den);
    return std::pair<int, int>{num / g, den / g};
  };
  for (const Row& r : rows) {
    const SdpClass cls = classOfOrders(r.orders);
    // A4: (sigma_p + beta) / (sigma_p + beta + sigma_min - 1) K t_c + (sigma_p + beta) tau.
    EXPECT_EQ(reduced(cls.sigma_p + cls.beta, cls.sigma_p + cls.beta + cls.sigma_min - 1), r.a4_tc);
    EXPECT_EQ(cls.sigma_p + cls.beta, r.a4_tau);
    // A5: (gamma + 1) / (2 gamma) K t_c + (gamma + 1) mu tau.
    EXPECT_EQ(reduced(r.g1 + 1, 2 * r.g1), r.a5_tc1);
    EXPECT_EQ(a5Startups(cls.gshs, r.g1), r.a5_tau1);
    EXPECT_EQ(reduced(r.g2 + 1, 2 * r.g2), r.a5_tc2);
    EXPECT_EQ(a5Startups(cls.gshs, r.g2), r.a5_tau2);
    // A6 (Theorem 2): min(S) / (2 (min(S) - 1)) K t_c + f(S) tau, S = {sigma_i + 1}; the
    // grouping tree has f(S) routing cycles.
    std::vector<int> s;
    for (const int o : r.orders) s.push_back(o + 1);
    const int m = *std::min_element(s.begin(), s.end());
    EXPECT_EQ(reduced(m, 2 * (m - 1)), r.a6_tc);
    EXPECT_EQ(lemma11F(s), r.a6_tau);
    EXPECT_EQ(a6Grouping(cls, false).cycles, r.a6_tau);
  }
}

BuiltCase nPortCase(int n, u64 slots, const std::string& method, const std::string& cycles,
                    u64 tau) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.params["method"] = method;
  s.params["cycles"] = cycles;
  s.params["tau"] = std::to_string(tau);
  return buildCase(s);
}

// A6 runs f(S) routing cycles, the n-port A1 beta (sigma_max + 1), one start-up each; every
// element checked. {2, 2, 5} is Table 4's second example (f = 12).
TEST(SdpA6, RunsWithFOfSStartups) {
  struct Case {
    int n;
    const char* cycles;
    u64 a6, a1;
  };
  for (const Case& cs : {Case{9, "0,1/2,3/4,5,6,7,8", 12, 18}, Case{5, "0,1,2,3,4", 6, 6},
                         Case{6, "0,1/2,3,4,5", 10, 10}, Case{7, "0,1,2/3,4/5,6", 12, 12}}) {
    for (const char* method : {"a6", "a1"}) {
      const BuiltCase c = nPortCase(cs.n, 32, method, cs.cycles, 5);
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
      const u64 startups = std::string(method) == "a6" ? cs.a6 : cs.a1;
      EXPECT_EQ(r.run.cycles, r.run.transfer_cycles + 5 * startups) << method << " " << cs.cycles;
    }
  }
}

// One GSH of order 3, K = 12 would balance; with K = 2^k the n-port A1 on (0 1 2 3), K = 16:
// 4 sequences of 5 cycles, 2 pairs each, one crossing per pair and link: 5 * 2 = 10 cycles.
TEST(SdpA6, NPortA1OnOneGshIsExact) {
  const BuiltCase c = nPortCase(4, 16, "a1", "0,1,2,3", 0);
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.elements(), "a1 n-port");
  EXPECT_EQ(r.run.cycles, 10U);  // Table 3: (sigma + 1) K / (2 sigma) = 5 * 16 / 8
}

// Section 4.4: A6 and the n-port A1 on non-separable SDPs "as if there is no virtual dimension".
// The SDPs of RunsWithFOfSStartups with storage dimensions put into some GSHs: the grouping is
// that of the processor dimensions (S = {sigma_p_i + 1}), so the routing cycles are the same
// f(S) and beta (sigma_max + 1); the mixed GSHs' storage dimensions move by local exchanges.
TEST(SdpA6, MixedSdpsRunWithFOfTheirProcessorDimensions) {
  struct Case {
    int n;
    const char* cycles;
    u64 a6, a1;
  };
  for (const Case& cs :
       {Case{9, "0,9,1/2,3/4,5,10,6,7,8", 12, 18}, Case{5, "0,1,5,2,3,4", 6, 6},
        Case{6, "0,6,1/2,3,7,4,5", 10, 10}, Case{7, "0,7,1,2/3,4/5,8,6/9,10", 12, 12}}) {
    for (const char* method : {"a6", "a1"}) {
      const BuiltCase c = nPortCase(cs.n, 32, method, cs.cycles, 5);
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
      const u64 startups = std::string(method) == "a6" ? cs.a6 : cs.a1;
      EXPECT_NE(c.bound_source.find("schedule: " + std::to_string(startups) + " start-ups"),
                std::string::npos)
          << c.bound_source;
      const Sdp sdp = Sdp::fromCycles(cs.n, 5, cs.cycles);
      const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
      EXPECT_FALSE(cls.separable);
      EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, cls, 5).n_port)
          << method << " " << cs.cycles;
    }
  }
}

// The mixed (0 1 4 2 3), K = 32: v is slot bit 1 (bit 0 is in the GSH), the 8 labels of slot
// bits 2..4 go two to each of the 4 sequences of 5 routing cycles, 4 crossings per link in each:
// Table 3's (sigma + 1) K / (2 sigma) = 5 * 32 / 8 = 20 element cycles, plus the local exchanges.
TEST(SdpA6, NPortA1OnOneMixedGshMeetsTable3) {
  const BuiltCase c = nPortCase(4, 32, "a1", "0,1,4,2,3", 0);
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.elements(), "a1 n-port mixed");
  EXPECT_NE(c.bound_source.find("5 start-ups, 20 element cycles"), std::string::npos)
      << c.bound_source;
}

BuiltCase a5Case(int n, u64 slots, const std::string& cycles, int gamma, u64 tau) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.params["method"] = "a5";
  s.params["cycles"] = cycles;
  s.params["gamma"] = std::to_string(gamma);
  s.params["tau"] = std::to_string(tau);
  return buildCase(s);
}

/// The A5 schedule of a5Case (B = K), for its start-up and PERMUTE counts.
SdpSchedule a5Schedule(int n, u64 slots, const std::string& cycles, int gamma) {
  const Sdp sdp = Sdp::fromCycles(n, log2Exact(slots), cycles);
  return sdpA5Schedule(sdp, classify(sdp, parseCycles(cycles)), gamma, slots, 1, "sdp-a5");
}

/// A run takes its element cycles, the local shuffle restoring the pivots (PERMUTE cycles) and
/// tau per start-up, nothing else; the schedule has exactly `startups` start-ups.
void expectA5Time(const testing::CheckedRun& r, const SdpSchedule& s, u64 tau, u64 startups,
                  const std::string& what) {
  EXPECT_EQ(s.startups, startups) << what;
  EXPECT_EQ(r.run.transfer_cycles, s.transfer_cycles) << what;
  EXPECT_EQ(r.run.cycles, s.transfer_cycles + s.local_cycles + tau * startups) << what;
}

// The dummy dimensions resolved (sdp_a5.h): Table 2's dims everywhere but at phi, which is
// skipped in a block cycle and, heading block {phi, 0, 1} of Seq_8 .. Seq_11's coupling cycle
// (S_3(2) = 5, phi, 2, 10), becomes that block's first real dimension 0.
TEST(SdpA5, DummyDimensionsResolved) {
  const auto gshs = gshsOfOrders({8, 3});
  const auto table2 = a5Sequences(gshs, 3);
  const auto ex = a5Exchanges(gshs, 3);
  ASSERT_EQ(ex.size(), table2.size());
  for (size_t q = 0; q < ex.size(); ++q) {
    ASSERT_EQ(ex[q].size(), table2[q].size());
    for (size_t r = 0; r < ex[q].size(); ++r) {
      if (table2[q][r] != P) {
        EXPECT_EQ(ex[q][r].dim, table2[q][r]) << q << " " << r;
      } else {
        EXPECT_EQ(ex[q][r].dim, r < 12 ? -1 : 0) << q << " " << r;
      }
    }
  }
  // Seq_0: cycle i uses the pivot of block i mod mu (blocks 0,1,2 of J0, block 3 = J1).
  for (size_t r = 0; r < 16; ++r) EXPECT_EQ(ex[0][r].pivot, static_cast<int>(r % 4));
  // Seq_1 = L^1: cycle 0 is block 1's.
  EXPECT_EQ(ex[1][0], (A5Exchange{3, 1}));
  // Seq_8's coupling: 5 (block 0 -> 1), 0 for phi (block 1 -> 2), 2 (block 2 -> 0), 10.
  EXPECT_EQ(ex[8][12], (A5Exchange{5, 0}));
  EXPECT_EQ(ex[8][13], (A5Exchange{0, 1}));
  EXPECT_EQ(ex[8][14], (A5Exchange{2, 2}));
  EXPECT_EQ(ex[8][15], (A5Exchange{10, 3}));
}

// A5 on the cube, every element checked: (gamma + 1) mu routing cycles, one start-up each (B = K),
// with and without dummy dimensions (order 5 with gamma 2 and 3, {2, 5} with gamma 3: phi heads
// blocks after the rotation).
TEST(SdpA5, RunsWithGammaPlusOneMuStartups) {
  struct Case {
    int n;
    u64 k;
    const char* cycles;
    int gamma;
    u64 startups;
  };
  for (const Case& cs : {Case{4, 16, "0,1,2,3", 2, 6}, Case{5, 32, "0,1,2,3,4", 2, 9},
                         Case{5, 32, "0,1,2,3,4", 3, 8}, Case{5, 32, "0,1,2,3,4", 4, 10},
                         Case{7, 32, "0,1/2,3,4,5,6", 3, 12}, Case{6, 64, "0,1,2/3,4,5", 2, 12},
                         Case{6, 16, "0,1,2,3,4,5", 4, 10}}) {
    const BuiltCase c = a5Case(cs.n, cs.k, cs.cycles, cs.gamma, 7);
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
    expectA5Time(r, a5Schedule(cs.n, cs.k, cs.cycles, cs.gamma), 7, cs.startups,
                 std::string(cs.cycles) + " gamma " + std::to_string(cs.gamma));
  }
}

// Table 3's A5 time exactly, (gamma + 1) K / (2 gamma) + (gamma + 1) mu tau, when no phi and the
// K / 2^mu slot groups divide among the gamma mu sequences: every routing cycle carries
// K / (2 gamma mu) elements per link (Lemma 10: one sequence per dimension and cycle). The run
// adds the PERMUTE cycles of the local shuffle that restores the pivots (mu_i - 1 pivot swaps per
// GSH), which the paper ignores ("the time for local data movement is ignored").
TEST(SdpA5, ExactTable3TimeWithoutDummies) {
  struct Case {
    int n;
    u64 k;
    const char* cycles;
    int gamma;
  };
  for (const Case& cs : {Case{4, 16, "0,1,2,3", 2}, Case{4, 64, "0,1/2,3", 2},
                         Case{8, 32, "0,1,2,3,4,5,6,7", 4}, Case{4, 64, "0,1,2,3", 4}}) {
    const BuiltCase c = a5Case(cs.n, cs.k, cs.cycles, cs.gamma, 3);
    const SdpClass cls =
        classify(Sdp::fromCycles(cs.n, log2Exact(cs.k), cs.cycles), parseCycles(cs.cycles));
    const u64 startups = static_cast<u64>(a5Startups(cls.gshs, cs.gamma));
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
    EXPECT_EQ(r.run.transfer_cycles, (cs.gamma + 1) * cs.k / (2 * cs.gamma)) << cs.cycles;
    expectA5Time(r, a5Schedule(cs.n, cs.k, cs.cycles, cs.gamma), 3, startups, cs.cycles);
  }
}

// §4.3.3's start-up counts run on the cube: sigma = 6, 4 (n = 10, K = 32) with gamma = 2, 3, 4, 6
// takes 15, 16, 15, 14 start-ups, every element checked.
TEST(SdpA5, StartupCountsRunOnTheCube) {
  for (const auto& [gamma, startups] :
       std::vector<std::pair<int, u64>>{{2, 15}, {3, 16}, {4, 15}, {6, 14}}) {
    const BuiltCase c = a5Case(10, 32, "0,1,2,3,4,5/6,7,8,9", gamma, 5);
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), "gamma " + std::to_string(gamma));
    expectA5Time(r, a5Schedule(10, 32, "0,1,2,3,4,5/6,7,8,9", gamma), 5, startups,
                 "gamma " + std::to_string(gamma));
  }
}

// sigma = 9, 4 (n = 13, K = 128: mu = 7 pivots for gamma = 2): 21, 20, 20, 18, 20 start-ups for
// gamma = 2, 3, 4, 5, 9, on the table executor (an 8192-node cube: long label). One difference,
// explained: with gamma = 2, K = 128 = 2^mu is one slot group, so only Seq_0 has data, and its
// cycle whose one exchange is E(v, phi) (block {8, phi}) carries nothing and starts no message:
// 20 start-ups where the paper counts that idle routing cycle (21).
TEST(SdpA5, LongStartupCountsNineFourRunOnTheCube) {
  for (const auto& [gamma, startups] :
       std::vector<std::pair<int, u64>>{{2, 21 - 1}, {3, 20}, {4, 20}, {5, 18}, {9, 20}}) {
    const BuiltCase c = a5Case(13, 128, "0,1,2,3,4,5,6,7,8/9,10,11,12", gamma, 5);
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), "gamma " + std::to_string(gamma));
    expectA5Time(r, a5Schedule(13, 128, "0,1,2,3,4,5,6,7,8/9,10,11,12", gamma), 5, startups,
                 "gamma " + std::to_string(gamma));
  }
}

TEST(SdpA5, BadInputIsNamed) {
  // gamma out of range.
  EXPECT_NE(testing::errorOf([] { a5Case(5, 8, "0,1,2,3,4", 9, 0); }).find("--gamma 9"),
            std::string::npos);
  EXPECT_NE(testing::errorOf([] { a5Case(5, 8, "0,1,2,3,4", 1, 0); }).find("--gamma 1"),
            std::string::npos);
  // K < 2^mu: order 5 with gamma 2 has mu = 3 blocks in flight.
  EXPECT_NE(testing::errorOf([] { a5Case(5, 4, "0,1,2,3,4", 2, 0); }).find("K >= 8"),
            std::string::npos);
  // Not separable.
  EXPECT_NE(testing::errorOf([] { a5Case(4, 8, "0,4,1", 2, 0); }).find("not separable"),
            std::string::npos);
  // One-port.
  CaseSpec s;
  s.algo = "sdp";
  s.n = 4;
  s.slots = 16;
  s.one_port = true;
  s.params["method"] = "a5";
  EXPECT_NE(testing::errorOf([&s] { buildCase(s); }).find("n-port"), std::string::npos);
  // --gamma given to another method.
  s.one_port = false;
  s.params["method"] = "a4";
  s.params["gamma"] = "2";
  EXPECT_NE(testing::errorOf([&s] { buildCase(s); }).find("gamma"), std::string::npos);
}

}  // namespace
}  // namespace hcube

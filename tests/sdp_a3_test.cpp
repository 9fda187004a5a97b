// Ho & Johnsson 1988 Algorithm A3 (§4.3.2, sw/algorithms/sdp/sdp_a3.h): the recursive steps, every
// element checked on the table executor, exact start-ups / element cycles / cycles against the
// schedule's count and Table 3 (equal for the matrix transposition, never above it one-port),
// never below Theorem 1.
#include "algorithms/sdp/sdp_a3.h"

#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "base/error.h"
#include "spec/sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

CaseSpec a3Case(int n, u64 slots, bool one_port, const std::string& cycles, u64 tau, u64 packet) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.one_port = one_port;
  s.params["method"] = "a3";
  if (!cycles.empty()) s.params["cycles"] = cycles;
  s.params["tau"] = std::to_string(tau);
  s.params["packet"] = std::to_string(packet);
  return s;
}

size_t transpositions(const std::vector<std::vector<std::pair<int, int>>>& steps) {
  size_t t = 0;
  for (const auto& s : steps) t += s.size();
  return t;
}

// ceil(log2 s) steps for a GSH of order s, s - 1 transpositions in all, disjoint within a step.
TEST(SdpA3, RecursionTakesCeilLog2SigmaSteps) {
  for (const auto& [order, steps] :
       std::vector<std::pair<int, size_t>>{{2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}, {9, 4}}) {
    std::string text;
    for (int d = 0; d < order; ++d) text += (d ? "," : "") + std::to_string(d);
    const Sdp sdp = Sdp::fromCycles(9, 1, text);
    const auto st = sdpA3Steps(classify(sdp, parseCycles(text)));
    EXPECT_EQ(st.size(), steps) << text;
    EXPECT_EQ(transpositions(st), static_cast<size_t>(order - 1)) << text;
    for (const auto& step : st) {
      std::vector<int> seen;
      for (const auto& [a, b] : step) {
        seen.push_back(a);
        seen.push_back(b);
      }
      std::sort(seen.begin(), seen.end());
      EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << text;
    }
  }
  // An SDP: the GSHs' steps merged, ceil(log2 sigma_max) = ceil(log2 5) = 3.
  const Sdp sdp = Sdp::fromCycles(9, 1, "0,1,2,3,4/5,6/7,8");
  const auto st = sdpA3Steps(classify(sdp, parseCycles("0,1,2,3,4/5,6/7,8")));
  EXPECT_EQ(st.size(), 3U);
  EXPECT_EQ(transpositions(st), 6U);
  EXPECT_EQ(st[0].size(), 4U);  // (0 1), (3 4), (5 6), (7 8)
}

// Matrix transposition as an SDP (every GSH of order 2) is the case where the paper's A3 formula
// is exact, one-port: one step, sigma_p K + sigma_p ceil(K/B) tau. n = 4, K = 8, (0 2)(1 3),
// B = 8, tau = 5: 32 + 4 * 5 = 52 cycles; each pair: 8 of 16 nodes send K = 8 elements two hops.
TEST(SdpA3, OnePortTranspositionTakesTable3Exactly) {
  const BuiltCase c = buildCase(a3Case(4, 8, true, "0,2/1,3", 5, 8));
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, 128, "a3");
  EXPECT_EQ(r.run.cycles, 52U);
  EXPECT_EQ(r.run.transfer_cycles, 32U);
  EXPECT_EQ(r.run.words, 2U * 8U * 8U * 2U);
  EXPECT_EQ(c.tables.header.scratch, 8U);  // Table 5: A3 needs memory 2K
  const Sdp sdp = Sdp::fromCycles(4, 3, "0,2/1,3");
  const SdpFormula t3 = sdpA3Table3(sdp, classify(sdp, parseCycles("0,2/1,3")), true, 8);
  EXPECT_EQ(t3.cycles(5), 52U);
}

// n-port, one pair per step: (K/2B + 1)(tau + B). n = 3, K = 8, (0 1), B = 2, tau = 3:
// 3 rounds of 2 elements, 3 * (3 + 2) = 15 cycles; 4 of 8 nodes send K elements two hops.
TEST(SdpA3, NPortPairTakesTable3Exactly) {
  const BuiltCase c = buildCase(a3Case(3, 8, false, "0,1", 3, 2));
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, 64, "a3");
  EXPECT_EQ(r.run.cycles, 15U);
  EXPECT_EQ(r.run.transfer_cycles, 6U);
  EXPECT_EQ(r.run.words, 4U * 8U * 2U);
  const Sdp sdp = Sdp::fromCycles(3, 3, "0,1");
  EXPECT_EQ(sdpA3Table3(sdp, classify(sdp, parseCycles("0,1")), false, 2).cycles(3), 15U);
}

// n-port, a step's m pairs at once (sdp_a3.h): when m B divides K/2 and a sub-part has at least
// two packets, every step takes Table 3's (K/2B + 1)(tau + B) exactly, the same as one pair.
// (0 2)(1 3): one step of 2 pairs; (0 1 2 3): steps of 2 pairs and 1 pair; the 2^4 x 2^4
// transposition (0 4)(1 5)(2 6)(3 7): one step of 4 pairs. Run one after the other, the pairs
// took m (K/2B + 1) rounds: 10, 15 and 36 where these take 5, 10 and 9.
TEST(SdpA3, NPortStepPairsRunAtOnceTakeTable3) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
    u64 packet;
    u64 rounds;  // ceil(log2 sigma_max)(K/2B + 1)
  };
  for (const Case& cs : {Case{4, 16, "0,2/1,3", 2, 5}, Case{4, 16, "0,1,2,3", 2, 10},
                         Case{8, 64, "0,4/1,5/2,6/3,7", 4, 9}}) {
    const Sdp sdp = Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    const SdpFormula t3 = sdpA3Table3(sdp, cls, false, cs.packet);
    EXPECT_EQ(t3.startups, cs.rounds) << cs.cycles;
    for (const u64 tau : {0, 3}) {
      const BuiltCase c = buildCase(a3Case(cs.n, cs.slots, false, cs.cycles, tau, cs.packet));
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
      EXPECT_EQ(r.run.cycles, t3.cycles(tau)) << cs.cycles << " tau " << tau;
      EXPECT_EQ(r.run.cycles, cs.rounds * (tau + cs.packet)) << cs.cycles << " tau " << tau;
    }
  }
}

// Many SDPs (real, odd and even, several GSHs, mixed, virtual), both port models, packets and
// start-ups: the measured cycles are the schedule's count (plus PERMUTE cycles of local swaps),
// one-port never above Table 3's formula (separable SDPs, the ones it is stated for), never below
// Theorem 1; every element checked.
TEST(SdpA3, MeasuredCyclesEqualTheCountAndOnePortTable3Bounds) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
  };
  const Case cases[] = {{2, 4, "0,1"},         {3, 4, "0,1,2"},         {4, 8, "0,1,2,3"},
                        {4, 4, "0,3/1,2"},     {5, 8, "0,1,2/3,4"},     {4, 8, "0,4/1,2,3"},
                        {3, 8, "0,3,1,4/5,2"}, {4, 8, "4,5,6/0,1,2,3"}, {5, 2, "0,1,2,3,4"},
                        {3, 1, "0,1,2"}};
  for (const Case& cs : cases) {
    const Sdp sdp = Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    for (const bool one_port : {true, false}) {
      for (const u64 tau : {0, 3}) {
        for (const u64 packet : {u64{1}, std::max<u64>(cs.slots / 2, 1), cs.slots}) {
          const std::string what = std::string(one_port ? "one " : "all ") + cs.cycles +
                                   " tau=" + std::to_string(tau) + " B=" + std::to_string(packet);
          const SdpSchedule s = sdpA3Schedule(sdp, cls, one_port, packet, 1, "t");
          const SdpFormula f = sdpA3Count(sdp, cls, one_port, packet, 1);
          EXPECT_EQ(s.startups, f.startups) << what;
          EXPECT_EQ(s.transfer_cycles, f.transfer_cycles) << what;
          if (one_port && cls.separable) {  // Table 3 is for separable SDPs
            const SdpFormula t3 = sdpA3Table3(sdp, cls, true, packet);
            EXPECT_LE(f.transfer_cycles, t3.transfer_cycles) << what;
            EXPECT_LE(f.startups, t3.startups) << what;
          }
          const BuiltCase c = buildCase(a3Case(cs.n, cs.slots, one_port, cs.cycles, tau, packet));
          const testing::CheckedRun r = testing::runChecked(c);
          testing::expectCleanRun(r, c.perm.elements(), what);
          EXPECT_EQ(r.run.cycles, f.cycles(tau) + s.local_cycles) << what;
          const SdpBounds lb = sdpLowerBounds(sdp, cls, tau);
          EXPECT_GE(static_cast<double>(r.run.cycles), one_port ? lb.one_port : lb.n_port) << what;
        }
      }
    }
  }
}

// Random SDPs up to n = 8 (table executor), both port models: every element, the count, the
// lower bound.
TEST(SdpA3, LongRandomSdps) {
  std::mt19937 rng(617);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 7);
    const int k = static_cast<int>(rng() % 5);
    std::vector<int> delta(n + k);
    for (int i = 0; i < n + k; ++i) delta[i] = i;
    std::shuffle(delta.begin(), delta.end(), rng);
    const Sdp sdp = Sdp::fromDelta(n, k, delta);
    const SdpClass cls = classify(sdp);
    if (cls.sigma_p == 0) continue;
    std::string text;
    for (int i = 0; i < n + k; ++i) text += (i ? "," : "") + std::to_string(delta[i]);
    const bool one_port = trial % 2 == 0;
    const u64 tau = rng() % 20;
    const u64 packet = 1 + rng() % 4;
    CaseSpec s = a3Case(n, u64{1} << k, one_port, "", tau, packet);
    s.params["delta"] = text;
    const BuiltCase c = buildCase(s);
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), "a3 delta " + text);
    const SdpSchedule sched = sdpA3Schedule(sdp, cls, one_port, packet, 1, "t");
    EXPECT_EQ(r.run.cycles,
              sdpA3Count(sdp, cls, one_port, packet, 1).cycles(tau) + sched.local_cycles)
        << text;
    const SdpBounds lb = sdpLowerBounds(sdp, cls, tau);
    EXPECT_GE(static_cast<double>(r.run.cycles), one_port ? lb.one_port : lb.n_port) << text;
  }
}

}  // namespace
}  // namespace hcube

namespace hcube {
namespace {

// --method best, n-port, on Table 4's first SDP (sigma_i = 3, 6) with n = 9, K = 64: A5 enters
// with its best gamma by Table 3 ((gamma+1)K/(2 gamma) + (gamma+1) mu tau: gamma = 6 at tau = 0,
// gamma = 3 at tau = 10, 162.7 against A4's 164.2), A4 wins at tau = 100 (1154.2 against A5's
// 1242.7); A3 n-port enters by its own count. Measured cycles exact.
TEST(SdpBest, NPortIncludesA5WithItsBestGammaAndA3) {
  for (const auto& [tau, pick, cycles] : std::vector<std::tuple<u64, std::string, u64>>{
           {0, "a5 --gamma 6", 68}, {10, "a5 --gamma 3", 172}, {100, "a4", 1158}}) {
    CaseSpec s = a3Case(9, 64, false, "0,1,2/3,4,5,6,7,8", tau, 1);
    s.params["method"] = "best";
    s.params.erase("packet");
    const BuiltCase c = buildCase(s);
    EXPECT_NE(c.bound_source.find("best chose " + pick + " "), std::string::npos) << c.bound_source;
    EXPECT_NE(c.bound_source.find(" a3 "), std::string::npos) << c.bound_source;
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), "best");
    EXPECT_EQ(r.run.cycles, cycles) << tau;
  }
}

// One-port best costs A3 by Table 3 (B = K): on the transposition (0 2)(1 3), n = 4, K = 16,
// A3 = 1 * 4 * (16 + tau) ties A1' (listed first, so A1' is chosen) and beats A2.
TEST(SdpBest, OnePortIncludesA3) {
  CaseSpec s = a3Case(4, 16, true, "0,2/1,3", 10, 1);
  s.params["method"] = "best";
  s.params.erase("packet");
  const BuiltCase c = buildCase(s);
  EXPECT_NE(c.bound_source.find("a1 108 a1p 104 a2 144 a3 104"), std::string::npos)
      << c.bound_source;
  EXPECT_NE(c.bound_source.find("best chose a1p "), std::string::npos) << c.bound_source;
}

}  // namespace
}  // namespace hcube

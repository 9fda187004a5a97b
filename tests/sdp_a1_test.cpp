// Ho & Johnsson 1988 Algorithms A1 and A1', one-port (sw/algorithms/sdp/sdp_a1.h): every element
// checked on the table executor, exact cycle counts against Table 3 / §4.4, never below Theorem 1.
#include "algorithms/sdp/sdp_a1.h"

#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "base/error.h"
#include "spec/sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

CaseSpec sdpCase(int n, u64 slots, const std::string& method, const std::string& cycles, u64 tau,
                 u64 packet = 0) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.one_port = true;
  s.params["method"] = method;
  if (!cycles.empty()) s.params["cycles"] = cycles;
  s.params["tau"] = std::to_string(tau);
  if (packet > 0) s.params["packet"] = std::to_string(packet);
  return s;
}

// Runs the case, checks every element, and returns the measured cycles.
u64 runClean(const CaseSpec& spec) {
  const BuiltCase c = buildCase(spec);
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.elements(), spec.params.at("method"));
  return r.run.cycles;
}

// A1 on the 3-cube shuffle (0 1 2), K = 8, B = K/2 = 4, tau = 5: four exchanges E(v, 0),
// E(v, 1), E(v, 2), E(v, 0) of 4 elements, one start-up each: 4 * (4 + 5) = 36 cycles.
TEST(SdpA1, ShuffleOnThreeCubeTakesTable3Cycles) {
  const BuiltCase c = buildCase(sdpCase(3, 8, "a1", "0,1,2", 5));
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, 64, "a1");
  EXPECT_EQ(r.run.cycles, 36U);
  EXPECT_EQ(r.run.transfer_cycles, 16U);
  EXPECT_EQ(r.run.words, 4U * 8U * 4U);  // 4 exchanges, 8 nodes, K/2 elements each
  EXPECT_EQ(c.lower_bound, 12U);         // Theorem 1: sigma_p K / 2
}

// A1' on the same shuffle, B = K = 8: three steps of K elements, 3 * (8 + 5) = 39 cycles.
TEST(SdpA1, PrimeShuffleOnThreeCubeTakesTable3Cycles) {
  const BuiltCase c = buildCase(sdpCase(3, 8, "a1p", "0,1,2", 5));
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, 64, "a1p");
  EXPECT_EQ(r.run.cycles, 39U);
  EXPECT_EQ(c.tables.header.scratch, 8U);  // Table 5: A1' needs memory 2K
}

// Table 3 term by term for many SDPs (real, odd and even, several GSHs, mixed, virtual),
// packet sizes and start-ups: the measured cycles are the formula's plus the PERMUTE cycles of
// local storage swaps (mixed and virtual GSHs; the paper ignores local data movement; none for a
// real SDP); never below Theorem 1.
TEST(SdpA1, MeasuredCyclesEqualTable3Formula) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
  };
  const Case cases[] = {{2, 4, "0,1"},         {3, 4, "0,1,2"},         {4, 8, "0,1,2,3"},
                        {4, 4, "0,3/1,2"},     {5, 8, "0,1,2/3,4"},     {4, 8, "0,4/1,2,3"},
                        {3, 8, "0,3,1,4/5,2"}, {4, 8, "4,5,6/0,1,2,3"}, {2, 4, "0,2,1,3"},
                        {6, 4, "0,1,2,3,4,5"}};
  for (const Case& cs : cases) {
    const Sdp sdp = Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    for (const auto variant : {SdpA1Variant::kA1, SdpA1Variant::kA1Prime}) {
      const bool prime = variant == SdpA1Variant::kA1Prime;
      for (const u64 tau : {0, 3}) {
        for (const u64 packet : {u64{1}, cs.slots / 2, cs.slots}) {
          const std::string what = std::string(prime ? "a1p " : "a1 ") + cs.cycles +
                                   " tau=" + std::to_string(tau) + " B=" + std::to_string(packet);
          const SdpSchedule s = sdpA1Schedule(sdp, cls, variant, packet, 1, "t");
          const SdpFormula f = sdpA1Formula(sdp, cls, variant, packet);
          EXPECT_EQ(s.startups, f.startups) << what;
          EXPECT_EQ(s.transfer_cycles, f.transfer_cycles) << what;
          if (cls.beta_real == static_cast<int>(cls.gshs.size())) {
            EXPECT_EQ(s.local_cycles, 0U) << what;  // a real SDP moves nothing locally
          }
          const u64 cycles =
              runClean(sdpCase(cs.n, cs.slots, prime ? "a1p" : "a1", cs.cycles, tau, packet));
          EXPECT_EQ(cycles, f.cycles(tau) + s.local_cycles) << what;
          const SdpBounds lb = sdpLowerBounds(sdp, cls, tau);
          EXPECT_GE(static_cast<double>(cycles), lb.one_port) << what;
        }
      }
    }
  }
}

TEST(SdpA1, BadInputIsNamed) {
  auto message = [](const CaseSpec& s) {
    try {
      buildCase(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A1 needs a storage dimension to exchange with.
  EXPECT_NE(message(sdpCase(3, 1, "a1", "0,1,2", 0)).find("storage dimension"), std::string::npos);
  // A1' does not (it brings its own scratch dimension).
  EXPECT_EQ(runClean(sdpCase(3, 1, "a1p", "0,1,2", 0)), 3U);
  CaseSpec s = sdpCase(3, 8, "a1", "0,1,2", 0);
  s.params["gamma"] = "3";
  EXPECT_NE(message(s).find("gamma"), std::string::npos);
  s = sdpCase(4, 8, "a1p", "0,4,1/2,3", 0);
  s.one_port = false;
  EXPECT_NE(message(s).find("not separable"), std::string::npos);
  EXPECT_NE(message(sdpCase(3, 8, "a9", "0,1,2", 0)).find("--method 'a9'"), std::string::npos);
  EXPECT_NE(message(sdpCase(3, 8, "a1", "3,4", 0)).find("sigma_p = 0"), std::string::npos);
  s = sdpCase(3, 8, "a1", "", 0);
  s.params["delta"] = "1,1,2,3,4,5";
  EXPECT_NE(message(s).find("not a permutation"), std::string::npos);
}

// --method best, one-port, on one GSH of order 3 with K = 8: A1 takes 4 (K/2 + tau), A1'
// 3 (K + tau); the paper's break-even (§4.6) is tau = (sigma_p / beta - 1) K / 2 = 8.
TEST(SdpA1, BestPicksA1BelowTheBreakEvenAndA1PrimeAbove) {
  for (const auto& [tau, pick, cycles] :
       std::vector<std::tuple<u64, std::string, u64>>{{7, "a1", 44}, {9, "a1p", 51}}) {
    const BuiltCase c = buildCase(sdpCase(3, 8, "best", "0,1,2", tau));
    EXPECT_NE(c.bound_source.find("best chose " + pick), std::string::npos) << c.bound_source;
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, 64, "best");
    EXPECT_EQ(r.run.cycles, cycles);
  }
}

// Random SDPs on cubes up to n = 8 (table executor), every method that applies (one-port A1,
// A1', A2; n-port A1 and A6 for separable SDPs, A4 for all): every element where the reference
// says, and no run below Theorem 1's bound for its port model.
TEST(SdpA1, LongRandomSdpsNeverBeatTheLowerBound) {
  std::mt19937 rng(1988);
  int runs = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 7);
    const int k = 1 + static_cast<int>(rng() % 5);
    std::vector<int> delta(n + k);
    for (int i = 0; i < n + k; ++i) delta[i] = i;
    std::shuffle(delta.begin(), delta.end(), rng);
    const Sdp sdp = Sdp::fromDelta(n, k, delta);
    const SdpClass cls = classify(sdp);
    if (cls.sigma_p == 0) continue;
    std::string text;
    for (int i = 0; i < n + k; ++i) text += (i ? "," : "") + std::to_string(delta[i]);
    for (const auto& [method, one_port] :
         std::vector<std::pair<std::string, bool>>{{"a1", true},
                                                   {"a1p", true},
                                                   {"a2", true},
                                                   {"a1", false},
                                                   {"a4", false},
                                                   {"a6", false}}) {
      const u64 tau = rng() % 20;
      CaseSpec s = sdpCase(n, u64{1} << k, method, "", tau, 1 + rng() % 4);
      s.one_port = one_port;
      s.params["delta"] = text;
      BuiltCase c;
      try {
        c = buildCase(s);
      } catch (const Error& e) {
        // Only the documented refusals: A2 short of storage, n-port A1 and A6 on mixed GSHs, A4
        // with every storage dimension in a mixed GSH.
        const std::string w = e.what();
        EXPECT_TRUE(w.find("storage dimensions are free") != std::string::npos ||
                    w.find("not separable") != std::string::npos ||
                    w.find("every storage dimension is in a mixed GSH") != std::string::npos)
            << method << " delta " << text << ": " << w;
        continue;
      }
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), method + " delta " + text);
      const SdpBounds lb = sdpLowerBounds(sdp, cls, tau);
      EXPECT_GE(static_cast<double>(r.run.cycles), one_port ? lb.one_port : lb.n_port)
          << method << " delta " << text;
      ++runs;
    }
  }
  EXPECT_GT(runs, 200);  // the sweep really runs (refusals are a minority)
}

}  // namespace
}  // namespace hcube

// Ho & Johnsson 1988, the n-port Algorithm A1' (§4.2.1, Seq_i = L^i(J)) and the n-port
// Algorithm A2 with its rotated form (§4.3.2, §4.6) (sw/algorithms/sdp/sdp_a1.h, sdp_a2.h): every
// element checked on the table executor, exact cycles and start-ups against Table 3 where its
// data splits evenly, against an independent count of the per-link loads otherwise, never below
// Theorem 1's n-port bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "algorithms/aapc/aapc_family.h"
#include "algorithms/sdp/sdp_a1.h"
#include "algorithms/sdp/sdp_a2.h"
#include "base/error.h"
#include "spec/sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

CaseSpec nportCase(int n, u64 slots, const std::string& method, const std::string& cycles, u64 tau,
                   u64 packet = 0) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.one_port = false;
  s.params["method"] = method;
  if (!cycles.empty()) s.params["cycles"] = cycles;
  s.params["tau"] = std::to_string(tau);
  if (packet > 0) s.params["packet"] = std::to_string(packet);
  return s;
}

testing::CheckedRun runClean(const BuiltCase& c, const std::string& what) {
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.elements(), what);
  return r;
}

// Table 3, n-port A1': K t_c + beta sigma_max ceil(K/(sigma_max beta B)) tau, exact when
// beta sigma_i divides K for every GSH, equal orders (the first five) or not ((0 1 2 3)(4 5)). (0
// 1)(2 3), K = 16, B = K/(sigma beta) = 4: four routing cycles of 4 elements per link, 16 + 4 tau.
TEST(SdpNPort, A1PrimeTakesTable3WhenTheDataSplitsEvenly) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
  };
  for (const Case& cs :
       {Case{4, 16, "0,1/2,3"}, Case{4, 16, "0,1,2,3"}, Case{4, 32, "0,1/2,3"}, Case{2, 8, "0,1"},
        Case{4, 16, "0,1/2,3/4,5"}, Case{6, 64, "0,1,2,3/4,5"}, Case{7, 128, "0,1/2,3,4,5"}}) {
    const Sdp sdp = Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    for (const u64 tau : {0, 7}) {
      const BuiltCase c = buildCase(nportCase(cs.n, cs.slots, "a1p", cs.cycles, tau));
      const testing::CheckedRun r = runClean(c, cs.cycles);
      const u64 sb = static_cast<u64>(cls.sigma_max * cls.beta_real);
      const SdpFormula f = sdpA1PrimeNPortFormula(sdp, cls, cs.slots / sb);
      EXPECT_EQ(f.transfer_cycles, cs.slots);
      EXPECT_EQ(f.startups, sb);
      EXPECT_EQ(r.run.transfer_cycles, f.transfer_cycles) << cs.cycles;
      // A virtual GSH adds local PERMUTE cycles (the paper ignores local data movement).
      EXPECT_EQ(r.run.cycles - r.run.local_cycles, f.cycles(tau)) << cs.cycles;
      EXPECT_EQ(c.tables.header.scratch, cs.slots) << cs.cycles;  // Table 6: memory 2K
      EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, cls, tau).n_port);
    }
  }
}

// GSHs of different orders (or sigma beta not dividing K): the parts are not in lockstep. The
// expected element cycles and link rounds are counted here independently of the schedule: in
// phase t, part i (slots s = i mod beta, count_i of them) does GSH (i + t) mod beta of order
// sigma in sigma routing cycles of W_i = ceil(count_i / sigma) (its largest sub-part, one element
// per link and cycle), so the phase lasts max_i sigma W_i and is cut at every u W_i.
TEST(SdpNPort, A1PrimeUnevenOrdersAreNotInLockstep) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
  };
  for (const Case& cs : {Case{5, 16, "0,1,2/3,4"}, Case{3, 8, "0,1,2"}, Case{6, 8, "0,1/2,3,4,5"},
                         Case{6, 4, "0,1,2/3,4,5"}, Case{9, 64, "0,1,2,3/4,5,6/7,8"}}) {
    const int k = log2Exact(cs.slots);
    const Sdp sdp = Sdp::fromCycles(cs.n, k, cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    const u64 beta = static_cast<u64>(cls.beta_real);
    u64 expect = 0;
    u64 rounds = 0;
    for (u64 t = 0; t < beta; ++t) {
      u64 longest = 0;
      std::vector<u64> cuts{0};
      for (u64 i = 0; i < beta; ++i) {
        const u64 sigma = static_cast<u64>(cls.gshs[(i + t) % beta].sigma());
        u64 count = 0;
        for (u64 s = 0; s < cs.slots; ++s) count += s % beta == i;
        const u64 w = (count + sigma - 1) / sigma;
        longest = std::max(longest, sigma * w);
        for (u64 u = 1; u <= sigma; ++u) cuts.push_back(u * w);
      }
      std::sort(cuts.begin(), cuts.end());
      rounds += static_cast<u64>(std::unique(cuts.begin(), cuts.end()) - cuts.begin()) - 1;
      expect += longest;
    }
    // tau = 0: the parts at their own pace are never slower than in lockstep, so they run.
    const BuiltCase c = buildCase(nportCase(cs.n, cs.slots, "a1p", cs.cycles, 0, cs.slots));
    const testing::CheckedRun r = runClean(c, cs.cycles);
    EXPECT_EQ(r.run.transfer_cycles, expect) << cs.cycles;
    EXPECT_NE(c.bound_source.find("schedule: " + std::to_string(rounds) + " start-ups, " +
                                  std::to_string(expect) + " element cycles"),
              std::string::npos)
        << c.bound_source;
    EXPECT_GE(r.run.transfer_cycles, cs.slots) << cs.cycles;  // never below Table 3's K
    EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, cls, 0).n_port);
    // With a start-up cost the run takes the cheaper of the two forms for its tau (section 4.1:
    // independent GSHs are optimal without start-ups or with equal orders).
    for (const u64 tau : {5, 100}) {
      const SdpSchedule own = sdpA1PrimeNPortSchedule(sdp, cls, cs.slots, 1, "t");
      const SdpSchedule lock = sdpA1PrimeNPortSchedule(sdp, cls, cs.slots, 1, "t", true);
      const u64 best = std::min(own.transfer_cycles + own.local_cycles + own.startups * tau,
                                lock.transfer_cycles + lock.local_cycles + lock.startups * tau);
      const BuiltCase d = buildCase(nportCase(cs.n, cs.slots, "a1p", cs.cycles, tau, cs.slots));
      EXPECT_EQ(runClean(d, cs.cycles).run.cycles, best) << cs.cycles << " tau " << tau;
    }
  }
}

// The rotated A2 on GSHs of unequal orders, {4, 2} at K = 128: sigma_max = 4 k_j leave 3 label
// bits, 8 labels, 4 per part (beta = 2). In each phase part p runs the AAPC of its GSH on its own
// 64 elements (Algorithm 4 blocked, sw/algorithms/sdp/sdp_a2.h): 32 steps whatever the GSH's order,
// so the two phases of two AAPCs take Table 3's K = 128 element cycles. Start-ups: the order-4
// part's AAPC has 4 blocks of 8 steps, the order-2 part's 2 blocks of 16, so every AAPC starts
// messages at steps 0, 8, 16, 24 (the default B = ceil(K / 2 sigma_p) = 11 cuts no block further):
// 16 in all. Table 3's 2 sigma_p = 12 assumes every GSH of the same order (section 4.6's "the
// resulting complexity remains the same" holds for the element term, not for the start-ups here).
TEST(SdpNPort, RotatedA2UnevenOrdersAreNotInLockstep) {
  const BuiltCase c = buildCase(nportCase(6, 128, "a2r", "0,1,2,3/4,5", 5));
  const testing::CheckedRun r = runClean(c, "a2r {4,2}");
  EXPECT_NE(c.bound_source.find("schedule: 16 start-ups, 128 element cycles"), std::string::npos)
      << c.bound_source;
  EXPECT_EQ(r.run.cycles - r.run.local_cycles, 128U + 16U * 5U);
  const Sdp sdp = Sdp::fromCycles(6, 7, "0,1,2,3/4,5");
  EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, classify(sdp), 5).n_port);
}

// The plain n-port A2 needs no label bit: K = 16 for (0 1)(2 3) leaves none, and its AAPCs (the
// project's Algorithm 4, blocked) still take Table 3's K = 16 element cycles in 2 sigma_p = 8
// messages (before they were built of the exchanges of each AAPC one after the other: 4 x 16).
// Mixed GSHs go through A2 as in the one-port form (section 4.4), every element checked.
TEST(SdpNPort, A2WithFewLabelBitsAndMixedGshs) {
  {
    const BuiltCase c = buildCase(nportCase(4, 16, "a2", "0,1/2,3", 0));
    const testing::CheckedRun r = runClean(c, "a2 K=16");
    EXPECT_EQ(r.run.transfer_cycles, 16U);
    EXPECT_NE(c.bound_source.find("schedule: 8 start-ups, 16 element cycles"), std::string::npos)
        << c.bound_source;
  }
  for (const char* method : {"a2", "a2r"}) {
    for (const char* cycles : {"0,4,1/2,3", "0,5/1,2,3", "0,4/1,5/2,3"}) {
      const BuiltCase c = buildCase(nportCase(4, 64, method, cycles, 3));
      const testing::CheckedRun r = runClean(c, std::string(method) + " " + cycles);
      const Sdp sdp = Sdp::fromCycles(4, 6, cycles);
      EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, classify(sdp), 3).n_port)
          << cycles;
    }
  }
}

TEST(SdpNPort, BadInputIsNamed) {
  auto message = [](const CaseSpec& s) {
    try {
      buildCase(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(nportCase(4, 16, "a1p", "0,4,1/2,3", 0)).find("not separable"),
            std::string::npos);
  // (0 1 2 3) plain n-port A2 needs four free storage dimensions, K = 8 has three.
  EXPECT_NE(message(nportCase(4, 8, "a2", "0,1,2,3", 0)).find("only 3 of the log2 K = 3"),
            std::string::npos);
  // Rotated, (0 1)(2 3) needs two: K = 2 has one.
  EXPECT_NE(message(nportCase(4, 2, "a2r", "0,1/2,3", 0)).find("only 1 of the log2 K = 1"),
            std::string::npos);
  CaseSpec s = nportCase(4, 16, "a2r", "0,1/2,3", 0);
  s.one_port = true;
  EXPECT_NE(message(s).find("n-port algorithm"), std::string::npos);
}

// Random SDPs (n <= 6, half of them separable): the n-port A1', A2 and rotated A2 wherever they
// apply (A2's AAPCs by a random schedule of the family), every element checked, never below
// Theorem 1's n-port bound.
TEST(SdpNPort, RandomSdpsNeverBeatTheLowerBound) {
  std::mt19937 rng(617);
  int runs = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 5);
    const int k = 1 + static_cast<int>(rng() % 5);
    std::vector<int> delta(static_cast<size_t>(n + k));
    for (int i = 0; i < n + k; ++i) delta[static_cast<size_t>(i)] = i;
    // Half the SDPs separable (processor and storage dimensions permuted among themselves).
    if (trial % 2 == 0) {
      std::shuffle(delta.begin(), delta.begin() + n, rng);
      std::shuffle(delta.begin() + n, delta.end(), rng);
    } else {
      std::shuffle(delta.begin(), delta.end(), rng);
    }
    const Sdp sdp = Sdp::fromDelta(n, k, delta);
    const SdpClass cls = classify(sdp);
    if (cls.sigma_p == 0) continue;
    std::string text;
    for (int i = 0; i < n + k; ++i) text += (i ? "," : "") + std::to_string(delta[i]);
    for (const char* method : {"a1p", "a2", "a2r"}) {
      const u64 tau = rng() % 10;
      CaseSpec s = nportCase(n, u64{1} << k, method, "", tau, 1 + rng() % 4);
      s.params["delta"] = text;
      // A2's AAPCs by any schedule of the project's family (sw/algorithms/aapc/aapc_family.h).
      const std::string aapc = aapcScheduleNames()[rng() % aapcScheduleNames().size()];
      if (std::string(method) != "a1p") s.params["aapc"] = aapc;
      BuiltCase c;
      try {
        c = buildCase(s);
      } catch (const Error& e) {
        const std::string w = e.what();
        EXPECT_TRUE(w.find("storage dimensions are free") != std::string::npos ||
                    w.find("not separable") != std::string::npos)
            << method << " delta " << text << ": " << w;
        continue;
      }
      const testing::CheckedRun r =
          runClean(c, std::string(method) + " --aapc " + aapc + " delta " + text);
      EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, cls, tau).n_port)
          << method << " delta " << text;
      ++runs;
    }
  }
  EXPECT_GT(runs, 30);
}

}  // namespace
}  // namespace hcube

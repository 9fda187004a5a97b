// Ho & Johnsson 1988 §4.5, the extended-cube scheme (sw/algorithms/sdp/sdp_extended.h): subcube
// expansion, the full-cube permutation on K / 2^(n - m_p) elements per node, compression. Every
// element of the data's subcube checked on the table executor; the phases' cycles exactly the
// paper's K(1 - 2^-e) + e tau (one-port) and (K/e)(1 - 2^-e) + e tau (n-port) beside the inner
// method's own run; never below Corollary 4.
#include "algorithms/sdp/sdp_extended.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "spec/sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

CaseSpec sdpCase(int n, u64 slots, bool one_port, const std::string& method,
                 const std::string& cycles, u64 tau) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.one_port = one_port;
  s.params["method"] = method;
  s.params["cycles"] = cycles;
  s.params["tau"] = std::to_string(tau);
  return s;
}

testing::CheckedRun runClean(const BuiltCase& c, const std::string& what) {
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.participating(), what);
  return r;
}

// The expansion alone: n = 4, m_p = 2 (e = 2), K = 16. One-port: E(S_0, 2) moves K/2 = 8,
// E(S_1, 3) K/4 = 4 elements, 12 = K(1 - 2^-2) element cycles, 2 start-ups. n-port: two parts
// on the two dimensions at once, 4 then 2 elements per link, 6 = (K/2)(1 - 2^-2).
TEST(SdpExtended, SpreadPhasesTakeSection45Exactly) {
  const Sdp sdp = Sdp::fromCycles(4, 4, "0,1", 2);
  const SdpClass cls = classify(sdp);
  const std::vector<int> spread = extendedSpreadDims(sdp, cls);
  EXPECT_EQ(spread, (std::vector<int>{7, 6}));  // the highest free storage dimensions
  for (const bool one_port : {true, false}) {
    for (const bool compress : {false, true}) {
      const SdpSchedule s = extendedSpreadPhase(sdp, spread, compress, one_port, 16, 1, "t");
      const SpreadFormula f = extendedSpreadFormula(sdp, one_port);
      EXPECT_EQ(static_cast<double>(s.transfer_cycles), f.transfer_cycles);
      EXPECT_EQ(s.transfer_cycles, one_port ? 12U : 6U);
      EXPECT_EQ(s.startups, 2U);
      // Every element of the 4 active nodes (16 each) crosses one link per spread bit it has
      // set: 4 nodes x 16 elements x 1 on average.
      EXPECT_EQ(s.element_transfers, 64U);
    }
  }
}

// The whole scheme for every inner method that applies, one-port and n-port: its cycles are the
// inner method's own run on the reduced full cube (n = 6, m_p = 4, K = 64: K' = K/4, the same
// SDP) plus two spread phases
// of exactly section 4.5's time; every element checked; never below Corollary 4.
TEST(SdpExtended, ThreePhasesAreSpreadPlusInnerPlusSpread) {
  struct Case {
    const char* inner;
    bool one_port;
    const char* cycles;
  };
  const int n = 6;
  const int mp = 4;
  const u64 slots = 64;
  const u64 tau = 3;
  for (const Case& cs :
       {Case{"a1", true, "0,1,2"}, Case{"a1p", true, "0,1/2,6"}, Case{"a2", true, "0,1,2"},
        Case{"a3", true, "0,2"}, Case{"a1", true, "0,6,1"}, Case{"a1", false, "0,1/2,3"},
        Case{"a1p", false, "0,1,2"}, Case{"a2", false, "0,1"}, Case{"a2r", false, "0,1/2,6"},
        Case{"a3", false, "0,2"}, Case{"a4", false, "0,1,2"}, Case{"a5", false, "0,1,2"},
        Case{"a6", false, "0,1/2,3"}}) {
    const std::string what =
        std::string(cs.inner) + (cs.one_port ? " one-port " : " n-port ") + cs.cycles;
    CaseSpec ext = sdpCase(n, slots, cs.one_port, "extended", cs.cycles, tau);
    ext.params["mp"] = std::to_string(mp);
    ext.params["inner"] = cs.inner;
    const BuiltCase c = buildCase(ext);
    const testing::CheckedRun r = runClean(c, what);
    // The inner method alone on the full 6-cube with K' = 16 (storage dims 6..9 keep their
    // numbers: the spread dims are the two highest, 10 and 11).
    const BuiltCase in = buildCase(sdpCase(n, slots / 4, cs.one_port, cs.inner, cs.cycles, tau));
    const testing::CheckedRun ri = runClean(in, what + " inner");
    const Sdp sdp = Sdp::fromCycles(n, 6, cs.cycles, mp);
    const SpreadFormula f = extendedSpreadFormula(sdp, cs.one_port);
    const u64 spread = static_cast<u64>(f.transfer_cycles);
    EXPECT_EQ(static_cast<double>(spread), f.transfer_cycles);  // 48 or 24: exact
    EXPECT_EQ(r.run.transfer_cycles, ri.run.transfer_cycles + 2 * spread) << what;
    EXPECT_EQ(r.run.cycles, ri.run.cycles + 2 * (spread + f.startups * tau)) << what;
    const SdpBounds lb = sdpLowerBounds(sdp, classify(sdp), tau);
    EXPECT_EQ(lb.source, "Ho & Johnsson 1988 Corollary 4 (extended cube)");
    EXPECT_GE(static_cast<double>(r.run.cycles), cs.one_port ? lb.one_port : lb.n_port) << what;
  }
}

// Without --method extended an SDP with --mp < n runs on the data's subcube only (the nodes
// outside hold no data and idle): A1 one-port on (0 1 2) with m_p = 3 on a 5-cube takes its
// full-cube time on the 3-cube, 4 exchanges of K/2.
TEST(SdpExtended, DirectRunUsesTheActiveSubcubeOnly) {
  CaseSpec s = sdpCase(5, 16, true, "a1", "0,1,2", 2);
  s.params["mp"] = "3";
  const BuiltCase c = buildCase(s);
  EXPECT_EQ(c.perm.participating(), 8U * 16U);
  const testing::CheckedRun r = runClean(c, "a1 mp=3");
  EXPECT_EQ(r.run.cycles, 4U * (8U + 2U));
  EXPECT_EQ(r.run.words, 4U * 8U * 8U);  // 4 exchanges, 8 active nodes, K/2 each
}

TEST(SdpExtended, BadInputIsNamed) {
  auto message = [](const CaseSpec& s) {
    try {
      buildCase(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CaseSpec s = sdpCase(4, 16, true, "extended", "0,1", 0);
  EXPECT_NE(message(s).find("--mp < n"), std::string::npos);
  s.params["mp"] = "2";
  s.params["inner"] = "best";
  EXPECT_NE(message(s).find("--inner 'best'"), std::string::npos);
  s.params["inner"] = "a1";
  s.slots = 2;  // one storage dimension for two idle processor dimensions
  EXPECT_NE(message(s).find("only 1 of the log2 K = 1 are free"), std::string::npos);
  s.slots = 16;
  s.params["mp"] = "5";
  EXPECT_NE(message(s).find("--mp"), std::string::npos);
}

// --method best on an extended cube weighs §4.5's scheme by the paper's formulas: 2 x the
// expansion's K(1 - 2^-e) + e tau (one-port; (K/e)(1 - 2^-e) + e tau n-port) plus the best
// full-cube method's Table 3 time on K' = K / 2^e, against the direct run's. (0 1)(2 3) on 4 of
// 6 dimensions, K = 64 (e = 2, K' = 16): one-port at tau = 0 the scheme around A1 (2 x 48 + 48 =
// 144 against A1's 192 direct), at tau = 10 around A1' (2 x 68 + 104 = 240 against 252), at
// tau = 100 the direct A1' (656 against 960: the 2e extra start-ups, as §4.5 says); n-port at
// tau = 0 the direct A3 (33 against 2 x 24 + 9). The measured cycles equal the chosen formula.
TEST(SdpExtended, BestWeighsTheSchemeBySection45) {
  struct Case {
    bool one_port;
    u64 tau;
    const char* chose;
    const char* weighed;
    u64 cycles;
  };
  for (const Case& cs : {
           Case{true, 0, "best chose extended --inner a1 ",
                " extended (section 4.5: 2 x 48 + inner a1 48 on K' = 16) 144", 144},
           Case{true, 10, "best chose extended --inner a1p ",
                " extended (section 4.5: 2 x 68 + inner a1p 104 on K' = 16) 240", 240},
           Case{true, 100, "best chose a1p ",
                " extended (section 4.5: 2 x 248 + inner a1p 464 on K' = 16) 960", 656},
           Case{false, 0, "best chose a3 ",
                " extended (section 4.5: 2 x 24 + inner a3 9 on K' = 16) 57", 33},
       }) {
    CaseSpec s = sdpCase(6, 64, cs.one_port, "best", "0,1/2,3", cs.tau);
    s.params["mp"] = "4";
    const BuiltCase c = buildCase(s);
    EXPECT_NE(c.bound_source.find(cs.chose), std::string::npos) << c.bound_source;
    EXPECT_NE(c.bound_source.find(cs.weighed), std::string::npos) << c.bound_source;
    const testing::CheckedRun r = runClean(c, cs.chose);
    EXPECT_EQ(r.run.cycles, cs.cycles) << cs.chose << " tau " << cs.tau;
  }
  // Where the scheme cannot run (no free storage dimension to spread with) best says so and runs
  // the direct method: (0 6 1 7)(2 3) on 4 of 6, K = 4 has both storage dimensions in J.
  CaseSpec s = sdpCase(6, 4, true, "best", "0,6,1,7/2,3", 0);
  s.params["mp"] = "4";
  const BuiltCase c = buildCase(s);
  EXPECT_NE(c.bound_source.find(" extended: does not apply ("), std::string::npos)
      << c.bound_source;
  runClean(c, "best, no spread dimension");
}

}  // namespace
}  // namespace hcube

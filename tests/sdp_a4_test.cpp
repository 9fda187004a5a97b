// Ho & Johnsson 1988 Algorithm A4 (sw/schedules/sdp_a4.h): Table 1's sequences, Lemma 7, and
// runs on the table executor with sigma_p + beta start-ups.
#include "schedules/sdp_a4.h"

#include <gtest/gtest.h>

#include "error.h"
#include "sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

const char* const kTable1 = "0,1,2,3/4,5,6/7,8";

// Table 1, as printed: the 13 sequences for J0 = 0,1,2,3; J1 = 4,5,6; J2 = 7,8.
TEST(SdpA4, Table1Sequences) {
  const Sdp sdp = Sdp::fromCycles(9, 9, kTable1);
  const auto seqs = a4Sequences(sdp, classify(sdp, parseCycles(kTable1)));
  const std::vector<std::vector<int>> table1 = {
      {0, 1, 2, 3, 0, 4, 5, 6, 4, 7, 8, 7}, {1, 2, 3, 0, 4, 5, 6, 4, 7, 8, 7, 1},
      {2, 3, 0, 4, 5, 6, 4, 7, 8, 7, 1, 2}, {3, 0, 4, 5, 6, 4, 7, 8, 7, 1, 2, 3},
      {0, 4, 5, 6, 4, 7, 8, 7, 1, 2, 3, 0}, {4, 5, 6, 4, 7, 8, 7, 1, 2, 3, 0, 1},
      {5, 6, 4, 7, 8, 7, 1, 2, 3, 0, 1, 5}, {6, 4, 7, 8, 7, 1, 2, 3, 0, 1, 5, 6},
      {4, 7, 8, 7, 1, 2, 3, 0, 1, 5, 6, 4}, {7, 8, 7, 1, 2, 3, 0, 1, 5, 6, 4, 5},
      {8, 7, 1, 2, 3, 0, 1, 5, 6, 4, 5, 8}, {7, 1, 2, 3, 0, 1, 5, 6, 4, 5, 8, 7},
      {1, 2, 3, 0, 1, 5, 6, 4, 5, 8, 7, 8}};
  EXPECT_EQ(seqs, table1);
  // Lemma 7: no dimension is used by more than two sequences in a routing cycle.
  EXPECT_EQ(maxSequencesPerDimension(seqs), 2);
}

// §4.2.1's n-port A1 sequences for sigma = 3: Seq_i = L^i(J), a_i.
TEST(SdpA4, A1NPortSequencesForOrderThree) {
  Gsh g;
  g.dims = {5, 6, 7};
  const std::vector<std::vector<int>> want = {{5, 6, 7, 5}, {6, 7, 5, 6}, {7, 5, 6, 7}};
  EXPECT_EQ(a1NPortSequences(g), want);
  EXPECT_EQ(maxSequencesPerDimension(want), 1);
}

BuiltCase a4Case(int n, u64 slots, const std::string& cycles, u64 tau, u64 packet = 0) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.params["method"] = "a4";
  s.params["cycles"] = cycles;
  s.params["tau"] = std::to_string(tau);
  if (packet > 0) s.params["packet"] = std::to_string(packet);
  return buildCase(s);
}

// Table 1's SDP itself on a 9-cube with K = 512 (table executor, every element checked):
// sigma_p + beta = 12 start-ups with the default packet, 12 routing cycles of at most
// 2 ceil(K / 2P) = 40 elements, P = 13.
TEST(SdpA4, Table1SdpRunsWithSigmaPPlusBetaStartups) {
  const BuiltCase c = a4Case(9, 512, kTable1, 10);
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.elements(), "a4 table 1");
  EXPECT_NE(c.bound_source.find("schedule: 12 start-ups"), std::string::npos) << c.bound_source;
  EXPECT_EQ(r.run.cycles, r.run.transfer_cycles + 12 * 10);
  EXPECT_LE(r.run.transfer_cycles, 12U * 40U);
  EXPECT_GE(r.run.cycles, 256U);  // Theorem 1, n-port: K/2
}

// When 2P divides K, Table 3's A4 time holds exactly: (sigma_p + beta) K / P + (sigma_p + beta)
// tau. One GSH of order 2 (P = 4) and of order 4 (P = 8).
TEST(SdpA4, ExactTable3TimeWhenPartsDivideK) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
    u64 cycles_tau0;
    u64 startups;
  };
  for (const Case& cs :
       {Case{2, 8, "0,1", 6, 3}, Case{4, 16, "0,1,2,3", 10, 5}, Case{5, 16, "1,3,2,4", 10, 5}}) {
    for (const u64 tau : {0, 7}) {
      const BuiltCase c = a4Case(cs.n, cs.slots, cs.cycles, tau);
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
      EXPECT_EQ(r.run.cycles, cs.cycles_tau0 + cs.startups * tau) << cs.cycles;
    }
  }
}

TEST(SdpA4, RandomRealSdpsAreCorrectAndUseSigmaPPlusBetaStartups) {
  for (const char* cycles :
       {"0,1/2,3", "0,1,2/3,4", "0,2/1,3,4,5", "1,0/2,5,4/6,3", "0,1,2,3,4,5,6"}) {
    const Sdp sdp = Sdp::fromCycles(7, 6, cycles);
    const SdpClass cls = classify(sdp, parseCycles(cycles));
    const BuiltCase c = a4Case(7, 64, cycles, 3);
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), cycles);
    const u64 startups = static_cast<u64>(cls.sigma_p + cls.beta);
    EXPECT_EQ(r.run.cycles, r.run.transfer_cycles + 3 * startups) << cycles;
    EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, cls, 3).n_port) << cycles;
  }
}

TEST(SdpA4, BadInputIsNamed) {
  auto message = [](const std::string& cycles, u64 slots, bool one_port) {
    CaseSpec s;
    s.algo = "sdp";
    s.n = 3;
    s.slots = slots;
    s.one_port = one_port;
    s.params["method"] = "a4";
    s.params["cycles"] = cycles;
    try {
      buildCase(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("0,3", 8, false).find("not separable"), std::string::npos);
  EXPECT_NE(message("0,1,2", 1, false).find("K >= 2"), std::string::npos);
  EXPECT_NE(message("0,1,2", 8, true).find("n-port algorithm"), std::string::npos);
}

}  // namespace
}  // namespace hcube

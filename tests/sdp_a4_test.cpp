// Ho & Johnsson 1988 Algorithm A4 (sw/algorithms/sdp/sdp_a4.h): Table 1's sequences, Lemma 7, and
// runs on the table executor with sigma_p + beta start-ups.
#include "algorithms/sdp/sdp_a4.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "spec/sdp.h"
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

// Section 4.4, n-port, non-separable: A4 "as if there is no virtual dimension". The sequences are
// Table 1's construction over each GSH's processor dimensions: for the mixed GSH (0 1 9 2 3) and
// the real (4 5) that is the real SDP J0 = 0,1,2,3; J1 = 4,5.
TEST(SdpA4, MixedGshSequencesAreThoseOfItsProcessorDimensions) {
  const Sdp mixed = Sdp::fromCycles(6, 4, "0,1,6,2,3/4,5");
  const Sdp real = Sdp::fromCycles(6, 4, "0,1,2,3/4,5");
  const auto seqs = a4Sequences(mixed, classify(mixed, parseCycles("0,1,6,2,3/4,5")));
  EXPECT_EQ(seqs, a4Sequences(real, classify(real, parseCycles("0,1,2,3/4,5"))));
  ASSERT_EQ(seqs.size(), 6U + 2U + 2U - 1U);  // sigma_p + beta + sigma_min - 1
  EXPECT_EQ(seqs.front(), (std::vector<int>{0, 1, 2, 3, 0, 4, 5, 4}));
  EXPECT_EQ(maxSequencesPerDimension(seqs), 2);  // Lemma 7
  // A mixed GSH with one processor dimension (0 6) takes part as 0, 0.
  const Sdp one = Sdp::fromCycles(6, 4, "0,6/1,2");
  const auto one_seqs = a4Sequences(one, classify(one, parseCycles("0,6/1,2")));
  EXPECT_EQ(one_seqs.front(), (std::vector<int>{0, 0, 1, 2, 1}));
  EXPECT_EQ(one_seqs.size(), 3U + 2U + 1U - 1U);
  EXPECT_EQ(maxSequencesPerDimension(one_seqs), 2);
}

// Non-separable SDPs by A4 on the table executor, every element checked: sigma_p + beta start-ups
// (beta counting the mixed GSHs, section 4.4) and, where the P parts divide the part labels
// (the slot bits outside v and the mixed GSHs' storage dimensions), Table 3's element cycles
// (sigma_p + beta) K / P exactly; the local exchanges with v are PERMUTE cycles beside them.
TEST(SdpA4, MixedSdpsMeetTable3WithSigmaPPlusBetaStartups) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
    bool exact;  // P divides the number of part labels
  };
  for (const Case& cs :
       {Case{4, 16, "0,1,4", true}, Case{4, 32, "0,4/1,5", true}, Case{4, 64, "0,4,5,1", true},
        Case{4, 16, "0,1,4/2,3/6,7", false}, Case{5, 32, "0,5,1,2/3,4,6", false}}) {
    const Sdp sdp = Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    ASSERT_FALSE(cls.separable) << cs.cycles;
    const u64 rounds = static_cast<u64>(cls.sigma_p + cls.beta);
    const SdpA4Formula f = sdpA4Formula(sdp, cls, cs.slots);
    for (const u64 tau : {0, 5}) {
      const BuiltCase c = a4Case(cs.n, cs.slots, cs.cycles, tau, cs.slots);
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
      const SdpSchedule s = sdpA4Schedule(sdp, cls, cs.slots, 1, "a4");
      EXPECT_EQ(s.startups, rounds) << cs.cycles;
      if (cs.exact) {
        EXPECT_EQ(static_cast<double>(s.transfer_cycles), f.transfer_cycles) << cs.cycles;
      } else {
        EXPECT_GE(static_cast<double>(s.transfer_cycles), f.transfer_cycles) << cs.cycles;
      }
      EXPECT_EQ(r.run.cycles, s.transfer_cycles + s.local_cycles + rounds * tau) << cs.cycles;
      EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, cls, tau).n_port)
          << cs.cycles;
    }
    // The default packet is what a routing cycle carries on a link (the parts are dealt by
    // labels of 2^(f+1) slots, f the mixed GSHs' storage dimensions): one message per cycle.
    const BuiltCase d = a4Case(cs.n, cs.slots, cs.cycles, 1);
    EXPECT_NE(d.bound_source.find("schedule: " + std::to_string(rounds) + " start-ups"),
              std::string::npos)
        << d.bound_source;
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
  // Section 4.4's A4 on a non-separable SDP needs a storage dimension outside the mixed GSHs.
  EXPECT_NE(message("0,3/1,4/2,5", 8, false).find("every storage dimension is in a mixed GSH"),
            std::string::npos);
  EXPECT_NE(message("0,1,2", 1, false).find("K >= 2"), std::string::npos);
  EXPECT_NE(message("0,1,2", 8, true).find("n-port algorithm"), std::string::npos);
}

}  // namespace
}  // namespace hcube

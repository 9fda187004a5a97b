// Ho & Johnsson 1988 Algorithm A2, one-port (sw/schedules/sdp_a2.h): two AAPCs by exchanges,
// exact Table 3 cycles (plus the PERMUTE cycles restoring the storage dimensions), every element
// checked, and the storage it needs.
#include <gtest/gtest.h>

#include "error.h"
#include "sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

CaseSpec a2Case(int n, u64 slots, const std::string& cycles, u64 tau, u64 packet) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = n;
  s.slots = slots;
  s.one_port = true;
  s.params["method"] = "a2";
  s.params["cycles"] = cycles;
  s.params["tau"] = std::to_string(tau);
  s.params["packet"] = std::to_string(packet);
  return s;
}

TEST(SdpA2, MeasuredCyclesEqualTable3PlusLocalSwaps) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
  };
  for (const Case& cs : {Case{3, 8, "0,1,2"}, Case{4, 16, "0,3/1,2"}, Case{4, 32, "0,1/2,3"},
                         Case{3, 16, "0,3,1"}, Case{5, 64, "0,1,2,3,4"}}) {
    for (const u64 tau : {0, 4}) {
      for (const u64 packet : {u64{1}, cs.slots / 2}) {
        const BuiltCase c = buildCase(a2Case(cs.n, cs.slots, cs.cycles, tau, packet));
        const testing::CheckedRun r = testing::runChecked(c);
        testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
        const SdpClass cls = classify(Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles));
        const u64 sp = static_cast<u64>(cls.sigma_p);
        const u64 starts = 2 * sp * ((cs.slots / 2 + packet - 1) / packet);
        // Table 3: sigma_p K element cycles, 2 sigma_p ceil(K/2B) start-ups.
        EXPECT_EQ(r.run.transfer_cycles, sp * cs.slots) << cs.cycles;
        EXPECT_EQ(r.run.cycles - r.run.local_cycles, sp * cs.slots + starts * tau) << cs.cycles;
      }
    }
  }
}

// Fewer than sigma_p free storage dimensions: the GSHs one after the other (section 4.6, Table 5's
// minimum K = 2^sigma_max), same Table 3 time: sigma_p K element cycles, 2 sigma_p start-ups
// (B = K/2). E.g. n = 5, K = 8: (0 1 2)(3 4) has sigma_p = 5 but three storage dimensions do.
TEST(SdpA2, GshAfterGshNeedsOnlySigmaMaxFreeStorageDimensions) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
  };
  for (const Case& cs : {Case{4, 8, "0,1/2,3"}, Case{5, 8, "0,1,2/3,4"}, Case{4, 8, "0,4/1,2"},
                         Case{4, 4, "0,3/1,2"}}) {
    for (const u64 tau : {0, 4}) {
      const u64 packet = cs.slots / 2;
      const BuiltCase c = buildCase(a2Case(cs.n, cs.slots, cs.cycles, tau, packet));
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), cs.cycles);
      const SdpClass cls = classify(Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles));
      const u64 sp = static_cast<u64>(cls.sigma_p);
      EXPECT_EQ(r.run.transfer_cycles, sp * cs.slots) << cs.cycles;
      EXPECT_EQ(r.run.cycles - r.run.local_cycles, sp * cs.slots + 2 * sp * tau) << cs.cycles;
    }
  }
}

TEST(SdpA2, NeedsSigmaPFreeStorageDimensions) {
  try {
    buildCase(a2Case(3, 4, "0,1,2", 0, 2));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("only 2 of the log2 K = 2 storage dimensions are free"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hcube

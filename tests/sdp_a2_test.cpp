// Ho & Johnsson 1988 Algorithm A2 (sw/algorithms/sdp/sdp_a2.h): two AAPCs by the project's AAPC
// schedules (sw/algorithms/aapc/aapc_family.h) — one-port by the exchange algorithm, n-port by any
// of the family — exact Table 3 cycles (plus the PERMUTE cycles restoring the storage dimensions),
// every element checked, and the storage it needs.
#include "algorithms/sdp/sdp_a2.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <utility>

#include "algorithms/aapc/aapc_family.h"
#include "base/error.h"
#include "spec/sdp.h"
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

CaseSpec a2NPortCase(int n, u64 slots, const std::string& method, const std::string& cycles,
                     u64 tau, u64 packet = 0) {
  CaseSpec s = a2Case(n, slots, cycles, tau, packet == 0 ? 1 : packet);
  s.one_port = false;
  s.params["method"] = method;
  if (packet == 0) s.params.erase("packet");
  return s;
}

/// "schedule: S start-ups, E element cycles" of a built case.
std::pair<u64, u64> scheduleCount(const BuiltCase& c) {
  unsigned long long starts = 0;
  unsigned long long elems = 0;
  const size_t at = c.bound_source.find("schedule: ");
  EXPECT_NE(at, std::string::npos) << c.bound_source;
  if (at == std::string::npos) return {0, 0};
  EXPECT_EQ(std::sscanf(c.bound_source.c_str() + at,
                        "schedule: %llu start-ups, %llu element cycles", &starts, &elems),
            2)
      << c.bound_source;
  return {starts, elems};
}

// The n-port A2 runs its two AAPCs by whichever schedule of the project's AAPC family --aapc
// names: its element cycles are exactly twice that schedule's steps on sigma_p dimensions with
// K = m 2^sigma_p slots, and (one message per block transfer, B = K) its start-ups twice the
// schedule's block transfers. So A2 follows the AAPC schedules: the exchange algorithm run n-port
// takes sigma_p K (one port at a time), Algorithm 4 blocked K, Table 3's K t_c + 2 sigma_p tau.
TEST(SdpA2, NPortAapcsAreTheFamilysSchedules) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
    int sigma_p;
  };
  for (const Case& cs :
       {Case{4, 16, "0,1/2,3", 4}, Case{3, 32, "0,1,2", 3}, Case{5, 32, "0,3/1,4,2", 5}}) {
    for (const std::string& aapc : aapcScheduleNames()) {
      AapcScheduleOptions options;
      options.blocking = true;
      const SlotSchedule s = aapcSlotSchedule(aapc, cs.sigma_p, cs.slots, options);
      CaseSpec spec = a2NPortCase(cs.n, cs.slots, "a2", cs.cycles, 3, cs.slots);
      spec.params["aapc"] = aapc;
      const BuiltCase c = buildCase(spec);
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), aapc + " " + cs.cycles);
      EXPECT_EQ(r.run.transfer_cycles, 2 * s.steps.size()) << aapc << " " << cs.cycles;
      EXPECT_EQ(scheduleCount(c).first, 2 * s.blocks()) << aapc << " " << cs.cycles;
      EXPECT_EQ(r.run.cycles - r.run.local_cycles, 2 * s.steps.size() + 2 * s.blocks() * 3)
          << aapc << " " << cs.cycles;
      EXPECT_NE(c.bound_source.find("AAPCs by " + aapc), std::string::npos) << c.bound_source;
      const u64 sp = static_cast<u64>(cs.sigma_p);
      if (aapc == "jh4") {
        // Table 3 exactly: K element cycles, 2 sigma_p start-ups (Lemma 4: sigma_p blocks each).
        EXPECT_EQ(r.run.transfer_cycles, cs.slots) << cs.cycles;
        EXPECT_EQ(s.blocks(), sp) << cs.cycles;
      }
      if (aapc == "exchange") {
        EXPECT_EQ(r.run.transfer_cycles, sp * cs.slots) << cs.cycles;
      }
    }
  }
}

// The default n-port A2 (Algorithm 4 blocked, B = K/(2 sigma_p)) and the rotated form with every
// GSH of one order and the labels splitting evenly into beta parts take Table 3's
// K + 2 sigma_p ceil(K/(2 sigma_p B)) tau exactly, plus the PERMUTE cycles of the restoring swaps
// (the paper ignores local data movement). The plain form needs no label bit: at K = 2^sigma_p
// (every storage dimension a k_j) it still takes K, where the exchanges of an AAPC run one after
// the other took sigma_p K before the AAPC schedules were reused (4 x 16 = 64 for (0 1)(2 3)).
TEST(SdpA2, NPortTakesTable3WithTheFamilysAapc) {
  struct Case {
    int n;
    u64 slots;
    const char* method;
    const char* cycles;
  };
  for (const Case& cs :
       {Case{4, 16, "a2", "0,1/2,3"}, Case{4, 64, "a2", "0,1/2,3"}, Case{5, 32, "a2", "0,1,2/3,4"},
        Case{6, 64, "a2", "0,3/1,4/2,5"}, Case{4, 64, "a2r", "0,1/2,3"},
        Case{6, 128, "a2r", "0,1,2/3,4,5"}, Case{4, 32, "a2r", "0,2/1,3"}}) {
    const Sdp sdp = Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    const u64 sp = static_cast<u64>(cls.sigma_p);
    for (const u64 tau : {0, 5}) {
      const BuiltCase c = buildCase(a2NPortCase(cs.n, cs.slots, cs.method, cs.cycles, tau));
      const testing::CheckedRun r = testing::runChecked(c);
      testing::expectCleanRun(r, c.perm.elements(), std::string(cs.method) + " " + cs.cycles);
      EXPECT_EQ(r.run.transfer_cycles, cs.slots) << cs.method << " " << cs.cycles;
      EXPECT_EQ(scheduleCount(c), std::make_pair(2 * sp, cs.slots)) << cs.method << cs.cycles;
      EXPECT_EQ(r.run.cycles - r.run.local_cycles, cs.slots + 2 * sp * tau)
          << cs.method << " " << cs.cycles;
      EXPECT_GE(static_cast<double>(r.run.cycles), sdpLowerBounds(sdp, cls, tau).n_port);
    }
  }
}

// The rotated A2 with labels that do not split evenly: (0 5)(1 4)(2 3) on a 6-cube, K = 64, has
// beta = 3 parts of 6, 5 and 5 of the 16 labels (2 k_j, 4 label bits). At its own pace part 0's
// AAPC is 24 elements (12 steps, Algorithm 4's 2 blocks of 6) and the others' 20 (blocks of 5),
// so every AAPC starts messages at steps 0, 5 and 6: 3 phases x 2 AAPCs x 3 = 18 start-ups. In
// lockstep every part's AAPC is built for 6 labels (its missing repetitions empty): the same
// 3 x 2 x 12 = 72 element cycles and 2 blocks per AAPC, 12 = 2 sigma_p start-ups. The run takes
// the cheaper for its tau, and on the tie at tau = 0 the one with fewer start-ups.
TEST(SdpA2, RotatedPartsOfUnequalSizeRunInLockstepWhenCheaper) {
  const Sdp sdp = Sdp::fromCycles(6, 6, "0,5/1,4/2,3");
  const SdpClass cls = classify(sdp);
  const SdpSchedule own = sdpA2NPortSchedule(sdp, cls, true, 64, 1, "t");
  const SdpSchedule lock = sdpA2NPortSchedule(sdp, cls, true, 64, 1, "t", kA2NPortAapc, true, true);
  EXPECT_EQ(own.transfer_cycles, 72U);
  EXPECT_EQ(own.startups, 18U);
  EXPECT_EQ(lock.transfer_cycles, 72U);
  EXPECT_EQ(lock.startups, 12U);
  for (const u64 tau : {0, 5}) {
    const BuiltCase c = buildCase(a2NPortCase(6, 64, "a2r", "0,5/1,4/2,3", tau, 64));
    const testing::CheckedRun r = testing::runChecked(c);
    testing::expectCleanRun(r, c.perm.elements(), "a2r tau " + std::to_string(tau));
    EXPECT_EQ(scheduleCount(c), std::make_pair(u64{12}, u64{72})) << tau;
    EXPECT_EQ(r.run.cycles - r.run.local_cycles, 72 + 12 * tau) << tau;
    EXPECT_NE(c.bound_source.find("parts in lockstep"), std::string::npos) << c.bound_source;
  }
}

// Section 4.4 (an SDP with R^b and R^a disjoint is an AAPC, "the complexity of Algorithm A2 in
// Table 3 should be halved") and §4.6 ("for an SDP containing all mixed GSH's of order 2, one such
// communication may suffice"): where every moved processor dimension p receives its content from
// a storage dimension s, the one AAPC E(s, p) and local swaps do it, with no free storage
// dimension. The mixed transpositions (0 4)(1 5)(2 6)(3 7) on a 4-cube, (0 2 1 3) on a 2-cube
// (0 -> 2 -> 1 -> 3 -> 0: 1 receives from 2, 0 from 3) and (0 3)(1 4 2 5) on a 3-cube with one
// free storage dimension (two AAPCs would need three). One-port: sigma_p K/2 element cycles and
// sigma_p ceil(K/2B) start-ups; n-port (Algorithm 4 blocked): K/2 and sigma_p, Table 3 halved.
TEST(SdpA2, OneAapcWhereEveryProcessorDimensionReceivesFromStorage) {
  struct Case {
    int n;
    u64 slots;
    const char* cycles;
  };
  for (const Case& cs :
       {Case{4, 16, "0,4/1,5/2,6/3,7"}, Case{2, 4, "0,2,1,3"}, Case{3, 16, "0,3/1,4,2,5"}}) {
    const Sdp sdp = Sdp::fromCycles(cs.n, log2Exact(cs.slots), cs.cycles);
    const SdpClass cls = classify(sdp, parseCycles(cs.cycles));
    ASSERT_TRUE(a2OneAapcSuffices(sdp, cls)) << cs.cycles;
    const u64 sp = static_cast<u64>(cls.sigma_p);
    for (const u64 tau : {0, 3}) {
      const BuiltCase one = buildCase(a2Case(cs.n, cs.slots, cs.cycles, tau, cs.slots / 2));
      const testing::CheckedRun r1 = testing::runChecked(one);
      testing::expectCleanRun(r1, one.perm.elements(), std::string("one-port ") + cs.cycles);
      EXPECT_EQ(scheduleCount(one), std::make_pair(sp, sp * cs.slots / 2)) << cs.cycles;
      EXPECT_EQ(r1.run.cycles - r1.run.local_cycles, sp * cs.slots / 2 + sp * tau) << cs.cycles;
      EXPECT_NE(one.bound_source.find("one AAPC (section 4.4: Table 3 halved)"), std::string::npos)
          << one.bound_source;
      const BuiltCase all = buildCase(a2NPortCase(cs.n, cs.slots, "a2", cs.cycles, tau));
      const testing::CheckedRun r2 = testing::runChecked(all);
      testing::expectCleanRun(r2, all.perm.elements(), std::string("n-port ") + cs.cycles);
      EXPECT_EQ(scheduleCount(all), std::make_pair(sp, cs.slots / 2)) << cs.cycles;
      EXPECT_EQ(r2.run.cycles - r2.run.local_cycles, cs.slots / 2 + sp * tau) << cs.cycles;
      EXPECT_GE(static_cast<double>(r2.run.cycles), sdpLowerBounds(sdp, cls, tau).n_port);
    }
  }
  // Not where a processor dimension receives from a processor dimension.
  for (const char* cycles : {"0,8,1/2,3,4", "0,1/2,3", "0,8/1,2"}) {
    const Sdp sdp = Sdp::fromCycles(8, 7, cycles);
    EXPECT_FALSE(a2OneAapcSuffices(sdp, classify(sdp))) << cycles;
  }
  // --method best costs A2 by the halved entry there: on the mixed transpositions at K = 16 the
  // n-port A2 (8 + 4 tau) beats A4 (16 + 8 tau) and runs exactly that.
  CaseSpec best = a2NPortCase(4, 16, "best", "0,4/1,5/2,6/3,7", 5);
  const BuiltCase c = buildCase(best);
  EXPECT_NE(c.bound_source.find("best chose a2 "), std::string::npos) << c.bound_source;
  EXPECT_EQ(testing::runChecked(c).run.cycles, 8U + 4U * 5U);
}

TEST(SdpA2, AapcOptionIsChecked) {
  auto message = [](const CaseSpec& s) {
    try {
      buildCase(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CaseSpec one = a2Case(4, 16, "0,1/2,3", 0, 8);
  one.params["aapc"] = "jh4";
  EXPECT_NE(message(one).find("--aapc jh4: that AAPC schedule sends on every port"),
            std::string::npos)
      << message(one);
  CaseSpec unknown = a2NPortCase(4, 16, "a2", "0,1/2,3", 0);
  unknown.params["aapc"] = "jh5";
  EXPECT_NE(message(unknown).find("--aapc 'jh5': unknown AAPC schedule (known: edelman, jh1"),
            std::string::npos)
      << message(unknown);
  CaseSpec stray = a2NPortCase(4, 16, "a4", "0,1/2,3", 0);
  stray.params["aapc"] = "jh4";
  EXPECT_NE(message(stray).find("--aapc: algorithm 'sdp' takes no such option"), std::string::npos)
      << message(stray);
}

}  // namespace
}  // namespace hcube

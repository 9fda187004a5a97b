// hcube tests: source routes taken from a schedule's own paths (sw/router/schedule_paths.h,
// docs/hardware/router.md). The paths are checked against the schedule's own run (the same links,
// the same first cycles); where the schedule moves every element on at every step (SPT's pipelined
// paths, Johnsson & Ho 1987 §6.1.1) the routers carry them with no stall in the schedule's
// transfer cycles; where it parks elements between hops (the AAPC schedules) they contend; where
// its paths cross dimensions in cyclic orders (the k-shuffle's exchange rounds) they deadlock,
// and the run says so.
#include "router/schedule_paths.h"

#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "router/routed_report.h"
#include "router/router_engine.h"
#include "spec/reference.h"

namespace hcube {
namespace {

RoutedRun routeCase(const BuiltCase& c, const MessageList& list) {
  RouterOptions opt;
  opt.tagged_elements = c.perm.elements();
  return runRouter(list, taggedMemory(c.perm, list.memoryWords()), opt);
}

RunResult runSchedule(const BuiltCase& c) {
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  return executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
}

// Edelman's AAPC moves every element along a shortest path: its route crosses each dimension in
// which home and destination differ once, the routers move as many words as the schedule, and
// every element arrives.
TEST(SchedulePaths, AapcRoutesAreShortestPaths) {
  const BuiltCase c = buildCase({"edelman", 3, 0, 1, false, {}});
  const MessageList list = messagesFromSchedule(c.perm, c.tables);
  EXPECT_EQ(list.route, RouteKind::kSource);
  EXPECT_EQ(list.messages(), c.perm.elements());
  const RunResult sched = runSchedule(c);
  u64 hops = 0;
  for (u64 x = 0; x < list.nodes(); ++x) {
    u64 last_release = 0;
    for (const Message& m : list.per_node[x]) {
      u64 seen = 0;
      for (std::uint8_t d : m.route) {
        EXPECT_EQ(seen & (u64{1} << d), 0U) << "node " << x << " slot " << m.src_slot;
        seen |= u64{1} << d;
      }
      EXPECT_EQ(seen, x ^ m.dst) << "node " << x << " slot " << m.src_slot;
      EXPECT_LT(m.release, sched.cycles);
      EXPECT_GE(m.release, last_release) << "node " << x << ": injected in release order";
      last_release = m.release;
      hops += m.route.size();
    }
  }
  EXPECT_EQ(hops, sched.words);
  const RoutedRun r = routeCase(c, list);
  EXPECT_EQ(r.stats.delivered, list.messages());
  EXPECT_FALSE(r.stats.deadlock);
  EXPECT_EQ(checkRoutedMemory(c.perm, r.run.memory).mismatches, 0U);
  EXPECT_EQ(r.run.words, sched.words);
}

// SPT (Johnsson & Ho 1987 §6.1.1) pipelines each node's packets along one path, one hop per
// cycle: released in the cycles the schedule first sends them, the routers find every link free
// when a packet reaches it — no stall, and exactly the schedule's 19 transfer cycles on the
// 4-cube (the schedule's 20th cycle is its local copy, which routed mode does as it delivers).
TEST(SchedulePaths, SptRunsWithoutStallsInTheScheduleTransferCycles) {
  const BuiltCase c = buildCase({"spt", 4, 0, 1, false, {}});
  const RunResult sched = runSchedule(c);
  EXPECT_EQ(sched.transfer_cycles, 19U);
  const RoutedRun r = routeCase(c, messagesFromSchedule(c.perm, c.tables));
  EXPECT_EQ(r.stats.stalls, 0U);
  EXPECT_EQ(r.run.transfer_cycles, sched.transfer_cycles);
  EXPECT_EQ(r.run.cycles, 19U);
  EXPECT_EQ(r.run.words, sched.words);
  EXPECT_EQ(r.stats.delivered, c.perm.elements());
  EXPECT_EQ(checkRoutedMemory(c.perm, r.run.memory).mismatches, 0U);
}

// The k-shuffle's schedule (Johnsson & Ho 1987 §7: exchange rounds, then Lemma 15's parallel
// swappings) sends elements across dimensions in orders that form a cycle of channel
// dependencies; routed with no waiting between hops, the FIFOs fill around that cycle and the
// detector stops the run instead of hanging.
TEST(SchedulePaths, CyclicScheduleRoutesDeadlockAndAreReported) {
  const BuiltCase c = buildCase({"k-shuffle", 4, 0, 1, false, {}});
  const MessageList list = messagesFromSchedule(c.perm, c.tables);
  const RoutedRun r = routeCase(c, list);
  EXPECT_TRUE(r.stats.deadlock);
  EXPECT_FALSE(r.stats.blocked.empty());
  EXPECT_LT(r.stats.delivered, list.messages());
  EXPECT_GT(checkRoutedMemory(c.perm, r.run.memory).mismatches, 0U);
}

// Tables that do not carry out the permutation give no paths: the error names the schedule and
// the first misplaced element. A collective has no single destination per element.
TEST(SchedulePaths, BadInputIsRefused) {
  const BuiltCase aapc = buildCase({"edelman", 3, 0, 1, false, {}});
  const BuiltCase rev = buildCase({"bit-reversal", 3, 8, 1, false, {}});
  ASSERT_EQ(rev.perm.slots(), aapc.perm.slots());
  try {
    messagesFromSchedule(rev.perm, aapc.tables);
    FAIL() << "the AAPC's tables taken as bit-reversal's paths";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("schedule 'edelman'"), std::string::npos) << what;
    EXPECT_NE(what.find("misplace"), std::string::npos) << what;
  }
  const BuiltCase bc = buildCase({"broadcast-all", 2, 0, 1, false, {{"m", "1"}}});
  EXPECT_THROW(messagesFromSchedule(bc.perm, bc.tables), Error);
}

}  // namespace
}  // namespace hcube

// hcube tests: the TLM routers (sim/tlm/hc_tlm_router.h) against the golden model
// (sw/router/router_engine.h), docs/hardware/router.md: every catalogue permutation that builds at
// n <= 4, e-cube, source and adaptive, FIFO depths 1 and 4, and the deadlocking ring — identical
// cycles, transfer and local cycles, words, per-link words, stalls, maximum FIFO occupancy per
// port, latencies, span, router errors, deadlock reports and final memories.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "hc_tlm_router.h"
#include "router/routed_report.h"
#include "router/traffic.h"
#include "router_lists.h"

namespace hcube {
namespace {

void expectSame(const RoutedRun& g, const RoutedRun& t, const std::string& what) {
  EXPECT_EQ(t.run.backend, "tlm");
  EXPECT_EQ(t.run.cycles, g.run.cycles) << what;
  EXPECT_EQ(t.run.transfer_cycles, g.run.transfer_cycles) << what;
  EXPECT_EQ(t.run.local_cycles, g.run.local_cycles) << what;
  EXPECT_EQ(t.run.words, g.run.words) << what;
  EXPECT_EQ(t.run.timeout, g.run.timeout) << what;
  EXPECT_EQ(t.run.span, g.run.span) << what;
  EXPECT_EQ(t.run.link_words, g.run.link_words) << what;
  EXPECT_EQ(t.run.memory.words, g.run.memory.words) << what;
  EXPECT_EQ(t.stats.messages, g.stats.messages) << what;
  EXPECT_EQ(t.stats.delivered, g.stats.delivered) << what;
  EXPECT_EQ(t.stats.stalls, g.stats.stalls) << what;
  EXPECT_EQ(t.stats.startups, g.stats.startups) << what;
  EXPECT_EQ(t.stats.tau, g.stats.tau) << what;
  EXPECT_EQ(t.stats.vcs, g.stats.vcs) << what;
  EXPECT_EQ(t.stats.max_fifo, g.stats.max_fifo) << what;
  EXPECT_EQ(t.stats.latency_min, g.stats.latency_min) << what;
  EXPECT_DOUBLE_EQ(t.stats.latency_mean, g.stats.latency_mean) << what;
  EXPECT_EQ(t.stats.latency_p99, g.stats.latency_p99) << what;
  EXPECT_EQ(t.stats.latency_max, g.stats.latency_max) << what;
  EXPECT_EQ(t.stats.errors, g.stats.errors) << what;
  EXPECT_EQ(t.stats.deadlock, g.stats.deadlock) << what;
  EXPECT_EQ(t.stats.deadlock_cycle, g.stats.deadlock_cycle) << what;
  ASSERT_EQ(t.stats.blocked.size(), g.stats.blocked.size()) << what;
  for (size_t i = 0; i < g.stats.blocked.size(); ++i) {
    EXPECT_EQ(describe(t.stats.blocked[i], t.stats.vcs), describe(g.stats.blocked[i], g.stats.vcs))
        << what;
  }
}

TEST(RouterTlm, CatalogueAgreesWithGoldenModel) {
  int ran = 0;
  for (const AlgorithmInfo& a : algorithmCatalogue()) {
    for (int n : {2, 3, 4}) {
      BuiltCase c;
      try {
        c = buildCase({a.name, n, 0, 1, false, {}});
      } catch (const Error&) {
        continue;  // needs parameters this loop does not give
      }
      if (c.perm.collective()) {
        // Collectives have no single destination per element: routed mode refuses them.
        EXPECT_THROW(messagesFromPermutation(c.perm, RouteKind::kEcube), Error) << a.name;
        continue;
      }
      for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
        for (u64 depth : {u64{1}, u64{4}}) {
          const MessageList list = messagesFromPermutation(c.perm, k);
          RouterOptions opt;
          opt.fifo_depth = depth;
          opt.tagged_elements = c.perm.elements();
          const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
          const RoutedRun g = runRouter(list, initial, opt);
          const RoutedRun t = runRoutedOnTlm(list, initial, {opt});
          const std::string what = a.name + " n=" + std::to_string(n) + " " + routeKindName(k) +
                                   " depth " + std::to_string(depth);
          expectSame(g, t, what);
          EXPECT_EQ(checkRoutedMemory(c.perm, t.run.memory).mismatches, 0U) << what;
          ++ran;
        }
      }
    }
  }
  EXPECT_GE(ran, 100);
}

// The adaptive detour of tests/router_lists.h (hand-counted in tests/router_test.cpp) at depth 1
// and 4, adaptive and e-cube.
TEST(RouterTlm, AdaptiveDetourAgrees) {
  MessageList list = test::adaptiveDetourList();
  CubeMemory initial{8, 4, std::vector<u32>(32, 0)};
  for (u64 x = 0; x < 8; ++x) initial.at(x, 0) = static_cast<u32>(x * 2);
  for (RouteKind k : {RouteKind::kAdaptive, RouteKind::kEcube}) {
    list.route = k;
    for (u64 depth : {u64{1}, u64{4}}) {
      RouterOptions opt;
      opt.fifo_depth = depth;
      opt.tagged_elements = 16;
      const RoutedRun g = runRouter(list, initial, opt);
      expectSame(g, runRoutedOnTlm(list, initial, {opt}), routeKindName(k));
      EXPECT_EQ(g.run.cycles, k == RouteKind::kAdaptive && depth == 1 ? 3U : depth == 1 ? 4U : 3U);
    }
  }
}

// The ring of tests/router_test.cpp: both models declare the deadlock at the same cycle and
// name the same blocked heads.
TEST(RouterTlm, DeadlockAgrees) {
  MessageList list = test::ringList();
  CubeMemory initial{4, 8, std::vector<u32>(32, 0)};
  for (u64 x = 0; x < 4; ++x) {
    for (u64 l = 0; l < 4; ++l) initial.at(x, l) = static_cast<u32>(x * 4 + l);
  }
  RouterOptions opt;
  opt.fifo_depth = 1;
  opt.deadlock_cycles = 16;
  opt.tagged_elements = 16;
  const RoutedRun g = runRouter(list, initial, opt);
  ASSERT_TRUE(g.stats.deadlock);
  expectSame(g, runRoutedOnTlm(list, initial, {opt}), "ring");
  // Released later: the idle stretch before the releases is skipped the same way.
  for (auto& msgs : list.per_node) {
    for (size_t i = 0; i < msgs.size(); ++i) msgs[i].release = 5 + 3 * i;
  }
  opt.fifo_depth = 4;
  expectSame(runRouter(list, initial, opt), runRoutedOnTlm(list, initial, {opt}), "ring, released");
}

// Synthetic traffic (uniform below saturation, transpose above it) on both models: the same
// delivery cycle for every packet, so the same throughput and latency figures.
TEST(RouterTlm, TrafficAgrees) {
  for (TrafficPattern p : {TrafficPattern::kUniform, TrafficPattern::kTranspose}) {
    TrafficSpec spec;
    spec.n = 4;
    spec.pattern = p;
    spec.rate = 0.4;
    spec.cycles = 400;
    spec.warmup = 80;
    const MessageList list = trafficMessages(spec);
    CubeMemory initial{list.nodes(), list.memoryWords(),
                       std::vector<u32>(list.nodes() * list.memoryWords(), 0)};
    RouterOptions opt;
    opt.record_deliveries = true;
    const RoutedRun g = runRouter(list, initial, opt);
    const RoutedRun t = runRoutedOnTlm(list, initial, {opt});
    expectSame(g, t, trafficPatternName(p));
    EXPECT_EQ(t.stats.delivered_at, g.stats.delivered_at) << trafficPatternName(p);
    const TrafficResult a = measureTraffic(spec, list, g);
    const TrafficResult b = measureTraffic(spec, list, t);
    EXPECT_DOUBLE_EQ(a.accepted, b.accepted);
    EXPECT_DOUBLE_EQ(a.latency_mean, b.latency_mean);
    EXPECT_EQ(a.latency_p99, b.latency_p99);
  }
}

}  // namespace
}  // namespace hcube

namespace hcube {
namespace {

// Multi-word messages with a start-up (docs/hardware/router.md §7): the hand-counted 2-cube lists
// and every catalogue permutation at n = 3 with tau = 4 in messages of B = 2 and B = K words,
// e-cube, source and adaptive, FIFO depths 1 and 4.
TEST(RouterTlm, StartupAndPacketsAgree) {
  for (const MessageList& list : {test::startupSerialList(), test::startupTwoHopList()}) {
    RouterOptions opt;
    opt.tau = 3;
    opt.tagged_elements = list.nodes() * list.slots;
    CubeMemory initial{list.nodes(), list.memoryWords(),
                       std::vector<u32>(list.nodes() * list.memoryWords(), 0)};
    const RoutedRun g = runRouter(list, initial, opt);
    expectSame(g, runRoutedOnTlm(list, initial, {opt}), "hand-counted list");
  }
  int ran = 0;
  test::forEachRoutableCase(3, [&](const std::string& name, const BuiltCase& c) {
    for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
      for (u64 packet : {u64{2}, c.perm.slots()}) {
        if (packet > c.perm.slots()) continue;
        const MessageList list = groupMessages(messagesFromPermutation(c.perm, k), packet);
        for (u64 depth : {u64{1}, u64{4}}) {
          RouterOptions opt;
          opt.fifo_depth = depth;
          opt.tau = 4;
          opt.tagged_elements = c.perm.elements();
          const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
          const RoutedRun g = runRouter(list, initial, opt);
          const std::string what = name + " " + routeKindName(k) + " B=" + std::to_string(packet) +
                                   " depth " + std::to_string(depth);
          EXPECT_GT(g.stats.startups, 0U) << what;
          EXPECT_EQ(checkRoutedMemory(c.perm, g.run.memory).mismatches, 0U) << what;
          expectSame(g, runRoutedOnTlm(list, initial, {opt}), what);
          ++ran;
        }
      }
    }
  });
  EXPECT_GE(ran, 40);
}

// Virtual channels (docs/hardware/router.md §13): every catalogue permutation at n = 2..4 with 2
// and 3 VCs, e-cube, source and adaptive (Duato's escape-VC routing), FIFO depths 1 and 4; the
// ring's deadlock with 2 VCs and depth 1 (and its delivery with depth 2); uniform traffic with 2
// VCs.
TEST(RouterTlm, VirtualChannelsAgree) {
  int ran = 0;
  for (int n : {2, 3, 4}) {
    test::forEachRoutableCase(n, [&](const std::string& name, const BuiltCase& c) {
      for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
        const MessageList list = messagesFromPermutation(c.perm, k);
        const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
        for (int vcs : {2, 3}) {
          for (u64 depth : {u64{1}, u64{4}}) {
            RouterOptions opt;
            opt.fifo_depth = depth;
            opt.vcs = vcs;
            opt.tagged_elements = c.perm.elements();
            const RoutedRun g = runRouter(list, initial, opt);
            const std::string what = name + " n=" + std::to_string(n) + " " + routeKindName(k) +
                                     " V=" + std::to_string(vcs) + " depth " +
                                     std::to_string(depth);
            expectSame(g, runRoutedOnTlm(list, initial, {opt}), what);
            EXPECT_EQ(checkRoutedMemory(c.perm, g.run.memory).mismatches, 0U) << what;
            ++ran;
          }
        }
      }
    });
  }
  EXPECT_GE(ran, 200);

  const MessageList ring = test::ringList();
  CubeMemory initial{4, 8, std::vector<u32>(32, 0)};
  for (u64 x = 0; x < 4; ++x) {
    for (u64 l = 0; l < 4; ++l) initial.at(x, l) = static_cast<u32>(x * 4 + l);
  }
  RouterOptions opt;
  opt.fifo_depth = 1;
  opt.vcs = 2;
  opt.deadlock_cycles = 16;
  opt.tagged_elements = 16;
  const RoutedRun g = runRouter(ring, initial, opt);
  ASSERT_TRUE(g.stats.deadlock);
  EXPECT_EQ(g.stats.blocked.size(), 12U);
  expectSame(g, runRoutedOnTlm(ring, initial, {opt}), "ring, 2 VCs");
  opt.fifo_depth = 2;
  expectSame(runRouter(ring, initial, opt), runRoutedOnTlm(ring, initial, {opt}), "ring, D=2");

  TrafficSpec spec;
  spec.n = 4;
  spec.rate = 0.5;
  spec.cycles = 300;
  spec.warmup = 60;
  const MessageList traffic = trafficMessages(spec);
  const CubeMemory zeros{traffic.nodes(), traffic.memoryWords(),
                         std::vector<u32>(traffic.nodes() * traffic.memoryWords(), 0)};
  RouterOptions topt;
  topt.vcs = 2;
  topt.fifo_depth = 2;
  topt.record_deliveries = true;
  const RoutedRun tg = runRouter(traffic, zeros, topt);
  const RoutedRun tt = runRoutedOnTlm(traffic, zeros, {topt});
  expectSame(tg, tt, "uniform traffic, 2 VCs");
  EXPECT_EQ(tt.stats.delivered_at, tg.stats.delivered_at);
}

}  // namespace
}  // namespace hcube

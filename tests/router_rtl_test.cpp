// hcube tests: the RTL routers (rtl/hc_router.sv, routed mode of hc_node) against the golden
// model (sw/router/router_engine.h), docs/hardware.md §8: every catalogue permutation that
// builds at n = 2..4, e-cube, source and adaptive, FIFO depths 1 and 4 (a run-time value of one
// model), the deadlocking ring and synthetic traffic — identical cycles, transfer and local cycles,
// words, per-link words, stalls, maximum FIFO occupancy per port, latencies, span, router errors,
// deadlock reports and final memories (receive area K..2K-1 included).
//
// The runs use the models with routers (HasRouter = 1, docs/hardware.md §8.11) that the
// rtl_models fixture builds (tests/build_models.cmake: n = 2, 3, 4 with M = 4 * 2^n and table
// depths 16, 32, 128, the sizes of the fixture's table-mode models); a case that would need a
// larger model is counted as skipped, never built here. The same models run every catalogue case
// in table mode too (the configuration register chooses the mode at run time).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "algorithms.h"
#include "error.h"
#include "executor.h"
#include "process.h"
#include "router/routed_report.h"
#include "router/traffic.h"
#include "router_lists.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "test_util.h"

namespace hcube {
namespace {

void expectSame(const RoutedRun& g, const RoutedRun& t, const std::string& what) {
  EXPECT_EQ(t.run.backend, "rtl");
  EXPECT_EQ(t.run.cycles, g.run.cycles) << what;
  EXPECT_EQ(t.run.transfer_cycles, g.run.transfer_cycles) << what;
  EXPECT_EQ(t.run.local_cycles, g.run.local_cycles) << what;
  EXPECT_EQ(t.run.words, g.run.words) << what;
  EXPECT_EQ(t.run.timeout, g.run.timeout) << what;
  EXPECT_EQ(t.run.span, g.run.span) << what;
  EXPECT_EQ(t.run.link_words, g.run.link_words) << what;
  EXPECT_EQ(t.run.memory.words, g.run.memory.words) << what;
  EXPECT_EQ(t.stats.fifo_depth, g.stats.fifo_depth) << what;
  EXPECT_EQ(t.stats.messages, g.stats.messages) << what;
  EXPECT_EQ(t.stats.delivered, g.stats.delivered) << what;
  EXPECT_EQ(t.stats.stalls, g.stats.stalls) << what;
  EXPECT_EQ(t.stats.startups, g.stats.startups) << what;
  EXPECT_EQ(t.stats.tau, g.stats.tau) << what;
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
    EXPECT_EQ(describe(t.stats.blocked[i]), describe(g.stats.blocked[i])) << what;
  }
}

/// Whether the rtl_models fixture has a model with routers that serves `need` (n = 2, 3, 4;
/// M = 4 * 2^n; depth 16, 32, 128; one lane).
bool fixtureModelFits(const RtlModelConfig& need) {
  if (need.dim < 2 || need.dim > 4 || need.lanes != 1) return false;
  const u64 depth = need.dim == 2 ? 16 : need.dim == 3 ? 32 : 128;
  return need.num_slots <= (u64{4} << need.dim) && need.table_depth <= depth;
}
bool fixtureModelFits(const MessageList& list) {
  return fixtureModelFits(rtlModelForMessages(list));
}

void catalogueAt(int n, bool flat = false) {
  int ran = 0;
  int skipped = 0;
  for (const AlgorithmInfo& a : algorithmCatalogue()) {
    BuiltCase c;
    try {
      c = buildCase({a.name, n, 0, 1, false, {}});
    } catch (const Error&) {
      continue;  // needs parameters this loop does not give
    }
    if (c.perm.collective()) continue;  // no single destination per element: not routable
    for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
      const MessageList list = messagesFromPermutation(c.perm, k);
      if (!fixtureModelFits(list)) {
        ++skipped;
        continue;
      }
      for (u64 depth : {u64{1}, u64{4}}) {
        RouterOptions opt;
        opt.fifo_depth = depth;
        opt.tagged_elements = c.perm.elements();
        const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
        const RoutedRun g = runRouter(list, initial, opt);
        RtlOptions rtl;
        rtl.flat = flat;
        const RoutedRun t = runRoutedOnRtl(list, initial, opt, rtl);
        const std::string what = a.name + " n=" + std::to_string(n) + " " + routeKindName(k) +
                                 " depth " + std::to_string(depth);
        expectSame(g, t, what);
        EXPECT_EQ(checkRoutedMemory(c.perm, t.run.memory).mismatches, 0U) << what;
        ++ran;
      }
    }
  }
  std::cout << "n = " << n << ": " << ran << " routed runs, " << skipped
            << " case/route pairs skipped (they need a model larger than the fixture's)\n";
  EXPECT_GE(ran, 20);
}

TEST(RouterRtl, CatalogueN2) { catalogueAt(2); }
TEST(RouterRtl, CatalogueN3) { catalogueAt(3); }
TEST(RouterRtl, CatalogueN4) { catalogueAt(4); }
// The flat model with routers (hc_cube verilated whole, docs/hardware.md §6.1), held to the
// golden model as the node-array model is above.
TEST(RouterRtl, CatalogueN3OnTheFlatModel) { catalogueAt(3, true); }

// One model runs both modes: the fixture's models with routers, configuration register at its
// reset value (table mode), run every catalogue case at n = 2..4 that fits them, the MAC's
// matrix products included, exactly as the table executor does (and as the table-mode models do,
// tests/rtl_test.cpp). The router and the MAC share the node's memory write ports.
TEST(RouterRtl, TableModeOnTheRouterModel) {
  int ran = 0;
  int mac = 0;
  auto onRouterModel = [&](const std::string& name, const BuiltCase& c) {
    const TableSet& set = c.tables;
    if (!fixtureModelFits(rtlModelFor(set))) return false;
    SCOPED_TRACE(name);
    RtlOptions opt;
    opt.router_model = true;
    const RunResult rtl = runOnRtl(set, opt);
    testing::expectSameRun("rtl", rtl, testing::onTable(set));
    EXPECT_EQ(checkAgainstReference(c.perm, rtl.memory).mismatches, 0U);
    ++ran;
    return true;
  };
  for (int n = 2; n <= 4; ++n) {
    for (const testing::CatalogueCase& c : testing::catalogueCases(n, nullptr)) {
      onRouterModel(c.name, c.built);
    }
    // TR-623 section 3 matrix products: MAC instructions writing through channel 0's port.
    for (const char* method : {"rotation", "cannon"}) {
      if (std::string(method) == "cannon" && n % 2 != 0) continue;  // square grid
      CaseSpec spec = testing::caseSpec("matmul", n);
      const std::string side = std::to_string(1 << n);  // divides over any grid of 2^n nodes
      spec.params["shape"] = side + "x" + side + "x" + side;
      spec.params["method"] = method;
      if (onRouterModel(std::string("matmul ") + method + " n = " + std::to_string(n),
                        buildCase(spec))) {
        ++mac;
      }
    }
  }
  std::cout << ran << " table-mode runs on the models with routers, " << mac << " with the MAC\n";
  EXPECT_GE(ran, 100);
  EXPECT_GE(mac, 2);  // rotation and Cannon at n = 2 (larger ones need deeper tables)
}

// The 2-cube AAPC of docs/hardware.md §8.8, hand-counted there: 3 cycles, 16 words, 0 stalls.
TEST(RouterRtl, HandCountedAapc) {
  const BuiltCase c = buildCase({"edelman", 2, 0, 1, false, {}});
  const MessageList list = messagesFromPermutation(c.perm, RouteKind::kEcube);
  RouterOptions opt;
  opt.tagged_elements = c.perm.elements();
  const RoutedRun t = runRoutedOnRtl(list, taggedMemory(c.perm, list.memoryWords()), opt, {});
  EXPECT_EQ(t.run.cycles, 3U);
  EXPECT_EQ(t.run.words, 16U);
  EXPECT_EQ(t.stats.stalls, 0U);
  EXPECT_EQ(t.stats.maxFifoPerPort(2), (std::vector<u64>{1, 0}));
  EXPECT_DOUBLE_EQ(t.stats.latency_mean, 1.5);
}

// The adaptive detour of tests/router_lists.h at depth 1, hand-counted in tests/router_test.cpp:
// 3 cycles, no stall, the packet from node 0 over node 5 (e-cube: 4 cycles, 1 stall).
TEST(RouterRtl, HandCountedAdaptiveDetour) {
  MessageList list = test::adaptiveDetourList();
  CubeMemory initial{8, 4, std::vector<u32>(32, 0)};
  for (u64 x = 0; x < 8; ++x) initial.at(x, 0) = static_cast<u32>(x * 2);
  RouterOptions opt;
  opt.fifo_depth = 1;
  opt.tagged_elements = 16;
  RoutedRun t = runRoutedOnRtl(list, initial, opt, {});
  expectSame(runRouter(list, initial, opt), t, "adaptive detour");
  EXPECT_EQ(t.run.cycles, 3U);
  EXPECT_EQ(t.stats.stalls, 0U);
  EXPECT_EQ(t.run.link_words[5 * 3 + 1], 1U);  // node 5 -> 7
  EXPECT_EQ(t.run.memory.at(7, 2), 0U);
  EXPECT_EQ(t.run.memory.at(7, 3), 2U);
  list.route = RouteKind::kEcube;
  t = runRoutedOnRtl(list, initial, opt, {});
  expectSame(runRouter(list, initial, opt), t, "e-cube detour");
  EXPECT_EQ(t.run.cycles, 4U);
  EXPECT_EQ(t.stats.stalls, 1U);
}

// Routed runs build the model with routers; a table-mode model (the rtl_models fixture's n = 2
// model) refuses a routed image with a clear error and exit 2 instead of running it wrongly.
TEST(RouterRtl, RoutedImageOnATableModelIsRefused) {
  const MessageList list = test::ringList();
  RtlModelConfig need = rtlModelForMessages(list);
  EXPECT_TRUE(need.router);
  EXPECT_NE(need.key().find("-r"), std::string::npos) << need.key();
  need.router = false;
  need.num_slots = 16;  // the fixture's table-mode model at n = 2
  const RtlModel table_model = ensureRtlModel(need, {});
  ASSERT_FALSE(table_model.config.router);
  const std::string image = ::testing::TempDir() + "/router_rtl_refused.hex";
  CubeMemory initial{4, 8, std::vector<u32>(32, 0)};
  writeRoutedImageFile(image, list, initial, RouterOptions{}, table_model.config);
  const ProcessResult p = runProcess(
      {table_model.runner, "--image", image, "--out", ::testing::TempDir() + "/refused.txt"});
  EXPECT_EQ(p.status, 2) << p.output;
  EXPECT_NE(p.output.find("a routed image needs a model built with routers (HC_ROUTER=1)"),
            std::string::npos)
      << p.output;
}

// The ring of tests/router_lists.h: the RTL declares the deadlock at the golden model's cycle
// and names the same blocked heads; released later, the idle stretch counts the same.
TEST(RouterRtl, DeadlockAgrees) {
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
  expectSame(g, runRoutedOnRtl(list, initial, opt, {}), "ring");
  for (auto& msgs : list.per_node) {
    for (size_t i = 0; i < msgs.size(); ++i) msgs[i].release = 5 + 3 * i;
  }
  opt.fifo_depth = 4;
  expectSame(runRouter(list, initial, opt), runRoutedOnRtl(list, initial, opt, {}),
             "ring, released");
}

// Synthetic traffic (uniform and transpose, e-cube, n = 4) on the fixture's n = 4 model: the same
// delivery cycle for every packet as the golden model, so the same throughput and latency.
TEST(RouterRtl, TrafficAgrees) {
  for (TrafficPattern p : {TrafficPattern::kUniform, TrafficPattern::kTranspose}) {
    TrafficSpec spec;
    spec.n = 4;
    spec.pattern = p;
    spec.rate = 0.3;
    spec.cycles = 300;
    spec.warmup = 60;
    const MessageList list = trafficMessages(spec);
    ASSERT_TRUE(fixtureModelFits(list)) << trafficPatternName(p);
    CubeMemory initial{list.nodes(), list.memoryWords(),
                       std::vector<u32>(list.nodes() * list.memoryWords(), 0)};
    RouterOptions opt;
    opt.record_deliveries = true;
    const RoutedRun g = runRouter(list, initial, opt);
    const RoutedRun t = runRoutedOnRtl(list, initial, opt, {});
    expectSame(g, t, trafficPatternName(p));
    EXPECT_EQ(t.stats.delivered_at, g.stats.delivered_at) << trafficPatternName(p);
    const TrafficResult a = measureTraffic(spec, list, g);
    const TrafficResult b = measureTraffic(spec, list, t);
    EXPECT_DOUBLE_EQ(a.accepted, b.accepted);
    EXPECT_DOUBLE_EQ(a.latency_mean, b.latency_mean);
    EXPECT_EQ(a.latency_p99, b.latency_p99);
  }
}

// What the RTL router cannot carry is refused before anything is built.
TEST(RouterRtl, BadOptionsAreErrors) {
  const MessageList list = test::ringList();
  RouterOptions opt;
  opt.fifo_depth = 5;
  EXPECT_THROW(checkRtlRouterOptions(list, opt), Error);
  opt.fifo_depth = 4;
  opt.deadlock_cycles = 70000;
  EXPECT_THROW(checkRtlRouterOptions(list, opt), Error);
  opt.deadlock_cycles = 64;
  MessageList longer = list;
  longer.per_node[0][0].route = {0, 1, 0, 1, 0, 1, 0};  // 7 hops > 2n + 2 = 6
  longer.per_node[0][0].dst = 2;
  EXPECT_THROW(checkRtlRouterOptions(longer, opt), Error);
}

}  // namespace
}  // namespace hcube

namespace hcube {
namespace {

// Multi-word messages with a start-up (docs/hardware.md §8.7) on the fixture's models: the
// hand-counted 2-cube lists of tests/router_lists.h (tau = 3, B = 2: 8 and 6 cycles), then the
// 2D transposes and an AAPC at n = 2..4 with tau = 5 in messages of 2 and of K words.
TEST(RouterRtl, StartupAndPacketsAgree) {
  const MessageList serial = test::startupSerialList();
  const MessageList two_hop = test::startupTwoHopList();
  for (const MessageList* list : {&serial, &two_hop}) {
    RouterOptions opt;
    opt.tau = 3;
    opt.tagged_elements = list->nodes() * list->slots;
    CubeMemory initial{list->nodes(), list->memoryWords(),
                       std::vector<u32>(list->nodes() * list->memoryWords(), 0)};
    for (u64 x = 0; x < list->nodes(); ++x) {
      for (u64 l = 0; l < list->slots; ++l)
        initial.at(x, l) = static_cast<u32>(x * list->slots + l);
    }
    const RoutedRun g = runRouter(*list, initial, opt);
    const RoutedRun t = runRoutedOnRtl(*list, initial, opt, {});
    expectSame(g, t, "hand-counted list");
    EXPECT_EQ(t.run.cycles, list == &serial ? 8U : 6U);
    EXPECT_EQ(t.stats.startups, list == &serial ? 8U : 4U);
  }
  int ran = 0;
  for (const char* algo : {"spt", "dpt", "edelman"}) {
    for (int n : {2, 3, 4}) {
      BuiltCase c;
      try {
        c = buildCase({algo, n, 0, 1, false, {}});
      } catch (const Error&) {
        continue;
      }
      for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
        for (u64 packet : {u64{2}, c.perm.slots()}) {
          const MessageList list = groupMessages(messagesFromPermutation(c.perm, k), packet);
          if (!fixtureModelFits(list)) continue;
          RouterOptions opt;
          opt.tau = 5;
          opt.fifo_depth = 2;
          opt.tagged_elements = c.perm.elements();
          const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
          const RoutedRun g = runRouter(list, initial, opt);
          const RoutedRun t = runRoutedOnRtl(list, initial, opt, {});
          const std::string what = std::string(algo) + " n=" + std::to_string(n) + " " +
                                   routeKindName(k) + " B=" + std::to_string(packet);
          expectSame(g, t, what);
          EXPECT_EQ(checkRoutedMemory(c.perm, t.run.memory).mismatches, 0U) << what;
          ++ran;
        }
      }
    }
  }
  EXPECT_GE(ran, 12);
  // tau beyond the configuration word's 10 bits is refused before the runner starts.
  RouterOptions opt;
  opt.tau = kMaxRoutedTau + 1;
  EXPECT_THROW(runRoutedOnRtl(serial, CubeMemory{4, 8, std::vector<u32>(32, 0)}, opt, {}), Error);
}

}  // namespace
}  // namespace hcube

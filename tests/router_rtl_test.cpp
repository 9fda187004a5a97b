// hcube tests: the RTL routers (rtl/hc_router.sv, routed mode of hc_node) against the golden
// model (sw/router/router_engine.h), docs/hardware/router.md: every catalogue permutation that
// builds at n = 2..4, e-cube, source and adaptive, FIFO depths 1 and 4 (a run-time value of one
// model), the deadlocking ring and synthetic traffic — identical cycles, transfer and local cycles,
// words, per-link words, stalls, maximum FIFO occupancy per port, latencies, span, router errors,
// deadlock reports and final memories (receive area K..2K-1 included).
//
// The runs use the models with routers (HasRouter = 1, docs/hardware/router.md §11) that the
// rtl_models fixture builds (tests/build_models.cmake: n = 2, 3, 4 with M = 4 * 2^n and table
// depths 16, 32, 128, the sizes of the fixture's table-mode models); a case that would need a
// larger model is counted as skipped, never built here. The same models run every catalogue case
// in table mode too (the configuration register chooses the mode at run time).
//
// Virtual channels (docs/hardware/router.md §13, RouterRtlVcs.*): the same checks with V = 2 (3 and
// 4 at n = 3) on models built with NumVcs = V. `hcube build-model` has no --vcs, so these tests
// build their fixture-size models themselves (vcModel: once per V and n into the test cache).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
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
  EXPECT_EQ(t.stats.vcs, g.stats.vcs) << what;
  for (size_t i = 0; i < g.stats.blocked.size(); ++i) {
    // With V > 1 the description names the FIFO's VC and the VC requested (docs/hardware/router.md
    // §13).
    EXPECT_EQ(describe(t.stats.blocked[i], g.stats.vcs), describe(g.stats.blocked[i], g.stats.vcs))
        << what;
    EXPECT_EQ(t.stats.blocked[i].input_vc, g.stats.blocked[i].input_vc) << what;
    EXPECT_EQ(t.stats.blocked[i].output_vc, g.stats.blocked[i].output_vc) << what;
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
// The flat model with routers (hc_cube verilated whole, docs/hardware/testbench.md §2.1), held to
// the golden model as the node-array model is above.
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

// The 2-cube AAPC of docs/hardware/router.md §8, hand-counted there: 3 cycles, 16 words, 0 stalls.
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

// Idle routed nodes are not clocked by the node-array testbench (rt_idle_o, docs/hardware/router.md
// §14). The scatter from one root leaves most routers idle for most cycles and the AAPC and
// bit-reversal leave them idle at the end: with the skipping and with every node clocked at every
// edge (HCUBE_EVERY_EDGE=1), every result is the golden model's, and skipping happened.
TEST(RouterRtl, IdleNodesSkipExactly) {
  struct EveryEdge {  // HCUBE_EVERY_EDGE=1 for the runners started meanwhile
    EveryEdge() { setenv("HCUBE_EVERY_EDGE", "1", 1); }
    ~EveryEdge() { unsetenv("HCUBE_EVERY_EDGE"); }
  };
  for (const char* algo : {"one-to-all", "edelman", "bit-reversal"}) {
    const BuiltCase c = buildCase({algo, 4, 0, 1, false, {}});
    for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
      const MessageList list = messagesFromPermutation(c.perm, k);
      ASSERT_TRUE(fixtureModelFits(list)) << algo;
      RouterOptions opt;
      opt.fifo_depth = 1;
      opt.tagged_elements = c.perm.elements();
      const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
      const std::string what = std::string(algo) + " " + routeKindName(k);
      const RoutedRun g = runRouter(list, initial, opt);
      const RoutedRun skipped = runRoutedOnRtl(list, initial, opt, {});
      expectSame(g, skipped, what + ", idle nodes skipped");
      EXPECT_GT(skipped.idle_edges, 0U) << what;
      RoutedRun every;
      {
        const EveryEdge on;
        every = runRoutedOnRtl(list, initial, opt, {});
      }
      expectSame(g, every, what + ", every edge");
      EXPECT_EQ(every.idle_edges, 0U) << what;
      EXPECT_EQ(checkRoutedMemory(c.perm, skipped.run.memory).mismatches, 0U) << what;
    }
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

// Multi-word messages with a start-up (docs/hardware/router.md §7) on the fixture's models: the
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

namespace hcube {
namespace {

// Virtual channels (docs/hardware/router.md §13): the RTL routers built with NumVcs = V against the
// golden model with --vcs V. A model is built per V; the fixture-size models (n = 2, 3, 4,
// M = 4 * 2^n, table depth 16, 32, 128, as the rtl_models fixture's V = 1 models) are built
// once into the test cache by vcModel below, so that every case finds one instead of building a
// model of its own size.

/// The fixture-size node-array model with routers of V virtual channels at n (or the flat one).
RtlModel vcModel(int n, int vcs, bool flat = false) {
  RtlModelConfig c;
  c.dim = n;
  c.num_slots = u64{4} << n;
  c.lanes = 1;
  c.table_depth = n == 2 ? 16 : n == 3 ? 32 : 128;
  c.router = true;
  c.vcs = vcs;
  c.array = !flat;
  return ensureRtlModel(c, {});
}

void vcCatalogueAt(int n, int vcs, const std::vector<u64>& depths, bool flat = false) {
  const RtlModel model = vcModel(n, vcs, flat);
  ASSERT_EQ(model.config.vcs, vcs);
  int ran = 0;
  test::forEachRoutableCase(n, [&](const std::string& name, const BuiltCase& c) {
    for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
      const MessageList list = messagesFromPermutation(c.perm, k);
      if (!fixtureModelFits(list)) continue;
      for (u64 depth : depths) {
        RouterOptions opt;
        opt.fifo_depth = depth;
        opt.vcs = vcs;
        opt.tagged_elements = c.perm.elements();
        const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
        const RoutedRun g = runRouter(list, initial, opt);
        RtlOptions rtl;
        rtl.flat = flat;
        const RoutedRun t = runRoutedOnRtl(list, initial, opt, rtl);
        const std::string what = name + " n=" + std::to_string(n) + " " + routeKindName(k) +
                                 " depth " + std::to_string(depth) + " V=" + std::to_string(vcs);
        expectSame(g, t, what);
        EXPECT_EQ(t.stats.vcs, vcs) << what;
        EXPECT_EQ(t.stats.max_fifo.size(), list.nodes() * static_cast<u64>(n * vcs)) << what;
        EXPECT_EQ(checkRoutedMemory(c.perm, t.run.memory).mismatches, 0U) << what;
        ++ran;
      }
    }
  });
  std::cout << "n = " << n << ", V = " << vcs << ": " << ran << " routed runs\n";
  EXPECT_GE(ran, 20);
}

TEST(RouterRtlVcs, CatalogueN2V2) { vcCatalogueAt(2, 2, {1, 4}); }
TEST(RouterRtlVcs, CatalogueN3V2) { vcCatalogueAt(3, 2, {1, 4}); }
TEST(RouterRtlVcs, CatalogueN4V2) { vcCatalogueAt(4, 2, {2}); }
// V = 3 (a VC field of 2 bits that is not a power of two) and V = 4 at n = 3.
TEST(RouterRtlVcs, CatalogueN3V3) { vcCatalogueAt(3, 3, {1}); }
TEST(RouterRtlVcs, CatalogueN3V4) { vcCatalogueAt(3, 4, {2}); }
// The flat model (hc_cube.sv's own credit wiring per VC, which the node-array model does in C++).
TEST(RouterRtlVcs, CatalogueN2V2OnTheFlatModel) { vcCatalogueAt(2, 2, {1, 4}, true); }

// The models with VCs run table mode too (configuration register at reset): every catalogue case
// at n = 2 and 3 that fits the fixture-size models, as the table executor does.
TEST(RouterRtlVcs, TableModeOnTheVcModels) {
  int ran = 0;
  for (int n = 2; n <= 3; ++n) {
    vcModel(n, 2);
    for (const testing::CatalogueCase& c : testing::catalogueCases(n, nullptr)) {
      const TableSet& set = c.built.tables;
      if (!fixtureModelFits(rtlModelFor(set))) continue;
      SCOPED_TRACE(c.name);
      RtlOptions opt;
      opt.router_model = true;
      opt.router_vcs = 2;
      const RunResult rtl = runOnRtl(set, opt);
      testing::expectSameRun("rtl", rtl, testing::onTable(set));
      EXPECT_EQ(checkAgainstReference(c.built.perm, rtl.memory).mismatches, 0U);
      ++ran;
    }
  }
  std::cout << ran << " table-mode runs on the models with two VCs\n";
  EXPECT_GE(ran, 40);
}

// Heavy synthetic traffic with one-entry FIFOs and two VCs: e-cube, and the same lists routed by
// Duato's adaptive routing; every packet's delivery cycle as the golden model's.
TEST(RouterRtlVcs, HeavyTrafficDepth1) {
  vcModel(4, 2);
  for (TrafficPattern p : {TrafficPattern::kUniform, TrafficPattern::kTranspose}) {
    for (RouteKind k : {RouteKind::kEcube, RouteKind::kAdaptive}) {
      TrafficSpec spec;
      spec.n = 4;
      spec.pattern = p;
      spec.rate = 0.6;
      spec.cycles = 150;  // about 90 packets per node: the fixture's table depth 128
      spec.warmup = 30;
      MessageList list = trafficMessages(spec);
      list.route = k;
      ASSERT_TRUE(fixtureModelFits(list)) << trafficPatternName(p);
      CubeMemory initial{list.nodes(), list.memoryWords(),
                         std::vector<u32>(list.nodes() * list.memoryWords(), 0)};
      for (u64 x = 0; x < list.nodes(); ++x) initial.at(x, 0) = static_cast<u32>(x + 1);
      RouterOptions opt;
      opt.fifo_depth = 1;
      opt.vcs = 2;
      opt.record_deliveries = true;
      const RoutedRun g = runRouter(list, initial, opt);
      const RoutedRun t = runRoutedOnRtl(list, initial, opt, {});
      const std::string what =
          std::string(trafficPatternName(p)) + " " + routeKindName(k) + " depth 1 V=2";
      expectSame(g, t, what);
      EXPECT_EQ(t.stats.delivered_at, g.stats.delivered_at) << what;
      EXPECT_FALSE(t.stats.deadlock) << what;
      EXPECT_EQ(t.stats.delivered, t.stats.messages) << what;
      EXPECT_GT(t.stats.stalls, 0U) << what;  // heavy: heads do wait
    }
  }
}

/// A ring of source routes (tests/router_lists.h ringList) with `per_node` messages per node,
/// K = per_node: a cycle of channel dependencies that VCs chosen by credits do not break.
MessageList bigRingList(u32 per_node) {
  MessageList list = test::ringList();
  list.slots = per_node;
  for (u64 x = 0; x < 4; ++x) {
    const Message proto = list.per_node[x][0];
    list.per_node[x].clear();
    for (u32 l = 0; l < per_node; ++l) {
      Message m = proto;
      m.src_slot = l;
      m.dst_slot = per_node + l;
      list.per_node[x].push_back(m);
    }
  }
  return list;
}

// The deadlocking ring with two VCs: the RTL declares the deadlock at the golden model's cycle
// and names the same blocked heads with their FIFOs' VCs and the VCs they request.
TEST(RouterRtlVcs, DeadlockAgrees) {
  vcModel(2, 2);
  for (u64 depth : {u64{1}, u64{2}}) {
    const MessageList list = bigRingList(8);
    CubeMemory initial{4, 16, std::vector<u32>(64, 0)};
    for (u64 x = 0; x < 4; ++x) {
      for (u64 l = 0; l < 8; ++l) initial.at(x, l) = static_cast<u32>(x * 8 + l);
    }
    RouterOptions opt;
    opt.fifo_depth = depth;
    opt.vcs = 2;
    opt.deadlock_cycles = 16;
    opt.tagged_elements = 32;
    const RoutedRun g = runRouter(list, initial, opt);
    ASSERT_TRUE(g.stats.deadlock) << "depth " << depth;
    const RoutedRun t = runRoutedOnRtl(list, initial, opt, {});
    const std::string what = "ring depth " + std::to_string(depth) + " V=2";
    expectSame(g, t, what);
    ASSERT_EQ(t.stats.blocked.size(), g.stats.blocked.size()) << what;
    bool vc1 = false;
    for (size_t i = 0; i < g.stats.blocked.size(); ++i) {
      EXPECT_EQ(describe(t.stats.blocked[i], 2), describe(g.stats.blocked[i], 2)) << what;
      EXPECT_EQ(t.stats.blocked[i].input_vc, g.stats.blocked[i].input_vc) << what;
      EXPECT_EQ(t.stats.blocked[i].output_vc, g.stats.blocked[i].output_vc) << what;
      vc1 = vc1 || t.stats.blocked[i].input_vc == 1 || t.stats.blocked[i].output_vc == 1;
    }
    EXPECT_TRUE(vc1) << what << ": both VCs fill before the ring locks";
  }
}

// Multi-word messages with a start-up (docs/hardware/router.md §7) and two VCs: the hand-counted
// 2-cube lists and the 2D transposes and an AAPC at n = 2..4 with tau = 5, B = 2, one-entry FIFOs.
TEST(RouterRtlVcs, StartupAndPacketsAgree) {
  const MessageList serial = test::startupSerialList();
  const MessageList two_hop = test::startupTwoHopList();
  for (const MessageList* list : {&serial, &two_hop}) {
    RouterOptions opt;
    opt.tau = 3;
    opt.vcs = 2;
    opt.tagged_elements = list->nodes() * list->slots;
    CubeMemory initial{list->nodes(), list->memoryWords(),
                       std::vector<u32>(list->nodes() * list->memoryWords(), 0)};
    for (u64 x = 0; x < list->nodes(); ++x) {
      for (u64 l = 0; l < list->slots; ++l) {
        initial.at(x, l) = static_cast<u32>(x * list->slots + l);
      }
    }
    vcModel(list->n, 2);
    expectSame(runRouter(*list, initial, opt), runRoutedOnRtl(*list, initial, opt, {}),
               "hand-counted list V=2");
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
      vcModel(n, 2);
      for (RouteKind k : {RouteKind::kEcube, RouteKind::kSource, RouteKind::kAdaptive}) {
        const MessageList list = groupMessages(messagesFromPermutation(c.perm, k), 2);
        if (!fixtureModelFits(list)) continue;
        RouterOptions opt;
        opt.tau = 5;
        opt.fifo_depth = 1;
        opt.vcs = 2;
        opt.tagged_elements = c.perm.elements();
        const CubeMemory initial = taggedMemory(c.perm, list.memoryWords());
        const RoutedRun g = runRouter(list, initial, opt);
        const RoutedRun t = runRoutedOnRtl(list, initial, opt, {});
        const std::string what =
            std::string(algo) + " n=" + std::to_string(n) + " " + routeKindName(k) + " V=2";
        expectSame(g, t, what);
        EXPECT_GT(t.stats.startups, 0U) << what;
        EXPECT_EQ(checkRoutedMemory(c.perm, t.run.memory).mismatches, 0U) << what;
        ++ran;
      }
    }
  }
  EXPECT_GE(ran, 12);
}

// A model is built per V: V = 1 keeps its key, V > 1 adds -vV. A routed image whose V is not the
// model's is refused with a clear error and exit 2, both ways.
TEST(RouterRtlVcs, ImageVcsMismatchIsRefused) {
  const MessageList list = test::ringList();
  const RtlModelConfig one = rtlModelForMessages(list);
  EXPECT_EQ(one.vcs, 1);
  EXPECT_EQ(one.key(), "rtl-n2-m8-b1-t16-j1-w0-r");
  RtlModelConfig two = rtlModelForMessages(list, 2);
  EXPECT_EQ(two.key(), "rtl-n2-m8-b1-t16-j1-w0-r-v2");
  two.array = true;
  EXPECT_EQ(two.key(), "rtl-n2-m8-b1-t16-j1-w0-r-v2-a");
  const RtlModel v1 = vcModel(2, 1);
  const RtlModel v2 = vcModel(2, 2);
  ASSERT_EQ(v1.config.vcs, 1);
  ASSERT_EQ(v2.config.vcs, 2);
  ASSERT_NE(v1.runner, v2.runner);
  CubeMemory initial{4, 8, std::vector<u32>(32, 0)};
  const std::string out = ::testing::TempDir() + "/vcs_refused.txt";
  struct Case {
    const RtlModel* model;
    int image_vcs;
    const char* message;
  };
  for (const Case& c : {Case{&v1, 2, "vcs 2 but the model is built with 1 virtual channel(s)"},
                        Case{&v2, 1,
                             "no 'vcs' line (1 virtual channel) but the model is built "
                             "with 2 per link"}}) {
    const std::string image = ::testing::TempDir() + "/vcs_refused.hex";
    RouterOptions opt;
    opt.vcs = c.image_vcs;
    writeRoutedImageFile(image, list, initial, opt, c.model->config);
    const ProcessResult p = runProcess({c.model->runner, "--image", image, "--out", out});
    EXPECT_EQ(p.status, 2) << p.output;
    EXPECT_NE(p.output.find(c.message), std::string::npos) << p.output;
  }
  // Out of range before anything is built.
  RouterOptions opt;
  opt.vcs = 5;
  EXPECT_THROW(checkRtlRouterOptions(list, opt), Error);
  opt.vcs = 0;
  EXPECT_THROW(checkRtlRouterOptions(list, opt), Error);
}

}  // namespace
}  // namespace hcube

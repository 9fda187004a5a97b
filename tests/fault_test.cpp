// hcube tests: fault injection and localisation (sw/exec/fault.h,
// sw/inspect/fault_analysis.h, sw/inspect/fault_campaign.h), with exact values worked out by
// hand on the standard exchange of a 2-cube, the same on the table executor, the TLM cube and the
// RTL (tests named *Rtl* run in the rtl label, on the CI models of tests/build_models.cmake).
//
// The case: hcube tables --algo exchange --n 2 (Johnsson & Ho 1987 §3.2), K = 4, one shared
// table, relative slots, one lane per port (tests/inspect_test.cpp spells it out):
//   cycle 0  dimension 1: node x sends slot x^2 (tag 4x + (x^2)), the receiver y stores it in
//            slot y^2
//   cycle 1  dimension 1: node x sends slot x^3, y stores it in slot y^3
//   cycle 2  dimension 0: node x sends slot x^1, y stores it in slot y^1
//   cycle 3  dimension 0: node x sends slot x^3, y stores it in slot y^3
// The reference: AAPC, the element at (x, l) ends at (l, x).
#include "exec/fault.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "cli_fixture.h"
#include "exec/executor.h"
#include "inspect/fault_analysis.h"
#include "inspect/fault_campaign.h"
#include "rtl_backend.h"
#include "spec/reference.h"
#include "tables/table_image.h"
#include "tables/table_text.h"
#include "tlm_backend.h"

namespace hcube {
namespace {

BuiltCase exchange(int n) {
  CaseSpec spec;
  spec.algo = "exchange";
  spec.n = n;
  return buildCase(spec);
}

RunResult runTable(const BuiltCase& c, const TableSet& set, const Fault* fault) {
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  opt.record_traffic = true;
  opt.fault = fault;
  return executeTables(set, taggedMemory(c.perm, set.header.memoryWords()), opt);
}

RunResult runTlm(const TableSet& set, const Fault* fault) {
  TlmOptions opt;
  opt.record_traffic = true;
  opt.fault = fault;
  return runOnTlm(set, opt);
}

RunResult runRtl(const TableSet& set, const Fault* fault) {
  RtlOptions opt;  // the model cache: $HCUBE_CACHE (the rtl_models fixture's)
  opt.record_traffic = true;
  opt.fault = fault;
  return runOnRtl(set, opt);
}

enum class Backend { kTable, kTlm, kRtl };

// Runs `set` (with `fault` on its links) on one backend, recording the traffic.
RunResult runOn(Backend b, const BuiltCase& c, const TableSet& set, const Fault* fault) {
  switch (b) {
    case Backend::kTable:
      return runTable(c, set, fault);
    case Backend::kTlm:
      return runTlm(set, fault);
    case Backend::kRtl:
      return runRtl(set, fault);
  }
  return {};
}

// The faulty run of `spec` on the n-cube exchange (a table fault applied to the tables first).
RunResult faultyRun(const BuiltCase& c, const std::string& spec, Backend b) {
  const Fault f = parseFault(spec, c.tables);
  if (!f.onLink()) return runOn(b, c, applyTableFault(c.tables, f), nullptr);
  return runOn(b, c, c.tables, &f);
}

// The analysis of `spec` on the 2-cube exchange, on one backend.
FaultAnalysis analyse(const std::string& spec, Backend b) {
  const BuiltCase c = exchange(2);
  const Fault f = parseFault(spec, c.tables);
  const RunResult golden = runOn(b, c, c.tables, nullptr);
  return analyseFault(f, c.perm, golden, faultyRun(c, spec, b));
}

std::string errorOf(const std::string& spec) {
  const BuiltCase c = exchange(2);
  try {
    parseFault(spec, c.tables);
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(FaultSpec, ParsesEveryKind) {
  const BuiltCase c = exchange(2);
  EXPECT_EQ(parseFault("flip:3:1:0:2", c.tables), (Fault{FaultKind::kFlip, 3, 1, 0, 2, 0, 0, 0}));
  EXPECT_EQ(parseFault("flip:3:1:0:2:31", c.tables),
            (Fault{FaultKind::kFlip, 3, 1, 0, 2, 31, 0, 0}));
  EXPECT_EQ(parseFault("stuck:1:0:0:1:5:1", c.tables),
            (Fault{FaultKind::kStuck, 1, 0, 0, 1, 5, 1, 0}));
  EXPECT_EQ(parseFault("dead:2:1:0:3", c.tables), (Fault{FaultKind::kDead, 2, 1, 0, 3, 0, 0, 0}));
  EXPECT_EQ(parseFault("drop:0:0:0:0", c.tables), (Fault{FaultKind::kDrop, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(parseFault("table:1:4:7", c.tables), (Fault{FaultKind::kTable, 1, 0, 0, 0, 7, 0, 4}));
  for (const char* s : {"flip:3:1:0:2:31", "stuck:1:0:0:1:5:1", "dead:2:1:0:3", "drop:0:0:0:0",
                        "table:1:4:7", "flip:0:0:0:0:0"}) {
    EXPECT_EQ(formatFault(parseFault(s, c.tables)), s);
  }
}

TEST(FaultSpec, BadSpecsNameTheField) {
  EXPECT_EQ(errorOf("zap:1"),
            "--inject zap:1: kind 'zap' must be flip, stuck, dead, drop or table");
  EXPECT_EQ(errorOf("flip:4:0:0:0"),
            "--inject flip:4:0:0:0: node 4 is out of range (the cube has 4 nodes)");
  EXPECT_EQ(errorOf("flip:0:2:0:0"), "--inject flip:0:2:0:0: port 2 is out of range (n = 2)");
  EXPECT_EQ(errorOf("flip:0:1:1:0"), "--inject flip:0:1:1:0: lane 1 is out of range (width 1)");
  EXPECT_EQ(errorOf("drop:0:1:0:4"),
            "--inject drop:0:1:0:4: cycle 4 is out of range (the tables run 4 cycles)");
  EXPECT_EQ(errorOf("flip:0:1:0:0:32"),
            "--inject flip:0:1:0:0:32: bit 32 is out of range (a word has 32 bits)");
  EXPECT_EQ(errorOf("stuck:0:1:0:0:3:2"),
            "--inject stuck:0:1:0:0:3:2: value 2 is out of range (0 or 1)");
  EXPECT_EQ(errorOf("stuck:0:1:0:0:3"),
            "--inject stuck:0:1:0:0:3: stuck takes NODE:PORT:LANE:CYCLE:BIT:VALUE (6 fields, got "
            "5)");
  EXPECT_EQ(errorOf("dead:0:1:0"),
            "--inject dead:0:1:0: dead takes NODE:PORT:LANE:CYCLE (4 fields, got 3)");
  EXPECT_EQ(errorOf("flip:0:x:0:0"), "--inject flip:0:x:0:0: port 'x' is not a number");
  EXPECT_EQ(errorOf("flip:0:1:0:-1"), "--inject flip:0:1:0:-1: cycle '-1' is not a number");
  EXPECT_EQ(errorOf("table:0:5:0"),
            "--inject table:0:5:0: step 5 is out of range (node 0's table has 5 instructions)");
  const int width = ImageLayout::of(exchange(2).tables.header).tableWidth();
  EXPECT_EQ(errorOf("table:0:0:" + std::to_string(width)),
            "--inject table:0:0:" + std::to_string(width) + ": bit " + std::to_string(width) +
                " is out of range (a table word has " + std::to_string(width) + " bits)");
}

// flip bit 3 of the word node 0 sends on dimension 1 in cycle 0: tag 2 (node 0, slot 0^2)
// arrives as 10 at node 2, stored in slot 2^2 = 0 and never written again; the reference wants
// tag 2 there. No error counter moves.
void expectFlip(const FaultAnalysis& a) {
  EXPECT_TRUE(a.detected);
  EXPECT_EQ(a.detected_by, "reference");
  ASSERT_TRUE(a.first_link.has_value());
  EXPECT_EQ(a.first_link->cycle, 0u);
  EXPECT_EQ(a.first_link->node, 0u);
  EXPECT_EQ(a.first_link->port, 1);
  EXPECT_EQ(a.first_link->lane, 0);
  EXPECT_EQ(a.first_link->expected, std::optional<u32>(2));
  EXPECT_EQ(a.first_link->found, std::optional<u32>(10));
  EXPECT_EQ(a.mismatches, 1u);
  ASSERT_TRUE(a.first_wrong.has_value());
  EXPECT_EQ(a.first_wrong->node, 2u);
  EXPECT_EQ(a.first_wrong->slot, 0u);
  EXPECT_EQ(a.first_wrong->expected, 2u);
  EXPECT_EQ(a.first_wrong->found, 10u);
  EXPECT_TRUE(a.errors.empty());
  EXPECT_FALSE(a.first_error.has_value());
  EXPECT_TRUE(a.localised);
}

// drop the word node 1 sends on dimension 0 in cycle 2 (tag 4, slot 1^1 = 0): node 0 expects it
// (nodata) and its slot 0^1 = 1 keeps its own tag 1 where the reference wants 4.
void expectDrop(const FaultAnalysis& a) {
  EXPECT_EQ(a.detected_by, "reference, error counters");
  ASSERT_TRUE(a.first_link.has_value());
  EXPECT_EQ(a.first_link->cycle, 2u);
  EXPECT_EQ(a.first_link->node, 1u);
  EXPECT_EQ(a.first_link->port, 0);
  EXPECT_EQ(a.first_link->lane, 0);
  EXPECT_EQ(a.first_link->expected, std::optional<u32>(4));
  EXPECT_EQ(a.first_link->found, std::nullopt);
  ASSERT_TRUE(a.first_wrong.has_value());
  EXPECT_EQ(a.first_wrong->node, 0u);
  EXPECT_EQ(a.first_wrong->slot, 1u);
  EXPECT_EQ(a.first_wrong->found, 1u);
  EXPECT_EQ(a.first_wrong->expected, 4u);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].node, 0u);
  EXPECT_EQ(a.errors[0].kind, HwError::kNoData);
  EXPECT_EQ(a.errors[0].found, 1u);
  // The event itself: node 0 waited for the word in cycle 2.
  ASSERT_TRUE(a.first_error.has_value());
  EXPECT_EQ(a.first_error->event, (HwErrorEvent{2, 0, HwError::kNoData}));
  EXPECT_TRUE(a.first_error->extra);
  EXPECT_TRUE(a.localised);
}

// dimension 1 of node 3 dead from cycle 1: its cycle-1 word (tag 12, slot 3^3 = 0) never
// reaches node 1 (nodata there), which in cycle 3 forwards its own tag 6 from slot 1^3 = 2 to
// node 0's slot 3, where tag 12 belongs.
void expectDead(const FaultAnalysis& a) {
  EXPECT_EQ(a.detected_by, "reference, error counters");
  ASSERT_TRUE(a.first_link.has_value());
  EXPECT_EQ(a.first_link->cycle, 1u);
  EXPECT_EQ(a.first_link->node, 3u);
  EXPECT_EQ(a.first_link->port, 1);
  EXPECT_EQ(a.first_link->expected, std::optional<u32>(12));
  EXPECT_EQ(a.first_link->found, std::nullopt);
  EXPECT_EQ(a.mismatches, 1u);
  ASSERT_TRUE(a.first_wrong.has_value());
  EXPECT_EQ(a.first_wrong->node, 0u);
  EXPECT_EQ(a.first_wrong->slot, 3u);
  EXPECT_EQ(a.first_wrong->found, 6u);
  EXPECT_EQ(a.first_wrong->expected, 12u);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].node, 1u);
  EXPECT_EQ(a.errors[0].kind, HwError::kNoData);
  ASSERT_TRUE(a.first_error.has_value());
  EXPECT_EQ(a.first_error->event, (HwErrorEvent{1, 1, HwError::kNoData}));
  EXPECT_TRUE(a.localised);
}

TEST(FaultAnalysis, FlipOnTheTableExecutor) {
  expectFlip(analyse("flip:0:1:0:0:3", Backend::kTable));
}
TEST(FaultAnalysis, DropOnTheTableExecutor) {
  expectDrop(analyse("drop:1:0:0:2", Backend::kTable));
}
TEST(FaultAnalysis, DeadLinkOnTheTableExecutor) {
  expectDead(analyse("dead:3:1:0:1", Backend::kTable));
}
// The report names the first error event's cycle.
TEST(FaultAnalysis, DropReportNamesTheFirstErrorEvent) {
  const BuiltCase c = exchange(2);
  const FaultAnalysis a = analyse("drop:1:0:0:2", Backend::kTable);
  EXPECT_EQ(formatFaultAnalysis(parseFault("drop:1:0:0:2", c.tables), a, 4),
            "fault drop:1:0:0:2: detected (reference, error counters), localised\n"
            "  first difference on a link: cycle 2, node 1 port 0 lane 0 -> node 0: no word where "
            "the fault-free run carried word 4\n"
            "  first wrong element (of 1): node 0 slot 1 holds tag 1 (from node 0 slot 1), the "
            "reference expects tag 4 (from node 1 slot 0)\n"
            "  first error event: cycle 2, node 0 nodata\n"
            "  error counters that differ from the fault-free run: node 0 nodata 1 (expected 0)\n");
}
TEST(FaultAnalysis, FlipOnTlm) { expectFlip(analyse("flip:0:1:0:0:3", Backend::kTlm)); }
TEST(FaultAnalysis, DropOnTlm) { expectDrop(analyse("drop:1:0:0:2", Backend::kTlm)); }
TEST(FaultAnalysis, DeadLinkOnTlm) { expectDead(analyse("dead:3:1:0:1", Backend::kTlm)); }
TEST(FaultAnalysis, FlipOnRtl) { expectFlip(analyse("flip:0:1:0:0:3", Backend::kRtl)); }
TEST(FaultAnalysis, DropOnRtl) { expectDrop(analyse("drop:1:0:0:2", Backend::kRtl)); }
TEST(FaultAnalysis, DeadLinkOnRtl) { expectDead(analyse("dead:3:1:0:1", Backend::kRtl)); }

// Stuck-at: bit 2 of node 0's dimension-1 link stuck at 1 from cycle 0. Cycle 0 carries tag 2
// (bit 2 clear: arrives as 6), cycle 1 tag 3 (arrives as 7): the first difference is cycle 0.
void expectStuck(Backend b) {
  {
    const FaultAnalysis a = analyse("stuck:0:1:0:0:2:1", b);
    ASSERT_TRUE(a.first_link.has_value());
    EXPECT_EQ(a.first_link->cycle, 0u);
    EXPECT_EQ(a.first_link->found, std::optional<u32>(6));
    EXPECT_EQ(a.mismatches, 2u);
    EXPECT_EQ(a.detected_by, "reference");
    EXPECT_TRUE(a.localised);
  }
  // Bit 1 is set in both words (2 and 3): stuck at 1 changes nothing.
  const FaultAnalysis masked = analyse("stuck:0:1:0:0:1:1", b);
  EXPECT_FALSE(masked.detected);
  EXPECT_TRUE(masked.masked);
  EXPECT_FALSE(masked.first_link.has_value());
}
TEST(FaultAnalysis, StuckAtOnTheTableExecutor) { expectStuck(Backend::kTable); }
TEST(FaultAnalysis, StuckAtOnTlm) { expectStuck(Backend::kTlm); }
TEST(FaultAnalysis, StuckAtOnRtl) { expectStuck(Backend::kRtl); }

// A fault on a link that carries nothing in that cycle (dimension 0 in cycle 0) changes nothing.
TEST(FaultAnalysis, AnIdleLinkIsMasked) {
  const FaultAnalysis a = analyse("flip:0:0:0:0:0", Backend::kTable);
  EXPECT_FALSE(a.detected);
  EXPECT_TRUE(a.masked);
  EXPECT_EQ(a.masked_reason, "idle: no word crossed the link in that cycle (or from it on)");
}

// A table fault: bit 1 of node 0's first instruction is the high opcode bit (docs/hardware/node.md
// §3): the cycle-0 XFER becomes a PERMUTE. Node 0 sends nothing (node 2 counts nodata), the word
// node 2 sends it is lost (node 0 counts lost), and two elements stay where they were: node 0's
// slot 2 keeps tag 2, node 2's slot 0 keeps tag 8.
void expectTableFault(Backend b) {
  {
    const FaultAnalysis a = analyse("table:0:0:1", b);
    EXPECT_EQ(a.detected_by, "reference, error counters");
    ASSERT_TRUE(a.first_link.has_value());
    EXPECT_EQ(a.first_link->cycle, 0u);
    EXPECT_EQ(a.first_link->node, 0u);
    EXPECT_EQ(a.first_link->port, 1);
    EXPECT_EQ(a.first_link->expected, std::optional<u32>(2));
    EXPECT_EQ(a.first_link->found, std::nullopt);
    EXPECT_EQ(a.mismatches, 2u);
    ASSERT_EQ(a.errors.size(), 2u);
    EXPECT_EQ(a.errors[0].node, 0u);
    EXPECT_EQ(a.errors[0].kind, HwError::kLost);
    EXPECT_EQ(a.errors[1].node, 2u);
    EXPECT_EQ(a.errors[1].kind, HwError::kNoData);
    ASSERT_TRUE(a.first_error.has_value());
    EXPECT_EQ(a.first_error->event, (HwErrorEvent{0, 0, HwError::kLost}));
    EXPECT_EQ(a.suspect_node, std::optional<u64>(0));
    EXPECT_TRUE(a.localised);
  }
}

TEST(FaultAnalysis, TableFaultOnTheTableExecutor) { expectTableFault(Backend::kTable); }
TEST(FaultAnalysis, TableFaultOnTlm) { expectTableFault(Backend::kTlm); }
TEST(FaultAnalysis, TableFaultOnRtl) { expectTableFault(Backend::kRtl); }

// Exact agreement of the faulty runs themselves: for every kind, the RTL's run with the fault
// is the table executor's and the TLM's, in memories, counters, per-link words, span, error
// counters and the traffic log (wall time aside).
void expectSameRun(const RunResult& want, const RunResult& got, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(got.memory.words, want.memory.words);
  EXPECT_EQ(got.cycles, want.cycles);
  EXPECT_EQ(got.transfer_cycles, want.transfer_cycles);
  EXPECT_EQ(got.local_cycles, want.local_cycles);
  EXPECT_EQ(got.words, want.words);
  EXPECT_EQ(got.link_words, want.link_words);
  EXPECT_EQ(got.span, want.span);
  EXPECT_EQ(got.timeout, want.timeout);
  EXPECT_EQ(got.errors, want.errors);
  EXPECT_EQ(got.traffic, want.traffic);
  EXPECT_EQ(got.error_events, want.error_events);
}

TEST(FaultAgreement, EveryKindTheSameOnRtl) {
  const BuiltCase c = exchange(3);
  // One per kind on the 3-cube exchange (K = 8, cycles 0..11: dimension 2 in cycles 0-3,
  // 1 in 4-7, 0 in 8-11), each detected, and one masked (stuck at the value every word has).
  for (const char* spec : {"flip:5:2:0:1:7", "stuck:2:1:0:4:0:1", "stuck:6:0:0:0:30:0",
                           "dead:3:0:0:9", "drop:7:1:0:6", "table:4:2:1", "table:1:5:3"}) {
    const RunResult table = faultyRun(c, spec, Backend::kTable);
    expectSameRun(table, faultyRun(c, spec, Backend::kTlm), std::string(spec) + " tlm");
    expectSameRun(table, faultyRun(c, spec, Backend::kRtl), std::string(spec) + " rtl");
  }
}

// Per-cycle error events (RunResult::error_events, recorded with the traffic) of a hand-made
// broken 2-cube exchange, the same on every backend. The exchange (above) with five changes:
//   node 1 cycle 0 also receives into slot 3 on dimension 0, where nothing arrives
//                                                      -> nodata and conflict (cycle 0, node 1)
//   node 0 cycle 1 does not receive on dimension 1     -> lost    (cycle 1, node 0)
//   node 3 cycle 2 does not send on dimension 0        -> nodata  (cycle 2, node 2)
//   node 1 cycle 3 waits for a word on dimension 1     -> nodata  (cycle 3, node 1)
//   node 0 cycle 3 sends slot 0 to node 2, which passes it on and then ends: the PASS word is
//   never forwarded                                    -> dropped (cycle 4, node 2: the cycle
//                                                         after every node has ended)
const char* const kBrokenTables =
    "hcube-table 1\nalgo hand\nperm aapc n=2 m=1\ndim 2\nslots 4\nscratch 0\nlanes 1\n"
    "ports all\n"
    "table 0\nX .>. m^2>m^2\nX .>. m^3>.\nX m^1>m^1 .>.\nX m^3>m^3 m0>.\nE\n"
    "table 1\nX .>m3 m^2>m^2\nX .>. m^3>m^3\nX m^1>m^1 .>.\nX m^3>m^3 .>m0\nE\n"
    "table 2\nX .>. m^2>m^2\nX .>. m^3>m^3\nX m^1>m^1 .>.\nX m^3>m^3 .>p\nE\n"
    "table 3\nX .>. m^2>m^2\nX .>. m^3>m^3\nX .>m^1 .>.\nX m^3>m^3 .>.\nE\n"
    "end\n";

void expectBrokenTableEvents(Backend b) {
  const BuiltCase c = exchange(2);
  std::istringstream text(kBrokenTables);
  const TableSet set = readTableText(text, "broken.hct");
  const RunResult r = runOn(b, c, set, nullptr);
  const std::vector<HwErrorEvent> want = {{0, 1, HwError::kNoData}, {0, 1, HwError::kConflict},
                                          {1, 0, HwError::kLost},   {2, 2, HwError::kNoData},
                                          {3, 1, HwError::kNoData}, {4, 2, HwError::kDropped}};
  EXPECT_EQ(r.error_events, want);
  EXPECT_EQ(r.cycles, 4u);
  // The counters count the same events.
  const std::vector<NodeErrorCount> counters = {{0, HwError::kLost, 1},
                                                {1, HwError::kNoData, 2},
                                                {1, HwError::kConflict, 1},
                                                {2, HwError::kNoData, 1},
                                                {2, HwError::kDropped, 1}};
  EXPECT_EQ(r.errors, counters);
}

TEST(FaultEvents, BrokenTableOnTheTableExecutor) { expectBrokenTableEvents(Backend::kTable); }
TEST(FaultEvents, BrokenTableOnTlm) { expectBrokenTableEvents(Backend::kTlm); }
TEST(FaultEvents, BrokenTableOnRtl) { expectBrokenTableEvents(Backend::kRtl); }

// Without the traffic log nothing is recorded.
TEST(FaultEvents, OnlyWhenAsked) {
  const BuiltCase c = exchange(2);
  std::istringstream text(kBrokenTables);
  const TableSet set = readTableText(text, "broken.hct");
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  const RunResult r = executeTables(set, taggedMemory(c.perm, 4), opt);
  EXPECT_TRUE(r.error_events.empty());
  EXPECT_EQ(r.errors.size(), 5u);
}

// The exact outcome of a small campaign (50 faults, seed 1, n = 3), the same on both backends.
TEST(FaultCampaign, FiftyFaultsOnA3Cube) {
  const BuiltCase c = exchange(3);
  std::vector<CampaignResult> results;
  for (Backend b : {Backend::kTable, Backend::kTlm}) {
    auto run = [&](const TableSet& set, const Fault* f) { return runOn(b, c, set, f); };
    const RunResult golden = run(c.tables, nullptr);
    const std::vector<Fault> faults = drawFaults(c.tables, golden, 50, 1);
    results.push_back(runCampaign(c.tables, c.perm, golden, faults, run));
  }
  const CampaignResult& r = results[0];
  auto expect = [](const FaultKindStats& s, u64 injected, u64 masked, u64 detected, u64 localised) {
    EXPECT_EQ(s.injected, injected);
    EXPECT_EQ(s.masked, masked);
    EXPECT_EQ(s.detected, detected);
    EXPECT_EQ(s.localised, localised);
  };
  expect(r.kinds[static_cast<int>(FaultKind::kFlip)], 10, 0, 10, 10);
  expect(r.kinds[static_cast<int>(FaultKind::kStuck)], 10, 4, 6, 6);
  expect(r.kinds[static_cast<int>(FaultKind::kDead)], 10, 0, 10, 10);
  expect(r.kinds[static_cast<int>(FaultKind::kDrop)], 10, 0, 10, 10);
  expect(r.kinds[static_cast<int>(FaultKind::kTable)], 10, 3, 7, 7);
  expect(r.total, 50, 7, 43, 43);
  EXPECT_EQ(formatCampaign(results[0]), formatCampaign(results[1]));
  EXPECT_EQ(results[0].faults, results[1].faults);
}

// 30 faults (seed 2) on the 3-cube exchange on all three backends: the same faults, the same
// analyses, the same table of rates.
TEST(FaultCampaign, ThirtyFaultsOnRtlAsOnTheOthers) {
  const BuiltCase c = exchange(3);
  std::vector<CampaignResult> results;
  for (Backend b : {Backend::kTable, Backend::kTlm, Backend::kRtl}) {
    auto run = [&](const TableSet& set, const Fault* f) { return runOn(b, c, set, f); };
    const RunResult golden = run(c.tables, nullptr);
    const std::vector<Fault> faults = drawFaults(c.tables, golden, 30, 2);
    results.push_back(runCampaign(c.tables, c.perm, golden, faults, run));
  }
  for (size_t i = 1; i < results.size(); ++i) {
    EXPECT_EQ(results[i].faults, results[0].faults);
    EXPECT_EQ(formatCampaign(results[i]), formatCampaign(results[0]));
    ASSERT_EQ(results[i].analyses.size(), results[0].analyses.size());
    for (size_t f = 0; f < results[0].analyses.size(); ++f) {
      EXPECT_EQ(formatFaultAnalysis(results[0].faults[f], results[i].analyses[f], 8),
                formatFaultAnalysis(results[0].faults[f], results[0].analyses[f], 8));
    }
  }
  EXPECT_EQ(results[0].total.injected, 30u);
}

// Without a fault (or with a table fault, which the executor never sees) a run is the same.
TEST(FaultHook, NoFaultChangesNothing) {
  const BuiltCase c = exchange(3);
  const Fault table{FaultKind::kTable, 0, 0, 0, 0, 1, 0, 0};
  const RunResult a = runTable(c, c.tables, nullptr);
  const RunResult b = runTable(c, c.tables, &table);
  EXPECT_EQ(a.memory.words, b.memory.words);
  EXPECT_EQ(a.traffic, b.traffic);
  EXPECT_EQ(a.words, b.words);
}

using FaultCli = test::ScratchDirTest;

TEST_F(FaultCli, RunWithAFlipSaysWhere) {
  const ProcessResult r = test::tool(
      {"run", "--algo", "exchange", "--n", "2", "--inject", "flip:0:1:0:0:3", "--backend", "tlm"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.output,
            "exchange, aapc n=2 m=1, width 1, 4 cycles without the fault\n"
            "fault flip:0:1:0:0:3: detected (reference), localised\n"
            "  first difference on a link: cycle 0, node 0 port 1 lane 0 -> node 2: word 10 "
            "where the fault-free run carried word 2\n"
            "  first wrong element (of 1): node 2 slot 0 holds tag 10 (from node 2 slot 2), the "
            "reference expects tag 2 (from node 0 slot 2)\n"
            "  error counters as in the fault-free run\n");
}

TEST_F(FaultCli, BadInjectExitsTwoNamingTheField) {
  const ProcessResult r =
      test::tool({"run", "--algo", "exchange", "--n", "2", "--inject", "drop:0:7:0:0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --inject drop:0:7:0:0: port 7 is out of range (n = 2)\n");
  const ProcessResult backend = test::tool(
      {"faults", "--campaign", "3", "--algo", "exchange", "--n", "2", "--backend", "gpu"});
  EXPECT_EQ(backend.status, 2);
  EXPECT_EQ(backend.output, "hcube: error: --backend 'gpu': must be table, tlm or rtl\n");
  const ProcessResult links = test::tool({"run", "--algo", "exchange", "--n", "2", "--inject",
                                          "drop:0:1:0:0", "--links", (dir_ / "l.csv").string()});
  EXPECT_EQ(links.status, 2);
  EXPECT_EQ(links.output, "hcube: error: --inject cannot be combined with --links\n");
  const ProcessResult campaign = test::tool({"faults", "--algo", "exchange", "--n", "2"});
  EXPECT_EQ(campaign.status, 2);
  EXPECT_EQ(campaign.output,
            "hcube: error: --campaign N (a number of faults, at least 1) is required\n");
}

// The same report from the RTL (its progress lines go to stderr, in between).
TEST_F(FaultCli, RtlRunWithAFlipSaysWhere) {
  const ProcessResult r = test::tool(
      {"run", "--algo", "exchange", "--n", "2", "--inject", "flip:0:1:0:0:3", "--backend", "rtl"});
  EXPECT_EQ(r.status, 1);
  for (const char* part :
       {"exchange, aapc n=2 m=1, width 1, 4 cycles without the fault\n",
        "fault flip:0:1:0:0:3: detected (reference), localised\n"
        "  first difference on a link: cycle 0, node 0 port 1 lane 0 -> node 2: word 10 "
        "where the fault-free run carried word 2\n"
        "  first wrong element (of 1): node 2 slot 0 holds tag 10 (from node 2 slot 2), the "
        "reference expects tag 2 (from node 0 slot 2)\n"
        "  error counters as in the fault-free run\n"}) {
    EXPECT_NE(r.output.find(part), std::string::npos) << part << " in " << r.output;
  }
}

TEST_F(FaultCli, CampaignTable) {
  const ProcessResult r =
      test::tool({"faults", "--campaign", "10", "--seed", "3", "--algo", "exchange", "--n", "2"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("exchange, aapc n=2 m=1, width 1, 4 cycles; 10 faults, seed 3\n"
                          "kind    injected   masked  detected  localised  detected %  "
                          "localised %\n"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace hcube

// hcube tests: the inspection tools (sw/inspect/) on the table executor,
// with exact values counted by hand on the standard exchange of a 2-cube.
//
// The case: hcube tables --algo exchange --n 2 (Johnsson & Ho 1987 §3.2), K = 4, one shared
// table, relative slots (m^a is slot a XOR node), one lane per port:
//   cycle 0  X .>. m^2>m^2   dimension 1: node x sends its slot x^2, the receiver stores it in
//                            its own slot (x^2)^2 = x
//   cycle 1  X .>. m^3>m^3   dimension 1: slot x^3
//   cycle 2  X m^1>m^1 .>.   dimension 0: slot x^1
//   cycle 3  X m^3>m^3 .>.   dimension 0: slot x^3
// Every directed link carries 2 words in 4 cycles: utilisation 0.5.
// Element 0:3 (tag 3, node 0 slot 3): cycle 1 node 0 sends slot 0^3 = 3 across dimension 1 to
// node 2, stored in slot 2^3 = 1; cycle 3 node 2 sends slot 2^3 = 1 across dimension 0 to node
// 3, stored in slot 3^3 = 0, where the reference model wants it (AAPC: (x, l) -> (l, x)).
// Every hop is on lane 0 (one lane per port).
#include <gtest/gtest.h>

#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "inspect/element_path.h"
#include "inspect/heatmap.h"
#include "inspect/link_csv.h"
#include "spec/reference.h"

namespace hcube {
namespace {

BuiltCase exchange2() {
  CaseSpec spec;
  spec.algo = "exchange";
  spec.n = 2;
  return buildCase(spec);
}

RunResult runCase(const BuiltCase& c, bool record) {
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  opt.record_traffic = record;
  return executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
}

RunResult runExchange2(bool record) { return runCase(exchange2(), record); }

TEST(InspectLinks, CsvOfTheExchangeOnA2Cube) {
  const RunResult r = runExchange2(false);
  EXPECT_EQ(r.cycles, 4u);
  EXPECT_EQ(formatLinkCsv(r, 2, 1),
            "node,dimension,neighbour,words,utilisation\n"
            "0,0,1,2,0.500000\n"
            "0,1,2,2,0.500000\n"
            "1,0,0,2,0.500000\n"
            "1,1,3,2,0.500000\n"
            "2,0,3,2,0.500000\n"
            "2,1,0,2,0.500000\n"
            "3,0,2,2,0.500000\n"
            "3,1,1,2,0.500000\n");
  // Two lanes per link halve the utilisation of the same counts.
  EXPECT_EQ(formatLinkCsv(r, 2, 2).substr(43, 17), "0,0,1,2,0.250000\n");
  EXPECT_THROW(formatLinkCsv(r, 3, 1), Error);
}

TEST(InspectMonitor, LogIsOffByDefaultAndCanonicalWhenOn) {
  const RunResult off = runExchange2(false);
  EXPECT_FALSE(off.traffic.recorded);
  EXPECT_TRUE(off.traffic.sends.empty());
  EXPECT_TRUE(off.traffic.stores.empty());

  const RunResult on = runExchange2(true);
  EXPECT_TRUE(on.traffic.recorded);
  ASSERT_EQ(on.traffic.sends.size(), 16u);  // 4 nodes x 4 cycles x 1 word
  ASSERT_EQ(on.traffic.stores.size(), 16u);
  // Cycle 0: every node sends slot x^2 (tag x*4 + (x^2)) across dimension 1.
  for (u64 x = 0; x < 4; ++x) {
    EXPECT_EQ(on.traffic.sends[x], (TrafficLog::Send{0, x, 1, static_cast<u32>(x * 4 + (x ^ 2))}));
  }
  // Recording changes nothing else.
  EXPECT_EQ(on.link_words, off.link_words);
  EXPECT_EQ(on.span, off.span);
  EXPECT_EQ(on.memory.words, off.memory.words);
  EXPECT_EQ(on.cycles, off.cycles);
}

TEST(InspectTrace, PathOfElement0Slot3) {
  const BuiltCase c = exchange2();
  const RunResult r = runCase(c, true);
  const ElementPath p = traceElement(r, c.tables, 0, 3);
  EXPECT_EQ(p.tag, 3u);
  ASSERT_EQ(p.hops.size(), 2u);
  EXPECT_EQ(p.hops[0], (ElementHop{1, 0, 1, 2, 0, true, 1}));
  EXPECT_EQ(p.hops[1], (ElementHop{3, 2, 0, 3, 0, true, 0}));
  ASSERT_EQ(p.final_places.size(), 1u);
  EXPECT_EQ(p.final_places[0], (std::pair<u64, u64>{3, 0}));
  EXPECT_EQ(formatElementPath(p),
            "element 0:3 (tag 3) starts in node 0, slot 3\n"
            " cycle   from  dim  lane     to  arrives  slot\n"
            "     1      0    1     0      2  stored   1\n"
            "     3      2    0     0      3  stored   0\n"
            "at the end in: node 3 slot 0\n");
  // Element 1:0 crosses one link: cycle 2, slot 1^1 = 0 of node 1 to node 0, slot 0^1 = 1.
  const ElementPath q = traceElement(r, c.tables, 1, 0);
  ASSERT_EQ(q.hops.size(), 1u);
  EXPECT_EQ(q.hops[0], (ElementHop{2, 1, 0, 0, 0, true, 1}));
  // Element 0:0 stays home.
  const ElementPath s = traceElement(r, c.tables, 0, 0);
  EXPECT_TRUE(s.hops.empty());
  EXPECT_EQ(s.final_places, (std::vector<std::pair<u64, u64>>{{0, 0}}));
  EXPECT_EQ(formatElementPath(s),
            "element 0:0 (tag 0) starts in node 0, slot 0\n"
            "it never crosses a link\n"
            "at the end in: node 0 slot 0\n");
  // Without the log there is nothing to trace.
  EXPECT_THROW(traceElement(runCase(c, false), c.tables, 0, 3), Error);
}

// The standard exchange on a 3-cube (one shared table of 12 XFERs, one word a cycle: cycles
// 0-3 dimension 2 sending slots x^4, x^5, x^6, x^7; cycles 4-7 dimension 1 sending x^2, x^3,
// x^6, x^7; cycles 8-11 dimension 0 sending x^1, x^3, x^5, x^7; each received into the same
// relative slot). Element 2:5 (tag 2 * 8 + 5 = 21) by hand: slot 5 of node 2 is 2^7, sent in
// cycle 3 across dimension 2 to node 6 into slot 6^7 = 1; that is 6^7, sent in cycle 7 across
// dimension 1 to node 4 into slot 4^7 = 3; that is 4^7, sent in cycle 11 across dimension 0 to
// node 5 into slot 5^7 = 2, the AAPC's place for it (destination 5, source 2).
TEST(InspectTrace, ThreeCubeExchangeByHand) {
  CaseSpec spec;
  spec.algo = "exchange";
  spec.n = 3;
  const BuiltCase c = buildCase(spec);
  const RunResult r = runCase(c, true);
  EXPECT_EQ(formatElementPath(traceElement(r, c.tables, 2, 5)),
            "element 2:5 (tag 21) starts in node 2, slot 5\n"
            " cycle   from  dim  lane     to  arrives  slot\n"
            "     3      2    2     0      6  stored   1\n"
            "     7      6    1     0      4  stored   3\n"
            "    11      4    0     0      5  stored   2\n"
            "at the end in: node 5 slot 2\n");
}

// A word through a PASS register: the single path transpose with cut-through forwarding
// (Johnsson & Ho 1987 §6.1.1) on a 4-cube takes element 1:0 (tag 16) from node 1 across
// dimension 2 to node 5 in cycle 12; node 5 holds it in a PASS register and forwards it across
// dimension 0 in cycle 13 to node 4, which stores it in slot 0 — the transposed place.
TEST(InspectTrace, ThroughAPassRegister) {
  CaseSpec spec;
  spec.algo = "spt";
  spec.n = 4;
  spec.params = {{"forward", "cut"}};
  const BuiltCase c = buildCase(spec);
  const RunResult r = runCase(c, true);
  const ElementPath p = traceElement(r, c.tables, 1, 0);
  ASSERT_EQ(p.hops.size(), 2u);
  EXPECT_EQ(p.hops[0], (ElementHop{12, 1, 2, 5, 0, false, std::nullopt}));
  EXPECT_EQ(p.hops[1], (ElementHop{13, 5, 0, 4, 0, true, 0}));
  EXPECT_EQ(p.final_places, (std::vector<std::pair<u64, u64>>{{4, 0}}));
}

// hcube trace records only the traced tag's events (so that it scales to big cubes): the path
// is the same as from the full log.
TEST(InspectTrace, OneWordLogGivesTheSamePath) {
  const BuiltCase c = exchange2();
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  opt.record_traffic = true;
  opt.record_word = 3;
  const RunResult one =
      executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
  EXPECT_EQ(one.traffic.sends, (std::vector<TrafficLog::Send>{{1, 0, 1, 3}, {3, 2, 0, 3}}));
  EXPECT_EQ(one.traffic.stores, (std::vector<TrafficLog::Store>{{1, 3}, {3, 3}}));
  const RunResult all = runCase(c, true);
  EXPECT_EQ(formatElementPath(traceElement(one, c.tables, 0, 3)),
            formatElementPath(traceElement(all, c.tables, 0, 3)));
  EXPECT_EQ(one.link_words, all.link_words);
}

TEST(InspectTrace, ElementSyntaxAndRange) {
  EXPECT_EQ(parseElement("3:1", 2, 4), (std::pair<u64, u64>{3, 1}));
  for (const char* bad : {"", "3", "3:", ":1", "a:1", "1:b", "-1:0", "1:0:0", " 1:0", "1:+0"}) {
    EXPECT_THROW(parseElement(bad, 2, 4), Error) << bad;
  }
  try {
    parseElement("4:0", 2, 4);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "--element 4:0: node 4 is outside the 2-cube (nodes 0..3)");
  }
  try {
    parseElement("0:4", 2, 4);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "--element 0:4: slot 4 is outside the data slots (0..3)");
  }
}

int count(const std::string& text, const std::string& what) {
  int c = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++c;
  return c;
}

TEST(InspectHeatmap, CellsOfTheExchangeOnA2Cube) {
  const RunResult r = runExchange2(true);
  const std::string svg = formatHeatmapSvg(r, 2, 1, "exchange n=2");
  // 8 links x 4 cycles; each link is busy in 2 consecutive cycles with 1 word of 1: 16 full
  // cells, the darkest shade, drawn as 8 rects of two cells (one more use of the shade: the
  // legend's swatch).
  EXPECT_EQ(count(svg, "fill=\"#08306b\""), 8 + 1);
  EXPECT_NE(svg.find("8 directed links x 4 cycles; one column = 1 cycle, one row = 1 link"),
            std::string::npos);
  // Dimension totals: 8 words each.
  EXPECT_EQ(count(svg, ">8</text>"), 2);
  // Dimension 1 sends in cycles 0-1 on rows 4-7; cells 24 x 16 px from (90, 56); dimension 0
  // sends in cycles 2-3 (rows 0-3).
  EXPECT_NE(svg.find("<rect x=\"90\" y=\"120\" width=\"48\" height=\"16\" fill=\"#08306b\"/>"),
            std::string::npos);
  EXPECT_NE(svg.find("<rect x=\"138\" y=\"56\" width=\"48\" height=\"16\" fill=\"#08306b\"/>"),
            std::string::npos);
  EXPECT_EQ(svg.find("<rect x=\"90\" y=\"56\" width=\"48\" height=\"16\""), std::string::npos);
  // Bucketed to one column of 4 cycles and one row of 4 links per dimension: each cell holds
  // 4 links x 2 words = 8 of a capacity of 4 x 4 = 16, half: the fourth shade.
  const std::string small = formatHeatmapSvg(r, 2, 1, "x", HeatmapLimits{1, 2});
  EXPECT_NE(small.find("one column = 4 cycles, one row = 4 links"), std::string::npos);
  EXPECT_EQ(count(small, "fill=\"#6baed6\""), 2 + 1);
  EXPECT_EQ(count(small, "fill=\"#08306b\""), 1);
  EXPECT_THROW(formatHeatmapSvg(runExchange2(false), 2, 1, "x"), Error);
  // The bound on the log hcube run --heatmap checks: 4 XFERs of one sending channel in the
  // shared table, 4 nodes: 16 sends and at most 16 stores, exactly what the run logged.
  EXPECT_EQ(trafficLogBytesBound(exchange2().tables),
            16 * (sizeof(TrafficLog::Send) + sizeof(TrafficLog::Store)));
  EXPECT_EQ(r.traffic.sends.size(), 16u);
}

}  // namespace
}  // namespace hcube

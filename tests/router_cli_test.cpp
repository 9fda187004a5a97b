// hcube tests: the routed-mode commands on good and bad input: exit status and the
// message a user sees.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.h"
#include "process.h"

namespace hcube {
namespace {

namespace fs = std::filesystem;

using test::tool;

class RouterCli : public test::ScratchDirTest {};

TEST_F(RouterCli, RunEcubeReportsTheHandCountedAapc) {
  const ProcessResult r =
      tool({"run", "--algo", "edelman", "--n", "2", "--route", "ecube", "--json"});
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["mode"], "routed");
  EXPECT_EQ(j["route"], "ecube");
  EXPECT_EQ(j["cycles"], 3);
  EXPECT_EQ(j["words"], 16);
  EXPECT_EQ(j["stalls"], 0);
  EXPECT_EQ(j["max_fifo_per_port"], nlohmann::json({1, 0}));
  EXPECT_EQ(j["latency"]["max"], 3);
  EXPECT_EQ(j["correct"], 16);
  EXPECT_EQ(j["verdict"], "pass");
}

TEST_F(RouterCli, BadRouteAndDepthAreErrors) {
  ProcessResult r = tool({"run", "--algo", "edelman", "--n", "2", "--route", "zigzag"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "hcube: error: --route: algorithm 'edelman' takes no such option (routed mode takes "
            "--route ecube, source or adaptive)\n");
  // spt has a --route of its own (greedy|sync): both meanings work.
  r = tool({"run", "--algo", "spt", "--n", "2", "--route", "sync"});
  EXPECT_EQ(r.status, 0) << r.output;
  r = tool({"run", "--algo", "spt", "--n", "2", "--route", "source"});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("routed mode, route source"), std::string::npos) << r.output;
  r = tool({"run", "--algo", "edelman", "--n", "2", "--route", "ecube", "--fifo-depth", "0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --fifo-depth 0: must be 1..1024\n");
  // The RTL router's FIFOs hold at most 4 packets (refused before any model is built).
  r = tool({"run", "--algo", "edelman", "--n", "2", "--route", "ecube", "--backend", "rtl",
            "--fifo-depth", "8"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "hcube: error: --fifo-depth 8: the RTL router's FIFOs hold 1..4 packets "
            "(hc_pkg::FifoDepthDefault)\n");
}

// run --router: table mode on the RTL model with routers; only the rtl backend has models.
TEST_F(RouterCli, RouterFlagWithoutModelsIsAnError) {
  for (const char* backend : {"table", "tlm"}) {
    const ProcessResult r =
        tool({"run", "--algo", "edelman", "--n", "2", "--backend", backend, "--router"});
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("--router runs the tables on the RTL model with routers: it needs "
                            "--backend rtl"),
              std::string::npos)
        << r.output;
  }
}

// The same tables on the model with routers (the rtl_models fixture's n = 2 one, configuration
// register at reset: table mode) give the table-mode run: Edelman's K/2 = 2 cycles, all correct.
TEST_F(RouterCli, RtlTableModeOnTheRouterModel) {
  for (const bool router : {false, true}) {
    std::vector<std::string> args = {"run", "--algo", "edelman", "--n", "2", "--backend", "rtl"};
    if (router) args.push_back("--router");
    const ProcessResult r = tool(args);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find(router ? "(4 nodes, node-array model with routers)"
                                   : "(4 nodes, node-array model)"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("cycles           2 (start to last done)"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("16 of 16 where the reference model says (0 mismatches)"),
              std::string::npos)
        << r.output;
  }
}

TEST_F(RouterCli, BadMessageFilesAreErrors) {
  const std::string head = "hcube-messages 1\ndim 2\nslots 2\n";
  const std::string not_a_path =
      write("a.hcm", head + "route source\nnode 0 1\n0 3 2 route=0,0\nend\n");
  ProcessResult r = tool({"route", "--messages", not_a_path});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + not_a_path +
                          ":6: node 0: the route does not lead from node 0 to node 3 (it ends "
                          "at node 0)\n");
  const std::string outside = write("b.hcm", head + "route ecube\nnode 0 1\n0 4 2\nend\n");
  r = tool({"route", "--messages", outside});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + outside +
                          ":6: node 0: destination node 4 is outside the 2-cube (nodes 0..3)\n");
}

// A repeated field, a second message into a slot already written and bytes that are not UTF-8
// are refused naming the file and line; the bytes are quoted as \xHH, never copied raw.
TEST_F(RouterCli, MalformedMessageLinesNameFileAndLine) {
  const std::string head = "hcube-messages 1\ndim 2\nslots 2\nroute ecube\n";
  const std::string twice = write("twice.hcm", head + "node 0 1\n0 1 5 at=1 at=2\nend\n");
  ProcessResult r = tool({"route", "--messages", twice});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "hcube: error: " + twice + ":6: the field at= appears twice in '0 1 5 at=1 at=2'\n");
  const std::string same = write("same.hcm", head + "node 0 1\n0 1 0\nnode 2 1\n0 1 0\nend\n");
  r = tool({"route", "--messages", same});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + same +
                          ":8: node 2: node 1 slot 0 is already written by line 6 (one word "
                          "would overwrite the other)\n");
  const std::string bytes = write("bytes.hcm", head + "node 0 1\n0 1 0 \xff\xfe\nend\n");
  r = tool({"route", "--messages", bytes});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + bytes +
                          ":6: unknown field '\\xff\\xfe' (at=C, route=D,... or cont)\n");
}

// A message released at the last cycle a message file allows on the RTL (2^32 - 1) is delivered
// on the table and TLM backends, not cut off by the default cycle limit.
TEST_F(RouterCli, ALateReleaseIsDeliveredOnEveryBackend) {
  const std::string head = "hcube-messages 1\ndim 2\nslots 2\nroute ecube\n";
  const std::string late = write("late.hcm", head + "node 0 1\n1 3 2 at=4294967295\nend\n");
  for (const char* backend : {"table", "tlm"}) {
    const ProcessResult r = tool({"route", "--messages", late, "--backend", backend});
    EXPECT_EQ(r.status, 0) << backend << r.output;
    EXPECT_NE(r.output.find("  cycles 4294967297, words 2, stalls 0, delivered 1 of 1, latency "
                            "max 2\n  verdict PASS"),
              std::string::npos)
        << backend << r.output;
  }
}

// What the RTL router cannot carry, or would take hours to simulate, is refused before the model
// is built, naming the message's file and line.
TEST_F(RouterCli, RoutedHardwareLimitsNameFileAndLine) {
  const std::string head = "hcube-messages 1\ndim 2\nslots 2\nroute source\n";
  const std::string hops = write(
      "hops.hcm",
      head + "node 0 2\n0 1 2 route=0\n1 1 3 route=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\nend\n");
  ProcessResult r = tool({"route", "--messages", hops, "--backend", "rtl"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + hops +
                          ":7: node 0: a source route of 19 hops; the RTL router carries at most "
                          "6 (2n + 2)\n");
  // Releases at 1 and 2^32 - 1: the testbench skips to the first release but then simulates
  // every cycle.
  const std::string apart =
      write("apart.hcm",
            "hcube-messages 1\ndim 2\nslots 2\nroute ecube\nnode 0 2\n0 1 2 at=1\n1 3 2 "
            "at=4294967295\nend\n");
  // Refused before anything is built, under an address-space limit of 200 MB.
  r = runProcess({"/bin/sh", "-c",
                  "ulimit -v 204800 && exec \"$0\" route --messages \"$1\" --backend rtl",
                  HCUBE_TOOL, apart});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + apart +
                          ":7: the routed RTL run would take about 1.2 h, more than the limit of "
                          "1.0 h (the table and TLM backends skip idle cycles)\n");
  r = tool({"route", "--messages", apart, "--backend", "table"});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("delivered 2 of 2"), std::string::npos) << r.output;
}

// Every option of traffic is checked before the first line of the result table.
TEST_F(RouterCli, TrafficBadRatePrintsNothingBeforeTheError) {
  for (const char* rate : {"-0.5", "1.5"}) {
    const ProcessResult r = tool({"traffic", "--pattern", "uniform", "--n", "3", "--rate", rate});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.output, std::string("hcube: error: --rate ") + (rate[0] == '-' ? "-0.5" : "1.5") +
                            "00000: must be in (0, 1]\n");
  }
}

// A single message released at cycle 2^32 - 1: the RTL testbench starts the run at the release,
// so it simulates a few cycles, and reports the cycles the other backends count.
TEST_F(RouterCli, RtlLateReleaseSkipsTheIdleStretch) {
  const std::string late =
      write("late.hcm",
            "hcube-messages 1\ndim 2\nslots 2\nroute ecube\nnode 0 1\n1 3 2 at=4294967295\nend\n");
  const ProcessResult r = tool({"route", "--messages", late, "--backend", "rtl"});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("  cycles 4294967297, words 2, stalls 0, delivered 1 of 1, latency "
                          "max 2\n  verdict PASS"),
            std::string::npos)
      << r.output;
}

// Two packets chase each other around the 2-cube ring with one-entry FIFOs (the ring of
// tests/router_test.cpp with one packet per node, four hops each, back home): the detector
// ends the run, exit 1, naming the blocked nodes and ports.
// Virtual channels (docs/hardware/router.md §13): --vcs reaches the report and the JSON; out of
// range is exit 2; a deadlock names the VCs.
TEST_F(RouterCli, VirtualChannels) {
  ProcessResult r =
      tool({"run", "--algo", "edelman", "--n", "2", "--route", "adaptive", "--vcs", "2", "--json"});
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["vcs"], 2);
  EXPECT_EQ(j["cycles"], 3);
  EXPECT_EQ(j["words"], 16);
  EXPECT_EQ(j["verdict"], "pass");
  r = tool({"run", "--algo", "edelman", "--n", "2", "--route", "adaptive", "--vcs", "2"});
  EXPECT_NE(r.output.find("FIFO depth 4, 2 virtual channels per link (Duato: VC 0 the e-cube "
                          "escape)"),
            std::string::npos)
      << r.output;
  for (const char* v : {"0", "5"}) {
    r = tool({"run", "--algo", "edelman", "--n", "2", "--route", "ecube", "--vcs", v});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.output, std::string("hcube: error: --vcs ") + v + ": must be 1..4\n");
  }
  r = tool({"build-model", "--algo", "edelman", "--n", "2", "--vcs", "2"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --vcs 2 needs --router\n");
  std::string text = "hcube-messages 1\ndim 2\nslots 4\nroute source\n";
  // tests/router_lists.h's ring: every node sends 4 packets 5 hops round the ring.
  const char* route[4] = {"0,1,0,1,0", "1,0,1,0,1", "1,0,1,0,1", "0,1,0,1,0"};
  const int ends[4] = {1, 3, 0, 2};  // where 5 ring hops from x end
  for (int x : {0, 1, 2, 3}) {
    text += "node " + std::to_string(x) + " 4\n";
    for (int l = 0; l < 4; ++l) {
      text += std::to_string(l) + " " + std::to_string(ends[x]) + " " + std::to_string(4 + l) +
              " route=" + route[x] + "\n";
    }
  }
  const std::string ring = write("ring.hcm", text + "end\n");
  r = tool(
      {"route", "--messages", ring, "--fifo-depth", "1", "--vcs", "2", "--deadlock-cycles", "16"});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FIFO depth 1, 2 VCs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DEADLOCK at cycle 19"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("node 0 input port 1 VC 1: packet for node 0 waits for output 0 VC 0 "
                          "(no credit"),
            std::string::npos)
      << r.output;
}

TEST_F(RouterCli, DeadlockIsReportedNotHung) {
  std::string text = "hcube-messages 1\ndim 2\nslots 2\nroute source\n";
  text += "node 0 2\n0 0 2 route=0,1,0,1\n1 0 3 route=0,1,0,1\n";
  text += "node 1 2\n0 1 2 route=1,0,1,0\n1 1 3 route=1,0,1,0\n";
  text += "node 3 2\n0 3 2 route=0,1,0,1\n1 3 3 route=0,1,0,1\n";
  text += "node 2 2\n0 2 2 route=1,0,1,0\n1 2 3 route=1,0,1,0\nend\n";
  const std::string ring = write("ring.hcm", text);
  const ProcessResult r =
      tool({"route", "--messages", ring, "--fifo-depth", "1", "--deadlock-cycles", "8"});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("DEADLOCK at cycle 8"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("node 0 input port 1: packet for node 2 waits for output 0 (no credit"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("verdict FAIL"), std::string::npos) << r.output;
}

// The 2-cube AAPC both ways: the schedule takes K/2 = 2 cycles, e-cube routing 3 (the
// hand-counted run of tests/router_test.cpp). Source routing follows the schedule's own paths
// (docs/hardware/router.md §12, `hcube messages --route source`): in cycle 0 node x sends its
// packet for x^3 over dimension 0 and the one for x^2 over dimension 1; in cycle 1 the packet
// for x^3 goes on over dimension 1 and the one for x^1 (released in cycle 1) over dimension 0.
// No output has two requesters: 2 cycles, no stall.
TEST_F(RouterCli, CompareModesSideBySide) {
  const ProcessResult r = tool(
      {"compare", "--algo", "edelman", "--n", "2", "--modes", "schedule,ecube,source", "--json"});
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["lower_bound"], 2);
  EXPECT_EQ(j["all_pass"], true);
  ASSERT_EQ(j["runs"].size(), 3U);
  EXPECT_EQ(j["runs"][0]["mode"], "schedule");
  EXPECT_EQ(j["runs"][0]["cycles"], 2);
  EXPECT_EQ(j["runs"][1]["route"], "ecube");
  EXPECT_EQ(j["runs"][1]["cycles"], 3);
  EXPECT_EQ(j["runs"][2]["route"], "source");
  EXPECT_EQ(j["runs"][2]["cycles"], 2);
  EXPECT_EQ(j["runs"][2]["stalls"], 0);
  // The 2-cube AAPC by adaptive routing. Node 1 sends its packet for node 2 over dimension 1
  // first (P-cube: set bits before clearing them; e-cube takes dimension 0), every other packet
  // takes the e-cube path. Cycle 0: every queue head leaves; node 1's packet for 2 and node 2's
  // for 1 enter FIFOs 1 and 0 of node 3, node 3's for 0 FIFO 0 of node 2. Cycle 1: at node 3,
  // output 0 is requested by FIFO 1 (for node 2) and Q_0 (node 3's own packet for 2); from
  // P_0 = 0 the FIFO wins: one stall. Cycle 2: the last two packets are delivered: 3 cycles.
  const ProcessResult ad =
      tool({"compare", "--algo", "edelman", "--n", "2", "--modes", "adaptive", "--json"});
  ASSERT_EQ(ad.status, 0) << ad.output;
  const auto ja = nlohmann::json::parse(ad.output);
  EXPECT_EQ(ja["runs"][0]["route"], "adaptive");
  EXPECT_EQ(ja["runs"][0]["cycles"], 3);
  EXPECT_EQ(ja["runs"][0]["stalls"], 1);
  const ProcessResult bad =
      tool({"compare", "--algo", "edelman", "--n", "2", "--modes", "schedule,zigzag"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("route 'zigzag': must be ecube, source or adaptive"), std::string::npos)
      << bad.output;
}

TEST_F(RouterCli, TrafficSweepWritesPlotAndFindsSaturation) {
  const std::string svg = (dir_ / "lat.svg").string();
  const ProcessResult r = tool({"traffic", "--pattern", "transpose", "--n", "4", "--sweep",
                                "0.1:0.9:0.2", "--cycles", "1000", "--plot", svg, "--json"});
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["points"].size(), 5U);
  EXPECT_GT(j["saturation"].get<double>(), 0.0);
  for (const auto& p : j["points"]) {
    EXPECT_LE(p["accepted"].get<double>(), p["bisection_bound"].get<double>() + 0.05);
  }
  std::ifstream in(svg);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("<svg", 0), 0U);
  EXPECT_NE(text.find("<polyline"), std::string::npos);
}

TEST_F(RouterCli, TrafficBadInputIsAnError) {
  ProcessResult r = tool({"traffic", "--pattern", "tornado", "--n", "4"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "hcube: error: --pattern 'tornado': must be uniform, transpose, bit-complement, "
            "bit-reversal, shuffle or hotspot\n");
  r = tool({"traffic", "--n", "4", "--rate", "1.5"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--rate 1.5"), std::string::npos) << r.output;
  r = tool({"traffic", "--n", "4", "--rate", "0.2", "--plot", "x.svg"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --plot needs --sweep\n");
  // On the RTL, the FIFO depth is 1..4 (refused before any model is built).
  r = tool({"traffic", "--n", "4", "--backend", "rtl", "--fifo-depth", "8"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--fifo-depth 8: the RTL router's FIFOs hold 1..4 packets"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace hcube

namespace hcube {
namespace {

// docs/hardware/router.md §7. SPT on the 2-cube (K = 4): nodes 0 and 3 keep their blocks (local
// copies), nodes 1 and 2 swap theirs as one 4-word message each over two hops. Start-up in
// cycles 0-9, the words leave in cycles 10-13 and each is delivered one cycle after it leaves:
// 15 cycles, 2 start-ups.
TEST_F(RouterCli, TauAndPacketInRoutedMode) {
  ProcessResult r = tool({"run", "--algo", "spt", "--n", "2", "--tau", "10", "--packet", "4",
                          "--route", "ecube", "--json"});
  ASSERT_EQ(r.status, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["tau"], 10);
  EXPECT_EQ(j["startups"], 2);
  EXPECT_EQ(j["cycles"], 15);
  EXPECT_EQ(j["stalls"], 0);
  EXPECT_EQ(j["verdict"], "pass");
  // The same by the schedule and by the routers, side by side: the three backends agree.
  r = tool({"compare", "--algo", "spt", "--n", "2", "--tau", "10", "--packet", "4", "--modes",
            "ecube", "--backends", "table,tlm", "--json"});
  ASSERT_EQ(r.status, 0) << r.output;
  j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["disagreements"].size(), 0U);
  EXPECT_EQ(j["runs"][1]["startups"], 2);

  r = tool(
      {"run", "--algo", "spt", "--n", "2", "--tau", "10", "--packet", "0", "--route", "ecube"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --packet 0: a routed message carries at least one word\n");
  r = tool({"run", "--algo", "spt", "--n", "2", "--tau", "5000", "--route", "ecube"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "hcube: error: --tau 5000: routed mode's start-up must be 0..1023 cycles (the RTL "
            "configuration word's field)\n");

  // A message file: two-word messages (cont) and hcube route --tau.
  const std::string good = (dir_ / "two.hcm").string();
  std::ofstream(good) << "hcube-messages 1\ndim 1\nslots 2\nroute ecube\n"
                         "node 0 2\n0 1 2\n1 1 3 cont\nnode 1 2\n0 0 2\n1 0 3 cont\nend\n";
  r = tool({"route", "--messages", good, "--tau", "3", "--json"});
  ASSERT_EQ(r.status, 0) << r.output;
  j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["cycles"], 5);  // start-up 0-2, words in cycles 3 and 4
  EXPECT_EQ(j["startups"], 2);
  const std::string long_message = (dir_ / "long.hcm").string();
  std::ofstream(long_message) << "hcube-messages 1\ndim 1\nslots 2\nroute ecube\n"
                                 "node 0 3\n0 1 2\n1 1 3 cont\n0 1 2 cont\nend\n";
  r = tool({"route", "--messages", long_message});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + long_message +
                          ":8: node 0: a message of 3 words is longer than the 2 data slots\n");
}

}  // namespace
}  // namespace hcube

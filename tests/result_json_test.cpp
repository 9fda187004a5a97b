// The result document (docs/hardware/testbench.md §4): the library's writer and its one reader,
// which the RTL runner's file and the TLM child's pipe go through.
#include "exec/result_json.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "router/routed_result.h"

namespace hcube {
namespace {

/// The error readResultText throws for `text` (empty if none).
std::string errorOf(const std::string& text, const ResultShape& shape = {}) {
  try {
    readResultText(text, "r.json", shape);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

/// A result with every field set, traffic log included.
RunResult fullResult() {
  RunResult r;
  r.backend = "tlm";
  r.cycles = 12;
  r.transfer_cycles = 9;
  r.words = 40;
  r.local_cycles = 2;
  r.mac_cycles = 3;
  r.timeout = true;
  r.errors = {{0, HwError::kLost, 2}, {1, HwError::kConflict, 1}};
  r.memory = {2, 3, {0, 1, 0xdeadbeef, 3, 0xffffffff, 5}};
  r.link_words = {4, 7};
  r.span = 5;
  r.traffic.recorded = true;
  r.traffic.sends = {{1, 0, 0, 0xdeadbeef, 0}, {2, 1, 0, 7, 1}};
  r.traffic.stores = {{1, 0xdeadbeef}};
  r.error_events = {{3, 1, HwError::kConflict}};
  r.wall_seconds = 0.1234567890123;
  return r;
}

void expectSame(const RunResult& a, const RunResult& b) {
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.transfer_cycles, b.transfer_cycles);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(a.local_cycles, b.local_cycles);
  EXPECT_EQ(a.mac_cycles, b.mac_cycles);
  EXPECT_EQ(a.timeout, b.timeout);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.memory.nodes, b.memory.nodes);
  EXPECT_EQ(a.memory.words_per_node, b.memory.words_per_node);
  EXPECT_EQ(a.memory.words, b.memory.words);
  EXPECT_EQ(a.link_words, b.link_words);
  EXPECT_EQ(a.span, b.span);
  EXPECT_EQ(a.traffic, b.traffic);
  EXPECT_EQ(a.error_events, b.error_events);
  EXPECT_EQ(a.wall_seconds, b.wall_seconds);  // exactly: the double round-trips
}

TEST(ResultJson, EveryFieldRoundTrips) {
  const RunResult r = fullResult();
  const std::string text = resultJson(r).dump();
  expectSame(readResultText(text, "r.json", {2, 1, 3}), r);
}

TEST(ResultJson, TheTableExecutorsResultRoundTrips) {
  const BuiltCase c = buildCase({"edelman", 3, 0, 1, false});
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  opt.record_traffic = true;
  const RunResult r =
      executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
  ASSERT_EQ(r.cycles, 4U);
  ASSERT_FALSE(r.traffic.sends.empty());
  std::istringstream in(resultJson(r).dump());
  expectSame(readResult(in, "r.json", {8, 3, c.tables.header.memoryWords()}), r);
}

TEST(ResultJson, TheDocumentUsesTheKeysOfRunJson) {
  const nlohmann::ordered_json j = resultJson(fullResult());
  EXPECT_EQ(j["format"], "hcube-result");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["transfer_cycles"], 9);
  EXPECT_EQ(j["hw_errors"][0],
            (nlohmann::ordered_json{{"node", 0}, {"kind", "lost"}, {"count", 2}}));
  EXPECT_EQ(j["memory"][0], "0000000000000001deadbeef");
  EXPECT_EQ(j["traffic"]["sends"][0], nlohmann::ordered_json::array({1, 0, 0, 0xdeadbeef, 0}));
}

TEST(ResultJson, AMissingFieldIsNamed) {
  nlohmann::ordered_json j = resultJson(fullResult());
  j.erase("transfer_cycles");
  EXPECT_EQ(errorOf(j.dump()), "r.json: missing field 'transfer_cycles'");
  j = resultJson(fullResult());
  j["hw_errors"][1].erase("kind");
  EXPECT_EQ(errorOf(j.dump()), "r.json: missing field 'hw_errors[1].kind'");
  j = resultJson(fullResult());
  j.erase("memory");
  EXPECT_EQ(errorOf(j.dump()), "r.json: missing field 'memory'");
}

TEST(ResultJson, AWrongVersionOrFormatIsRefused) {
  nlohmann::ordered_json j = resultJson(fullResult());
  j["version"] = 2;
  EXPECT_EQ(errorOf(j.dump()), "r.json: unsupported result version 2 (this hcube reads version 1)");
  j.erase("version");
  EXPECT_EQ(errorOf(j.dump()), "r.json: missing field 'version'");
  j = resultJson(fullResult());
  j["format"] = "hcube-image";
  EXPECT_EQ(errorOf(j.dump()), "r.json: not a result document (no \"format\": \"hcube-result\")");
  EXPECT_EQ(errorOf("[1, 2]"), "r.json: not a result document (a JSON object)");
}

TEST(ResultJson, TruncatedOrMalformedInputIsAnErrorNamingTheFile) {
  const std::string text = resultJson(fullResult()).dump();
  for (const size_t keep : {size_t{1}, text.size() / 2, text.size() - 1}) {
    const std::string e = errorOf(text.substr(0, keep));
    EXPECT_EQ(e.rfind("r.json: truncated: the JSON document ends after " + std::to_string(keep) +
                          " bytes",
                      0),
              0U)
        << e;
  }
  EXPECT_EQ(errorOf(""), "r.json: empty: no result document");
  EXPECT_EQ(errorOf("hcube-rtl-result 1\ncycles 4\n").rfind("r.json: not a JSON document: ", 0),
            0U);
}

TEST(ResultJson, WrongValuesAndShapesAreNamed) {
  nlohmann::ordered_json j = resultJson(fullResult());
  j["cycles"] = "many";
  EXPECT_EQ(errorOf(j.dump()), "r.json: field 'cycles' is not a non-negative integer");
  j = resultJson(fullResult());
  j["cycles"] = -1;
  EXPECT_EQ(errorOf(j.dump()), "r.json: field 'cycles' is not a non-negative integer");
  j = resultJson(fullResult());
  EXPECT_EQ(errorOf(j.dump(), {4, 2, 3}), "r.json: field 'nodes' is 2, expected 4");
  j["memory"][1] = "0000";
  EXPECT_EQ(errorOf(j.dump()),
            "r.json: field 'memory[1]' is not 3 words of 8 hex digits (4 characters)");
  j = resultJson(fullResult());
  j["link_words"].push_back(1);
  EXPECT_EQ(errorOf(j.dump()), "r.json: field 'link_words' has 3 entries, expected 2 (nodes x n)");
  j = resultJson(fullResult());
  j["hw_errors"][0]["kind"] = "melted";
  EXPECT_EQ(errorOf(j.dump()), "r.json: field 'hw_errors[0].kind': unknown error kind 'melted'");
  j = resultJson(fullResult());
  j["traffic"]["sends"][0] = {1, 5, 0, 0, 0};
  EXPECT_EQ(errorOf(j.dump()),
            "r.json: field 'traffic.sends[0]' names no channel of the cube or no 32-bit word");
}

/// A routed document of a 1-cube (2 nodes, one message each), as the RTL runner writes it.
nlohmann::ordered_json routedDocument() {
  RunResult r;
  r.backend = "rtl";
  r.cycles = 6;
  r.memory = {2, 2, {0, 1, 2, 3}};
  r.link_words = {1, 1};
  nlohmann::ordered_json j = resultJson(r);
  const nlohmann::ordered_json memory = j["memory"];
  j.erase("memory");
  j["routed"] = {{"fifo_depth", 2},
                 {"vcs", 1},
                 {"messages", 2},
                 {"delivered", 2},
                 {"stalls", 1},
                 {"startups", 0},
                 {"idle_edges", 4},
                 {"max_fifo", {1, 1}},
                 {"latency_histogram", {{2, 1}, {3, 1}}},
                 {"deliveries", {{0, 0, 1}, {1, 0, 2}}},
                 {"deadlock", false},
                 {"blocked", nlohmann::ordered_json::array()},
                 {"router_errors", {{{"node", 1}, {"overflow", 0}, {"lost", 0}, {"conflict", 1}}}}};
  j["memory"] = memory;
  return j;
}

TEST(ResultJson, TheRoutedSectionIsReadInTheGoldenModelsTerms) {
  const std::vector<std::vector<u64>> index = {{0}, {1}};
  RoutedResultShape shape;
  shape.cube = {2, 1, 2};
  shape.delivery_index = &index;
  shape.list_messages = 2;
  std::istringstream in(routedDocument().dump());
  const RoutedRun rr = readRoutedResult(in, "r.json", shape);
  EXPECT_EQ(rr.run.cycles, 6U);
  EXPECT_EQ(rr.stats.stalls, 1U);
  EXPECT_EQ(rr.idle_edges, 4U);
  EXPECT_EQ(rr.stats.max_fifo, (std::vector<u64>{1, 1}));
  EXPECT_EQ(rr.stats.latency_min, 2U);
  EXPECT_EQ(rr.stats.latency_max, 3U);
  EXPECT_EQ(rr.stats.latency_p99, 3U);
  EXPECT_DOUBLE_EQ(rr.stats.latency_mean, 2.5);
  EXPECT_EQ(rr.stats.delivered_at, (std::vector<u64>{1, 2}));
  EXPECT_EQ(rr.stats.errors, (std::vector<RouterNodeErrors>{{1, 0, 0, 1}}));

  nlohmann::ordered_json j = routedDocument();
  j["routed"].erase("stalls");
  try {
    routedRunFromJson(nlohmann::json::parse(j.dump()), "r.json", shape);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "r.json: missing field 'routed.stalls'");
  }
  j = routedDocument();
  j["routed"]["deliveries"][1] = {1, 3, 2};
  try {
    routedRunFromJson(nlohmann::json::parse(j.dump()), "r.json", shape);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "r.json: field 'routed.deliveries[1]' names no message of the list");
  }
}

}  // namespace
}  // namespace hcube

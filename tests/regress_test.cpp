// hcube tests: hcube regress (sim/regress.h) — expectations met and missed, JUnit XML, shards
// that together run every case exactly once, --update, and suite files that are refused with
// the file, the case and what is wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli_fixture.h"
#include "regress.h"

namespace hcube::test {
namespace {

class Regress : public ScratchDirTest {
 protected:
  std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

// Edelman's AAPC on the 3-cube: K/2 = 4 cycles on every backend.
const char* kEdelmanN3 =
    R"({"name": "edelman-n3", "run": ["--algo", "edelman", "--n", "3"], "expect": {"cycles": 4, "transfer_cycles": 4, "mismatches": 0, "hw_errors": 0, "verdict": "pass"}})";

TEST_F(Regress, ExpectationsMetOnTwoBackendsPassWithJUnitOfTwoTestcases) {
  const std::string suite = write(
      "s.json", std::string(R"({"suite": "small", "backends": ["table", "tlm"], "cases": [)") +
                    kEdelmanN3 + "]}");
  const std::string junit = (dir_ / "junit.xml").string();
  const ProcessResult r = tool({"regress", suite, "--junit", junit});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("PASS edelman-n3 [table]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("PASS edelman-n3 [tlm]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("small, shard 1/1: 1 of 1 cases, 2 runs, 2 passed, 0 failed"),
            std::string::npos)
      << r.output;
  const std::string x = read(junit);
  EXPECT_NE(x.find(R"(<testsuite name="small" tests="2" failures="0")"), std::string::npos) << x;
  EXPECT_NE(x.find(R"(<testcase classname="small.edelman-n3" name="table")"), std::string::npos);
  EXPECT_NE(x.find(R"(<testcase classname="small.edelman-n3" name="tlm")"), std::string::npos);
  EXPECT_EQ(x.find("<failure"), std::string::npos) << x;
}

TEST_F(Regress, AWrongExpectationFailsWithAJUnitFailureNamingTheField) {
  const std::string suite = write("s.json", R"({"suite": "wrong", "cases": [
    {"name": "edelman-n3", "run": ["--algo", "edelman", "--n", "3"], "expect": {"cycles": 9, "verdict": "pass"}}]})");
  const std::string junit = (dir_ / "junit.xml").string();
  const ProcessResult r = tool({"regress", suite, "--junit", junit});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL edelman-n3 [table]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cycles: expected 9, got 4"), std::string::npos) << r.output;
  const std::string x = read(junit);
  EXPECT_NE(x.find(R"(tests="1" failures="1")"), std::string::npos) << x;
  EXPECT_NE(x.find(R"(<failure message="cycles: expected 9, got 4" type="expectation">)"),
            std::string::npos)
      << x;
}

TEST_F(Regress, ACaseThatMustBeRefusedPassesOnItsExitStatusAndMessage) {
  const std::string suite = write("s.json", R"({"cases": [
    {"name": "odd-k", "run": ["--algo", "edelman", "--n", "4", "--k", "3"], "expect": {"exit": 2, "message": "--k 3"}},
    {"name": "odd-k-wrong-message", "run": ["--algo", "edelman", "--n", "4", "--k", "3"], "expect": {"exit": 2, "message": "--k 5"}},
    {"name": "runs-but-expected-refused", "run": ["--algo", "edelman", "--n", "2"], "expect": {"exit": 2}}]})");
  const ProcessResult r = tool({"regress", suite, "--json"});
  EXPECT_EQ(r.status, 1) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["suite"], "s");
  EXPECT_EQ(j["runs"], 3);
  EXPECT_EQ(j["passed"], 1);
  EXPECT_EQ(j["failed"], 2);
  ASSERT_EQ(j["results"].size(), 3U);
  EXPECT_EQ(j["results"][0]["status"], "pass");
  EXPECT_EQ(j["results"][1]["failures"][0], "message: the output does not contain \"--k 5\"");
  EXPECT_EQ(j["results"][2]["failures"][0], "exit: expected 2, got 0");
}

TEST_F(Regress, TwoShardsTogetherRunEveryCaseExactlyOnce) {
  std::string cases;
  std::set<std::string> all;
  for (int n = 1; n <= 4; ++n) {
    for (const char* algo : {"edelman", "jh2", "exchange"}) {
      const std::string name = std::string(algo) + "-n" + std::to_string(n);
      all.insert(name);
      cases += std::string(cases.empty() ? "" : ",") + R"({"name": ")" + name +
               R"(", "run": ["--algo", ")" + algo + R"(", "--n", ")" + std::to_string(n) + "\"]}";
    }
  }
  const std::string suite = write("s.json", R"({"cases": [)" + cases + "]}");
  std::set<std::string> seen;
  size_t runs = 0;
  for (const char* shard : {"1/2", "2/2"}) {
    const ProcessResult r = tool({"regress", suite, "--shard", shard, "--json", "--jobs", "2"});
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    EXPECT_EQ(j["shard"], shard);
    EXPECT_GT(j["cases"].get<int>(), 0) << "shard " << shard << " is empty";
    for (const auto& res : j["results"]) {
      EXPECT_TRUE(seen.insert(res["case"].get<std::string>()).second)
          << res["case"] << " ran in two shards";
      ++runs;
    }
  }
  EXPECT_EQ(seen, all);
  EXPECT_EQ(runs, all.size());
  // The choice depends on the name alone.
  for (const std::string& name : all) {
    EXPECT_NE(inShard(name, {1, 2}), inShard(name, {2, 2})) << name;
  }
}

TEST_F(Regress, UpdateWritesWhatTheBackendsMeasuredAndTheSuiteThenPasses) {
  const std::string suite = write("s.json", R"({"backends": ["table", "tlm"], "cases": [
    {"name": "jh4-n3", "run": ["--algo", "jh4", "--n", "3"]},
    {"name": "only-cycles", "run": ["--algo", "exchange", "--n", "3"], "expect": {"cycles": 1}}]})");
  ProcessResult r = tool({"regress", suite, "--update"});
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(read(suite));
  const auto& e = j["cases"][0]["expect"];
  EXPECT_EQ(e["cycles"], 4);
  EXPECT_EQ(e["transfer_cycles"], 4);
  EXPECT_EQ(e["mismatches"], 0);
  EXPECT_EQ(e["verdict"], "pass");
  EXPECT_EQ(e["memory_digest"].get<std::string>().rfind("fnv1a64:", 0), 0U);
  // A case that names its fields keeps only those: the exchange algorithm's n K/2 = 12 cycles.
  EXPECT_EQ(j["cases"][1]["expect"], nlohmann::ordered_json::parse(R"({"cycles": 12})"));
  r = tool({"regress", suite});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("4 runs, 4 passed, 0 failed"), std::string::npos) << r.output;
}

TEST_F(Regress, BadSuiteFilesAreRefusedNamingTheFileTheCaseAndWhatIsWrong) {
  struct Bad {
    const char* text;
    const char* message;
  };
  const Bad bad[] = {
      {"{\"cases\": [\n{\"name\": \"a\",,}]}", "s.json:2: not valid JSON"},
      {R"([1, 2])", "s.json: a suite is a JSON object with \"cases\""},
      {R"({"cases": []})", "s.json: \"cases\" must be a non-empty list"},
      {R"({"tests": [], "cases": [{"name": "a", "run": ["--n", "2"]}]})",
       "s.json: unknown key 'tests'"},
      {R"({"cases": [{"run": ["--algo", "edelman"]}]})",
       "s.json: case 0: \"name\" must be a non-empty string"},
      {R"({"cases": [{"name": "a", "run": ["--n", "2"]}, {"name": "a", "run": ["--n", "3"]}]})",
       "s.json: case 1 'a': a second case of that name"},
      {R"({"cases": [{"name": "a"}]})",
       "s.json: case 0 'a': give either \"run\" (the options of hcube run) or \"tables\""},
      {R"({"cases": [{"name": "a", "run": ["--algo", "edelman", "--backend", "rtl"]}]})",
       "s.json: case 0 'a': \"run\" must not hold --backend"},
      {R"({"cases": [{"name": "a", "run": ["--n", 2]}]})", "s.json: case 0 'a': \"run\" holds 2"},
      {R"({"cases": [{"name": "a", "run": ["--n", "2"], "backends": ["gpu"]}]})",
       "s.json: case 0 'a': backend \"gpu\" is not one of table, tlm, rtl"},
      {R"({"cases": [{"name": "a", "run": ["--n", "2"], "expect": {"cycle": 4}}]})",
       "s.json: case 0 'a': \"expect\" has no field 'cycle'"},
      {R"({"cases": [{"name": "a", "run": ["--n", "2"], "expect": {"cycles": -4}}]})",
       "s.json: case 0 'a': expect.cycles is -4, not a whole number >= 0"},
      {R"({"cases": [{"name": "a", "tables": "missing.hct"}]})",
       "s.json: case 0 'a': no table file"},
      {R"({"cases": [{"name": "a", "run": ["--n", "2"], "colour": "red"}]})",
       "s.json: case 0: unknown key 'colour'"},
  };
  for (const Bad& b : bad) {
    const std::string suite = write("s.json", b.text);
    const ProcessResult r = tool({"regress", suite});
    EXPECT_EQ(r.status, 2) << b.text << "\n" << r.output;
    EXPECT_NE(r.output.find(b.message), std::string::npos) << b.text << "\n" << r.output;
  }
  const std::string good = write("good.json", std::string(R"({"cases": [)") + kEdelmanN3 + "]}");
  for (const char* shard : {"3/2", "0/2", "1", "a/b", "1/0"}) {
    const ProcessResult r = tool({"regress", good, "--shard", shard});
    EXPECT_EQ(r.status, 2) << shard << "\n" << r.output;
    EXPECT_NE(r.output.find(std::string("--shard ") + shard + ": must be k/N"), std::string::npos)
        << r.output;
  }
  ProcessResult r = tool({"regress", good, "-j", "0"});
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--jobs 0: must be 1..256"), std::string::npos) << r.output;
  r = tool({"regress", (dir_ / "absent.json").string()});
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cannot open suite file"), std::string::npos) << r.output;
}

TEST_F(Regress, JUnitTextIsEscapedXml) {
  RegressResult r;
  r.case_name = "a<b>&\"c\"";
  r.backend = "table";
  r.failures = {"message: the output does not contain \"<x>\""};
  r.output = "bad byte \xff and a bell \x07\n";
  const std::string x = junitXml("s&t", {r}, 1.5);
  EXPECT_NE(x.find(R"(classname="s&amp;t.a&lt;b&gt;&amp;&quot;c&quot;")"), std::string::npos) << x;
  EXPECT_NE(x.find(R"(message="message: the output does not contain &quot;&lt;x&gt;&quot;")"),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("bad byte \xEF\xBF\xBD and a bell ?"), std::string::npos) << x;
}

}  // namespace
}  // namespace hcube::test

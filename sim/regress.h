// hcube regress: a suite of cases with their expected results, run on the named backends with
// worker processes, as CI farms run regressions — JUnit XML for the CI's test report, a JSON
// summary for scripts, and --shard k/N so that a job array splits one suite over machines with
// no coordinator (every case lands in exactly one shard, decided by its name alone).
//
// A suite is a JSON file (docs/guide/02-tables.md shows one):
//
//   {"suite": "NAME", "backends": ["table", "tlm", "rtl"],
//    "cases": [
//      {"name": "edelman-n4", "run": ["--algo", "edelman", "--n", "4"],
//       "expect": {"cycles": 8, "memory_digest": "fnv1a64:...", "verdict": "pass"}},
//      {"name": "my-tables", "tables": "my.hct", "backends": ["table"], "expect": {...}},
//      {"name": "odd-k", "run": ["--algo", "edelman", "--n", "4", "--k", "3"],
//       "expect": {"exit": 2, "message": "--k 3"}}]}
//
// Each case runs `hcube run` with its options (or `--tables FILE`, relative to the suite file)
// once per backend, and every backend must meet the same expectation: the executors agree
// exactly, so one expectation serves them all. Expected fields are those of `hcube run --json`
// (kExpectFields), plus `exit` (the exit status, default 0), `message` (text the output must
// contain, for a case that must be refused) and `hw_errors` as the total of the error counters.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hcube {

/// The fields a case may expect, in the order --update writes them.
extern const std::vector<std::string> kExpectFields;

struct RegressCase {
  std::string name;
  std::vector<std::string> run;    ///< the options of `hcube run` (empty for a table file)
  std::string tables;              ///< a .hct or .hex file, resolved against the suite's folder
  std::vector<std::string> backends;
  nlohmann::ordered_json expect;   ///< an object
  size_t index = 0;                ///< its place in the suite's "cases"
};

struct RegressSuite {
  std::string path;
  std::string name;
  std::vector<RegressCase> cases;
  nlohmann::ordered_json doc;  ///< the file as read, for --update
};

/// Reads and checks a suite file; an Error naming the file, the case and what is wrong.
RegressSuite readSuite(const std::string& path);

/// --shard k/N: 1 <= k <= N. {1, 1} runs everything.
struct Shard {
  int k = 1;
  int n = 1;
};
Shard parseShard(const std::string& text);
/// Whether `case_name` belongs to shard k of N: FNV-1a of the name, modulo N, is k - 1.
bool inShard(const std::string& case_name, const Shard& shard);

/// One run of one case on one backend, and what it found.
struct RegressResult {
  std::string case_name;
  std::string backend;
  double seconds = 0;
  int status = -1;                    ///< the exit status of hcube run
  nlohmann::ordered_json report;      ///< its --json report (null when it exited non-zero)
  std::vector<std::string> failures;  ///< "cycles: expected 8, got 9"; empty: passed
  std::string output;                 ///< what it printed, for a failure's details
};

/// Compares a run with a case's expectations (the failures, each naming the field).
std::vector<std::string> compareExpectations(const nlohmann::ordered_json& expect, int status,
                                             const nlohmann::ordered_json& report,
                                             const std::string& output);

struct RegressOptions {
  std::string suite;
  int jobs = 1;
  Shard shard;
  std::string junit;        ///< JUnit XML file, if asked
  bool json = false;        ///< print the JSON summary instead of the text lines
  bool update = false;      ///< rewrite the expectations from this run
  std::string tool;         ///< the hcube executable the workers run (default: this one)
};

/// Runs the suite; 0 if every run met its expectations, 1 if one did not.
int runRegress(const RegressOptions& options);

class Args;
/// hcube regress SUITE [--jobs N] [--shard k/N] [--junit FILE] [--json] [--update].
int cmdRegress(Args& args);

/// The JUnit XML of a suite's results (testsuite = the suite, testcase = case and backend).
std::string junitXml(const std::string& suite, const std::vector<RegressResult>& results,
                     double seconds);

}  // namespace hcube

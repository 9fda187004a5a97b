// hcube regress (sim/regress.h): reading a suite, sharding it, running its cases in worker
// processes and writing the results as text, JUnit XML and JSON.
#include "regress.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "base/error.h"
#include "base/utf8.h"
#include "cli_args.h"
#include "inspect/report.h"
#include "process.h"

namespace hcube {

const std::vector<std::string> kExpectFields = {
    "exit",    "cycles",      "transfer_cycles", "local_cycles",  "words",
    "span",    "lower_bound", "mismatches",      "memory_digest", "hw_errors",
    "timeout", "verdict",     "message"};

namespace {

const std::set<std::string> kBackends = {"table", "tlm", "rtl"};
const std::set<std::string> kCaseKeys = {"name", "run", "tables", "backends", "expect"};

std::string where(const std::string& path, size_t index, const std::string& name) {
  return path + ": case " + std::to_string(index) + (name.empty() ? "" : " '" + name + "'") + ": ";
}

std::vector<std::string> backendList(const nlohmann::ordered_json& j, const std::string& at) {
  if (!j.is_array() || j.empty()) throw Error(at + "\"backends\" must be a non-empty list");
  std::vector<std::string> out;
  for (const auto& b : j) {
    if (!b.is_string() || kBackends.count(b.get<std::string>()) == 0) {
      throw Error(at + "backend " + b.dump() + " is not one of table, tlm, rtl");
    }
    if (std::find(out.begin(), out.end(), b.get<std::string>()) != out.end()) {
      throw Error(at + "backend " + b.dump() + " named twice");
    }
    out.push_back(b.get<std::string>());
  }
  return out;
}

void checkExpect(const nlohmann::ordered_json& e, const std::string& at) {
  if (!e.is_object()) throw Error(at + "\"expect\" must be an object");
  for (const auto& item : e.items()) {
    const std::string& k = item.key();
    if (std::find(kExpectFields.begin(), kExpectFields.end(), k) == kExpectFields.end()) {
      std::string known;
      for (const std::string& f : kExpectFields) known += (known.empty() ? "" : ", ") + f;
      throw Error(at + "\"expect\" has no field '" + k + "' (fields: " + known + ")");
    }
    const auto& v = item.value();
    const bool text = k == "memory_digest" || k == "verdict" || k == "message";
    if (text ? !v.is_string() : (k == "timeout" ? !v.is_boolean() : !v.is_number_unsigned())) {
      throw Error(at + "expect." + k + " is " + v.dump() + ", not " +
                  (text             ? "a string"
                   : k == "timeout" ? "true or false"
                                    : "a whole number >= 0"));
    }
  }
}

u64 fnv1a(const std::string& s) {
  u64 h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    // A byte that does not start a UTF-8 sequence becomes U+FFFD: the file stays valid XML.
    if (const size_t len = utf8SequenceLength(s, i); len != 1) {
      if (len == 0) {
        out += "\xEF\xBF\xBD";
      } else {
        out.append(s, i, len);
        i += len - 1;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 allows no control characters but tab, newline and carriage return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += "?";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string seconds3(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", s);
  return text;
}

/// The --json report in what the tool printed: the first line that is a JSON object.
nlohmann::ordered_json findReport(const std::string& output) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '{') continue;
    try {
      return nlohmann::ordered_json::parse(line);
    } catch (const nlohmann::json::exception&) {
    }
  }
  return nullptr;
}

std::string lastLines(const std::string& output, size_t count) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  std::string out;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) {
    out += lines[i] + "\n";
  }
  return out;
}

/// The suite as --update writes it: a case per block, each of its fields on one line, so that a
/// reviewed change shows in a diff as the lines of the fields that moved.
std::string suiteText(const nlohmann::ordered_json& doc) {
  std::string out = "{\n";
  bool first_key = true;
  for (const auto& item : doc.items()) {
    out += first_key ? "" : ",\n";
    first_key = false;
    out += "  " + nlohmann::ordered_json(item.key()).dump() + ": ";
    if (item.key() != "cases") {
      out += item.value().dump();
      continue;
    }
    out += "[\n";
    for (size_t i = 0; i < item.value().size(); ++i) {
      const auto& c = item.value()[i];
      out += "    {";
      bool first = true;
      for (const auto& f : c.items()) {
        out += first ? "" : ",\n     ";
        first = false;
        out += nlohmann::ordered_json(f.key()).dump() + ": " + f.value().dump();
      }
      out += i + 1 < item.value().size() ? "},\n" : "}\n";
    }
    out += "  ]";
  }
  return out + "\n}\n";
}

std::string selfExecutable() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the hcube executable (/proc/self/exe) to run the cases");
  return p.string();
}

}  // namespace

RegressSuite readSuite(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open suite file " + path);
  RegressSuite s;
  s.path = path;
  try {
    s.doc = nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports the byte; name the line as well.
    std::ifstream again(path);
    std::string text((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>());
    const size_t byte = std::min<size_t>(e.byte, text.size());
    const size_t line =
        1 + static_cast<size_t>(std::count(text.begin(), text.begin() + byte, '\n'));
    throw Error(path + ":" + std::to_string(line) + ": not valid JSON (" + e.what() + ")");
  }
  if (!s.doc.is_object()) throw Error(path + ": a suite is a JSON object with \"cases\"");
  for (const auto& item : s.doc.items()) {
    if (item.key() != "suite" && item.key() != "backends" && item.key() != "cases") {
      throw Error(path + ": unknown key '" + item.key() + "' (keys: suite, backends, cases)");
    }
  }
  s.name = std::filesystem::path(path).stem().string();
  if (s.doc.contains("suite")) {
    if (!s.doc["suite"].is_string() || s.doc["suite"].get<std::string>().empty()) {
      throw Error(path + ": \"suite\" must be a non-empty string");
    }
    s.name = s.doc["suite"].get<std::string>();
  }
  std::vector<std::string> default_backends = {"table"};
  if (s.doc.contains("backends")) default_backends = backendList(s.doc["backends"], path + ": ");
  if (!s.doc.contains("cases") || !s.doc["cases"].is_array() || s.doc["cases"].empty()) {
    throw Error(path + ": \"cases\" must be a non-empty list");
  }
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::set<std::string> names;
  size_t index = 0;
  for (const auto& c : s.doc["cases"]) {
    RegressCase rc;
    rc.index = index++;
    std::string at = where(path, rc.index, "");
    if (!c.is_object()) throw Error(at + "a case is an object with \"name\"");
    for (const auto& item : c.items()) {
      if (kCaseKeys.count(item.key()) == 0) {
        throw Error(at + "unknown key '" + item.key() +
                    "' (keys: name, run, tables, backends, expect)");
      }
    }
    if (!c.contains("name") || !c["name"].is_string() || c["name"].get<std::string>().empty()) {
      throw Error(at + "\"name\" must be a non-empty string");
    }
    rc.name = c["name"].get<std::string>();
    at = where(path, rc.index, rc.name);
    if (!names.insert(rc.name).second) throw Error(at + "a second case of that name");
    if (c.contains("run") == c.contains("tables")) {
      throw Error(at + "give either \"run\" (the options of hcube run) or \"tables\" (a file)");
    }
    if (c.contains("run")) {
      if (!c["run"].is_array() || c["run"].empty()) {
        throw Error(at + "\"run\" must be a non-empty list of words");
      }
      for (const auto& w : c["run"]) {
        if (!w.is_string()) throw Error(at + "\"run\" holds " + w.dump() + ", not a word");
        const std::string word = w.get<std::string>();
        if (word == "--backend" || word == "--json" || word == "--tables") {
          throw Error(at + "\"run\" must not hold " + word +
                      " (the suite gives the backends, the runner asks for --json, a table file "
                      "is a \"tables\" case)");
        }
        rc.run.push_back(word);
      }
    } else {
      if (!c["tables"].is_string() || c["tables"].get<std::string>().empty()) {
        throw Error(at + "\"tables\" must be a file name");
      }
      const std::filesystem::path t = c["tables"].get<std::string>();
      rc.tables = (t.is_absolute() ? t : dir / t).lexically_normal().string();
      if (!std::filesystem::exists(rc.tables)) throw Error(at + "no table file " + rc.tables);
    }
    rc.backends = c.contains("backends") ? backendList(c["backends"], at) : default_backends;
    rc.expect = c.contains("expect") ? c["expect"] : nlohmann::ordered_json::object();
    checkExpect(rc.expect, at);
    s.cases.push_back(std::move(rc));
  }
  return s;
}

Shard parseShard(const std::string& text) {
  Shard s;
  const size_t slash = text.find('/');
  auto whole = [&text](const std::string& part) {
    if (part.empty() || part.size() > 6 ||
        !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      throw Error("--shard " + text + ": must be k/N with whole numbers, 1 <= k <= N");
    }
    return std::stoi(part);
  };
  if (slash == std::string::npos) {
    throw Error("--shard " + text + ": must be k/N with whole numbers, 1 <= k <= N");
  }
  s.k = whole(text.substr(0, slash));
  s.n = whole(text.substr(slash + 1));
  if (s.k < 1 || s.n < 1 || s.k > s.n) {
    throw Error("--shard " + text + ": must be k/N with whole numbers, 1 <= k <= N");
  }
  return s;
}

bool inShard(const std::string& case_name, const Shard& shard) {
  return fnv1a(case_name) % static_cast<u64>(shard.n) == static_cast<u64>(shard.k - 1);
}

std::vector<std::string> compareExpectations(const nlohmann::ordered_json& expect, int status,
                                             const nlohmann::ordered_json& report,
                                             const std::string& output) {
  std::vector<std::string> failures;
  const long long want_exit = expect.contains("exit") ? expect["exit"].get<long long>() : 0;
  if (status != want_exit) {
    failures.push_back("exit: expected " + std::to_string(want_exit) + ", got " +
                       std::to_string(status));
    return failures;
  }
  if (expect.contains("message") &&
      output.find(expect["message"].get<std::string>()) == std::string::npos) {
    failures.push_back("message: the output does not contain \"" +
                       expect["message"].get<std::string>() + "\"");
  }
  if (status != 0) return failures;
  if (report.is_null()) {
    failures.push_back("report: hcube run printed no JSON report");
    return failures;
  }
  for (const auto& item : expect.items()) {
    const std::string& k = item.key();
    if (k == "exit" || k == "message") continue;
    nlohmann::ordered_json got;
    if (k == "hw_errors") {
      u64 total = 0;
      for (const auto& e : report.value("hw_errors", nlohmann::ordered_json::array())) {
        total += e.value("count", u64{0});
      }
      got = total;
    } else if (report.contains(k)) {
      got = report[k];
    }
    if (got != item.value()) {
      failures.push_back(k + ": expected " + item.value().dump() + ", got " +
                         (got.is_null() ? std::string("nothing") : got.dump()));
    }
  }
  return failures;
}

std::string junitXml(const std::string& suite, const std::vector<RegressResult>& results,
                     double seconds) {
  size_t failed = 0;
  for (const RegressResult& r : results) failed += r.failures.empty() ? 0 : 1;
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"" << xmlEscape(suite) << "\" tests=\"" << results.size()
    << "\" failures=\"" << failed << "\" errors=\"0\" time=\"" << seconds3(seconds) << "\">\n";
  x << "  <testsuite name=\"" << xmlEscape(suite) << "\" tests=\"" << results.size()
    << "\" failures=\"" << failed << "\" errors=\"0\" skipped=\"0\" time=\"" << seconds3(seconds)
    << "\">\n";
  for (const RegressResult& r : results) {
    x << "    <testcase classname=\"" << xmlEscape(suite + "." + r.case_name) << "\" name=\""
      << xmlEscape(r.backend) << "\" time=\"" << seconds3(r.seconds) << "\"";
    if (r.failures.empty()) {
      x << "/>\n";
      continue;
    }
    std::string all;
    for (const std::string& f : r.failures) all += (all.empty() ? "" : "; ") + f;
    x << ">\n      <failure message=\"" << xmlEscape(all) << "\" type=\"expectation\">"
      << xmlEscape(lastLines(r.output, 20)) << "</failure>\n    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

int runRegress(const RegressOptions& o) {
  if (o.jobs < 1 || o.jobs > 256) {
    throw Error("--jobs " + std::to_string(o.jobs) + ": must be 1..256");
  }
  RegressSuite suite = readSuite(o.suite);
  // Check the output file before any case runs, so that a bad path costs nothing.
  if (!o.junit.empty()) {
    std::ofstream probe(o.junit, std::ios::app);
    if (!probe) throw Error("--junit " + o.junit + ": cannot write this file");
  }
  const std::string tool = o.tool.empty() ? selfExecutable() : o.tool;

  struct Task {
    const RegressCase* c;
    std::string backend;
  };
  std::vector<Task> tasks;
  size_t cases_in_shard = 0;
  for (const RegressCase& c : suite.cases) {
    if (!inShard(c.name, o.shard)) continue;
    ++cases_in_shard;
    for (const std::string& b : c.backends) tasks.push_back({&c, b});
  }
  std::vector<RegressResult> results(tasks.size());
  std::atomic<size_t> next{0};
  std::mutex print_mutex;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&]() {
    while (true) {
      const size_t i = next.fetch_add(1);
      if (i >= tasks.size()) return;
      const Task& t = tasks[i];
      std::vector<std::string> argv = {tool, "run"};
      if (t.c->tables.empty()) {
        argv.insert(argv.end(), t.c->run.begin(), t.c->run.end());
      } else {
        argv.insert(argv.end(), {"--tables", t.c->tables});
      }
      argv.insert(argv.end(), {"--backend", t.backend, "--json"});
      RegressResult& r = results[i];
      r.case_name = t.c->name;
      r.backend = t.backend;
      const auto t0 = std::chrono::steady_clock::now();
      ProcessResult p;
      try {
        p = runProcess(argv);
      } catch (const Error& e) {
        p.status = -1;
        p.output = e.what();
      }
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      r.status = p.status;
      r.output = p.output;
      r.report = p.status == 0 ? findReport(p.output) : nlohmann::ordered_json(nullptr);
      r.failures = o.update ? std::vector<std::string>{}
                            : compareExpectations(t.c->expect, r.status, r.report, r.output);
      if (!o.json) {
        std::lock_guard<std::mutex> lock(print_mutex);
        std::cout << (r.failures.empty() ? "PASS " : "FAIL ") << r.case_name << " [" << r.backend
                  << "] " << seconds3(r.seconds) << " s";
        for (const std::string& f : r.failures) std::cout << "\n    " << f;
        std::cout << std::endl;
      }
    }
  };
  std::vector<std::thread> workers;
  const int n_workers =
      static_cast<int>(std::min<size_t>(static_cast<size_t>(o.jobs), tasks.size()));
  for (int w = 0; w < n_workers; ++w) workers.emplace_back(worker);
  for (std::thread& w : workers) w.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (o.update) {
    // The expectation of a case is what its first backend measured; every other backend must
    // agree with it, or the case is not updated and counts as failed.
    std::map<std::string, std::vector<RegressResult*>> by_case;
    for (RegressResult& r : results) by_case[r.case_name].push_back(&r);
    for (const RegressCase& c : suite.cases) {
      auto it = by_case.find(c.name);
      if (it == by_case.end()) continue;
      const RegressResult& first = *it->second.front();
      nlohmann::ordered_json e = nlohmann::ordered_json::object();
      const bool filled = !c.expect.empty();
      for (const std::string& f : kExpectFields) {
        if (filled && !c.expect.contains(f)) continue;
        if (f == "message") {
          if (c.expect.contains(f)) e[f] = c.expect[f];
          continue;
        }
        if (f == "exit") {
          if (first.status != 0 || c.expect.contains(f)) e[f] = first.status;
          continue;
        }
        if (first.status != 0) continue;
        if (f == "hw_errors") {
          u64 total = 0;
          for (const auto& x : first.report.value("hw_errors", nlohmann::ordered_json::array())) {
            total += x.value("count", u64{0});
          }
          e[f] = total;
        } else if (first.report.contains(f)) {
          e[f] = first.report[f];
        }
      }
      for (RegressResult* r : it->second) {
        r->failures = compareExpectations(e, r->status, r->report, r->output);
      }
      suite.doc["cases"][c.index]["expect"] = e;
    }
    std::ofstream out(o.suite);
    out << suiteText(suite.doc);
    if (!out) throw Error("cannot write the suite file " + o.suite);
  }

  size_t failed = 0;
  for (const RegressResult& r : results) failed += r.failures.empty() ? 0 : 1;
  if (!o.junit.empty()) {
    std::ofstream out(o.junit);
    out << junitXml(suite.name, results, seconds);
    if (!out) throw Error("--junit " + o.junit + ": cannot write this file");
  }
  const std::string shard = std::to_string(o.shard.k) + "/" + std::to_string(o.shard.n);
  if (o.json) {
    nlohmann::ordered_json j;
    j["suite"] = suite.name;
    j["shard"] = shard;
    j["cases"] = cases_in_shard;
    j["runs"] = results.size();
    j["passed"] = results.size() - failed;
    j["failed"] = failed;
    j["seconds"] = std::round(seconds * 1000) / 1000;
    j["results"] = nlohmann::ordered_json::array();
    for (const RegressResult& r : results) {
      j["results"].push_back({{"case", r.case_name},
                              {"backend", r.backend},
                              {"status", r.failures.empty() ? "pass" : "fail"},
                              {"seconds", std::round(r.seconds * 1000) / 1000},
                              {"failures", r.failures}});
    }
    std::cout << jsonText(j) << "\n";
  } else {
    std::cout << suite.name << ", shard " << shard << ": " << cases_in_shard << " of "
              << suite.cases.size() << " cases, " << results.size() << " runs, "
              << results.size() - failed << " passed, " << failed << " failed, "
              << seconds3(seconds) << " s"
              << (o.update ? " (expectations written to " + o.suite + ")" : "") << "\n";
  }
  return failed == 0 ? 0 : 1;
}

int cmdRegress(Args& args) {
  RegressOptions o;
  o.jobs = static_cast<int>(args.number("--jobs", 1));
  if (auto s = args.get("--shard")) o.shard = parseShard(*s);
  if (auto j = args.get("--junit")) o.junit = *j;
  o.json = args.flag("--json");
  o.update = args.flag("--update");
  if (args.positional().size() != 1) {
    throw Error("regress takes one suite file (hcube regress SUITE.json; hcube regress --help)");
  }
  args.finish(1);
  o.suite = args.positional().front();
  return runRegress(o);
}

}  // namespace hcube

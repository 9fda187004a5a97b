// hcube tests: small helpers shared by the test files.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "spec/reference.h"
#include "tables/verifier.h"

namespace hcube::testing {

#ifdef HCUBE_GOLDEN_DIR

/// Lines of a golden file with comments ('#') and blank lines removed.
inline std::vector<std::string> goldenLines(const std::string& name) {
  std::ifstream in(std::string(HCUBE_GOLDEN_DIR) + "/" + name);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}
#endif  // HCUBE_GOLDEN_DIR

/// w as d binary digits, most significant first, as the papers print addresses.
inline std::string binary(unsigned long long w, int d) {
  std::string s;
  for (int b = d - 1; b >= 0; --b) s += ((w >> b) & 1U) ? '1' : '0';
  return s;
}

/// The message of the Error `f` throws, or "(no error)".
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

/// The catalogue case `algo` on the n-cube: K = k slots (0: the algorithm's default), `lanes`
/// words per port and cycle, one-port or all-port, algorithm parameters by option name.
inline CaseSpec caseSpec(const std::string& algo, int n, u64 k = 0, int lanes = 1,
                         bool one_port = false, std::map<std::string, std::string> params = {}) {
  CaseSpec s;
  s.algo = algo;
  s.n = n;
  s.slots = k;
  s.lanes = lanes;
  s.one_port = one_port;
  s.params = std::move(params);
  return s;
}

/// The catalogue at n as the executor-agreement suites (RTL, TLM) run it: every algorithm with
/// its default parameters (dimperm, which has no default, rotates its 2n address bits by one).
/// Cases the defaults cannot build at this n (the two-dimensional transposes need an even n)
/// are left out and their names and reasons appended to `skipped`.
struct CatalogueCase {
  std::string name;  ///< "<algo> n = <n>"
  BuiltCase built;
};

/// Johnsson & Ho 1988 (TR-623) §3 matrix products (`matmul`, tau = 1, tags), the product forms of
/// §3, each sized to fit the CI models (4 * 2^n memory words, table depth 16, 16,
/// 64, 128, 256, 1024 at n = 1..6): A(.,2,3) and A(.,2,5) on N1 < N2 (one-port), A(.,2,3),
/// A(.,2,4), A(.,2,5) on N1 > N2 (all-port; A(.,2,5) one-port at n = 4, whose all-port scratch
/// does not fit), on square grids A(.,2,2) .. A(.,2,5) with Table 11's SPT transposes and one MPT
/// and one DPT, and A(.,3,1) with N1' != N2' both ways (the fiber in the column and in the row
/// bits). None at n = 1 and no N1 != N2 at n = 2 (their scratch exceeds 8 and 16 words). Names
/// "matmul <method> <grid>[ one-port][ <transpose>] n = <n>".
inline std::vector<std::pair<std::string, CaseSpec>> matmulCatalogueSpecs(int n) {
  std::vector<std::pair<std::string, CaseSpec>> specs;
  const std::string at = " n = " + std::to_string(n);
  auto add = [&](const std::string& method, const std::string& grid, const std::string& shape,
                 bool one_port, const std::string& transpose = "") {
    std::map<std::string, std::string> params = {
        {"method", method}, {"shape", shape}, {"tau", "1"}};
    const bool three = std::count(grid.begin(), grid.end(), 'x') == 2;
    params[three ? "grid3" : "grid"] = grid;
    if (!transpose.empty()) params["transpose"] = transpose;
    specs.push_back({"matmul " + method + " " + grid + (one_port ? " one-port" : "") +
                         (transpose.empty() ? "" : " " + transpose) + at,
                     caseSpec("matmul", n, 0, 1, one_port, params)});
  };
  if (n < 2) return specs;
  if (n % 2 == 0) {
    const std::string g = std::to_string(1 << (n / 2));
    const std::string square = g + "x" + g;
    const std::string shape = g + "x" + g + "x" + g;
    for (const char* m : {"a122", "a123", "a124", "a125"}) add(m, square, shape, false);
    add("a122", square, shape, false, "mpt");
    add("a123", square, shape, false, "dpt");
  }
  if (n < 3) return specs;
  // N1 < N2 and its mirror N1 > N2: 2^floor(n/2) x 2^ceil(n/2), or one more row bit apart when n
  // is even; P = Q = R = the longer side.
  const int lo = n % 2 == 0 ? n / 2 - 1 : n / 2;
  const std::string w1 = std::to_string(1 << lo);
  const std::string w2 = std::to_string(1 << (n - lo));
  const std::string side = w2 + "x" + w2 + "x" + w2;
  for (const char* m : {"a123", "a125"}) add(m, w1 + "x" + w2, side, true);
  add("a123", w2 + "x" + w1, side, false);
  add("a124", w2 + "x" + w1, side, false);
  add("a125", w2 + "x" + w1, side, n == 4);
  // A(.,3,1), N1' != N2': the column fiber and its mirror, the row fiber.
  const std::map<int, std::vector<std::pair<std::string, std::string>>> three = {
      {3, {{"1x4x2", "2x8x8"}, {"4x1x2", "8x8x2"}}},
      {4, {{"2x4x2", "4x16x8"}, {"4x2x2", "8x16x4"}}},
      {5, {{"2x4x4", "8x16x16"}, {"4x2x4", "16x16x8"}}},
      {6, {{"2x8x4", "16x32x32"}, {"8x2x4", "32x32x16"}}}};
  if (three.count(n) != 0) {
    add("a131", three.at(n)[0].first, three.at(n)[0].second, false);
    add("a131", three.at(n)[1].first, three.at(n)[1].second, true);
  }
  return specs;
}

/// Ho & Johnsson 1988 SDPs (`sdp`, a1/a1p/a2/a3 one-port, tau = 2 so the start-up WAITs run too):
/// every implemented --method on its default SDP (real GSHs; a4, a5 (gamma 2), a6, "a1 n-port",
/// "a3 n-port", "a1p n-port", and from n = 3 "a2 n-port" and a2r, all-port), the extended-cube
/// scheme of section 4.5 (n >= 3, data on the (n-1)-subcube, inner a1 one-port and a4 n-port),
/// and A1 on a mixed GSH (0 n 1) with a virtual GSH (n+1 n+2) beside it, from n = 3 A4 and A6 on
/// it too (section 4.4), from n = 5 the n-port A1' on GSHs of unequal orders. Names
/// "sdp <method>[ mixed| n-port uneven] n = <n>".
inline std::vector<std::pair<std::string, CaseSpec>> sdpCatalogueSpecs(int n) {
  std::vector<std::pair<std::string, CaseSpec>> specs;
  const std::string at = " n = " + std::to_string(n);
  for (const char* method : {"a1", "a1p", "a2", "a3"}) {
    specs.push_back({std::string("sdp ") + method + at,
                     caseSpec("sdp", n, 0, 1, true, {{"method", method}, {"tau", "2"}})});
  }
  if (n >= 2) {
    for (const char* method : {"a4", "a5", "a6"}) {
      specs.push_back({std::string("sdp ") + method + at,
                       caseSpec("sdp", n, 0, 1, false, {{"method", method}, {"tau", "2"}})});
    }
    specs.push_back(
        {"sdp a1 n-port" + at, caseSpec("sdp", n, 0, 1, false, {{"method", "a1"}, {"tau", "2"}})});
    specs.push_back(
        {"sdp a3 n-port" + at, caseSpec("sdp", n, 0, 1, false, {{"method", "a3"}, {"tau", "2"}})});
    specs.push_back({"sdp a1p n-port" + at,
                     caseSpec("sdp", n, 0, 1, false, {{"method", "a1p"}, {"tau", "2"}})});
  }
  if (n >= 3) {
    // n-port A2 and its rotated form from n = 3 (at n = 2 their 18-instruction tables would need
    // an RTL model with a deeper table than the CI models have).
    specs.push_back(
        {"sdp a2 n-port" + at, caseSpec("sdp", n, 0, 1, false, {{"method", "a2"}, {"tau", "2"}})});
    specs.push_back(
        {"sdp a2r" + at, caseSpec("sdp", n, 0, 1, false, {{"method", "a2r"}, {"tau", "2"}})});
    // Section 4.5: data on the (n-1)-subcube, expansion, the full-cube method, compression.
    const std::string mp = std::to_string(n - 1);
    specs.push_back(
        {"sdp extended" + at,
         caseSpec("sdp", n, 0, 1, true, {{"method", "extended"}, {"mp", mp}, {"tau", "2"}})});
    specs.push_back(
        {"sdp extended n-port" + at,
         caseSpec("sdp", n, 0, 1, false,
                  {{"method", "extended"}, {"mp", mp}, {"inner", "a4"}, {"tau", "2"}})});
  }
  std::string mixed = n == 1 ? "0,1" : "0," + std::to_string(n) + ",1";
  if (n >= 3) mixed += "/" + std::to_string(n + 1) + "," + std::to_string(n + 2);
  specs.push_back(
      {"sdp a1 mixed" + at,
       caseSpec("sdp", n, 0, 1, true, {{"method", "a1"}, {"tau", "2"}, {"cycles", mixed}})});
  if (n >= 3) {
    // Section 4.4: A4 and A6 on the same non-separable SDP (n-port).
    for (const char* method : {"a4", "a6"}) {
      specs.push_back(
          {std::string("sdp ") + method + " mixed" + at,
           caseSpec("sdp", n, 0, 1, false, {{"method", method}, {"tau", "2"}, {"cycles", mixed}})});
    }
  }
  if (n >= 5) {
    // The n-port A1' on GSHs of unequal orders (its parts not in lockstep).
    const std::string uneven = n == 5 ? "0,1/2,3,4" : "0,1/2,3,4,5";
    specs.push_back(
        {"sdp a1p n-port uneven" + at,
         caseSpec("sdp", n, 0, 1, false, {{"method", "a1p"}, {"tau", "2"}, {"cycles", uneven}})});
  }
  return specs;
}

inline std::vector<CatalogueCase> catalogueCases(int n, std::vector<std::string>* skipped) {
  std::vector<CatalogueCase> cases;
  for (const AlgorithmInfo& algo : algorithmCatalogue()) {
    CaseSpec spec = caseSpec(algo.name, n);
    if (algo.name == "dimperm") {
      std::string delta;
      for (int b = 0; b < 2 * n; ++b) delta += (b ? "," : "") + std::to_string((b + 1) % (2 * n));
      spec.params["delta"] = delta;
    }
    std::vector<std::pair<std::string, CaseSpec>> specs{
        {algo.name + " n = " + std::to_string(n), spec}};
    if (algo.name == "sdp") specs = sdpCatalogueSpecs(n);
    if (algo.name == "matmul") specs = matmulCatalogueSpecs(n);
    for (const auto& [name, s] : specs) {
      try {
        cases.push_back({name, buildCase(s)});
      } catch (const Error& e) {
        if (skipped != nullptr) skipped->push_back(name + ": " + e.what());
      }
    }
  }
  return cases;
}

/// Names "<algo> n = <n>" that catalogueCases must produce for n = first..last: the families that
/// run at every n, and the two-dimensional ones at every even n. A family that silently stops
/// building fails the suites instead of dropping out of them.
inline std::vector<std::string> requiredCatalogueCases(int first, int last) {
  std::vector<std::string> names;
  for (int n = first; n <= last; ++n) {
    for (const char* algo : {"edelman", "jh1", "jh2", "jh3", "jh4", "exchange", "sbnt", "dimperm",
                             "bit-reversal", "one-to-all", "jh4-pipelined", "transpose-1d"}) {
      names.push_back(std::string(algo) + " n = " + std::to_string(n));
    }
    names.push_back("sdp a1 mixed n = " + std::to_string(n));
    if (n >= 2) {
      for (const char* method :
           {"a1", "a1p", "a2", "a3", "a4", "a5", "a6", "a1 n-port", "a3 n-port", "a1p n-port"}) {
        names.push_back(std::string("sdp ") + method + " n = " + std::to_string(n));
      }
    }
    if (n >= 3) {
      names.push_back("sdp a4 mixed n = " + std::to_string(n));
      names.push_back("sdp a6 mixed n = " + std::to_string(n));
      names.push_back("sdp a2 n-port n = " + std::to_string(n));
      names.push_back("sdp a2r n = " + std::to_string(n));
      names.push_back("sdp extended n = " + std::to_string(n));
      names.push_back("sdp extended n-port n = " + std::to_string(n));
    }
    if (n >= 5) names.push_back("sdp a1p n-port uneven n = " + std::to_string(n));
    for (const auto& [name, spec] : matmulCatalogueSpecs(n)) names.push_back(name);
    if (n % 2 != 0) continue;
    for (const char* algo : {"spt", "dpt", "mpt", "transpose-gray", "transpose-assign1"}) {
      names.push_back(std::string(algo) + " n = " + std::to_string(n));
    }
  }
  return names;
}

/// A built case run on the table executor, its final memories checked against the reference
/// model, and the static verifier's report on its tables.
struct CheckedRun {
  RunResult run;
  CheckResult check;
  VerifyReport verify;
};

/// Runs `c` on the table executor from the tagged memory (every element tagged), checks the
/// final memories against the reference model and verifies the tables.
inline CheckedRun runChecked(const BuiltCase& c) {
  CheckedRun r;
  ExecOptions opt;
  opt.tagged_elements = c.perm.elements();
  r.run = executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
  r.check = checkAgainstReference(c.perm, r.run.memory);
  r.verify = verifyTables(c.tables);
  return r;
}

/// `what`, then the run's mismatches, hardware errors and verifier errors (with the first).
inline std::string describeRun(const CheckedRun& r, const std::string& what) {
  std::string s = what + ": " + std::to_string(r.check.mismatches) + " mismatches, " +
                  std::to_string(r.run.errors.size()) + " hw errors, " +
                  std::to_string(r.verify.total_errors) + " verifier errors";
  if (!r.verify.errors.empty()) s += " (" + r.verify.errors.front() + ")";
  return s;
}

/// Expects a clean run of `elements` checked elements: every one where the reference model
/// says, no hardware error, no timeout, and tables the static verifier accepts.
inline void expectCleanRun(const CheckedRun& r, u64 elements, const std::string& what) {
  EXPECT_EQ(r.check.elements, elements) << describeRun(r, what);
  EXPECT_EQ(r.check.correct, elements) << describeRun(r, what);
  EXPECT_EQ(r.check.mismatches, 0U) << describeRun(r, what);
  EXPECT_TRUE(r.run.errors.empty()) << describeRun(r, what);
  EXPECT_FALSE(r.run.timeout) << describeRun(r, what);
  EXPECT_TRUE(r.verify.ok()) << describeRun(r, what);
}

}  // namespace hcube::testing

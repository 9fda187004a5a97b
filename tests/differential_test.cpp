// Seeded randomized differential regression: random cases of the catalogue
// (sw/algorithms/algorithms.h) -- a random algorithm, n, K, width, one- or all-port, and the
// algorithm's own options -- built into tables and run on the table executor (the golden model),
// the SystemC-TLM cube and the Verilated RTL cube. Every final memory word, the cycle, transfer-
// and local-cycle counts, words, span, per-link counts, timeout flag and hardware error counters
// must agree exactly, and the final memory must pass the reference check with no hardware error.
//
// A case the catalogue refuses (buildCase throws Error: an option the algorithm does not take,
// an impossible K, a width or port mode it does not support) is skipped and counted, not a
// failure. Case i of seed s is drawn from its own generator seeded by (s, i), so any case can be
// replayed alone: HCUBE_DIFF_SEED=s HCUBE_DIFF_CASE=i.
//
// The RTL runs only on models the rtl_models fixture has built (tests/build_models.cmake: one
// model per n = 1..6 with one lane, and a three-lane 3-cube), so the regression builds no model
// of its own; a case too large for those (memory, table depth) or with a lane count no model
// has runs on the table executor and the TLM only, and is counted as such.
//
// Environment (all optional): HCUBE_DIFF_CASES (default 1200), HCUBE_DIFF_SEED (default
// 20261124), HCUBE_DIFF_MAX_N (default 5), HCUBE_DIFF_CASE (run only that case).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "spec/reference.h"
#include "test_util.h"
#include "tlm_backend.h"

namespace hcube {
namespace {

constexpr int kShards = 4;

u64 envNumber(const char* name, u64 fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v, &end, 10);
  if (end == v || *end != '\0') {
    ADD_FAILURE() << name << "='" << v << "': not a non-negative integer";
    return fallback;
  }
  return x;
}

struct Settings {
  u64 seed = envNumber("HCUBE_DIFF_SEED", 20261124);
  u64 cases = envNumber("HCUBE_DIFF_CASES", 1200);
  int max_n = static_cast<int>(envNumber("HCUBE_DIFF_MAX_N", 5));
  std::optional<u64> only = std::getenv("HCUBE_DIFF_CASE") != nullptr
                                ? std::optional<u64>(envNumber("HCUBE_DIFF_CASE", 0))
                                : std::nullopt;
  bool verbose = envNumber("HCUBE_DIFF_VERBOSE", 0) != 0;  ///< list every case and refusal
};

using Rng = std::mt19937_64;

template <typename T>
const T& pick(Rng& rng, const std::vector<T>& v) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

int uniform(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

bool chance(Rng& rng, double p) { return std::bernoulli_distribution(p)(rng); }

/// A random permutation of q address bits as a --delta list.
std::string randomDelta(Rng& rng, int q) {
  std::vector<int> d(static_cast<size_t>(q));
  std::iota(d.begin(), d.end(), 0);
  std::shuffle(d.begin(), d.end(), rng);
  std::string s;
  for (int b = 0; b < q; ++b) s += (b ? "," : "") + std::to_string(d[static_cast<size_t>(b)]);
  return s;
}

/// log2 of K rounded down (K = 0: the common default 2^n).
int localBits(const CaseSpec& spec) {
  u64 k = spec.slots == 0 ? u64{1} << spec.n : spec.slots;
  int bits = 0;
  while (k > 1) {
    k >>= 1;
    ++bits;
  }
  return bits;
}

/// The options each algorithm reads (sw/algorithms/*/cases*.cpp, sw/algorithms/algorithms.cpp,
/// sw/algorithms/transpose/layout.cpp) with values the catalogue accepts. Options whose value
/// depends on the case (root, l, delta) are drawn in randomOptions. An algorithm added to the
/// catalogue later runs with its defaults until it is listed here.
const std::map<std::string, std::vector<std::string>>& optionValues() {
  static const std::map<std::string, std::vector<std::string>> kValues = {
      {"tau", {"0", "1", "2", "5"}},
      {"blocking", {"on", "off"}},
      {"alignment", {"explicit", "relative"}},
      {"code", {"binary", "gray"}},
      {"packet", {"1", "2", "3", "4", "8"}},
      {"schedule", {"rounds", "greedy"}},
      {"tree", {"sbt", "sbnt", "rsbt"}},
      {"axes", {"1", "2", "3"}},
      {"d", {"1", "2", "3"}},
      {"align", {"slots", "explicit"}},
      {"bits", {"all", "node"}},
      {"node-perm", {"swappings", "two-swappings", "exchange-twice"}},
      {"shift", {"-3", "-2", "-1", "1", "2", "3"}},
      {"phases", {"theorem1", "swapped"}},
      {"method", {"a1", "a1p", "a2", "a2r", "a3", "a4", "a5", "a6", "best"}},
      {"transpose-method", {"aapc", "exchange", "dimperm"}},
      {"aapc", {"edelman", "jh2", "jh4"}},
      {"shuffle", {"yes", "no"}},
      {"pipelined", {"yes", "no"}},
      {"route", {"greedy", "sync"}},
      {"forward", {"store", "cut"}},
      {"sizing", {"per-class", "uniform"}},
      {"partition",
       {"row-consecutive", "row-cyclic", "2d-consecutive", "2d-cyclic", "2d-consecutive-cyclic",
        "2d-cyclic-consecutive"}},
      {"encoding", {"binary", "gray", "gray-rows", "gray-cols"}},
      {"virtual", {"needed", "square"}},
  };
  return kValues;
}

const std::map<std::string, std::vector<std::string>>& algorithmOptions() {
  static const std::vector<std::string> kLayout = {"partition", "encoding", "to-partition",
                                                   "to-encoding"};
  static const auto withLayout = [](std::vector<std::string> own) {
    own.insert(own.end(), kLayout.begin(), kLayout.end());
    return own;
  };
  static const std::map<std::string, std::vector<std::string>> kOptions = {
      {"edelman", {"alignment", "code"}},
      {"jh1", {"tau", "blocking", "alignment", "code"}},
      {"jh2", {"tau", "blocking", "alignment", "code"}},
      {"jh3", {"tau", "blocking", "alignment", "code"}},
      {"jh4", {"tau", "blocking", "alignment", "code"}},
      {"exchange", {"tau", "packet"}},
      {"sbnt", {"tau", "schedule", "tree"}},
      {"jh4-pipelined", {"axes", "d", "align"}},
      {"jh5", {"axes", "d"}},
      {"bit-reversal", {"bits", "node-perm"}},
      {"k-shuffle", {"bits", "shift", "node-perm"}},
      {"dimperm", {"node-perm"}},
      {"one-to-all", {"root", "tree"}},
      {"all-to-one", {"root", "tree"}},
      {"some-to-all", {"root", "tree", "l", "phases"}},
      {"all-to-some", {"root", "tree", "l", "phases"}},
      {"sdp", {"method", "tau", "packet"}},
      {"transpose-1d", withLayout({"transpose-method", "aapc", "shuffle"})},
      {"storage-convert", withLayout({"transpose-method", "aapc", "shuffle"})},
      {"transpose-gray", withLayout({"pipelined"})},
      {"transpose-gray-separate", withLayout({})},
      {"transpose-assign1", withLayout({})},
      {"transpose-assign2", withLayout({})},
      {"transpose-assign3", withLayout({})},
      {"spt", withLayout({"tau", "packet", "route", "forward", "virtual"})},
      {"dpt", withLayout({"tau", "packet", "route", "forward", "virtual"})},
      {"mpt", withLayout({"tau", "packet", "route", "forward", "sizing", "virtual"})},
  };
  return kOptions;
}

/// Case i of the regression with seed `seed`: drawn from a generator seeded by (seed, i) alone.
CaseSpec randomCase(u64 seed, u64 i, int max_n) {
  std::seed_seq seq{static_cast<u32>(seed), static_cast<u32>(seed >> 32), static_cast<u32>(i),
                    static_cast<u32>(i >> 32)};
  Rng rng(seq);
  const std::vector<AlgorithmInfo>& catalogue = algorithmCatalogue();
  CaseSpec spec;
  spec.algo = pick(rng, catalogue).name;
  spec.n = uniform(rng, 1, max_n);
  // The two-dimensional transposes split the node address evenly between rows and columns.
  const bool even_n = spec.algo == "spt" || spec.algo == "dpt" || spec.algo == "mpt" ||
                      spec.algo.rfind("transpose-assign", 0) == 0 ||
                      spec.algo.rfind("transpose-gray", 0) == 0;
  if (even_n && max_n >= 2) spec.n = 2 * uniform(rng, 1, max_n / 2);
  const int k_kind = uniform(rng, 0, 3);
  if (k_kind == 1) spec.slots = u64{1} << uniform(rng, 0, spec.n + 2);           // a power of two
  if (k_kind == 2) spec.slots = static_cast<u64>(uniform(rng, 1, 4)) << spec.n;  // m * 2^n
  const int w = uniform(rng, 0, 9);
  spec.lanes = w < 7 ? 1 : w < 9 ? 3 : 2;
  spec.one_port = chance(rng, 0.25);
  const u64 nodes = u64{1} << spec.n;
  if (const auto it = algorithmOptions().find(spec.algo); it != algorithmOptions().end()) {
    for (const std::string& option : it->second) {
      if (!chance(rng, 0.35)) continue;
      if (option == "root") {
        spec.params[option] = std::to_string(std::uniform_int_distribution<u64>(0, nodes - 1)(rng));
      } else if (option == "l") {
        spec.params[option] = std::to_string(uniform(rng, 0, spec.n));
      } else if (option == "transpose-method") {
        spec.params["method"] = pick(rng, optionValues().at(option));
      } else if (option == "to-partition" || option == "to-encoding") {
        spec.params[option] = pick(rng, optionValues().at(option.substr(3)));
      } else {
        spec.params[option] = pick(rng, optionValues().at(option));
      }
    }
  }
  // dimperm has no default permutation; sdp takes one half of the time (else its default GSHs).
  if (spec.algo == "dimperm" || (spec.algo == "sdp" && chance(rng, 0.5))) {
    spec.params["delta"] = randomDelta(rng, spec.n + localBits(spec));
  }
  return spec;
}

std::string describeCase(const CaseSpec& spec) {
  std::ostringstream o;
  o << "--algo " << spec.algo << " --n " << spec.n;
  if (spec.slots != 0) o << " --k " << spec.slots;
  o << " --width " << spec.lanes << " --ports " << (spec.one_port ? "one" : "all");
  for (const auto& [name, value] : spec.params) o << " --" << name << " " << value;
  return o.str();
}

/// The first way `run` differs from the table executor's run, or "" when they agree exactly.
std::string firstDifference(const RunResult& run, const RunResult& table) {
  std::ostringstream o;
  const auto field = [&](const char* name, u64 a, u64 b) {
    if (a != b && o.tellp() == 0) o << name << " " << a << " (table " << b << ")";
  };
  field("cycles", run.cycles, table.cycles);
  field("transfer cycles", run.transfer_cycles, table.transfer_cycles);
  field("local cycles", run.local_cycles, table.local_cycles);
  field("words", run.words, table.words);
  field("timeout", run.timeout, table.timeout);
  field("span", run.span, table.span);
  if (o.tellp() != 0) return o.str();
  if (run.errors != table.errors) {
    return "error counters" + testing::errorList(run.errors) + " (table" +
           testing::errorList(table.errors) + ")";
  }
  if (run.link_words != table.link_words) {
    if (run.link_words.size() != table.link_words.size()) return "link count vector size";
    for (size_t i = 0; i < run.link_words.size(); ++i) {
      if (run.link_words[i] != table.link_words[i]) {
        o << "link words of link " << i << " " << run.link_words[i] << " (table "
          << table.link_words[i] << ")";
        return o.str();
      }
    }
  }
  if (run.memory.nodes != table.memory.nodes ||
      run.memory.words_per_node != table.memory.words_per_node ||
      run.memory.words.size() != table.memory.words.size()) {
    return "memory shape";
  }
  for (size_t i = 0; i < run.memory.words.size(); ++i) {
    if (run.memory.words[i] != table.memory.words[i]) {
      o << "memory word node " << i / run.memory.words_per_node << " slot "
        << i % run.memory.words_per_node << " " << run.memory.words[i] << " (table "
        << table.memory.words[i] << ")";
      return o.str();
    }
  }
  return "";
}

/// The RTL models the rtl_models fixture built, found (not built) through the cache: for each
/// dimension and lane count the largest memory and table depth a case may need.
struct RtlEnvelope {
  std::vector<RtlModelConfig> models;

  bool fits(const TableSet& set) const {
    if (set.header.n < 1 || set.header.n > 6) return false;
    const RtlModelConfig need = rtlModelFor(set);
    return std::any_of(models.begin(), models.end(), [&](const RtlModelConfig& m) {
      return m.dim == need.dim && m.lanes == need.lanes && m.num_slots >= need.num_slots &&
             m.table_depth >= need.table_depth;
    });
  }
};

const RtlEnvelope& ciModels() {
  static const RtlEnvelope kEnvelope = [] {
    // tests/build_models.cmake: K = 4 * 2^n, one lane, n = 1..6; three lanes at n = 3 (64 words).
    // Asking for at least that size returns the fixture's model (the smallest cached one).
    RtlEnvelope e;
    RtlOptions opt;
    for (int n = 1; n <= 6; ++n) {
      e.models.push_back(ensureRtlModel({n, u64{4} << n, 1, 16}, opt).config);
    }
    e.models.push_back(ensureRtlModel({3, 64, 3, 16}, opt).config);
    return e;
  }();
  return kEnvelope;
}

struct Tally {
  u64 drawn = 0;
  u64 refused = 0;
  u64 three_way = 0;  ///< table, TLM and RTL
  u64 two_way = 0;    ///< table and TLM (no CI model fits)
  u64 disagreements = 0;
  u64 reference_failures = 0;
  std::map<std::string, u64> ran_by_algo;
  std::map<std::string, u64> refused_by_algo;
};

/// Runs case i; counts it and reports a failure with the seed and case to replay it.
void runCase(const Settings& s, u64 i, Tally& tally) {
  const CaseSpec spec = randomCase(s.seed, i, s.max_n);
  const std::string replay = "HCUBE_DIFF_SEED=" + std::to_string(s.seed) +
                             " HCUBE_DIFF_CASE=" + std::to_string(i) + " (" + describeCase(spec) +
                             ")";
  ++tally.drawn;
  BuiltCase built;
  try {
    built = buildCase(spec);
  } catch (const Error& e) {
    if (s.verbose) std::cout << "refused: " << replay << ": " << e.what() << "\n";
    ++tally.refused;
    ++tally.refused_by_algo[spec.algo];
    return;
  }
  ++tally.ran_by_algo[spec.algo];
  if (s.verbose) std::cout << "run: " << replay << "\n";
  const TableSet& set = built.tables;
  const RunResult table = testing::onTable(set);
  std::vector<std::pair<std::string, RunResult>> others;
  others.emplace_back("tlm", runOnTlm(set, TlmOptions{}));
  if (ciModels().fits(set)) {
    others.emplace_back("rtl", runOnRtl(set, RtlOptions{}));
    ++tally.three_way;
  } else {
    ++tally.two_way;
  }
  bool agree = true;
  for (const auto& [backend, run] : others) {
    EXPECT_EQ(run.backend, backend);
    const std::string diff = firstDifference(run, table);
    if (!diff.empty()) {
      agree = false;
      ADD_FAILURE() << backend << " disagrees with the table executor: " << diff
                    << "\n  replay: " << replay;
    }
  }
  if (!agree) ++tally.disagreements;
  const CheckResult check = checkAgainstReference(built.perm, table.memory);
  if (check.mismatches != 0 || check.correct != check.elements || !table.errors.empty() ||
      table.timeout) {
    ++tally.reference_failures;
    ADD_FAILURE() << "the run is not clean: " << check.mismatches << " of " << check.elements
                  << " elements misplaced"
                  << (check.first.empty()
                          ? ""
                          : " (first: " + describe(check.first.front(), set.header.slots) + ")")
                  << ", hw errors" << testing::errorList(table.errors)
                  << (table.timeout ? ", timeout" : "") << "\n  replay: " << replay;
  }
}

void printTally(const Settings& s, const std::string& what, const Tally& t) {
  std::cout << what << ": seed " << s.seed << ", " << t.drawn << " cases drawn, " << t.refused
            << " refused by the catalogue, " << t.three_way << " run on table/TLM/RTL, "
            << t.two_way << " on table/TLM only (no CI RTL model fits), " << t.disagreements
            << " disagreements, " << t.reference_failures << " reference-check failures\n  ran:";
  for (const auto& [algo, count] : t.ran_by_algo) std::cout << " " << algo << " " << count;
  std::cout << "\n  refused:";
  for (const auto& [algo, count] : t.refused_by_algo) std::cout << " " << algo << " " << count;
  std::cout << "\n";
}

// The comparison itself: every field and the first differing memory word are named.
TEST(DifferentialCompare, FirstDifferenceNamesWhatDiffers) {
  const BuiltCase c = buildCase(testing::caseSpec("edelman", 3));
  const RunResult table = testing::onTable(c.tables);
  RunResult other = table;
  EXPECT_EQ(firstDifference(other, table), "");
  other.memory.at(5, 7) ^= 1U;
  other.memory.at(6, 0) ^= 1U;
  EXPECT_EQ(firstDifference(other, table),
            "memory word node 5 slot 7 " + std::to_string(table.memory.at(5, 7) ^ 1U) + " (table " +
                std::to_string(table.memory.at(5, 7)) + ")");
  other.link_words[9] += 1;
  EXPECT_EQ(firstDifference(other, table),
            "link words of link 9 " + std::to_string(table.link_words[9] + 1) + " (table " +
                std::to_string(table.link_words[9]) + ")");
  other.errors.push_back({2, HwError::kConflict, 1});
  EXPECT_EQ(firstDifference(other, table).rfind("error counters node 2 ", 0), 0U);
  other.span = table.span + 1;
  EXPECT_EQ(firstDifference(other, table), "span " + std::to_string(table.span + 1) + " (table " +
                                               std::to_string(table.span) + ")");
  other.cycles = 99;
  EXPECT_EQ(firstDifference(other, table),
            "cycles 99 (table " + std::to_string(table.cycles) + ")");
}

// A case is a function of (seed, index) alone, so a failure printed with both replays exactly.
TEST(DifferentialCompare, CasesAreReproducibleFromSeedAndIndex) {
  for (u64 i = 0; i < 50; ++i) {
    EXPECT_EQ(describeCase(randomCase(7, i, 5)), describeCase(randomCase(7, i, 5)));
  }
  EXPECT_NE(describeCase(randomCase(7, 0, 5)) + describeCase(randomCase(7, 1, 5)),
            describeCase(randomCase(8, 0, 5)) + describeCase(randomCase(8, 1, 5)));
}

class DifferentialRegression : public ::testing::TestWithParam<int> {};

// Shard j runs the cases i with i mod 4 = j, so CTest spreads them over the cores.
TEST_P(DifferentialRegression, TableTlmAndRtlAgreeOnRandomCases) {
  const Settings s;
  ASSERT_GE(s.max_n, 1);
  ASSERT_LE(s.max_n, 6) << "HCUBE_DIFF_MAX_N: the CI RTL models go up to n = 6";
  Tally tally;
  const u64 shard = static_cast<u64>(GetParam());
  if (s.only) {
    if (*s.only % kShards != shard) GTEST_SKIP() << "case " << *s.only << " is in another shard";
    runCase(s, *s.only, tally);
  } else {
    for (u64 i = shard; i < s.cases; i += kShards) runCase(s, i, tally);
  }
  printTally(s, "shard " + std::to_string(shard), tally);
  EXPECT_EQ(tally.disagreements, 0U);
  EXPECT_EQ(tally.reference_failures, 0U);
  if (!s.only && s.cases >= 40 * kShards) {
    // The regression must not quietly degenerate into refusals or table/TLM-only runs.
    EXPECT_GE(tally.three_way, tally.drawn / 4) << "too few cases reached the RTL";
    EXPECT_GE(tally.ran_by_algo.size(), algorithmCatalogue().size() / 2)
        << "too few algorithms built";
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, DifferentialRegression, ::testing::Range(0, kShards));

}  // namespace
}  // namespace hcube

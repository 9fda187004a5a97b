// Every matrix-transposition algorithm (Johnsson & Ho 1987 §5-6) over every layout pair it
// accepts: one- and two-dimensional partitionings, consecutive / cyclic / mixed assignment,
// binary / Gray / row-Gray / column-Gray encodings, before and after independently, on square and
// non-square matrices. Each accepted case runs on the Verilated RTL cube (the CI models of the
// rtl_models fixture) and on the table executor: identical memories, cycles, local cycles,
// words and links, every element where the reference model says, tables the verifier accepts.
// A layout pair an algorithm cannot do must be refused with an Error that names an option or
// the algorithm; the per-algorithm minimum counts keep a family from silently accepting nothing.
// n = 4 and n = 6 run in CI; the *Long* variants run the sweep on the table executor alone at
// n = 8 and, with a subset of the partitionings and encodings, at n = 10.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "exec/executor.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "test_util.h"

namespace hcube {
namespace {

const std::vector<std::string> kPartitions = {
    "row-consecutive", "row-cyclic", "col-consecutive",       "col-cyclic",
    "2d-consecutive",  "2d-cyclic",  "2d-consecutive-cyclic", "2d-cyclic-consecutive"};
const std::vector<std::string> kEncodings = {"binary", "gray", "gray-rows", "gray-cols"};
// At n = 10 (each case has 2^20 elements) a quarter of the partitionings and half the encodings,
// one of each kind: 1D and 2D, consecutive and cyclic, binary and Gray.
const std::vector<std::string> kSomePartitions = {"row-consecutive", "col-cyclic", "2d-consecutive",
                                                  "2d-cyclic"};
const std::vector<std::string> kSomeEncodings = {"binary", "gray"};

struct Family {
  std::string algo;
  std::map<std::string, std::string> extra;  ///< fixed options (e.g. --method exchange)
  int min_accepted;  ///< layout pairs accepted at n = 4 and 6 (CI matrices), virtual ones included
};

std::vector<Family> families() {
  return {
      {"transpose-1d", {}, 320},      {"transpose-1d", {{"method", "exchange"}}, 320},
      {"storage-convert", {}, 320},   {"spt", {{"packet", "2"}, {"tau", "1"}}, 32},
      {"dpt", {{"packet", "2"}}, 32}, {"mpt", {{"packet", "2"}}, 32},
      {"transpose-gray", {}, 352},    {"transpose-gray-separate", {}, 128},
      {"transpose-assign1", {}, 4},   {"transpose-assign2", {}, 4},
      {"transpose-assign3", {}, 4},
  };
}

std::string describe(const CaseSpec& s) {
  std::string t = s.algo + " --n " + std::to_string(s.n);
  for (const auto& [k, v] : s.params) t += " --" + k + " " + v;
  return t;
}

struct SweepResult {
  std::map<std::string, int> accepted;  ///< per family label
  int refused = 0;
  int distinct = 0;
};

// Runs every layout pair of every family at n; `on_rtl` also runs each distinct table set on the
// RTL and compares. Cases that build the same tables are run once.
SweepResult sweep(int n, const std::vector<std::string>& matrices, bool on_rtl,
                  const std::vector<std::string>& partitions = kPartitions,
                  const std::vector<std::string>& encodings = kEncodings) {
  SweepResult out;
  std::set<std::string> seen;
  for (const Family& f : families()) {
    std::string label = f.algo;
    for (const auto& [k, v] : f.extra) label += " --" + k + " " + v;
    for (const std::string& matrix : matrices) {
      for (const std::string& pb : partitions) {
        for (const std::string& eb : encodings) {
          for (const std::string& pa : partitions) {
            for (const std::string& ea : encodings) {
              CaseSpec spec = testing::caseSpec(f.algo, n);
              spec.params = f.extra;
              spec.params["matrix"] = matrix;
              spec.params["partition"] = pb;
              spec.params["encoding"] = eb;
              spec.params["to-partition"] = pa;
              spec.params["to-encoding"] = ea;
              const std::string what = describe(spec);
              BuiltCase c;
              try {
                c = buildCase(spec);
              } catch (const Error& e) {
                // Refusals name what is wrong: an option, or the algorithm and its condition.
                const std::string msg = e.what();
                EXPECT_TRUE(msg.find("--") != std::string::npos ||
                            msg.find(f.algo) != std::string::npos ||
                            msg.find("SPT, DPT and MPT") != std::string::npos)
                    << what << ": " << msg;
                ++out.refused;
                continue;
              }
              ++out.accepted[label];
              const std::string key = f.algo + "|" + c.tables.header.perm.str() + "|" +
                                      std::to_string(c.tables.cycles()) + "|" +
                                      std::to_string(c.tables.depth()) + "|" + label;
              if (!seen.insert(key).second) continue;
              ++out.distinct;
              SCOPED_TRACE(what);
              const testing::CheckedRun r = testing::runChecked(c);
              testing::expectCleanRun(r, c.perm.participating(), what);
              if (!on_rtl) continue;
              // The case must fit the fixture's model (memory 4 * 2^n words, depth 16 / 128 /
              // 1024 at n = 2 / 4 / 6), or the RTL backend would build a model of its own.
              const size_t depth = n <= 2 ? 16 : n <= 4 ? 128 : 1024;
              const bool fits =
                  c.tables.header.memoryWords() <= (u64{4} << n) && c.tables.depth() <= depth;
              EXPECT_TRUE(fits) << what << ": memory " << c.tables.header.memoryWords()
                                << ", depth " << c.tables.depth();
              if (!fits) continue;
              RtlOptions ro;
              const RunResult rtl = runOnRtl(c.tables, ro);
              testing::expectSameRun("rtl", rtl, r.run);
              EXPECT_EQ(rtl.local_cycles, r.run.local_cycles) << what;
              EXPECT_EQ(checkAgainstReference(c.perm, rtl.memory).mismatches, 0U) << what;
              EXPECT_TRUE(rtl.errors.empty()) << what << testing::errorList(rtl.errors);
            }
          }
        }
      }
    }
  }
  return out;
}

void expectSweep(int n, const std::vector<std::string>& matrices, bool on_rtl,
                 const std::vector<std::string>& partitions = kPartitions,
                 const std::vector<std::string>& encodings = kEncodings) {
  SweepResult s = sweep(n, matrices, on_rtl, partitions, encodings);
  for (const Family& f : families()) {
    std::string label = f.algo;
    for (const auto& [k, v] : f.extra) label += " --" + k + " " + v;
    EXPECT_GE(s.accepted[label], on_rtl ? f.min_accepted : 1) << label << " n = " << n;
    std::cerr << "n = " << n << ", " << label << ": " << s.accepted[label] << " layout pairs\n";
  }
  std::cerr << "n = " << n << ": " << s.distinct << " distinct table sets"
            << (on_rtl ? " on the RTL and the executor, " : " on the executor, ") << s.refused
            << " layout pairs refused\n";
}

TEST(RtlLayouts, FourCubeEveryTransposeOverEveryLayoutPairItAccepts) {
  expectSweep(4, {"16x16", "8x32"}, true);
}

TEST(RtlLayouts, SixCubeEveryTransposeOverEveryLayoutPairItAccepts) {
  expectSweep(6, {"64x64", "32x128"}, true);
}

TEST(RtlLayouts, LongEightCubeEveryLayoutPairOnTheTableExecutor) {
  expectSweep(8, {"256x256", "128x512"}, false);
}

TEST(RtlLayouts, LongTenCubeEveryLayoutPairOnTheTableExecutor) {
  expectSweep(10, {"1024x1024"}, false, kSomePartitions, kSomeEncodings);
}

}  // namespace
}  // namespace hcube

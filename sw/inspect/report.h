// hcube: the report of one run — measured cycles beside the paper's bound, span, link
// utilisation, hardware errors and the verdict against the reference model (docs/architecture.md
// §6) — as human-readable text or one JSON object.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "exec/hw_errors.h"
#include "spec/reference.h"

namespace hcube {

struct RunReport {
  std::string algo;
  PermutationSpec perm = PermutationSpec::aapc(1, 1);
  int lanes = 1;
  bool one_port = false;
  RunResult run;
  CheckResult check;
  u64 lower_bound = 0;
  std::string bound_source;
  std::string trace;  ///< waveform file written, if any
  std::string gtkw;   ///< GTKWave save file written, if any
  u32 mac_units = 1;  ///< U, multiply-add units per node (the tables' header)
  bool mac_overlap =
      false;  ///< MAC overlap mode (the tables' header, docs/hardware/arithmetic.md §3)

  /// Every element where the reference says, no hardware error, no timeout.
  bool passed() const { return check.mismatches == 0 && run.errors.empty() && !run.timeout; }
};

/// Whether the report has an arithmetic part: a matrix multiplication, or a run whose MAC units
/// were busy. Only then do the text and JSON show the MAC cycles.
bool hasArithmetic(const RunReport& r);
/// TR-623 Table 5 (and Table 7, equal when P, Q, R are multiples of the grid): P Q R / N
/// multiply-adds per node, on U units ceil(P Q R / (N U)) cycles; 0 for a run that is no matmul.
u64 table5MacCycles(const RunReport& r);

std::string formatReportText(const RunReport& r);
/// The report of a run of case `c`, before the run: its algorithm, permutation, hardware and
/// bound; the run and its check are the caller's.
RunReport reportFor(const BuiltCase& c);
/// A digest of a cube's final memory (every word of every node, scratch included), the same on
/// every backend when they agree: "fnv1a64:" and 16 hex digits. Regression suites keep it
/// instead of the memory itself.
std::string memoryDigest(const CubeMemory& m);
/// The report as one JSON object, keys in a fixed order (pinned by tests/cli_test.cpp).
nlohmann::ordered_json reportJson(const RunReport& r);
std::string formatReportJson(const RunReport& r);
/// Compact JSON text; bytes that are not UTF-8 are replaced by U+FFFD, so it is always valid.
std::string jsonText(const nlohmann::ordered_json& j);

/// Differences between two runs of the same tables on two backends (cycles, transfer cycles,
/// words, timeout, error counters, link counts, span, memory — the first differing word named);
/// empty if they agree exactly.
std::vector<std::string> runDifferences(const RunResult& a, const RunResult& b);

}  // namespace hcube

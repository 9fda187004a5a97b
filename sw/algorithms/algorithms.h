// hcube: the catalogue of schedule algorithms a user can run, and how a case (algorithm, n, K,
// hardware options, algorithm parameters) becomes a permutation spec, a table set and the
// paper's lower bound. Data flows one way: spec -> schedule -> compile -> tables.
//
// Each algorithm family lives in sw/cases/<family>.cpp and hands its entries to the catalogue
// through one function declared in sw/cases/families.h.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "spec/permutation.h"
#include "tables/resource_limits.h"
#include "tables/table.h"

namespace hcube {

/// A case to build: an algorithm on an n-cube with K elements per node and hardware options.
struct CaseSpec {
  std::string algo;
  int n = 0;
  u64 slots = 0;  ///< K; 0 means the algorithm's default (2^n for an AAPC)
  int lanes = 1;  ///< --width b
  bool one_port = false;
  /// Algorithm parameters by option name without the dashes (--tau 20 -> "tau" = "20").
  std::map<std::string, std::string> params;
  /// The case will be simulated (run, compare, trace, faults), not only written as tables: its
  /// cube memory must fit kMaxSimulatedWords, checked before its tables are built.
  bool will_run = false;
};

struct BuiltCase {
  PermutationSpec perm = PermutationSpec::aapc(1, 1);
  TableSet tables;
  u64 lower_bound = 0;       ///< the paper's bound on transfer cycles for this case
  std::string bound_source;  ///< where the bound comes from
  u64 schedule_span = 0;     ///< the span the abstract schedule has (Def. 2), for the report
  /// The size its family estimated from the parameters before building it (requireBuildable).
  CaseSize size;
};

struct AlgorithmInfo {
  std::string name;     ///< what --algo takes
  std::string summary;  ///< one line
  std::string source;   ///< paper and section
};

struct AlgorithmEntry {
  AlgorithmInfo info;
  BuiltCase (*build)(const CaseSpec& spec);
};

/// Every algorithm the tool can run, in listing order.
const std::vector<AlgorithmInfo>& algorithmCatalogue();

/// Builds the tables of a case; throws Error naming the bad parameter (unknown algorithm,
/// impossible n or K, unsupported hardware option, a parameter the algorithm does not take).
BuiltCase buildCase(const CaseSpec& spec);

/// A case for tables read from a file: their permutation and the bound known for it (K/2 for
/// an all-port AAPC; none otherwise, bound 0).
BuiltCase caseFromTables(TableSet tables);

/// The lower bound on transfer cycles for an all-port AAPC with K elements per node: K / 2
/// (Edelman 1991 Theorem 3.1; Johnsson & Ho 1992 §1).
u64 aapcAllPortBound(u64 slots);

/// Reads an algorithm's parameters from a CaseSpec. Every parameter a builder reads is marked
/// used; finish() throws Error naming any parameter the algorithm did not read, so a misspelt
/// or foreign option is never silently ignored.
class CaseParams {
 public:
  explicit CaseParams(const CaseSpec& spec) : spec_(spec) {}
  std::optional<std::string> text(const std::string& name);
  /// An integer parameter in [lo, hi], or `fallback` when absent.
  long long integer(const std::string& name, long long fallback, long long lo, long long hi);
  void finish() const;

 private:
  const CaseSpec& spec_;
  std::set<std::string> used_;
};

}  // namespace hcube

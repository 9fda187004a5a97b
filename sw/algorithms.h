// hcube: the catalogue of schedule algorithms a user can run, and how a case (algorithm, n, K,
// hardware options) becomes a permutation spec, a table set and the paper's lower bound.
// Data flows one way: spec -> schedule -> compile -> tables.
#pragma once

#include <string>
#include <vector>

#include "permutation.h"
#include "table.h"

namespace hcube {

struct AlgorithmInfo {
  std::string name;     ///< what --algo takes
  std::string summary;  ///< one line
  std::string source;   ///< paper and section
};

/// Every algorithm the tool can run, in listing order.
const std::vector<AlgorithmInfo>& algorithmCatalogue();

/// A case to build: an algorithm on an n-cube with K elements per node and hardware options.
struct CaseSpec {
  std::string algo;
  int n = 0;
  u64 slots = 0;  ///< K; 0 means the algorithm's default (2^n for an AAPC)
  int lanes = 1;
  bool one_port = false;
};

struct BuiltCase {
  PermutationSpec perm = PermutationSpec::aapc(1, 1);
  TableSet tables;
  u64 lower_bound = 0;       ///< the paper's bound on transfer cycles for this case
  std::string bound_source;  ///< where the bound comes from
  u64 schedule_span = 0;     ///< the span the abstract schedule has (Def. 2), for the report
};

/// Builds the tables of a case; throws Error naming the bad parameter (unknown algorithm,
/// impossible n or K, unsupported hardware option).
BuiltCase buildCase(const CaseSpec& spec);

/// A case for tables read from a file: their permutation and the bound known for it (K/2 for
/// an all-port AAPC; none otherwise, bound 0).
BuiltCase caseFromTables(TableSet tables);

/// The lower bound on transfer cycles for an all-port AAPC with K elements per node: K / 2
/// (Edelman 1991 Theorem 3.1; Johnsson & Ho 1992 §1).
u64 aapcAllPortBound(u64 slots);

}  // namespace hcube

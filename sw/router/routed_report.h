// hcube: the report of a routed-mode run (docs/hardware/router.md §6): the run's cycles beside the
// paper's bound, the router statistics, the outcome checks and the verdict against the
// reference model, as text or one JSON object.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "router/router_engine.h"
#include "spec/reference.h"

namespace hcube {

struct RoutedReport {
  std::string algo;  ///< the catalogue case whose permutation was routed
  PermutationSpec perm = PermutationSpec::aapc(1, 1);
  RouteKind route = RouteKind::kEcube;
  u64 lower_bound = 0;
  std::string bound_source;
  RoutedRun result;
  CheckResult check;

  /// Every message delivered where the reference says, no router error, no deadlock or timeout.
  bool passed() const;
};

/// Checks a routed run's receive area (slot K + l holds what the reference puts in slot l).
CheckResult checkRoutedMemory(const PermutationSpec& perm, const CubeMemory& memory);

std::string formatRoutedText(const RoutedReport& r);
nlohmann::ordered_json routedJson(const RoutedReport& r);

}  // namespace hcube

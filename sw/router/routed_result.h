// hcube: the "routed" section of a result document (docs/hardware/testbench.md §4.1), read into
// the golden model's form (router/router_engine.h) on top of the run that exec/result_json.h
// reads. The RTL runner writes it for a routed run (tb/routed_run.cpp).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "exec/result_json.h"
#include "router/router_engine.h"

namespace hcube {

/// What a routed document must describe.
struct RoutedResultShape {
  ResultShape cube;
  int vcs = 1;  ///< virtual channels per link: "max_fifo" has nodes x n x vcs entries
  /// Deliveries were recorded: per node, the list index (over the whole list, node by node) of
  /// the message at each position of that node's message memory, the order the routed image
  /// stores them in. nullptr: the document must have no "deliveries".
  const std::vector<std::vector<u64>>* delivery_index = nullptr;
  u64 list_messages = 0;  ///< with delivery_index: the messages of the list
};

/// Reads the run and its "routed" section. The latency summary is taken from the histogram
/// exactly as the golden model takes it. Throws Error naming `source` and the field that is
/// missing or wrong.
RoutedRun routedRunFromJson(const nlohmann::json& doc, const std::string& source,
                            const RoutedResultShape& shape);
/// parseResultDocument, then routedRunFromJson.
RoutedRun readRoutedResult(std::istream& in, const std::string& source,
                           const RoutedResultShape& shape);

}  // namespace hcube

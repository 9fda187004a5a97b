// hcube inspection: a per-link, per-cycle utilisation heatmap of a run as SVG (hcube run
// --heatmap FILE.svg). Rows are the directed links, grouped by dimension (dimension 0 on top,
// nodes in order inside a dimension); columns are cycles; a cell's shade is the share of the
// link's capacity (lanes words a cycle) its words used. Long runs are bucketed: a column is B
// consecutive cycles and a row G links of one dimension, B and G the smallest powers of two
// that keep the picture within kMaxColumns x kMaxRows cells; the legend states both. Below,
// a bar strip gives each dimension's total words.
//
// Drawn only from the monitor's log (RunResult::traffic, canonical on every backend) and
// integers derived from it, so the same run gives the same bytes on table, TLM and RTL.
#pragma once

#include <string>

#include "exec/hw_errors.h"
#include "tables/table.h"

namespace hcube {

struct HeatmapLimits {
  u64 max_columns = 240;  ///< cycles are bucketed beyond this many columns
  u64 max_rows = 256;     ///< links are grouped beyond this many rows
};

/// The most bytes the monitor's log of a run of `set` can take (every XFER's sending channels
/// of every node, and as many stores), so a caller can refuse a heatmap that would not fit.
u64 trafficLogBytesBound(const TableSet& set);

/// The heatmap of `run` on an n-cube with `lanes` channels per link; `title` names the case.
/// Throws Error if the run did not record its traffic log.
std::string formatHeatmapSvg(const RunResult& run, int n, int lanes, const std::string& title,
                             const HeatmapLimits& limits = {});

}  // namespace hcube

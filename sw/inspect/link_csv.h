// hcube inspection: the per-link word counts of a run as CSV (hcube run --links FILE.csv), one
// row per directed link, the per-link statistics network-simulator users expect. Built only
// from RunResult::link_words and the cycle count, which every backend measures with the same
// monitor (sw/exec/traffic_monitor.h), so the file is the same from table, TLM and RTL runs.
#pragma once

#include <string>

#include "exec/hw_errors.h"

namespace hcube {

/// "node,dimension,neighbour,words,utilisation" then one row per directed link (node-major,
/// dimension 0 first): the words node sent across dimension j to node ^ 2^j, and those words
/// over the link's capacity, cycles * lanes (six decimals; 0 for a run of no cycles).
/// `n` is the cube's dimension, `lanes` the channels per link (--width).
std::string formatLinkCsv(const RunResult& run, int n, int lanes);

}  // namespace hcube

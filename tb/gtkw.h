// hcube testbench: a GTKWave save file for an FST trace of hc_cube, and the translate filter
// files it names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cube_config.h"

namespace hcube::tb {

/// Trace time units per clock cycle: the testbench dumps at 10 * tick (CubeTb::Tick) and the
/// trace's time unit is 1 ns, so a cycle reads as 10 ns.
inline constexpr uint64_t kTraceTimePerCycle = 10;

/// What a save file shows of one run.
struct GtkwRun {
  uint64_t start = 0;  ///< trace time of the clock edge that latches start_i (the run's cycle 0)
  uint64_t done = 0;   ///< trace time at which done_o rises (the run's end)
  /// Data words below this are tags x * K + l (sw/spec/reference.h) and are shown as "(x|l)";
  /// 0: none are (seeded values), or too many for a filter file (kMaxTagWords).
  uint64_t tag_words = 0;
  uint64_t tag_slots = 1;  ///< K of the tags
  bool routed = false;     ///< also show each node's router (docs/hardware/router.md)
};

/// Idle cycles to trace after done: GTKWave honours a save file's start time only when a whole
/// page of trace follows it, and the page it measures may be the full window rather than the
/// wave pane, so the trace runs on for twice the run's cycles (and 16 more) after done.
inline uint64_t GtkwTailCycles(const GtkwRun& run) {
  return 2 * ((run.done - run.start) / kTraceTimePerCycle) + 16;
}

/// The most tags a filter file lists (one line each): a 256 x 256 cube's worth.
inline constexpr uint64_t kMaxTagWords = uint64_t{1} << 16;

/// The filter files written beside a save file `gtkw_path` (stem + suffix): opcode names, the
/// links' {valid, word} as tags, memory words as tags, the router's state and its routing
/// function, in this order.
std::vector<std::string> GtkwFilterPaths(const std::string& gtkw_path);

/// Writes a GTKWave save file that opens `fst_path` on the run: the view starts at run.start
/// and spans to run.done (markers A and B there), so the table load before it is off screen
/// (zoom out to see it). Signals: the cube's ports and counters, then one group per node (the
/// first 16 nodes of a bigger cube) with pc, the opcode by name (a translate filter file), done,
/// one sub-group per port and lane with the word sent and the word received as "(node|slot)"
/// tags ('-' on an idle channel), and a closed group with the node's memory slots. With
/// run.routed each node also has a router group: its state and routing function by name, FIFO
/// occupancy, credits, grants and round-robin pointers. Writes the filter files
/// (GtkwFilterPaths) too. Throws std::runtime_error if a file cannot be written.
void WriteGtkwSave(const std::string& gtkw_path, const std::string& fst_path,
                   const CubeConfig& config, const GtkwRun& run);

}  // namespace hcube::tb

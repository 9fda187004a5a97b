// hcube: the RTL backend — builds (once, cached) the Verilated cube a table set needs and runs
// the table set on it through the testbench runner `hcube-rtl-sim` (docs/hardware.md §6).
//
// A model is built per (dimension, memory words, lanes, table depth), sizes rounded up to
// powers of two so one build serves many cases, in a cache directory keyed also by a hash of
// the RTL and testbench sources, so an edited RTL is rebuilt and nobody edits build files to
// change n.
#pragma once

#include <iosfwd>
#include <string>

#include "hw_errors.h"
#include "reference.h"
#include "table.h"

namespace hcube {

struct RtlModelConfig {
  int dim = 1;
  u64 num_slots = 2;
  int lanes = 1;
  u64 table_depth = 16;
  /// Directory name of this model in the cache.
  std::string key() const;
};

/// The smallest cached model that runs `set`.
RtlModelConfig rtlModelFor(const TableSet& set);

struct RtlOptions {
  std::string cache_dir;  ///< empty: $HCUBE_CACHE, else $XDG_CACHE_HOME/hcube, else ~/.cache/hcube
  std::string trace;      ///< waveform to write (.fst, or .vcd converted with fst2vcd)
  std::string gtkw;       ///< GTKWave save file to write beside the trace
  u64 max_cycles = 0;     ///< 0: the tables' own cycle count plus a margin
  std::ostream* progress = nullptr;  ///< where build and run progress goes (nullptr: silent)
  /// Show the run's progress as a bar (sw/progress.h) on `progress`, which must be a terminal;
  /// otherwise as a line every few seconds.
  bool progress_bar = false;
  bool record_traffic = false;  ///< fill RunResult::traffic (runner option --traffic; sw/inspect/)
  u64 record_word = ~u64{0};    ///< with record_traffic: log only this word (--traffic-word)
  /// Initial memory (nodes x the set's memory words, e.g. seeded values, sw/initial_values.h),
  /// passed to the runner as a file (--memory); nullptr: tags in every data slot.
  const CubeMemory* initial = nullptr;
};

std::string defaultCacheDir();

/// A built model: its runner and the configuration it was built for (which may be larger than
/// the one asked for: any cached model with enough memory and table depth serves).
struct RtlModel {
  std::string runner;
  RtlModelConfig config;
};

/// Builds the model if no suitable one is cached yet.
RtlModel ensureRtlModel(const RtlModelConfig& config, const RtlOptions& options);

/// Runs a table set on the RTL cube (tags in every data slot) and returns what it measured.
RunResult runOnRtl(const TableSet& set, const RtlOptions& options);

/// Parses a runner result file (docs/hardware.md §6); `source` names it in errors.
RunResult parseRtlResult(std::istream& in, const std::string& source, u64 nodes, int dims,
                         u64 words_per_node);

}  // namespace hcube

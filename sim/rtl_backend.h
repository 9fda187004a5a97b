// hcube: the RTL backend — builds (once, cached) the Verilated cube a table set needs and runs
// the table set on it through the testbench runner `hcube-rtl-sim` (docs/hardware/testbench.md §2).
//
// A model is built per (dimension, memory words, lanes, table depth, threads, tracing), sizes
// rounded up to
// powers of two so one build serves many cases, in a cache directory keyed also by a hash of
// the RTL and testbench sources, so an edited RTL is rebuilt and nobody edits build files to
// change n.
#pragma once

#include <iosfwd>
#include <string>

#include "exec/fault.h"
#include "exec/hw_errors.h"
#include "router/router_engine.h"
#include "spec/reference.h"
#include "tables/table.h"

namespace hcube {

struct RtlModelConfig {
  int dim = 1;
  u64 num_slots = 2;
  int lanes = 1;
  u64 table_depth = 16;
  /// Threads of the Verilated model (Verilator --threads): a model of its own, never swapped
  /// for one with another thread count.
  int threads = 1;
  /// Waveform tracing compiled in (only runs with --trace need it; the trace code is about half
  /// of a big cube's generated C++). A traced model also serves untraced runs.
  bool trace = false;
  /// The nodes have routers (HasRouter = 1, docs/hardware/router.md §11): the model of routed runs,
  /// which runs table mode too. Table runs use models without routers, which are faster.
  bool router = false;
  /// The node-array model (tb/node_array.h, docs/hardware/testbench.md §2.1): hc_node and
  /// hc_cube_ctl verilated apart and wired by the testbench, a build that does not grow with the
  /// cube; its threads are the runner's (--threads), so `threads` stays 1. False: the flat model,
  /// hc_cube verilated whole, which traced runs need.
  bool array = false;
  /// Virtual channels per link of the routers (NumVcs, docs/hardware/router.md §13; with `router`
  /// only): a model per V, which serves routed runs with that V alone.
  int vcs = 1;
  /// Directory name of this model in the cache ("-r" for routers, then "-vV" for V > 1 virtual
  /// channels, "-a" for the node-array model, after the tracing flag).
  std::string key() const;
};

/// The most threads a Verilated model may be built with (hcube --threads).
inline constexpr int kRtlMaxThreads = 64;

/// The smallest cached model that runs `set` (single-threaded).
RtlModelConfig rtlModelFor(const TableSet& set);

/// Checks a --threads value (1..kRtlMaxThreads) and returns it.
int requireRtlThreads(long long threads);

struct RtlOptions {
  std::string cache_dir;  ///< empty: $HCUBE_CACHE, else $XDG_CACHE_HOME/hcube, else ~/.cache/hcube
  std::string trace;      ///< waveform to write (.fst, or .vcd converted with fst2vcd)
  std::string gtkw;       ///< GTKWave save file to write beside the trace
  u64 max_cycles = 0;     ///< 0: the tables' own cycle count plus a margin
  /// --threads: the threads that evaluate the node-array model's nodes, or with `flat` the
  /// threads of Verilator's multithreaded model (a model of its own); 1..kRtlMaxThreads.
  int threads = 1;
  /// Run on the flat model (hc_cube verilated whole) even without a trace; traced runs always do.
  bool flat = false;
  std::ostream* progress = nullptr;  ///< where build and run progress goes (nullptr: silent)
  /// Show the run's progress as a bar (sw/exec/progress.h) on `progress`, which must be a terminal;
  /// otherwise as a line every few seconds.
  bool progress_bar = false;
  bool record_traffic = false;  ///< fill RunResult::traffic (runner option --traffic; sw/inspect/)
  u64 record_word = ~u64{0};    ///< with record_traffic: log only this word (--traffic-word)
  /// runOnRtl: run the tables in table mode on the model with routers (the routed runs' model)
  /// instead of the table-mode model.
  bool router_model = false;
  /// With router_model: the virtual channels of that model's routers (docs/hardware/router.md §13),
  /// whose table mode is the same as any other's.
  int router_vcs = 1;
  /// Initial memory (nodes x the set's memory words, e.g. seeded values, sw/spec/initial_values.h),
  /// passed to the runner as a file (--memory); nullptr: tags in every data slot.
  const CubeMemory* initial = nullptr;
  /// A link fault to inject (sw/exec/fault.h; the runner's --fault, docs/hardware/faults.md);
  /// nullptr or a table fault (applied to the tables before they are passed): none.
  const Fault* fault = nullptr;
};

std::string defaultCacheDir();

/// The library's headers the testbench compiles (header-only, standard C++ only but for
/// nlohmann-json in exec/result_format.h), under sw/: part
/// of the sources an RTL model is built from, and installed with them.
inline constexpr const char* kTestbenchLibraryHeaders[] = {
    "exec/traffic_monitor.h", "exec/hw_error_kinds.h", "exec/result_format.h",
    "tables/image_text.h", "base/hex.h"};

/// The directory the RTL models are built from (rtl/, tb/ with tb/model/, the headers above):
/// the one setRtlSourceRoot named, else $HCUBE_DATA_DIR, else <prefix>/share/hcube when the
/// running program is an installed <prefix>/bin/hcube, else the source tree the tool was built
/// from, else the data directory `cmake --install` wrote. Throws Error when none holds them.
std::string rtlSourceRoot();
/// Names the directory of the RTL sources for this process (empty: the search above).
void setRtlSourceRoot(const std::string& dir);

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

/// Reads a runner result file (the result document, docs/hardware/testbench.md §4) of a cube of
/// `nodes` nodes, `dims` dimensions and `words_per_node` memory words; `source` names it in
/// errors.
RunResult parseRtlResult(std::istream& in, const std::string& source, u64 nodes, int dims,
                         u64 words_per_node);

/// Throws Error for a list or option the RTL router cannot run: a bad list, FIFO depth outside
/// 1..4, virtual channels outside 1..4, deadlock limit outside 1..65535, a source route longer
/// than 2n + 2, a release cycle beyond 32 bits.
void checkRtlRouterOptions(const MessageList& list, const RouterOptions& ropt);

/// The model configuration a routed run with `vcs` virtual channels per link needs: memory 2K,
/// table depth >= the longest message list, routers with `vcs` VCs.
RtlModelConfig rtlModelForMessages(const MessageList& list, int vcs = 1);

/// Writes the routed image (docs/hardware/router.md §1, tb/routed_image.h) of `list` for `model`,
/// with a `vcs` line when ropt.vcs > 1 (the runner refuses an image whose V is not the model's).
/// Throws Error if a message does not fit the model's message word (a route longer than 2n + 2,
/// a release beyond 32 bits) or the RTL router's limits (FIFO depth 1..4, deadlock limit
/// 1..65535).
void writeRoutedImageFile(const std::string& path, const MessageList& list,
                          const CubeMemory& initial, const RouterOptions& ropt,
                          const RtlModelConfig& model);

/// Runs `list` from `initial` on the RTL routers (routed mode of hc_node) and returns what the
/// RTL measured, in the golden model's form (sw/router/router_engine.h).
RoutedRun runRoutedOnRtl(const MessageList& list, const CubeMemory& initial,
                         const RouterOptions& ropt, const RtlOptions& options);

}  // namespace hcube

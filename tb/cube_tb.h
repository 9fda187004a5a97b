// hcube testbench: a reusable driver of the Verilated hc_cube (docs/hardware/testbench.md §1, §2).
//
// After the Verilator examples and ZipCPU's TESTB: one VerilatedContext per instance, Tick()
// settles the inputs, makes a rising and a falling edge and dumps the trace; per-cycle checkers
// attach as hooks. Tracing is chosen at run time and is off unless a file name is given.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cube_config.h"
#include "exec/hw_error_kinds.h"  // sw/: the error kinds, described once
#include "image.h"

class VerilatedContext;
class VerilatedFstC;

namespace hcube::tb {

class CubeTop;  // tb/cube_top.h: the flat or the node-array model of hc_cube

/// Names of the error kinds, in counter order (sw/exec/hw_error_kinds.h, docs/hardware/checks.md).
inline constexpr std::array<const char*, hcube::kHwErrorKinds> kErrorKindNames = [] {
  std::array<const char*, hcube::kHwErrorKinds> names{};
  for (size_t k = 0; k < names.size(); ++k) names[k] = hcube::kHwErrorKindTable[k].name;
  return names;
}();
inline constexpr int kNumErrorKinds = hcube::kHwErrorKinds;

/// The error counters of one node, indexed like kErrorKindNames.
using ErrorCounters = std::array<uint16_t, kNumErrorKinds>;

/// Counters of one run as hc_cube reports them.
struct RunResult {
  uint64_t cycles = 0;           ///< cycles_o
  uint64_t transfer_cycles = 0;  ///< xfer_cycles_o
  uint64_t words = 0;            ///< words_o
  uint64_t local_cycles = 0;     ///< local_cycles_o: cycles in which some node ran a PERMUTE
  uint64_t mac_cycles = 0;       ///< mac_cycles_o: cycles in which some node ran a MAC
  bool timed_out = false;        ///< done_o did not rise within the cycle limit
  uint64_t ticks = 0;            ///< clock cycles run after the start pulse
};

/// The traffic of one cycle: every word sent and every arriving word that is stored.
struct CycleTraffic {
  struct Sent {
    int node;  ///< the sender
    int chan;  ///< its output channel (port = chan / Lanes)
    uint32_t word;
  };
  struct Stored {
    int node;  ///< the receiver
    int chan;  ///< its input channel
    uint32_t word;
  };
  std::vector<Sent> sent;
  std::vector<Stored> stored;
};

/// Thrown by RunToDone(..., throw_on_timeout = true) when done_o does not rise in time.
class TimeoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by the constructor when a trace is asked of a model built without tracing
/// (tb/model HC_TRACE=OFF).
class NoTraceError : public std::runtime_error {
 public:
  NoTraceError()
      : std::runtime_error("this model was built without waveform tracing (HC_TRACE=OFF)") {}
};

/// Drives one Verilated hc_cube built with CubeConfig::FromBuild().
class CubeTb {
 public:
  /// A per-cycle checker, called after every Tick().
  using Hook = std::function<void(CubeTb&)>;
  /// Called by RunToDone once per cycle of the run, before its clock edge, with the cycle's
  /// number (0 = the cycle that executes instruction 0).
  using CycleHook = std::function<void(uint64_t cycle)>;
  /// A word sent this cycle by `node` on channel `chan` (port = chan / Lanes).
  using SentFn = std::function<void(int node, int chan, uint32_t word)>;
  /// A word arriving at `node` on channel `chan` that is stored at the end of this cycle.
  using StoredFn = std::function<void(int node, int chan, uint32_t word)>;

  /// trace_path: FST file to write, or "" for no trace (NoTraceError if !CanTrace()).
  /// threads: threads that evaluate the node-array model's nodes (tb/node_array.h); the flat
  /// model has the thread count it was built with.
  explicit CubeTb(const std::string& trace_path = "", int threads = 1);
  ~CubeTb();
  CubeTb(const CubeTb&) = delete;
  CubeTb& operator=(const CubeTb&) = delete;

  /// Whether the model was built with waveform tracing.
  static bool CanTrace();

  const CubeConfig& config() const { return config_; }
  CubeTop& top() { return *top_; }
  /// Clock cycles since construction.
  uint64_t tick_count() const { return ticks_; }

  /// Settle (when tracing), rising edge, falling edge, trace dump, hooks.
  void Tick();
  /// Holds rst_ni low for `cycles` cycles; clears every input.
  void Reset(int cycles = 2);

  /// Loads one table into every node with broadcast writes.
  void LoadTableBroadcast(const std::vector<TableWord>& table);
  /// Loads the table of one node.
  void LoadTable(int node, const std::vector<TableWord>& table);
  /// Loads an image: one broadcast table or one table per node.
  void LoadImage(const Image& image);

  /// Load port regions (docs/hardware/router.md §1): the address's two top bits.
  enum class Region { kTable = 0, kMessages = 1, kRouterHeader = 2 };
  /// Writes words[a] at address a of `region` of node `node` (-1: every node).
  void LoadWords(int node, Region region, const std::vector<TableWord>& words);
  /// Writes words[x][a] at address a of `region` of every node x < words.size() with the wide
  /// load (docs/hardware/router.md §11): one cycle per address, as many as the longest list; a node
  /// whose list is shorter is not written at the addresses beyond it.
  void LoadWordsAll(Region region, const std::vector<std::vector<TableWord>>& words);

  /// Writes slot `slot` of every node through the scan port (words[x] into node x).
  void WriteSlot(int slot, const std::vector<uint32_t>& words);
  /// Reads slot `slot` of every node through the scan port.
  std::vector<uint32_t> ReadSlot(int slot);
  /// Writes tag x*K + l into slot l < K of node x and zero into slots K..M-1.
  void FillTags(int data_slots);
  /// Every node's memory, [node][slot].
  std::vector<std::vector<uint32_t>> ReadMemories();

  /// Pulses start_i for one cycle with one_port_i and mac_overlap_i set as given.
  void Start(bool one_port, bool mac_overlap = false);
  /// Ticks until done_o or max_cycles cycles after the start pulse, calling each_cycle (if
  /// given) in every cycle of the run; then one more edge so that the error counters include
  /// the last cycle's events (docs/hardware/testbench.md §1), calling after_done (if given) before
  /// it with that cycle's number. A timeout is reported in the result, or thrown as TimeoutError if
  /// throw_on_timeout.
  RunResult RunToDone(uint64_t max_cycles, const CycleHook& each_cycle = {},
                      bool throw_on_timeout = false, const CycleHook& after_done = {});
  /// Reports this cycle's traffic: every word sent, and every arriving word that is stored.
  void ForEachWord(const SentFn& sent, const StoredFn& stored);
  /// This cycle's traffic into `out` (cleared first; its capacity is kept, so a caller that
  /// reuses one CycleTraffic allocates nothing per cycle), nodes in order: what ForEachWord
  /// reports, without a call per word.
  void CollectWords(CycleTraffic& out);

  /// Testbench work that touches no model (the traffic monitor's bookkeeping), done beside the
  /// cube's evaluation by a node-array model's worker threads, else at once: `step` does a
  /// bounded piece and returns true when the job is finished (tb/node_array.h RunAside).
  /// WaitAside returns once it is finished; a new job waits for the previous one.
  void RunAside(std::function<bool()> step);
  void WaitAside();

  /// An error event of this cycle: kind `kind` (kErrorKindNames) holds at `node`.
  struct ErrorEvent {
    int node;
    int kind;
  };
  /// This cycle's error events (hc_cube's node_err_event strobes) into `out` (cleared first),
  /// by node, then kind.
  void CollectErrorEvents(std::vector<ErrorEvent>& out);

  /// The error counters of every node, [node].
  std::vector<ErrorCounters> ReadErrorCounters();
  /// err_any_o: bit k set if some node counted an error of kind k.
  uint32_t ErrorSummary();

  /// Drives hc_cube's fault mask inputs (docs/hardware/faults.md): from the cycle that the next
  /// rising edge begins (hc_cube registers them), the word `node` sends on output channel
  /// `chan` (port = chan / Lanes) has the bits of `clear_bits` forced to 0, those of `set_bits`
  /// forced to 1, then those of `xor_bits` inverted, and is removed if `kill`. Called in a
  /// RunToDone cycle hook for cycle c, it applies from cycle c + 1; before Start(), from cycle 0.
  void SetFault(int node, int chan, uint32_t xor_bits, uint32_t clear_bits, uint32_t set_bits,
                bool kill);
  /// Turns the fault mask off, from the cycle the next rising edge begins.
  void ClearFault();

  /// Adds a per-cycle hook (a scoreboard, a monitor).
  void AddHook(Hook hook) { hooks_.push_back(std::move(hook)); }

 private:
  void Dump(uint64_t time);

  CubeConfig config_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<CubeTop> top_;
  std::unique_ptr<VerilatedFstC> trace_;
  uint64_t ticks_ = 0;
  std::vector<Hook> hooks_;
};

}  // namespace hcube::tb

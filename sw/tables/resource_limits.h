// hcube: how large a case this tool will verify or simulate, and the estimates that decide it
// before anything large is allocated. Every reader and backend asks here: the
// verifier, the table executor's caller, the TLM backend and the RTL backend. An estimate that
// exceeds a limit is refused with the estimate, the limit and the header field (file and line,
// when the tables were read from a file) that made it so large.
//
// The constants per node, channel and word are measured, not derived: see limits.cpp for the
// commands and numbers. They are estimates, meant to refuse what would exhaust the machine
// (tens of GB, hours) long before it starts, not to predict a run to the percent.
#pragma once

#include <map>
#include <string>

#include "tables/table.h"

namespace hcube {

/// Largest memory an estimate may reach: 4 GiB (the machine is shared; a verification or
/// simulation above this is refused rather than left to the kernel's OOM killer).
constexpr u64 kMaxEstimatedBytes = u64{4} << 30;
/// Longest time an estimate may reach: one hour.
constexpr double kMaxEstimatedSeconds = 3600;
/// Most faults of one fault campaign (hcube faults --campaign N): each is a faulty run of the case
/// and a record of its outcome, so N is refused above this before any fault is drawn.
constexpr u64 kMaxCampaignFaults = 1'000'000;
/// Cube dimensions the RTL cube supports (1..kRtlMaxDim).
constexpr int kRtlMaxDim = 12;

/// Where the header fields of a table set were read: the file and, per field name ("dim",
/// "slots", "scratch", "lanes", "perm", ...), its line. Empty when the set was built in memory.
struct HeaderOrigin {
  std::string file;
  std::map<std::string, int> lines;
  /// "file:line: " for the field, "file: " if its line is unknown, "" without a file.
  std::string where(const std::string& field) const;
};

/// What a run of one consumer (the verifier, the TLM backend, ...) would need.
struct ResourceEstimate {
  std::string consumer;                  ///< e.g. "verification", "the TLM backend"
  u64 bytes = 0;                         ///< peak memory
  u64 limit_bytes = kMaxEstimatedBytes;  ///< the most this consumer may use
  u64 words = 0;                         ///< words of cube memory (nodes x (slots + scratch))
  std::string words_field;               ///< the field that decides `words`: slots or scratch
  std::string words_detail;  ///< "4 nodes x 4294967300 words (slots 4 + scratch 4294967296)"
  double seconds = 0;        ///< wall time on an idle core of the reference machine
  std::string field;         ///< the header field that dominates the estimate
  std::string detail;        ///< what the bytes are made of, in words
};

/// What building a case's schedule and tables would hold, from the case's parameters alone: each
/// algorithm family (sw/cases/) fills it in and calls requireBuildable before it builds anything,
/// so a case that would exhaust the machine is refused at once, not after gigabytes.
struct CaseSize {
  std::string option;    ///< the option that decides the size, with its value ("--k 4096")
  int n = 1;             ///< cube dimensions
  u64 slots = 0;         ///< K, data slots per node (scratch not counted: a lower bound)
  bool shared = false;   ///< one table for every node (relative addressing), else one per node
  u64 instructions = 0;  ///< an upper bound on the longest table, END included
  u64 channels = 1;      ///< n * lanes, the channel fields of an XFER
};

/// Building the schedule and tables of `s`: their memory (the abstract schedule's moves and the
/// instructions with their channel fields; measured, see limits in resource_limits.cpp).
ResourceEstimate caseBuildEstimate(const CaseSize& s);
/// Throws Error, naming s.option, if `s` needs more slots than a table can address, more memory
/// than kMaxEstimatedBytes to build, or (when `will_run`, the case is to be simulated) more cube
/// memory than kMaxSimulatedWords.
void requireBuildable(const CaseSize& s, bool will_run);

/// The static verifier on `set` (one step per XFER/PERMUTE cycle; a WAIT costs one step).
ResourceEstimate verifierEstimate(const TableSet& set);
/// The C++ table executor on `set` (a stretch in which every node waits is one step).
ResourceEstimate tableExecutorEstimate(const TableSet& set);
/// The SystemC-TLM backend on `set` (one module tree per node; all-wait stretches are one step).
ResourceEstimate tlmEstimate(const TableSet& set);

/// The Verilated RTL cube on `set`: the model's state (every node's table and memory) and the
/// time (it simulates every cycle, waits included).
ResourceEstimate rtlRunEstimate(const TableSet& set);
/// A routed RTL run on a `nodes`-node cube whose messages are released from cycle `first` to
/// cycle `last`: the testbench starts at the first release, then simulates every cycle, the idle
/// ones between releases included (the routers' per-cycle state allows no jump).
ResourceEstimate rtlRoutedRunEstimate(u64 nodes, u64 first, u64 last);
/// Building the Verilated model of an n-cube: Verilator's peak memory (it grows with the node
/// instances it elaborates) and the CPU time of Verilator and the C++ compile.
ResourceEstimate rtlBuildEstimate(int n);
/// This machine's physical memory in bytes (0 if unknown).
u64 physicalMemoryBytes();
/// "about 3.2 s at the measured ... node-cycles per second ...", said before an RTL run.
std::string rtlRunForecast(const TableSet& set);

/// Throws Error if `e` exceeds kMaxSimulatedWords, e.limit_bytes or kMaxEstimatedSeconds,
/// naming the estimate, the limit and (through `origin`, if given) the file and line of `e.field`.
void requireWithinLimits(const ResourceEstimate& e, const HeaderOrigin* origin = nullptr);

/// The limits of one backend ("table", "tlm" or "rtl") on `set`, checked before it allocates
/// anything: requireWithinLimits of its estimate, and for the RTL requireRtlDimension.
void requireBackendLimits(const TableSet& set, const std::string& backend,
                          const HeaderOrigin* origin = nullptr);

/// Throws Error if the RTL cube cannot have dimension `n`, or if building its model would need
/// more memory than `machine_bytes` (default: this machine's physical memory); checked from the
/// case, before any tables are built.
void requireRtlDimension(int n);
void requireRtlDimension(int n, u64 machine_bytes);

/// "3.2 GB", "640 MB", "12 KB".
std::string formatBytes(u64 bytes);
/// "40 s", "3.5 min", "2.1 h".
std::string formatSeconds(double seconds);

}  // namespace hcube

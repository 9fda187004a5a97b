#include "tables/resource_limits.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/error.h"
#include "spec/reference.h"
#include "tables/table_image.h"

namespace hcube {
namespace {

// Measured costs, by `/usr/bin/time -f "%M KB %e s"` on this project's RelWithDebInfo build, on
// a 2-core machine shared with other builds (load average 7..10, so the times are about twice
// an idle machine's; being too high only refuses earlier):
//   verifier:  hcube verify on a table set with an empty schedule (dim N, slots 1): N = 16, 18,
//              20 used 44 MB, 165 MB, 701 MB = 2^N x (32 B per channel + 37 B); edelman n = 8,
//              K = 4096 (2048 steps x 256 nodes x 8 channels) took 0.42 s: 100 ns per
//              node-channel step.
//   executor:  hcube run --no-verify on the same sets: 66 MB, 262 MB, 1119 MB (about 1070 B per
//              node at N = 20); edelman n = 8, K = 4096 took 0.59 s: 150 ns per node-channel
//              cycle.
//   TLM:       hcube run --backend tlm on the empty schedules: N = 10, 12, 14 used 53 MB,
//              223 MB, 1002 MB and 0.86 s, 3.0 s, 12.8 s (50 KB + 1.2 KB per port per node,
//              0.8 ms per node); lanes 4 at N = 12 added 9 MB; edelman n = 8, K = 4096 took
//              0.89 s (about 1 us per node-cycle with traffic).
//   RTL:       hcube run --backend rtl on edelman tables with a WAIT appended: n = 6 with
//              200032 cycles took 2.82 s, n = 3 with 2000004 cycles 3.79 s: about 4 million
//              node-cycles per second (the Verilated cube simulates every cycle).
//              edelman n = 11 (K = 2048, table depth 2048, 310-bit table words): the runner and
//              hcube peaked at 232 MB, of which the model's tables are 168 MB and its memories
//              16 MB; 1.25 x (tables + memories) covers the rest.
//   RTL build: hcube run --algo edelman --n 11 --backend rtl on an empty cache (load 10-12):
//              Verilator peaked at 3.24 GB (1.58 MB per node instance) and the build took
//              817 CPU seconds (Verilator and g++), 1794 s of wall time at that load.
//              With the model built untraced and hc_cube's links as one loop, n = 10
//              (memory and depth 1024) took 168 CPU seconds and peaked at 1.61 GB, load
//              11-20; the per-node CPU below is
//              that measurement (n = 11 not re-measured; the memory estimate is kept, an upper
//              bound at n = 10).
constexpr double kVerifierBytesPerNode = 24;  // the sequencer
constexpr double kVerifierBytesPerChannel = 32;
constexpr double kVerifierBytesPerWord = 4;
constexpr double kVerifierBytesPerSlot = 9;  // copy count and reference word, filled bit
constexpr double kVerifierNsPerChannelStep = 100;
constexpr double kExecutorBytesPerNode = 400;
constexpr double kExecutorBytesPerChannel = 32;
constexpr double kExecutorBytesPerWord = 8;  // initial and final memory
constexpr double kExecutorBytesPerSlot = 5;  // reference word, filled bit
constexpr double kExecutorNsPerChannelCycle = 150;
constexpr double kTlmBytesPerNode = 50e3;
constexpr double kTlmBytesPerChannel = 1.2e3;
constexpr double kTlmBytesPerWord = 8;
constexpr double kTlmNsPerNode = 0.8e6;  // elaboration and teardown
constexpr double kTlmNsPerNodeCycle = 1e3;
constexpr double kRtlNodeCyclesPerSecond = 4e6;
constexpr double kRtlNodeCyclesPerSecondExponent = 0.78;
constexpr double kRtlStateOverhead = 1.25;
constexpr double kRtlBuildBytesPerNode = 1.6e6;
constexpr double kRtlBuildBytesBase = 300e6;
constexpr double kRtlBuildCpuSecondsPerNode = 0.135;
constexpr double kRtlBuildCpuSecondsBase = 30;

// Building a case's schedule and tables, by `/usr/bin/time -f "%M KB"` on hcube tables (the
// peak less the 10 MB of an empty run), per instruction of every table: k-shuffle n = 8, K =
// 4096 (256 node tables of 21063 instructions, 8 channels) 255 B; broadcast-all one-port n = 8,
// m = 64 195 B; jh4-pipelined n = 8, K = 4096 470 B (the moves of its schedule); spt n = 8,
// K = 4096 760 B; matmul cannon n = 2, 512x512x512 (2 channels) 130 B; exchange n = 8, K = 65536
// (one shared table, 8 channels) 320 B. 128 B + 80 B per channel covers them all.
constexpr double kBuildBytesPerInstruction = 128;
constexpr double kBuildBytesPerChannel = 80;
/// Slot fields are 32 bits wide (sw/tables/table.h): a node's memory holds at most 2^32 words.
constexpr u64 kMaxSlotsPerNode = u64{1} << 32;

// The Verilated cube's speed: 4 million node-cycles per second up to 64 nodes, whose state fits
// the caches; beyond, each node-cycle costs more (edelman n = 11 ran 1024 cycles of 2048 nodes in
// 8.0 s, 0.26 million node-cycles per second at load 11: 15 times fewer for 32 times the nodes,
// hence the exponent log 15 / log 32).
double rtlNodeCyclesPerSecond(u64 nodes) {
  const double n = static_cast<double>(std::max<u64>(nodes, 64));
  return kRtlNodeCyclesPerSecond * std::pow(64.0 / n, kRtlNodeCyclesPerSecondExponent);
}

// Cycles a run steps through one by one when WAITs are skipped: one per XFER/PERMUTE and one
// per WAIT, in the longest table.
u64 steps(const TableSet& set) {
  u64 best = 0;
  for (const Table& t : set.tables) {
    u64 s = 0;
    for (const Instruction& i : t) {
      if (i.op == Opcode::kEnd) break;
      ++s;
    }
    best = std::max(best, s);
  }
  return best;
}

// Cycles the table executor and the TLM cube step through: they skip a stretch in which every
// node waits in one step (sw/exec/executor.h), so each stepped cycle executes an instruction that
// is not a WAIT at some node or ends some node's WAIT. That bounds them by the instructions of all
// nodes (one table's for a shared table, whose nodes run in lockstep) and by the cycle count.
double steppedCycles(const TableSet& set) {
  u64 instructions = 0;
  for (const Table& t : set.tables) {
    for (const Instruction& i : t) {
      if (i.op == Opcode::kEnd) break;
      ++instructions;
    }
    if (set.shared) break;
  }
  return static_cast<double>(std::min(set.cycles(), instructions));
}

// The estimate of a consumer with `per_channel` bytes per node-channel, `per_word` per word of
// memory (slots + scratch) and `per_slot` per data slot; the field that decides is the one
// whose term dominates: dim or lanes for per-channel state, scratch or slots for memory.
ResourceEstimate estimate(const std::string& consumer, const TableHeader& h, double per_node,
                          double per_channel, double per_word, double per_slot) {
  const double nodes = static_cast<double>(h.nodes());
  const double channel_bytes = nodes * static_cast<double>(h.channels()) * per_channel;
  const double word_bytes = nodes * (static_cast<double>(h.memoryWords()) * per_word +
                                     static_cast<double>(h.slots) * per_slot);
  const double node_bytes = nodes * per_node;
  ResourceEstimate e;
  e.consumer = consumer;
  const double total = channel_bytes + word_bytes + node_bytes;
  e.bytes = total >= 1.8e19 ? ~u64{0} : static_cast<u64>(total);
  const double words = nodes * static_cast<double>(h.memoryWords());
  e.words = words >= 1.8e19 ? ~u64{0} : static_cast<u64>(words);
  e.words_field = h.scratch > h.slots ? "scratch" : "slots";
  e.words_detail = std::to_string(h.nodes()) + " nodes x " + std::to_string(h.memoryWords()) +
                   " words (slots " + std::to_string(h.slots) + " + scratch " +
                   std::to_string(h.scratch) + ")";
  char text[200];
  std::snprintf(text, sizeof text,
                "2^%d nodes: %s of per-node state, %s of per-channel state (%d channels), %s of "
                "memory (%llu words)",
                h.n, formatBytes(static_cast<u64>(node_bytes)).c_str(),
                formatBytes(static_cast<u64>(channel_bytes)).c_str(),
                static_cast<int>(h.channels()), formatBytes(static_cast<u64>(word_bytes)).c_str(),
                static_cast<unsigned long long>(h.memoryWords()));
  e.detail = text;
  if (word_bytes > channel_bytes && word_bytes > node_bytes) {
    e.field = h.scratch > h.slots ? "scratch" : "slots";
  } else {
    e.field = h.lanes > h.n ? "lanes" : "dim";
  }
  return e;
}

}  // namespace

std::string HeaderOrigin::where(const std::string& field) const {
  if (file.empty()) return "";
  const auto it = lines.find(field);
  if (it == lines.end()) return file + ": ";
  return file + ":" + std::to_string(it->second) + ": ";
}

ResourceEstimate caseBuildEstimate(const CaseSize& s) {
  ResourceEstimate e;
  e.consumer = "building the tables";
  const double tables = s.shared ? 1.0 : std::exp2(s.n);
  const double instructions = tables * static_cast<double>(s.instructions);
  const double total = instructions * (kBuildBytesPerInstruction +
                                       kBuildBytesPerChannel * static_cast<double>(s.channels));
  e.bytes = total >= 1.8e19 ? ~u64{0} : static_cast<u64>(total);
  const double words = std::exp2(s.n) * static_cast<double>(s.slots);
  e.words = words >= 1.8e19 ? ~u64{0} : static_cast<u64>(words);
  e.words_field = s.option;
  e.words_detail = std::to_string(u64{1} << s.n) + " nodes x " + std::to_string(s.slots) + " words";
  e.field = s.option;
  char text[160];
  std::snprintf(
      text, sizeof text, "%s of up to %llu instructions of %llu channels",
      s.shared ? "1 shared table" : (std::to_string(u64{1} << s.n) + " node tables").c_str(),
      static_cast<unsigned long long>(s.instructions), static_cast<unsigned long long>(s.channels));
  e.detail = text;
  return e;
}

void requireBuildable(const CaseSize& s, bool will_run) {
  const std::string where = s.option.empty() ? "" : s.option + ": ";
  if (s.slots > kMaxSlotsPerNode) {
    throw Error(where + "K = " + std::to_string(s.slots) +
                " words per node is more than the 2^32 slots a table can address");
  }
  const ResourceEstimate e = caseBuildEstimate(s);
  if (will_run && e.words > kMaxSimulatedWords) {
    throw Error(where + e.words_detail + " is more than the " + std::to_string(kMaxSimulatedWords) +
                " words this tool simulates (tables can still be generated)");
  }
  if (e.bytes > e.limit_bytes) {
    throw Error(where + e.consumer + " would need about " + formatBytes(e.bytes) + " (" + e.detail +
                "), more than the limit of " + formatBytes(e.limit_bytes));
  }
}

ResourceEstimate verifierEstimate(const TableSet& set) {
  const TableHeader& h = set.header;
  ResourceEstimate e = estimate("verification", h, kVerifierBytesPerNode, kVerifierBytesPerChannel,
                                kVerifierBytesPerWord, kVerifierBytesPerSlot);
  e.seconds = static_cast<double>(steps(set)) * static_cast<double>(h.nodes()) *
              static_cast<double>(h.channels()) * kVerifierNsPerChannelStep * 1e-9;
  return e;
}

ResourceEstimate tableExecutorEstimate(const TableSet& set) {
  const TableHeader& h = set.header;
  ResourceEstimate e =
      estimate("the table executor", h, kExecutorBytesPerNode, kExecutorBytesPerChannel,
               kExecutorBytesPerWord, kExecutorBytesPerSlot);
  e.seconds = steppedCycles(set) * static_cast<double>(h.nodes()) *
              static_cast<double>(h.channels()) * kExecutorNsPerChannelCycle * 1e-9;
  return e;
}

ResourceEstimate tlmEstimate(const TableSet& set) {
  const TableHeader& h = set.header;
  ResourceEstimate e = estimate("the TLM backend", h, kTlmBytesPerNode, kTlmBytesPerChannel,
                                kTlmBytesPerWord, kExecutorBytesPerSlot);
  const double nodes = static_cast<double>(h.nodes());
  e.seconds = (nodes * kTlmNsPerNode + steppedCycles(set) * nodes * kTlmNsPerNodeCycle) * 1e-9;
  return e;
}

ResourceEstimate rtlRunEstimate(const TableSet& set) {
  ResourceEstimate e;
  e.consumer = "the RTL run";
  e.seconds = static_cast<double>(set.cycles()) * static_cast<double>(set.header.nodes()) /
              rtlNodeCyclesPerSecond(set.header.nodes());
  // The model the run picks (sim/rtl_model_cache.cpp rtlModelFor): memory and table depth rounded
  // up to powers of two; a table word is stored in 32-bit pieces.
  const TableHeader& h = set.header;
  const double nodes = static_cast<double>(h.nodes());
  const double depth = std::exp2(std::ceil(std::log2(std::max<double>(16, set.depth()))));
  const double slots =
      std::exp2(std::ceil(std::log2(std::max<double>(2, static_cast<double>(h.memoryWords())))));
  const ImageLayout layout{h.n, h.lanes, static_cast<u64>(slots)};
  const double table_bytes = nodes * depth * 4.0 * std::ceil(layout.tableWidth() / 32.0);
  const double memory_bytes = nodes * slots * 4.0;
  const double total = kRtlStateOverhead * (table_bytes + memory_bytes);
  e.bytes = total >= 1.8e19 ? ~u64{0} : static_cast<u64>(total);
  // The tables are the hardware's RAMs and cannot shrink: the RTL may use up to half of this
  // machine's memory (exchange at n = 12 needs about 8 GB).
  e.limit_bytes = std::max(kMaxEstimatedBytes, physicalMemoryBytes() / 2);
  e.field = table_bytes >= memory_bytes ? "dim" : "slots";
  e.detail = std::to_string(h.nodes()) + " nodes x (" +
             std::to_string(static_cast<long long>(depth)) + " table words of " +
             std::to_string(layout.tableWidth()) + " bits + " +
             std::to_string(static_cast<long long>(slots)) + " memory words)";
  return e;
}

ResourceEstimate rtlRoutedRunEstimate(u64 nodes, u64 first, u64 last) {
  ResourceEstimate e;
  e.consumer = "the routed RTL run";
  const double cycles = static_cast<double>(last - std::min(first, last));
  e.seconds = cycles * static_cast<double>(nodes) / rtlNodeCyclesPerSecond(nodes);
  e.field = "at";
  e.detail = std::to_string(last - std::min(first, last)) + " cycles from the first release (" +
             std::to_string(first) + ") to the last (" + std::to_string(last) + ")";
  return e;
}

ResourceEstimate rtlBuildEstimate(int n) {
  ResourceEstimate e;
  e.consumer = "building the Verilated " + std::to_string(n) + "-cube";
  const double nodes = std::exp2(n);
  e.bytes = static_cast<u64>(kRtlBuildBytesBase + nodes * kRtlBuildBytesPerNode);
  e.seconds = kRtlBuildCpuSecondsBase + nodes * kRtlBuildCpuSecondsPerNode;
  e.field = "dim";
  char text[120];
  std::snprintf(text, sizeof text, "Verilator elaborates %lld node instances, about %.1f MB each",
                static_cast<long long>(nodes), kRtlBuildBytesPerNode / 1e6);
  e.detail = text;
  return e;
}

u64 physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<u64>(pages) * static_cast<u64>(page);
}

std::string rtlRunForecast(const TableSet& set) {
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.2g", rtlNodeCyclesPerSecond(set.header.nodes()) / 1e6);
  return "about " + formatSeconds(rtlRunEstimate(set).seconds) + " at the measured " + rate +
         " million node-cycles per second of a " + std::to_string(set.header.nodes()) +
         "-node cube (the RTL simulates every cycle, waits included)";
}

void requireWithinLimits(const ResourceEstimate& e, const HeaderOrigin* origin) {
  if (e.words > kMaxSimulatedWords) {
    const std::string where = origin ? origin->where(e.words_field) : "";
    throw Error(where + e.consumer + ": " + e.words_detail + " is more than the " +
                std::to_string(kMaxSimulatedWords) + " words this tool simulates");
  }
  const std::string where = origin ? origin->where(e.field) : "";
  if (e.bytes > e.limit_bytes) {
    throw Error(where + e.consumer + " would need about " + formatBytes(e.bytes) + " (" + e.detail +
                "), more than the limit of " + formatBytes(e.limit_bytes));
  }
  if (e.seconds > kMaxEstimatedSeconds) {
    throw Error(where + e.consumer + " would take about " + formatSeconds(e.seconds) +
                ", more than the limit of " + formatSeconds(kMaxEstimatedSeconds));
  }
}

void requireBackendLimits(const TableSet& set, const std::string& backend,
                          const HeaderOrigin* origin) {
  if (backend == "table") requireWithinLimits(tableExecutorEstimate(set), origin);
  if (backend == "tlm") requireWithinLimits(tlmEstimate(set), origin);
  if (backend == "rtl") {
    requireRtlDimension(set.header.n);
    requireWithinLimits(rtlRunEstimate(set), origin);
  }
}

void requireRtlDimension(int n) { requireRtlDimension(n, physicalMemoryBytes()); }

void requireRtlDimension(int n, u64 machine_bytes) {
  if (n < 1 || n > kRtlMaxDim) {
    throw Error("RTL backend: n = " + std::to_string(n) +
                " is beyond the RTL cube's supported 1.." + std::to_string(kRtlMaxDim) +
                " (use --backend table)");
  }
  const ResourceEstimate build = rtlBuildEstimate(n);
  if (machine_bytes != 0 && build.bytes > machine_bytes) {
    throw Error("RTL backend: " + build.consumer + " would need about " + formatBytes(build.bytes) +
                " (" + build.detail + "), more than this machine's " + formatBytes(machine_bytes) +
                " of memory (use --backend table)");
  }
}

std::string formatBytes(u64 bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (b >= 1e9) {
    std::snprintf(text, sizeof text, "%.1f GB", b / 1e9);
  } else if (b >= 1e6) {
    std::snprintf(text, sizeof text, "%.0f MB", b / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.0f KB", b / 1e3);
  }
  return text;
}

std::string formatSeconds(double seconds) {
  char text[32];
  if (seconds >= 3600) {
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  } else if (seconds >= 60) {
    std::snprintf(text, sizeof text, "%.1f min", seconds / 60);
  } else {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  }
  return text;
}

}  // namespace hcube

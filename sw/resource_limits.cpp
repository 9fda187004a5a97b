#include "resource_limits.h"

#include <algorithm>
#include <cstdio>

#include "error.h"
#include "reference.h"

namespace hcube {
namespace {

// Measured costs (RelWithDebInfo build, see the report of issue 16 for the commands):
//   verifier: bytes per node-channel of state (four latch arrays of 8 bytes), per word of
//     memory (the symbolic memory, the copy counts and the reference), and ns per node-channel
//     step;
//   table executor: the same latch arrays, the initial and final memories and the reference;
//   TLM: the module tree of one node (sockets, processes, memories) and ns per node-cycle.
constexpr double kVerifierBytesPerChannel = 32;
constexpr double kVerifierBytesPerWord = 4;
constexpr double kVerifierBytesPerSlot = 9;  // copy count and reference word, filled bit
constexpr double kVerifierNsPerChannelStep = 4;
constexpr double kExecutorBytesPerChannel = 32;
constexpr double kExecutorBytesPerWord = 8;  // initial and final memory
constexpr double kExecutorBytesPerSlot = 5;  // reference word, filled bit
constexpr double kExecutorNsPerChannelCycle = 4;
constexpr double kTlmBytesPerNode = 70e3;
constexpr double kTlmBytesPerChannel = 2e3;
constexpr double kTlmBytesPerWord = 8;
constexpr double kTlmNsPerNode = 700e3;  // elaboration and teardown
constexpr double kTlmNsPerNodeCycle = 1e3;

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

ResourceEstimate verifierEstimate(const TableSet& set) {
  const TableHeader& h = set.header;
  ResourceEstimate e = estimate("verification", h, 24, kVerifierBytesPerChannel,
                                kVerifierBytesPerWord, kVerifierBytesPerSlot);
  e.seconds = static_cast<double>(steps(set)) * static_cast<double>(h.nodes()) *
              static_cast<double>(h.channels()) * kVerifierNsPerChannelStep * 1e-9;
  return e;
}

ResourceEstimate tableExecutorEstimate(const TableSet& set) {
  const TableHeader& h = set.header;
  ResourceEstimate e = estimate("the table executor", h, 100, kExecutorBytesPerChannel,
                                kExecutorBytesPerWord, kExecutorBytesPerSlot);
  e.seconds = static_cast<double>(set.cycles()) * static_cast<double>(h.nodes()) *
              static_cast<double>(h.channels()) * kExecutorNsPerChannelCycle * 1e-9;
  return e;
}

ResourceEstimate tlmEstimate(const TableSet& set) {
  const TableHeader& h = set.header;
  ResourceEstimate e = estimate("the TLM backend", h, kTlmBytesPerNode, kTlmBytesPerChannel,
                                kTlmBytesPerWord, kExecutorBytesPerSlot);
  const double nodes = static_cast<double>(h.nodes());
  e.seconds =
      (nodes * kTlmNsPerNode + static_cast<double>(set.cycles()) * nodes * kTlmNsPerNodeCycle) *
      1e-9;
  return e;
}

void requireWithinLimits(const ResourceEstimate& e, const HeaderOrigin* origin) {
  if (e.words > kMaxSimulatedWords) {
    const std::string where = origin ? origin->where(e.words_field) : "";
    throw Error(where + e.consumer + ": " + e.words_detail + " is more than the " +
                std::to_string(kMaxSimulatedWords) + " words this tool simulates");
  }
  const std::string where = origin ? origin->where(e.field) : "";
  if (e.bytes > kMaxEstimatedBytes) {
    throw Error(where + e.consumer + " would need about " + formatBytes(e.bytes) + " (" + e.detail +
                "), more than the limit of " + formatBytes(kMaxEstimatedBytes));
  }
  if (e.seconds > kMaxEstimatedSeconds) {
    throw Error(where + e.consumer + " would take about " + formatSeconds(e.seconds) +
                ", more than the limit of " + formatSeconds(kMaxEstimatedSeconds));
  }
}

void requireRtlDimension(int n) {
  if (n < 1 || n > kRtlMaxDim) {
    throw Error("RTL backend: n = " + std::to_string(n) +
                " is beyond the RTL cube's supported 1.." + std::to_string(kRtlMaxDim) +
                " (use --backend table)");
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

#include "executor.h"

#include <algorithm>
#include <chrono>

#include "error.h"
#include "exec_program.h"
#include "mac.h"
#include "traffic_monitor.h"

namespace hcube {
namespace {

/// A PASS register, or a channel's input register: the word and whether it holds one.
struct Latch {
  u32 data = 0;
  u32 valid = 0;
};

/// The lockstep engine: the state of every node in flat arrays indexed by node (and channel),
/// and one cycle as two sweeps over the nodes (send, then receive and advance).
class Engine {
 public:
  Engine(const TableSet& set, const CubeMemory& initial, const ExecOptions& opt)
      : h_(set.header),
        opt_(opt),
        p_(decodeTables(set, initial.words_per_node)),
        nodes_(h_.nodes()),
        channels_(h_.channels()),
        words_(initial.words_per_node),
        pc_(nodes_),
        wait_left_(nodes_, 0),
        mac_done_(nodes_, 0),
        arrivals_(nodes_, 0),
        pass_held_(nodes_, 0),
        inbox_(nodes_ * channels_),
        pass_(nodes_ * channels_),
        events_(nodes_, 0),
        errors_(nodes_ * kHwErrorKinds, 0),
        monitor_(nodes_, h_.n, opt.tagged_elements),
        fault_(opt.fault != nullptr && opt.fault->onLink() ? opt.fault : nullptr),
        inspect_(fault_ != nullptr || opt.record_traffic) {
    r_.backend = "table";
    monitor_.recordEvents(opt.record_traffic, opt.record_word);
    // Relative layout where it costs at most twice the memory (see at()).
    u64 rows = 1;
    while (rows < std::max<u64>(words_, nodes_)) rows <<= 1;
    relative_ = rows <= 2 * words_;
    mem_.assign(relative_ ? rows * nodes_ : nodes_ * words_, 0);
    for (u64 x = 0; x < nodes_; ++x) {
      for (u64 slot = 0; slot < words_; ++slot) mem_[at(x, slot)] = initial.at(x, slot);
    }
    r_.memory = {nodes_, words_, {}};
    copied_.resize(channels_);
    sums_.resize(channels_);
    for (u64 x = 0; x < nodes_; ++x) {
      pc_[x] = p_.entryOf(x);
      enter(x);
      countStep(x);
    }
  }

  RunResult run() {
    u64 cycle = 0;
    while (active_ > 0) {
      if (cycle >= opt_.max_cycles) {
        r_.timeout = true;
        break;
      }
      if (acting_ == 0 && held_ == 0) {
        cycle += skipWaits(cycle);
        continue;
      }
      // The traffic log and fault injection take their own copy of the send sweep, so that a
      // plain run pays nothing for them.
      if (inspect_) {
        sendPhase<true>(cycle);
      } else {
        sendPhase<false>(cycle);
      }
      receivePhase(cycle);
      countEvents();
      ++cycle;
      ++r_.cycles;
      if (opt_.stats != nullptr) ++opt_.stats->stepped_cycles;
      if (opt_.progress) opt_.progress(r_.cycles);
    }
    // PASS words still held after every node ended are dropped, as the RTL flags them in the
    // cycle after the last one counted.
    if (!r_.timeout) {
      for (u64 x = 0; x < nodes_; ++x) {
        if (pass_held_[x] != 0) raise(x, HwError::kDropped);
      }
      countEvents();
    }
    for (u64 x = 0; x < nodes_; ++x) {
      for (int k = 0; k < kHwErrorKinds; ++k) {
        const u32 count = errors_[x * kHwErrorKinds + static_cast<u64>(k)];
        if (count != 0) r_.errors.push_back({x, static_cast<HwError>(k), count});
      }
    }
    r_.memory.words.resize(nodes_ * words_);
    for (u64 x = 0; x < nodes_; ++x) {
      for (u64 slot = 0; slot < words_; ++slot) r_.memory.at(x, slot) = mem_[at(x, slot)];
    }
    r_.link_words = monitor_.linkWords();
    r_.span = monitor_.span();
    r_.traffic = monitor_.takeLog();
    return std::move(r_);
  }

 private:
  using Kind = ExecStep::Kind;

  /// Where slot `slot` of node x lives in mem_. Node-major (x * M + slot) in general; where
  /// it costs at most twice the memory, by relative slot (slot XOR x, then x): in a cycle of a
  /// homogeneous schedule with relative slots every node reads and writes the same relative
  /// slots, so the sweeps over the nodes run through memory in order instead of jumping to a
  /// different line for every word.
  u64 at(u64 x, u64 slot) const { return relative_ ? ((slot ^ x) << h_.n) | x : x * words_ + slot; }

  void raise(u64 node, HwError e) {
    if (events_[node] == 0) dirty_.push_back(node);
    events_[node] |= 1U << static_cast<int>(e);
  }

  /// As in the RTL, a counter counts the cycles in which its condition held at a node (not the
  /// channels), and saturates at 16 bits.
  void countEvents() {
    for (u64 x : dirty_) {
      for (int k = 0; k < kHwErrorKinds; ++k) {
        u32& count = errors_[x * kHwErrorKinds + static_cast<u64>(k)];
        if (((events_[x] >> k) & 1U) != 0 && count < 0xFFFF) ++count;
      }
      events_[x] = 0;
    }
    dirty_.clear();
  }

  /// Node x has just reached step pc_[x]: start its WAIT, or stop at END.
  void enter(u64 x) {
    const ExecStep& s = p_.steps[pc_[x]];
    if (s.kind == Kind::kWait) wait_left_[x] = s.wait;
    if (s.kind != Kind::kEnd) ++active_;
  }
  /// Counts node x's coming step for the wait skip: a node that is neither waiting nor done
  /// acts, and the shortest wait left bounds a skip.
  void countStep(u64 x) {
    const Kind k = p_.steps[pc_[x]].kind;
    if (k == Kind::kWait) {
      shortest_wait_ = std::min<u64>(shortest_wait_, wait_left_[x]);
    } else if (k != Kind::kEnd) {
      ++acting_;
    }
  }

  /// One cycle of node x's sequencer (docs/hardware.md §2): XFER and PERMUTE take one cycle,
  /// WAIT c takes c, END stays. Running past a table without END is an overrun.
  void advance(u64 x, u64 cycles = 1) {
    const ExecStep& s = p_.steps[pc_[x]];
    if (s.kind == Kind::kEnd) return;
    if (s.kind == Kind::kWait) {
      wait_left_[x] -= static_cast<u32>(cycles);
      if (wait_left_[x] != 0) return;
    }
    if (s.kind == Kind::kMac) {
      if (++mac_done_[x] < s.mac_cycles) return;
      mac_done_[x] = 0;
    }
    --active_;
    ++pc_[x];
    if (p_.steps[pc_[x]].overrun) raise(x, HwError::kOverrun);
    enter(x);
  }

  /// Cycles in which every node that has not ended waits and no PASS word is held do nothing
  /// but count down: they are run in one step, up to the shortest wait left or the cycle
  /// limit (issue 16). Returns the cycles skipped.
  u64 skipWaits(u64 cycle) {
    const u64 skip = std::min(shortest_wait_, opt_.max_cycles - cycle);
    shortest_wait_ = ~u64{0};
    for (u64 x = 0; x < nodes_; ++x) {
      advance(x, skip);
      countStep(x);
    }
    countEvents();
    r_.cycles += skip;
    if (opt_.stats != nullptr) ++opt_.stats->skips;
    if (opt_.progress) opt_.progress(r_.cycles);
    return skip;
  }

  // Memory words are read and written at random slots of every node in every cycle: the sweeps
  // ask for the slots of a node a few ahead, so that their cache misses overlap.
  static constexpr u64 kNodesAhead = 4;

  void prefetchSends(u64 x) const {
    const ExecStep& s = p_.steps[pc_[x]];
    if (s.kind != Kind::kXfer) return;
    for (u32 i = s.sends.begin; i < s.sends.end; ++i) {
      const ExecSend& op = p_.sends[i];
      if (!op.fwd && !op.from.may_overflow) __builtin_prefetch(&mem_[at(x, op.from.at(x))]);
    }
  }
  void prefetchReceives(u64 y) const {
    const ExecStep& s = p_.steps[pc_[y]];
    if (s.kind != Kind::kXfer) return;
    for (u32 i = s.receives.begin; i < s.receives.end; ++i) {
      const ExecReceive& op = p_.receives[i];
      if (!op.pass && !op.to.may_overflow) __builtin_prefetch(&mem_[at(y, op.to.at(y))], 1);
    }
  }

  /// Rising edge: every node reads its memory and PASS registers as they are at the start of
  /// the cycle and puts its words in its neighbours' input registers.
  template <bool kInspect>
  void sendPhase(u64 cycle) {
    bool carried = false;
    for (u64 x = 0; x < nodes_; ++x) {
      if (!relative_ && x + kNodesAhead < nodes_) prefetchSends(x + kNodesAhead);
      const ExecStep& s = p_.steps[pc_[x]];
      Latch* pass = &pass_[x * channels_];
      if (s.kind == Kind::kXfer) {
        for (u32 i = s.sends.begin; i < s.sends.end; ++i) {
          const ExecSend& op = p_.sends[i];
          u32 word = 0;
          if (op.fwd) {
            if (pass[op.fwd_channel].valid == 0) {
              raise(x, HwError::kFwd);
              continue;
            }
            word = pass[op.fwd_channel].data;
          } else {
            const u64 slot = op.from.at(x);
            if (op.from.may_overflow && slot >= words_) {
              raise(x, HwError::kSlot);  // sends the word 0, as the RTL does
            } else {
              word = mem_[at(x, slot)];
            }
          }
          if (kInspect && fault_ != nullptr && faultRemoves(x, op, cycle, word)) {
            continue;  // a link fault removed the word (sw/fault.h)
          }
          const u64 y = x ^ (u64{1} << op.port);
          inbox_[y * channels_ + op.channel] = {word, 1};
          ++arrivals_[y];
          ++r_.words;
          carried = true;
          monitor_.send(x, static_cast<int>(op.port), word, cycle, kInspect ? laneOf(op) : 0);
        }
        if (s.one_port) raise(x, HwError::kOnePort);
      } else if (s.kind == Kind::kPermute) {
        local_ = true;
      }
      if (pass_held_[x] != 0) dropPassWords(x, s);
    }
    if (carried) ++r_.transfer_cycles;
  }

  int laneOf(const ExecSend& op) const { return static_cast<int>(op.channel - op.port * h_.lanes); }

  /// Applies the link fault to a word node x sends (sw/fault.h); true if the word is removed.
  /// Out of line, and only in the send sweep's slow copy (sendPhase<true>).
  __attribute__((noinline, cold)) bool faultRemoves(u64 x, const ExecSend& op, u64 cycle,
                                                    u32& word) const {
    return !fault_->apply(x, static_cast<int>(op.port), laneOf(op), cycle, word);
  }

  /// PASS words of the previous cycle that this cycle's instruction does not forward are
  /// dropped; the registers are free again for this cycle's PASS receives.
  void dropPassWords(u64 x, const ExecStep& s) {
    Latch* pass = &pass_[x * channels_];
    u64 forwarded = 0;
    if (s.kind == Kind::kXfer) {
      for (u32 i = s.forwarded.begin; i < s.forwarded.end; ++i) {
        forwarded += pass[p_.channels[i]].valid;
      }
    }
    if (forwarded < pass_held_[x]) raise(x, HwError::kDropped);
    for (size_t c = 0; c < channels_; ++c) pass[c].valid = 0;
    pass_held_[x] = 0;
    --held_;
  }

  /// Falling edge: every node stores what arrived (or its PERMUTE copies), fills its PASS
  /// registers and advances its sequencer.
  void receivePhase(u64 cycle) {
    acting_ = 0;
    shortest_wait_ = ~u64{0};
    for (u64 y = 0; y < nodes_; ++y) {
      if (!relative_ && y + kNodesAhead < nodes_) prefetchReceives(y + kNodesAhead);
      const ExecStep& s = p_.steps[pc_[y]];
      u32 consumed = 0;
      if (s.kind == Kind::kXfer) {
        consumed = receive(y, s, cycle);
      } else if (s.kind == Kind::kPermute) {
        copy(y, s);
      } else if (s.kind == Kind::kMac) {
        multiplyAccumulate(y, s);
      }
      if (arrivals_[y] != consumed) {
        // Words on a channel whose input side is IDLE (or at a node not in an XFER) are lost.
        raise(y, HwError::kLost);
        for (size_t c = 0; c < channels_; ++c) inbox_[y * channels_ + c].valid = 0;
      }
      arrivals_[y] = 0;
      advance(y);
      countStep(y);
    }
    if (local_) ++r_.local_cycles;
    local_ = false;
  }

  /// An XFER's receives at node y; returns the words it took from the input registers.
  u32 receive(u64 y, const ExecStep& s, u64 cycle) {
    Latch* in = &inbox_[y * channels_];
    u32 consumed = 0;
    u32 passes = 0;
    // ---- issue 13: combining receive (docs/hardware.md §2.2) ----
    // An ADD stores the slot as it was at the start of the cycle plus the arriving word (W = 32
    // bit wrap-around), so every sum is formed before any receive of the cycle writes.
    if (s.adds) {
      for (u32 i = s.receives.begin; i < s.receives.end; ++i) {
        const ExecReceive& op = p_.receives[i];
        if (!op.add || in[op.channel].valid == 0) continue;
        const u64 slot = op.to.at(y);
        if (slot < words_) sums_[op.channel] = mem_[at(y, slot)] + in[op.channel].data;
      }
    }
    // ---- end issue 13 ----
    for (u32 i = s.receives.begin; i < s.receives.end; ++i) {
      const ExecReceive& op = p_.receives[i];
      Latch& arriving = in[op.channel];
      u64 slot = 0;
      // Receive slots are checked whether or not a word arrives.
      if (!op.pass) {
        slot = op.to.at(y);
        if (op.to.may_overflow && slot >= words_) raise(y, HwError::kSlot);
      }
      if (arriving.valid == 0) {
        raise(y, HwError::kNoData);
        continue;
      }
      arriving.valid = 0;
      ++consumed;
      if (op.pass) {
        pass_[y * channels_ + op.channel] = {arriving.data, 1};
        ++passes;
      } else if (slot < words_) {
        // With a conflict, the higher channel's word is kept. An ADD's word is already the sum
        // (above); the monitor sees the word that arrived.
        mem_[at(y, slot)] = op.add ? sums_[op.channel] : arriving.data;
        monitor_.store(arriving.data, cycle);
      }
    }
    if (passes != 0) {
      pass_held_[y] = passes;
      ++held_;
    }
    for (u32 k = s.clashes.begin; k < s.clashes.end; ++k) {
      const u64 a = p_.receives[s.receives.begin + p_.clashes[k].first].to.at(y);
      const u64 b = p_.receives[s.receives.begin + p_.clashes[k].second].to.at(y);
      if (a == b && a < words_) raise(y, HwError::kConflict);
    }
    return consumed;
  }

  /// A PERMUTE at node y (docs/hardware.md §2.1): every copy reads the memory as it is at the
  /// start of the cycle (outside the memory: a slot error, the word 0) and writes at its end
  /// (outside: a slot error, nothing written); of two copies into one slot the higher channel's
  /// word is kept.
  void copy(u64 y, const ExecStep& s) {
    if (s.illegal) raise(y, HwError::kIllegal);
    for (u32 i = s.copies.begin; i < s.copies.end; ++i) {
      const ExecSlot& from = p_.copies[i].from;
      const u64 slot = from.at(y);
      u32 word = 0;
      if (from.may_overflow && slot >= words_) {
        raise(y, HwError::kSlot);
      } else {
        word = mem_[at(y, slot)];
      }
      copied_[i - s.copies.begin] = word;
    }
    for (u32 i = s.copies.begin; i < s.copies.end; ++i) {
      const ExecSlot& to = p_.copies[i].to;
      const u64 slot = to.at(y);
      if (to.may_overflow && slot >= words_) {
        raise(y, HwError::kSlot);
      } else {
        mem_[at(y, slot)] = copied_[i - s.copies.begin];
      }
    }
    for (u32 k = s.clashes.begin; k < s.clashes.end; ++k) {
      const u64 a = p_.copies[s.copies.begin + p_.clashes[k].first].to.at(y);
      const u64 b = p_.copies[s.copies.begin + p_.clashes[k].second].to.at(y);
      if (a == b && a < words_) raise(y, HwError::kConflict);
    }
  }

  /// One cycle of a MAC at node y (docs/hardware.md §2.3, sw/mac.h). The node uses no port:
  /// words arriving are lost and a held PASS word is dropped, as in a PERMUTE.
  void multiplyAccumulate(u64 y, const ExecStep& s) {
    const bool out_of_range = macStep(
        p_.macs[s.mac], h_.mac_units, mac_done_[y], words_,
        [&](u64 slot) { return mem_[at(y, slot)]; },
        [&](u64 slot, u32 word) { mem_[at(y, slot)] = word; });
    if (out_of_range) raise(y, HwError::kSlot);
    if (s.mac_overlap) raise(y, HwError::kConflict);
  }

  const TableHeader& h_;
  const ExecOptions& opt_;
  const ExecProgram p_;
  const u64 nodes_;
  const size_t channels_;
  const u64 words_;
  RunResult r_;
  bool relative_ = false;  ///< mem_ is laid out by relative slot (at())
  std::vector<u32> mem_;   ///< every node's memory

  // Per node.
  std::vector<u32> pc_;         ///< current step (index into p_.steps)
  std::vector<u32> wait_left_;  ///< cycles left in the current WAIT
  std::vector<u64> mac_done_;   ///< cycles of the current MAC done
  std::vector<u32> arrivals_;   ///< words put in its input registers this cycle
  std::vector<u32> pass_held_;  ///< PASS registers filled in the previous cycle
  // Per node and channel.
  std::vector<Latch> inbox_;  ///< input registers: the words arriving this cycle
  std::vector<Latch> pass_;   ///< PASS registers
  // Error counters: per node the kinds raised this cycle, and per node and kind the count.
  std::vector<u32> events_;
  std::vector<u64> dirty_;  ///< nodes with events this cycle
  std::vector<u32> errors_;
  TrafficMonitor monitor_;
  const Fault* fault_;       ///< the link fault to inject, or nullptr (the usual case)
  const bool inspect_;       ///< a fault or the traffic log: the send sweep's slow copy
  std::vector<u32> copied_;  ///< a PERMUTE's words, read before any is written
  std::vector<u32> sums_;    ///< per channel: an ADD receive's sum, formed before any write

  u64 active_ = 0;               ///< nodes not at END
  u64 acting_ = 0;               ///< nodes whose coming step is neither WAIT nor END
  u64 held_ = 0;                 ///< nodes holding PASS words
  u64 shortest_wait_ = ~u64{0};  ///< the shortest wait left of a waiting node
  bool local_ = false;           ///< some node executes a PERMUTE in this cycle
};

}  // namespace

RunResult executeTables(const TableSet& set, const CubeMemory& initial, const ExecOptions& opt) {
  checkTableShape(set);
  if (initial.nodes != set.header.nodes()) {
    throw Error("executor: initial memory has " + std::to_string(initial.nodes) +
                " nodes, the tables are for " + std::to_string(set.header.nodes()));
  }
  const auto started = std::chrono::steady_clock::now();
  RunResult r = Engine(set, initial, opt).run();
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace hcube

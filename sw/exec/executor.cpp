#include "exec/executor.h"

#include <algorithm>
#include <chrono>

#include "base/error.h"
#include "exec/carried_span.h"
#include "exec/exec_program.h"
#include "exec/node_core.h"
#include "exec/traffic_monitor.h"
#include "tables/mac.h"

namespace hcube {
namespace {

/// The lockstep engine: the state of every node in flat arrays indexed by node (and channel),
/// and one cycle as two sweeps over the nodes (send, then receive and advance).
class Engine : private NodeCore<Engine> {
  friend class NodeCore<Engine>;

 public:
  Engine(const TableSet& set, const CubeMemory& initial, const ExecOptions& opt)
      : NodeCore(set, initial, set.header.nodes(), 0),
        opt_(opt),
        fault_(opt.fault != nullptr && opt.fault->onLink() ? opt.fault : nullptr),
        inspect_(fault_ != nullptr || opt.record_traffic),
        lockstep_(p_.shared && relative_ && !inspect_),
        carried_(lockstep_ && p_.all_lockstep && opt.max_cycles <= carried::kCarriedCycles &&
                 distinctTags(opt.tagged_elements)),
        monitor_(nodes_, h_.n, carried_ ? 0 : opt.tagged_elements) {
    r_.backend = "table";
    monitor_.recordEvents(opt.record_traffic, opt.record_word);
    if (opt.stats != nullptr) opt.stats->carried_span = carried_;
    if (carried_) {
      first_sent_.assign(mem_.size(), kNotSent);
      port_words_.assign(static_cast<size_t>(h_.n), 0);
    }
    r_.memory = {nodes_, words_, {}};
  }

  RunResult run() {
    u64 cycle = 0;
    while (seq_.active > 0 || seq_.mac_busy > 0) {
      if (cycle >= opt_.max_cycles) {
        r_.timeout = true;
        break;
      }
      if (seq_.acting == 0 && held_ == 0 && seq_.mac_busy == 0) {
        cycle += skipWaits(cycle);
        continue;
      }
      // A lockstep step (every node at it, proved error-free) runs as its moves; any other
      // cycle as the two sweeps. The traffic log and fault injection take their own copy of
      // the send sweep, so that a plain run pays nothing for them.
      const ExecStep& s = p_.steps[seq_.pc[0]];
      if (lockstep_ && s.lockstep && held_ == 0 && seq_.mac_busy == 0) {
        if (carried_) {
          lockstepCycle<true>(s, cycle);
        } else {
          lockstepCycle<false>(s, cycle);
        }
        if (opt_.stats != nullptr) ++opt_.stats->lockstep_cycles;
      } else if (inspect_) {
        sendPhase<true>(cycle);
        receivePhase(cycle);
      } else {
        sendPhase<false>(cycle);
        receivePhase(cycle);
      }
      countEvents(cycle);
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
      countEvents(cycle);
    }
    for (u64 x = 0; x < nodes_; ++x) {
      for (int k = 0; k < kHwErrorKinds; ++k) {
        const u32 count = seq_.errors(x, k);
        if (count != 0) r_.errors.push_back({x, static_cast<HwError>(k), count});
      }
    }
    takeMemory(r_.memory.words);
    r_.link_words = monitor_.linkWords();
    r_.span = std::max(monitor_.span(), carried_span_);
    for (size_t port = 0; port < port_words_.size(); ++port) {
      for (u64 x = 0; x < nodes_; ++x)
        r_.link_words[x * port_words_.size() + port] += port_words_[port];
    }
    r_.traffic = monitor_.takeLog();
    return std::move(r_);
  }

 private:
  /// Whether no tag (word below `tagged`) starts in two slots that a move reads (see carried_):
  /// the words of rows no move reads are never sent, so their copies never matter.
  bool distinctTags(u64 tagged) const {
    std::vector<bool> read(rows_, false);
    for (const ExecMove& m : p_.moves) read[m.from] = true;
    std::vector<u64> seen((tagged + 63) / 64, 0);
    for (u64 row = 0; row < read.size(); ++row) {
      if (!read[row]) continue;
      for (u64 x = 0; x < nodes_; ++x) {
        const u32 word = mem_[(row << h_.n) | x];
        if (word >= tagged) continue;
        u64& bits = seen[word / 64];
        const u64 bit = u64{1} << (word % 64);
        if ((bits & bit) != 0) return false;
        bits |= bit;
      }
    }
    return true;
  }

  void countEvents(u64 cycle) { seq_.countEvents(cycle, opt_.record_traffic, r_.error_events); }

  /// Cycles in which every node that has not ended waits and no PASS word is held do nothing
  /// but count down: they are run in one step, up to the shortest wait left or the cycle
  /// limit. Returns the cycles skipped.
  u64 skipWaits(u64 cycle) {
    const u64 skip = std::min(seq_.shortest_wait, opt_.max_cycles - cycle);
    seq_.skip(skip);
    countEvents(cycle + skip - 1);  // an overrun after a WAIT, in the wait's last cycle
    r_.cycles += skip;
    if (opt_.stats != nullptr) ++opt_.stats->skips;
    if (opt_.progress) opt_.progress(r_.cycles);
    return skip;
  }

  // Memory words are read and written at random slots of every node in every cycle: the sweeps
  // ask for the slots of a node a few ahead, so that their cache misses overlap.
  static constexpr u64 kNodesAhead = 4;

  void prefetchSends(u64 x) const {
    const ExecStep& s = p_.steps[seq_.pc[x]];
    if (s.kind != Kind::kXfer) return;
    for (u32 i = s.sends.begin; i < s.sends.end; ++i) {
      const ExecSend& op = p_.sends[i];
      if (!op.fwd && !op.from.may_overflow) __builtin_prefetch(&mem_[at(x, op.from.at(x))]);
    }
  }
  void prefetchReceives(u64 y) const {
    const ExecStep& s = p_.steps[seq_.pc[y]];
    if (s.kind != Kind::kXfer) return;
    for (u32 i = s.receives.begin; i < s.receives.end; ++i) {
      const ExecReceive& op = p_.receives[i];
      if (!op.pass && !op.to.may_overflow) __builtin_prefetch(&mem_[at(y, op.to.at(y))], 1);
    }
  }

  // ---- Lockstep cycles (ExecStep::lockstep) ----
  // A shared table keeps every node at the same step, and a lockstep step is proved error-free
  // by the decode: the cycle is its moves, each a sweep along two rows of the relative layout
  // (the sender's row in node order, the receiver's in the order of node XOR 2^port), with no
  // check, no input register and no per-node bookkeeping beyond moving the program counters.
  //
  // Span without the monitor (carried_): where words only move (every step END, WAIT or
  // lockstep) and no tag starts in two slots, the first-send cycle of each word travels with
  // it in first_sent_ (exec/carried_span.h).

  using LockstepSpan = carried::LockstepSpan;
  static constexpr u32 kNotSent = carried::kNotSent;

  /// One row's worth of a move: `len` words from `from` (first-send cycles `from_first`) to
  /// `to` (`to_first`); `node` is the sender of from[0] (the monitor's record, !kCarried).
  template <bool kCarried>
  void moveWords(const u32* from, u32* from_first, u32* to, u32* to_first, u64 len, u64 node,
                 int port, u64 cycle, LockstepSpan& span) {
    if constexpr (kCarried) {
      carried::moveRow(from, from_first, to, to_first, len, static_cast<u32>(cycle),
                       opt_.tagged_elements, span);
    } else {
      for (u64 i = 0; i < len; ++i) {
        const u32 word = from[i];
        to[i] = word;
        monitor_.send(node + i, port, word, cycle);
        monitor_.store(word, cycle);
      }
    }
  }

  template <bool kCarried>
  void lockstepCycle(const ExecStep& s, u64 cycle) {
    const u64 n = nodes_;
    const int dims = h_.n;
    LockstepSpan span;
    u32* first = kCarried ? first_sent_.data() : nullptr;
    auto firstOf = [&](u64 at) { return kCarried ? first + at : nullptr; };
    if (s.staged) {
      // Every row read before any is written: the words (and their first-send cycles, kept
      // in the sender's row too) go to the stage.
      const size_t need = static_cast<size_t>(s.moves.end - s.moves.begin) * n;
      if (stage_.size() < need) stage_.resize(need);
      if (kCarried && stage_first_.size() < need) stage_first_.resize(need);
      const u32 now = static_cast<u32>(cycle);
      for (u32 k = s.moves.begin; k < s.moves.end; ++k) {
        const u64 row = u64{p_.moves[k].from} << dims;
        const u64 at = static_cast<u64>(k - s.moves.begin) * n;
        std::copy_n(&mem_[row], n, &stage_[at]);
        if constexpr (kCarried) {
          for (u64 x = 0; x < n; ++x) first[row + x] = std::min(first[row + x], now);
          std::copy_n(&first[row], n, &stage_first_[at]);
        }
      }
    }
    for (u32 k = s.moves.begin; k < s.moves.end; ++k) {
      const ExecMove& m = p_.moves[k];
      const u64 bit = u64{1} << m.port;
      const int port = static_cast<int>(m.port);
      const u64 to = u64{m.to} << dims;
      if (m.in_place) {
        // Neighbours across the port swap their words: each pair's two words are read before
        // either is written.
        for (u64 base = 0; base < n; base += 2 * bit) {
          for (u64 i = base; i < base + bit; ++i)
            swapWords<kCarried>(to + i, bit, i, port, cycle, span);
        }
      } else {
        const bool staged = s.staged;
        const u64 at = static_cast<u64>(k - s.moves.begin) * n;
        const u32* from = staged ? &stage_[at] : &mem_[u64{m.from} << dims];
        u32* from_first =
            staged ? (kCarried ? &stage_first_[at] : nullptr) : firstOf(u64{m.from} << dims);
        for (u64 base = 0; base < n; base += 2 * bit) {
          moveWords<kCarried>(from + base, from_first ? from_first + base : nullptr,
                              &mem_[to + base + bit], firstOf(to + base + bit), bit, base, port,
                              cycle, span);
          moveWords<kCarried>(from + base + bit, from_first ? from_first + base + bit : nullptr,
                              &mem_[to + base], firstOf(to + base), bit, base + bit, port, cycle,
                              span);
        }
      }
      r_.words += n;
      if constexpr (kCarried) ++port_words_[m.port];
    }
    if (s.moves.end != s.moves.begin) ++r_.transfer_cycles;
    if (kCarried && span.tagged) carried_span_ = std::max(carried_span_, cycle + 1 - span.first);
    seq_.lockstepAdvance();
  }

  /// An in-place move's pair: node x (at mem_[at]) and node x ^ bit (at mem_[at + bit])
  /// exchange their words.
  template <bool kCarried>
  void swapWords(u64 at, u64 bit, u64 x, int port, u64 cycle, LockstepSpan& span) {
    if constexpr (kCarried) {
      carried::swapPair(mem_.data(), first_sent_.data(), at, bit, static_cast<u32>(cycle),
                        opt_.tagged_elements, span);
    } else {
      const u32 a = mem_[at];
      const u32 b = mem_[at + bit];
      mem_[at] = b;
      mem_[at + bit] = a;
      monitor_.send(x, port, a, cycle);
      monitor_.store(a, cycle);
      monitor_.send(x + bit, port, b, cycle);
      monitor_.store(b, cycle);
    }
  }

  /// Rising edge: every node reads its memory and PASS registers as they are at the start of
  /// the cycle and puts its words in its neighbours' input registers.
  template <bool kInspect>
  void sendPhase(u64 cycle) {
    bool carried = false;
    for (u64 x = 0; x < nodes_; ++x) {
      if (!relative_ && x + kNodesAhead < nodes_) prefetchSends(x + kNodesAhead);
      const ExecStep& s = p_.steps[seq_.pc[x]];
      Latch* pass = &pass_[x * channels_];
      if (s.kind == Kind::kXfer) {
        for (u32 i = s.sends.begin; i < s.sends.end; ++i) {
          const ExecSend& op = p_.sends[i];
          u32 word = 0;
          if (!sendWord(x, op, pass, word)) continue;
          if (kInspect && fault_ != nullptr && faultRemoves(x, op, cycle, word)) {
            continue;  // a link fault removed the word (sw/exec/fault.h)
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

  /// Applies the link fault to a word node x sends (sw/exec/fault.h); true if the word is removed.
  /// Out of line, and only in the send sweep's slow copy (sendPhase<true>).
  __attribute__((noinline, cold)) bool faultRemoves(u64 x, const ExecSend& op, u64 cycle,
                                                    u32& word) const {
    return !fault_->apply(x, static_cast<int>(op.port), laneOf(op), cycle, word);
  }

  /// PASS words of the previous cycle that this cycle's instruction does not forward are
  /// dropped; the registers are free again for this cycle's PASS receives.
  /// Falling edge: every node stores what arrived (or its PERMUTE copies), fills its PASS
  /// registers and advances its sequencer.
  void receivePhase(u64 cycle) {
    seq_.startCount();
    for (u64 y = 0; y < nodes_; ++y) {
      if (!relative_ && y + kNodesAhead < nodes_) prefetchReceives(y + kNodesAhead);
      fallingEdge(y, cycle);
    }
    if (local_) ++r_.local_cycles;
    if (mac_) ++r_.mac_cycles;
    local_ = false;
    mac_ = false;
  }

  /// Where a word stored by a receive is seen: the traffic monitor (log, span).
  void monitorStore(u32 word, u64 cycle) { monitor_.store(word, cycle); }

  const ExecOptions& opt_;
  RunResult r_;
  const Fault* fault_;            ///< the link fault to inject, or nullptr (the usual case)
  const bool inspect_;            ///< a fault or the traffic log: the send sweep's slow copy
  const bool lockstep_;           ///< lockstep steps run as moves (shared table, relative layout)
  const bool carried_;            ///< first-send cycles travel with the words (see lockstepCycle)
  TrafficMonitor monitor_;        ///< with carried_, only for link counts and the log (no tags)
  std::vector<u32> first_sent_;   ///< carried_: per slot of mem_, its word's first-send cycle
  std::vector<u64> port_words_;   ///< carried_: words every node sent per port (link counts)
  u64 carried_span_ = 0;          ///< carried_: the span of the stores so far
  std::vector<u32> stage_;        ///< a staged lockstep step's rows, read before any write
  std::vector<u32> stage_first_;  ///< and their first-send cycles (carried_)
  bool local_ = false;            ///< some node executes a PERMUTE in this cycle
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

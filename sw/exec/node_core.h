#pragma once
// What a node does in a cycle of the table executor, apart from delivering its words to its
// neighbours: the word each send reads, the falling edge of docs/hardware/node.md §2
// (receives, PERMUTE copies, the MAC units' cycle), the checks of docs/hardware/checks.md on
// them, and the state they work on, for a block of nodes. In one process the block is the
// whole cube (exec/executor.cpp); under MPI it is a rank's subcube (exec/exec_partitioned.cpp).
// Both engines derive from NodeCore, so that a receive rule or a hardware check is written
// once for the table executor.
//
// The engine passes itself as `Engine` and provides `monitorStore(word, cycle)`: where a
// stored word is seen for the traffic log and the span, which differs between one process and
// a rank.

#include <algorithm>
#include <vector>

#include "exec/exec_program.h"
#include "exec/hw_errors.h"
#include "exec/node_sequencers.h"
#include "spec/address.h"
#include "tables/mac.h"

namespace hcube {

/// A PASS register, or a channel's input register: the word and whether it holds one.
struct Latch {
  u32 data = 0;
  u32 valid = 0;
};

template <class Engine>
class NodeCore {
 protected:
  using Kind = ExecStep::Kind;

  /// The block's `nodes` nodes start at cube address `base` (0 in one process); `initial` is
  /// the whole cube's memory or the block's part only.
  NodeCore(const TableSet& set, const CubeMemory& initial, u64 nodes, u64 base)
      : h_(set.header),
        p_(decodeTables(set, initial.words_per_node)),
        nodes_(nodes),
        base_(base),
        channels_(h_.channels()),
        words_(initial.words_per_node),
        node_dims_(log2Exact(nodes)),
        rows_(layoutRows(words_, nodes)),
        relative_(rows_ <= 2 * words_),
        seq_(p_, h_.mac_overlap, nodes, base),
        arrivals_(nodes, 0),
        pass_held_(nodes, 0),
        inbox_(nodes * channels_),
        pass_(nodes * channels_),
        copied_(channels_),
        sums_(channels_) {
    loadMemory(initial);
  }

  /// The rows of the relative layout: a power of two, at least the memory and the nodes.
  static u64 layoutRows(u64 words, u64 nodes) {
    u64 rows = 1;
    while (rows < std::max(words, nodes)) rows <<= 1;
    return rows;
  }

  /// Where slot `slot` of the block's node i lives in mem_. Node-major (i * M + slot) in
  /// general; where it costs at most twice the memory, by relative slot (slot XOR i, then i):
  /// in a cycle of a homogeneous schedule with relative slots every node reads and writes the
  /// same relative slots, so the sweeps over the nodes run through memory in order instead of
  /// jumping to a different line for every word.
  u64 at(u64 i, u64 slot) const {
    return relative_ ? ((slot ^ i) << node_dims_) | i : i * words_ + slot;
  }

  void raise(u64 i, HwError e) { seq_.raise(i, e); }

  /// Copies the block's part of the initial memory into mem_. The relative layout is a
  /// transpose (row = relative slot, column = node): it is filled a few nodes at a time, so
  /// that the lines of the nodes' memories being read stay in the cache while every row takes
  /// its part of one line.
  void loadMemory(const CubeMemory& initial) {
    const u32* words = &initial.words[initial.nodes == nodes_ ? 0 : base_ * words_];
    if (!relative_) {
      mem_.assign(words, words + nodes_ * words_);
      return;
    }
    mem_.assign(rows_ * nodes_, 0);
    const u64 block = std::min<u64>(nodes_, kTransposeBlock);
    for (u64 i0 = 0; i0 < nodes_; i0 += block) {
      for (u64 row = 0; row < rows_; ++row) {
        u32* out = &mem_[(row << node_dims_) | i0];
        for (u64 i = i0; i < i0 + block; ++i) {
          const u64 slot = row ^ i;
          if (slot < words_) out[i - i0] = words[i * words_ + slot];
        }
      }
    }
  }

  /// The block's final memory, node-major, into `out`, once at the end of a run (mem_ is left
  /// empty).
  void takeMemory(std::vector<u32>& out) {
    if (!relative_) {
      out = std::move(mem_);
      mem_ = {};
      return;
    }
    out.assign(nodes_ * words_, 0);
    const u64 block = std::min<u64>(nodes_, kTransposeBlock);
    for (u64 i0 = 0; i0 < nodes_; i0 += block) {
      for (u64 row = 0; row < rows_; ++row) {
        const u32* in = &mem_[(row << node_dims_) | i0];
        for (u64 i = i0; i < i0 + block; ++i) {
          const u64 slot = row ^ i;
          if (slot < words_) out[i * words_ + slot] = in[i - i0];
        }
      }
    }
    mem_ = {};
  }

  /// The word node i sends for `op` this cycle (from its memory, or from its PASS register
  /// `pass` for a FWD), with the send-side checks of docs/hardware/checks.md; false: nothing
  /// is sent (a FWD from an empty PASS register).
  bool sendWord(u64 i, const ExecSend& op, const Latch* pass, u32& word) {
    if (op.fwd) {
      if (pass[op.fwd_channel].valid == 0) {
        raise(i, HwError::kFwd);
        return false;
      }
      word = pass[op.fwd_channel].data;
      return true;
    }
    const u64 slot = op.from.at(base_ + i);
    if (op.from.may_overflow && slot >= words_) {
      raise(i, HwError::kSlot);  // sends the word 0, as the RTL does
    } else {
      word = mem_[at(i, slot)];
    }
    return true;
  }

  /// The PASS words node i holds are dropped unless step s forwards every one of them.
  void dropPassWords(u64 i, const ExecStep& s) {
    Latch* pass = &pass_[i * channels_];
    u64 forwarded = 0;
    if (s.kind == Kind::kXfer) {
      for (u32 c = s.forwarded.begin; c < s.forwarded.end; ++c) {
        forwarded += pass[p_.channels[c]].valid;
      }
    }
    if (forwarded < pass_held_[i]) raise(i, HwError::kDropped);
    for (size_t c = 0; c < channels_; ++c) pass[c].valid = 0;
    pass_held_[i] = 0;
    --held_;
  }

  /// Falling edge at node i: it stores what arrived (or its PERMUTE copies), fills its PASS
  /// registers, runs its MAC units' cycle and advances its sequencer.
  void fallingEdge(u64 i, u64 cycle) {
    const ExecStep& s = p_.steps[seq_.pc[i]];
    // ---- the MAC units' cycle (docs/hardware/arithmetic.md §2, §3): formed from the
    // memory as it is at the start of the cycle, written after the channels' writes. ----
    const bool busy = seq_.mac_left[i] > 0;
    const MacField* mac = busy                   ? &p_.macs[seq_.mac_of[i]]
                          : s.kind == Kind::kMac ? &p_.macs[s.mac]
                                                 : nullptr;
    MacCycle work;
    if (mac != nullptr) work = multiplyAccumulate(i, *mac, busy ? seq_.mac_t[i] : 0);
    if (busy) checkOverlap(i, s, *mac);
    u32 consumed = 0;
    if (s.kind == Kind::kXfer) {
      consumed = receive(i, s, cycle);
    } else if (s.kind == Kind::kPermute) {
      copy(i, s);
    }
    if (work.writes) mem_[at(i, work.slot)] = work.word;
    if (arrivals_[i] != consumed) {
      // Words on a channel whose input side is IDLE (or at a node not in an XFER) are lost.
      raise(i, HwError::kLost);
      for (size_t c = 0; c < channels_; ++c) inbox_[i * channels_ + c].valid = 0;
    }
    arrivals_[i] = 0;
    seq_.advance(i);
    seq_.countStep(i);
  }

  /// An XFER's receives at node i; returns the words it took from the input registers.
  u32 receive(u64 i, const ExecStep& s, u64 cycle) {
    const u64 y = base_ + i;
    Latch* in = &inbox_[i * channels_];
    u32 consumed = 0;
    u32 passes = 0;
    // ---- combining receive (docs/hardware/arithmetic.md §1) ----
    // An ADD stores the slot as it was at the start of the cycle plus the arriving word (W = 32
    // bit wrap-around), so every sum is formed before any receive of the cycle writes.
    if (s.adds) {
      for (u32 o = s.receives.begin; o < s.receives.end; ++o) {
        const ExecReceive& op = p_.receives[o];
        if (!op.add || in[op.channel].valid == 0) continue;
        const u64 slot = op.to.at(y);
        if (slot < words_) sums_[op.channel] = mem_[at(i, slot)] + in[op.channel].data;
      }
    }
    for (u32 o = s.receives.begin; o < s.receives.end; ++o) {
      const ExecReceive& op = p_.receives[o];
      Latch& arriving = in[op.channel];
      u64 slot = 0;
      // Receive slots are checked whether or not a word arrives.
      if (!op.pass) {
        slot = op.to.at(y);
        if (op.to.may_overflow && slot >= words_) raise(i, HwError::kSlot);
      }
      if (arriving.valid == 0) {
        raise(i, HwError::kNoData);
        continue;
      }
      arriving.valid = 0;
      ++consumed;
      if (op.pass) {
        pass_[i * channels_ + op.channel] = {arriving.data, 1};
        ++passes;
      } else if (slot < words_) {
        // With a conflict, the higher channel's word is kept. An ADD's word is already the sum
        // (above); the monitor sees the word that arrived.
        mem_[at(i, slot)] = op.add ? sums_[op.channel] : arriving.data;
        static_cast<Engine&>(*this).monitorStore(arriving.data, cycle);
      }
    }
    if (passes != 0) {
      pass_held_[i] = passes;
      ++held_;
    }
    for (u32 k = s.clashes.begin; k < s.clashes.end; ++k) {
      const u64 a = p_.receives[s.receives.begin + p_.clashes[k].first].to.at(y);
      const u64 b = p_.receives[s.receives.begin + p_.clashes[k].second].to.at(y);
      if (a == b && a < words_) raise(i, HwError::kConflict);
    }
    return consumed;
  }

  /// A PERMUTE at node i (docs/hardware/node.md §2.1): every copy reads the memory as it is at
  /// the start of the cycle (outside the memory: a slot error, the word 0) and writes at its
  /// end (outside: a slot error, nothing written); of two copies into one slot the higher
  /// channel's word is kept.
  void copy(u64 i, const ExecStep& s) {
    const u64 y = base_ + i;
    if (s.illegal) raise(i, HwError::kIllegal);
    for (u32 o = s.copies.begin; o < s.copies.end; ++o) {
      const ExecSlot& from = p_.copies[o].from;
      const u64 slot = from.at(y);
      u32 word = 0;
      if (from.may_overflow && slot >= words_) {
        raise(i, HwError::kSlot);
      } else {
        word = mem_[at(i, slot)];
      }
      copied_[o - s.copies.begin] = word;
    }
    for (u32 o = s.copies.begin; o < s.copies.end; ++o) {
      const ExecSlot& to = p_.copies[o].to;
      const u64 slot = to.at(y);
      if (to.may_overflow && slot >= words_) {
        raise(i, HwError::kSlot);
      } else {
        mem_[at(i, slot)] = copied_[o - s.copies.begin];
      }
    }
    for (u32 k = s.clashes.begin; k < s.clashes.end; ++k) {
      const u64 a = p_.copies[s.copies.begin + p_.clashes[k].first].to.at(y);
      const u64 b = p_.copies[s.copies.begin + p_.clashes[k].second].to.at(y);
      if (a == b && a < words_) raise(i, HwError::kConflict);
    }
  }

  /// Cycle t of MAC f at node i (docs/hardware/arithmetic.md §2, sw/tables/mac.h): the write
  /// it makes at the end of the cycle. A node executing a MAC instruction uses no port: words
  /// arriving are lost and a held PASS word is dropped, as in a PERMUTE (in overlap mode, in
  /// its issue cycle).
  MacCycle multiplyAccumulate(u64 i, const MacField& f, u64 t) {
    const MacCycle work =
        macStep(f, h_.mac_units, t, words_, [&](u64 slot) { return mem_[at(i, slot)]; });
    if (work.out_of_range) raise(i, HwError::kSlot);
    if (macOverlap(f)) raise(i, HwError::kConflict);
    mac_ = true;
    return work;
  }

  /// MAC overlap mode (docs/hardware/arithmetic.md §3): node i's units run MAC f, issued in an
  /// earlier cycle, beside step s. A MAC issued now is refused; an XFER or PERMUTE may not read
  /// f's C block nor write any of its blocks (checks on the instruction, like the receive
  /// slots').
  void checkOverlap(u64 i, const ExecStep& s, const MacField& f) {
    const u64 y = base_ + i;
    bool hazard = false;
    if (s.kind == Kind::kMac) {
      hazard = h_.mac_overlap;  // without overlap it is the running MAC's own instruction
    } else if (s.kind == Kind::kXfer) {
      for (u32 o = s.sends.begin; o < s.sends.end && !hazard; ++o) {
        const ExecSend& op = p_.sends[o];
        hazard = !op.fwd && macReadHazard(f, op.from.at(y));
      }
      for (u32 o = s.receives.begin; o < s.receives.end && !hazard; ++o) {
        const ExecReceive& op = p_.receives[o];
        hazard = !op.pass && macWriteHazard(f, op.to.at(y));
      }
    } else if (s.kind == Kind::kPermute) {
      for (u32 o = s.copies.begin; o < s.copies.end && !hazard; ++o) {
        const ExecCopy& op = p_.copies[o];
        hazard = macReadHazard(f, op.from.at(y)) || macWriteHazard(f, op.to.at(y));
      }
    }
    if (hazard) raise(i, HwError::kOverlap);
  }

  static constexpr u64 kTransposeBlock = 16;  ///< nodes per pass of the layout's transposes

  const TableHeader& h_;
  const ExecProgram p_;
  const u64 nodes_;        ///< the block's nodes
  const u64 base_;         ///< the cube address of its first node
  const size_t channels_;  ///< channels per node and direction
  const u64 words_;        ///< memory words per node
  const int node_dims_;    ///< log2 of nodes_: the relative layout's row stride
  const u64 rows_;         ///< the relative layout's rows (layoutRows)
  const bool relative_;    ///< mem_ is laid out by relative slot (at())
  std::vector<u32> mem_;   ///< every node's memory
  NodeSequencers seq_;     ///< every node's sequencer and error counters
  // Per node.
  std::vector<u32> arrivals_;   ///< words put in its input registers this cycle
  std::vector<u32> pass_held_;  ///< PASS registers filled in the previous cycle
  // Per node and channel.
  std::vector<Latch> inbox_;  ///< input registers: the words arriving this cycle
  std::vector<Latch> pass_;   ///< PASS registers
  // Scratch of one node's cycle.
  std::vector<u32> copied_;  ///< a PERMUTE's words, read before any is written
  std::vector<u32> sums_;    ///< per channel: an ADD receive's sum, formed before any write
  u64 held_ = 0;             ///< nodes holding PASS words
  bool mac_ = false;         ///< some node executes a MAC in this cycle
};

}  // namespace hcube

// hcube: a node's sequencer — which instruction a node executes in a cycle (docs/hardware/node.md
// §2). Shared by the verifier and the TLM model so that they count cycles the same way as the
// RTL: XFER takes one cycle, WAIT c takes c, END ends the node, and a program counter past the
// end of the table reads END (table memory is cleared to END).
//
// The sequencer also keeps the state of the node's MAC units (docs/hardware/arithmetic.md §2,
// docs/hardware/arithmetic.md §3): a MAC instruction issues its MAC to the units, which work on it
// for macCycles() cycles, the issue cycle first. Without overlap the sequencer stays on the MAC
// until the units are done; in MAC overlap mode it moves on after the issue cycle and the units run
// in the background (a MAC met while they are busy is refused: an `overlap` error, one cycle,
// nothing started). A node is done when its sequencer has reached END and its units are idle.
#pragma once

#include <algorithm>

#include "tables/table.h"

namespace hcube {

class Sequencer {
 public:
  explicit Sequencer(const Table* table, u32 mac_units = 1, bool mac_overlap = false)
      : table_(table), mac_units_(mac_units), mac_overlap_(mac_overlap) {}

  /// The instruction for the coming cycle; END once the sequencer has ended.
  const Instruction& current() const {
    static const Instruction kEnd = Instruction::end();
    return pc_ < table_->size() ? (*table_)[pc_] : kEnd;
  }
  /// The sequencer has reached END and the MAC units are idle.
  bool done() const { return current().op == Opcode::kEnd && mac_left_ == 0; }
  size_t pc() const { return pc_; }

  /// Cycles left in the current WAIT (0 if the current instruction is not a WAIT).
  u64 waitLeft() const {
    const Instruction& ins = current();
    return ins.op == Opcode::kWait ? ins.wait - waited_ : 0;
  }

  /// The MAC units are busy in the coming cycle with a MAC issued in an earlier cycle.
  bool macBusy() const { return mac_left_ > 0; }
  /// The cycles the units are still busy with that MAC, the coming one included (0: idle).
  u64 macLeft() const { return mac_left_; }
  /// The MAC the units work on in the coming cycle (null: they are idle): the running one, or
  /// the one the current instruction issues.
  const MacField* macWork() const {
    if (mac_left_ > 0) return &mac_;
    const Instruction& ins = current();
    return ins.op == Opcode::kMac ? &ins.mac : nullptr;
  }
  /// The cycle of macWork() the units execute in the coming cycle (0 .. macCycles - 1).
  u64 macCycle() const { return mac_left_ > 0 ? mac_t_ : 0; }
  /// The current instruction is a MAC that starts now (the units are idle).
  bool macIssues() const { return mac_left_ == 0 && current().op == Opcode::kMac; }
  /// Overlap mode: the current instruction is a MAC while the units are busy (refused).
  bool macRefused() const { return mac_overlap_ && mac_left_ > 0 && current().op == Opcode::kMac; }

  /// Advances past one cycle: the MAC units and the current instruction.
  void advance() {
    const Instruction& ins = current();
    if (mac_left_ > 0) {
      ++mac_t_;
      --mac_left_;
    } else if (ins.op == Opcode::kMac) {
      mac_ = ins.mac;
      mac_t_ = 1;
      mac_left_ = ins.cycles(mac_units_) - 1;
    }
    switch (ins.op) {
      case Opcode::kEnd:
        return;
      case Opcode::kWait:
        if (++waited_ < ins.cycles(mac_units_)) return;
        waited_ = 0;
        break;
      case Opcode::kMac:
        if (!mac_overlap_ && mac_left_ > 0) return;  // without overlap: until the units are done
        break;
      default:
        break;
    }
    ++pc_;
  }

  /// Advances `cycles` cycles at once, all inside the current WAIT (cycles <= waitLeft()), or,
  /// at END, inside the drain of the MAC units (cycles <= macLeft()): the same as calling
  /// advance() that often, at the cost of one call.
  void skipWait(u64 cycles) {
    const Instruction& ins = current();
    const u64 room = ins.op == Opcode::kWait ? waitLeft() : ins.op == Opcode::kEnd ? mac_left_ : 0;
    if (cycles == 0 || cycles > room) return;
    const u64 mac = std::min(cycles, mac_left_);
    mac_t_ += mac;
    mac_left_ -= mac;
    if (ins.op != Opcode::kWait) return;
    if (cycles < waitLeft()) {
      waited_ += cycles;
      return;
    }
    waited_ = 0;
    ++pc_;
  }

 private:
  const Table* table_;
  u32 mac_units_ = 1;
  bool mac_overlap_ = false;
  size_t pc_ = 0;
  u64 waited_ = 0;
  MacField mac_;      ///< the MAC the units run (issued in an earlier cycle)
  u64 mac_t_ = 0;     ///< its cycle in the coming cycle
  u64 mac_left_ = 0;  ///< its cycles left, the coming one included
};

}  // namespace hcube

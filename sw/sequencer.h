// hcube: a node's sequencer — which instruction a node executes in a cycle (docs/hardware.md
// §2). Shared by the table executor, the verifier and the TLM model so that all of them count
// cycles the same way as the RTL: XFER takes one cycle, WAIT c takes c, a MAC its
// macCycles() on the hardware's multiply-add units (§2.3), END ends the node, and
// a program counter past the end of the table reads END (table memory is cleared to END).
#pragma once

#include "table.h"

namespace hcube {

class Sequencer {
 public:
  explicit Sequencer(const Table* table, u32 mac_units = 1)
      : table_(table), mac_units_(mac_units) {}

  /// The instruction for the coming cycle; END once the node is done.
  const Instruction& current() const {
    static const Instruction kEnd = Instruction::end();
    return pc_ < table_->size() ? (*table_)[pc_] : kEnd;
  }
  bool done() const { return current().op == Opcode::kEnd; }
  size_t pc() const { return pc_; }

  /// Cycles left in the current WAIT (0 if the current instruction is not a WAIT).
  u64 waitLeft() const {
    const Instruction& ins = current();
    return ins.op == Opcode::kWait ? ins.wait - waited_ : 0;
  }

  /// MAC: the cycle of the current MAC executing next (0 .. macCycles - 1).
  u64 macCycle() const { return waited_; }

  /// Advances past one cycle of the current instruction.
  void advance() {
    const Instruction& ins = current();
    if (ins.op == Opcode::kWait || ins.op == Opcode::kMac) {
      if (++waited_ < ins.cycles(mac_units_)) return;
      waited_ = 0;
    }
    if (ins.op != Opcode::kEnd) ++pc_;
  }

  /// Advances `cycles` cycles at once, all inside the current WAIT (cycles <= waitLeft()): the
  /// same as calling advance() that often, at the cost of one call.
  void skipWait(u64 cycles) {
    if (cycles == 0 || cycles > waitLeft()) return;
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
  size_t pc_ = 0;
  u64 waited_ = 0;
};

}  // namespace hcube

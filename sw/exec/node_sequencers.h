#pragma once
// The sequencers of a block of nodes and their error counters, as the table executor keeps
// them: in one process the block is the whole cube, under MPI the rank's subcube
// (exec/exec_partitioned.h). Both engines step their nodes with these functions, so that a
// change to the sequencer (docs/hardware/node.md §2) or to how errors are counted
// (docs/hardware/checks.md) is made once.

#include <algorithm>
#include <vector>

#include "exec/exec_program.h"
#include "exec/hw_errors.h"

namespace hcube {

/// Per-node sequencer state in flat arrays indexed by the node's place in the block (0 ..
/// nodes-1), and the counts the cycle loop asks for.
class NodeSequencers {
 public:
  using Kind = ExecStep::Kind;

  /// `base` is the cube address of the block's first node (0 in one process): the tables and
  /// the recorded error events name nodes by cube address.
  NodeSequencers(const ExecProgram& p, bool mac_overlap, u64 nodes, u64 base)
      : p_(p),
        mac_overlap_(mac_overlap),
        base_(base),
        pc(nodes, 0),
        wait_left(nodes, 0),
        mac_of(nodes, 0),
        mac_t(nodes, 0),
        mac_left(nodes, 0),
        events_(nodes, 0),
        errors_(nodes * kHwErrorKinds, 0) {
    for (u64 i = 0; i < nodes; ++i) {
      pc[i] = p_.entryOf(base_ + i);
      enter(i);
      countStep(i);
    }
  }

  /// Node i raises error e in this cycle.
  void raise(u64 i, HwError e) {
    if (events_[i] == 0) dirty_.push_back(i);
    events_[i] |= 1U << static_cast<int>(e);
  }

  /// Ends a cycle's error events. As in the RTL, a counter counts the cycles in which its
  /// condition held at a node (not the channels), and saturates at 16 bits. With `record`,
  /// every event of the cycle is also appended to `out` in node order.
  void countEvents(u64 cycle, bool record, std::vector<HwErrorEvent>& out) {
    if (record) std::sort(dirty_.begin(), dirty_.end());
    for (u64 i : dirty_) {
      for (int k = 0; k < kHwErrorKinds; ++k) {
        u32& count = errors_[i * kHwErrorKinds + static_cast<u64>(k)];
        if (((events_[i] >> k) & 1U) == 0) continue;
        if (count < 0xFFFF) ++count;
        if (record) out.push_back({cycle, base_ + i, static_cast<HwError>(k)});
      }
      events_[i] = 0;
    }
    dirty_.clear();
  }

  /// Node i's count of error e so far.
  u32 errors(u64 i, int e) const { return errors_[i * kHwErrorKinds + static_cast<u64>(e)]; }

  /// Node i has just reached step pc[i]: start its WAIT, or stop at END.
  void enter(u64 i) {
    const ExecStep& s = p_.steps[pc[i]];
    if (s.kind == Kind::kWait) wait_left[i] = s.wait;
    if (s.kind != Kind::kEnd) ++active;
  }

  /// Counts node i's coming step for the wait skip: a node that is neither waiting nor done
  /// acts, and the shortest wait left bounds a skip.
  void countStep(u64 i) {
    const Kind k = p_.steps[pc[i]].kind;
    if (k == Kind::kWait) {
      shortest_wait = std::min<u64>(shortest_wait, wait_left[i]);
    } else if (k != Kind::kEnd) {
      ++acting;
    }
  }

  /// One cycle of node i's sequencer (docs/hardware/node.md §2): XFER and PERMUTE take one
  /// cycle, WAIT c takes c, END stays. Running past a table without END is an overrun. A MAC
  /// issues to the node's MAC units (sw/tables/sequencer.h): without overlap the sequencer stays
  /// on it until the units are done, in overlap mode (docs/hardware/arithmetic.md §3) it moves
  /// on after one cycle. (`cycles` > 1 only in a WAIT skip, when no MAC units are busy.)
  void advance(u64 i, u64 cycles = 1) {
    const ExecStep& s = p_.steps[pc[i]];
    if (mac_left[i] > 0) {
      ++mac_t[i];
      if (--mac_left[i] == 0) --mac_busy;
    } else if (s.kind == Kind::kMac && s.mac_cycles > 1) {
      mac_of[i] = s.mac;
      mac_t[i] = 1;
      mac_left[i] = s.mac_cycles - 1;
      ++mac_busy;
    }
    if (s.kind == Kind::kEnd) return;
    if (s.kind == Kind::kWait) {
      wait_left[i] -= static_cast<u32>(cycles);
      if (wait_left[i] != 0) return;
    }
    if (s.kind == Kind::kMac && !mac_overlap_ && mac_left[i] > 0) return;
    --active;
    ++pc[i];
    if (p_.steps[pc[i]].overrun) raise(i, HwError::kOverrun);
    enter(i);
  }

  /// Before a sweep that advances and counts every node: the counts start afresh.
  void startCount() {
    acting = 0;
    shortest_wait = ~u64{0};
  }

  /// A WAIT skip: every node runs `cycles` cycles of the waits it is in (and whatever ends
  /// with them), and is counted again.
  void skip(u64 cycles) {
    startCount();
    for (u64 i = 0; i < pc.size(); ++i) {
      advance(i, cycles);
      countStep(i);
    }
  }

  /// Every node ends its lockstep step (one cycle, all at one step) and enters the next, as
  /// advance() and countStep() would node by node.
  void lockstepAdvance() {
    const u32 next = pc[0] + 1;
    std::fill(pc.begin(), pc.end(), next);
    const ExecStep& t = p_.steps[next];
    startCount();
    const u64 nodes = pc.size();
    if (t.overrun) {
      for (u64 i = 0; i < nodes; ++i) raise(i, HwError::kOverrun);
    }
    if (t.kind == Kind::kEnd) {
      active -= nodes;
    } else if (t.kind == Kind::kWait) {
      std::fill(wait_left.begin(), wait_left.end(), t.wait);
      shortest_wait = t.wait;
    } else {
      acting = nodes;
    }
  }

 private:
  const ExecProgram& p_;
  const bool mac_overlap_;
  const u64 base_;

 public:
  std::vector<u32> pc;          ///< current step (index into ExecProgram::steps)
  std::vector<u32> wait_left;   ///< cycles left in the current WAIT
  std::vector<u32> mac_of;      ///< the MAC its units run (index into ExecProgram::macs), if busy
  std::vector<u64> mac_t;       ///< that MAC's cycle in the coming cycle
  std::vector<u64> mac_left;    ///< its busy cycles left, the coming one included (0: idle)
  u64 active = 0;               ///< nodes not at END
  u64 acting = 0;               ///< nodes whose coming step is neither WAIT nor END
  u64 mac_busy = 0;             ///< nodes whose MAC units are busy (mac_left > 0)
  u64 shortest_wait = ~u64{0};  ///< the shortest wait left of a waiting node

 private:
  std::vector<u32> events_;  ///< per node: this cycle's error kinds, one bit each
  std::vector<u64> dirty_;   ///< nodes with events this cycle
  std::vector<u32> errors_;  ///< per node and kind: the saturating counters
};

}  // namespace hcube

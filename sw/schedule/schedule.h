// hcube: abstract schedules — what an algorithm in a paper says, before any hardware detail.
//
// A homogeneous schedule (Johnsson & Ho 1992 §2.1) depends only on relative addresses: in step
// t, across dimension j, every node x sends the element in its local slot w ^ x, where w is the
// schedule entry, and the element arriving from the neighbour takes the same relative slot.
// Edelman's Theorem 3.2 array w_ij is exactly such a schedule.
#pragma once

#include <string>
#include <vector>

#include "spec/address.h"

namespace hcube {

class RelativeSchedule {
 public:
  static constexpr u32 kIdle = 0xFFFFFFFFU;

  RelativeSchedule(std::string algo, int dims, u64 steps)
      : algo_(std::move(algo)), dims_(dims), steps_(steps), entries_(steps * dims, kIdle) {}

  const std::string& algo() const { return algo_; }
  int dims() const { return dims_; }
  u64 steps() const { return steps_; }
  /// Relative address sent across dimension `dim` in step `step` (0-based), or kIdle.
  u32 at(u64 step, int dim) const { return entries_[step * dims_ + dim]; }
  void set(u64 step, int dim, u32 rel) { entries_[step * dims_ + dim] = rel; }

 private:
  std::string algo_;
  int dims_;
  u64 steps_;
  std::vector<u32> entries_;
};

/// One element crossing one link in one step: the element in `slot` of `node` crosses
/// dimension `dim` and is stored in `to_slot` of the neighbour node ^ (1 << dim). With
/// dim == kLocal the element stays in `node` and is copied from `slot` to `to_slot` by a PERMUTE
/// (docs/hardware/node.md §2.1); a step holds either link moves or local copies, not both.
struct Move {
  static constexpr int kLocal = -1;
  u64 node = 0;
  u32 slot = 0;
  int dim = 0;
  u32 to_slot = 0;
};

/// A general (not necessarily homogeneous) schedule: per step, the moves made in it. Step
/// semantics as the hardware's (docs/hardware/node.md §2): all moves of a step read the memory as
/// it was at the start of the step.
struct MoveSchedule {
  std::string algo;
  int dims = 1;
  std::vector<std::vector<Move>> steps;
};

/// Span of every relative address (Johnsson & Ho 1992 Definition 2): last step in which it
/// moves minus first step plus one; the maximum over all addresses.
u64 relativeScheduleSpan(const RelativeSchedule& s);

/// A homogeneous AAPC schedule over all K = m * 2^d relative slots, with wide channels and
/// block transfers (Johnsson & Ho 1992 §2.1, §5, §6). Relative slot (h << d) | a holds, on every
/// node, the element of repetition h with aligned address a; in step t every node sends the slot
/// named for channel c = port * lanes + lane and receives the neighbour's word into the same
/// relative slot (a swap, as in RelativeSchedule). A block transfer (one message, one start-up
/// cost τ) begins at every step whose block_starts entry is set.
struct SlotSchedule {
  static constexpr u32 kIdle = RelativeSchedule::kIdle;
  std::string algo;
  int dims = 1;
  int lanes = 1;
  u64 slots = 2;                        ///< K
  std::vector<std::vector<u32>> steps;  ///< steps[t][port * lanes + lane]: relative slot or kIdle
  std::vector<bool> block_starts;       ///< per step: a block transfer starts here

  SlotSchedule(std::string name, int d, int b, u64 k)
      : algo(std::move(name)), dims(d), lanes(b), slots(k) {}
  /// Appends an idle step; `block` marks the start of a block transfer.
  std::vector<u32>& addStep(bool block) {
    steps.emplace_back(static_cast<size_t>(dims) * static_cast<size_t>(lanes), kIdle);
    block_starts.push_back(block);
    return steps.back();
  }
  u64 blocks() const;
};

/// The schedule `s` (2^d aligned addresses) repeated for the m = K / 2^d repetitions of an AAPC
/// with K slots (Johnsson & Ho 1992 §2.1), one lane, repetition by repetition; every step is
/// its own block transfer (the nonblocked algorithm).
SlotSchedule repeatRelative(const RelativeSchedule& s, u64 slots);

/// Span (Johnsson & Ho 1992 Definition 2) in steps: max over slots of last - first step + 1.
u64 slotScheduleSpan(const SlotSchedule& s);

/// Checks a slot schedule of an AAPC: every slot is in range, no slot moves twice in one step,
/// and every slot (h << d) | a crosses exactly the dimensions of the one bits of a, once each.
/// One message per violation (at most `limit`).
std::vector<std::string> checkAapcSlotSchedule(const SlotSchedule& s, size_t limit = 10);

}  // namespace hcube

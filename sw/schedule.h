// hcube: abstract schedules — what an algorithm in a paper says, before any hardware detail.
//
// A homogeneous schedule (Johnsson & Ho 1992 §2.1) depends only on relative addresses: in step
// t, across dimension j, every node x sends the element in its local slot w ^ x, where w is the
// schedule entry, and the element arriving from the neighbour takes the same relative slot.
// Edelman's Theorem 3.2 array w_ij is exactly such a schedule.
#pragma once

#include <string>
#include <vector>

#include "address.h"

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
/// (docs/hardware.md §2.1); a step holds either link moves or local copies, not both.
struct Move {
  static constexpr int kLocal = -1;
  u64 node = 0;
  u32 slot = 0;
  int dim = 0;
  u32 to_slot = 0;
};

/// A general (not necessarily homogeneous) schedule: per step, the moves made in it. Step
/// semantics as the hardware's (docs/hardware.md §2): all moves of a step read the memory as it
/// was at the start of the step.
struct MoveSchedule {
  std::string algo;
  int dims = 1;
  std::vector<std::vector<Move>> steps;
};

/// Span of every relative address (Johnsson & Ho 1992 Definition 2): last step in which it
/// moves minus first step plus one; the maximum over all addresses.
u64 relativeScheduleSpan(const RelativeSchedule& s);

}  // namespace hcube

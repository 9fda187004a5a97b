// hcube: the project's relative-address schedules for all-to-all personalized communication
// (AAPC), by name, as one slot schedule (sw/schedule/schedule.h, SlotSchedule) over K = m * 2^d
// slots: what `hcube run --algo edelman|jh1|jh2|jh3|jh4|exchange|sbnt` runs, and what every
// algorithm built out of AAPCs reuses (Ho & Johnsson 1988 §4.3.2, Algorithm A2: two AAPCs in
// subcubes of dimension sigma_p). An improvement to one of these schedules improves all of them.
//
//  * edelman: Edelman 1991 §3 (Theorem 3.2, the direct algorithm), repeated m times.
//  * jh1 .. jh4: Johnsson & Ho 1992 Algorithms 1-4 (§3.1-3.5); jh1 packs the complement pairs of
//    all repetitions (d * ceil(K/2d) steps), the others repeat their 2^d-address schedule.
//    With `blocking`, §5's blocking procedure (Algorithm 4: d block transfers, Lemma 4); with
//    lanes > 1, §6's wide channels (Lemma 5).
//  * exchange: the standard exchange algorithm (Johnsson & Ho 1987 §3.2, §5), one port per step:
//    d exchanges of K/2, a block transfer per packet of at most `packet` elements.
//  * sbnt: routing on spanning balanced n-trees (Johnsson & Ho 1987 §3.1-3.2, §5), in d rounds
//    (one block transfer each) or greedy; `rsbt_tree` for rotated spanning binomial trees.
#pragma once

#include <string>
#include <vector>

#include "algorithms/aapc/sbnt.h"
#include "schedule/schedule.h"

namespace hcube {

struct AapcScheduleOptions {
  int lanes = 1;          ///< words per port and step (b; sbnt takes 1 only)
  u64 packet = 0;         ///< exchange: elements per block transfer; 0 = K/2 (one per exchange)
  bool blocking = false;  ///< edelman, jh1..jh4: Johnsson & Ho 1992 §5 blocking
  SbntScheduling sbnt_scheduling = SbntScheduling::kRounds;
  SbntTree sbnt_tree = SbntTree::kBalanced;
};

/// The AAPC schedule `name` on d dimensions with K = `slots` = m * 2^d elements per node. Throws
/// Error naming the schedule and why (unknown name, d or K out of range, a lane count it does
/// not take).
SlotSchedule aapcSlotSchedule(const std::string& name, int d, u64 slots,
                              const AapcScheduleOptions& options);

/// The names aapcSlotSchedule takes, in listing order.
const std::vector<std::string>& aapcScheduleNames();

/// Whether the schedule sends on one port per step (the exchange algorithm); the others send on
/// every port.
bool aapcScheduleIsOnePort(const std::string& name);

}  // namespace hcube

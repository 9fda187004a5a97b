// hcube: Johnsson & Ho 1992 Algorithm 1 (§3.1) for K = m * 2^d elements per node, with the
// complement pairs of all m repetitions of the AAPC (§2.1) packed into common blocks of d, so
// the step count is the paper's d * ceil(K / 2d) instead of m * d * ceil(2^(d-1) / d).
#pragma once

#include "schedule/schedule.h"

namespace hcube {

/// The m * 2^(d-1) complement pairs ((h << d) | x, (h << d) | ~x), x < 2^(d-1), by repetition h
/// and then x, go in blocks of d; pair u of a block is exchanged in dimension (u + r) mod d in
/// step r of the block (the member with that bit set moves), as Algorithm 1 does for one AAPC.
/// d * ceil(K / 2d) steps, span d; for m = 1 the steps of jhAlgorithm1(d). Every step is its
/// own block transfer. Throws Error on d or K out of range.
SlotSchedule jhAlgorithm1Packed(int d, u64 slots);

}  // namespace hcube

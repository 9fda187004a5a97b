// hcube: Edelman's optimal all-to-all personalized communication.
//
// A. Edelman, "Optimal Matrix Transposition and Bit Reversal on Hypercubes: All-to-All
// Personalized Communication", JPDC 1991, §3: Theorem 3.2 (a 2^(d-1) x d array w_ij that is wire
// appropriate, row unique and column unique is an optimal schedule: in step i every node sends
// the word at local address w_ij ^ node over link j, and the word arriving over link j takes its
// place) and the direct algorithm that builds such an array. 2^(d-1) steps meet the lower bound
// of Theorem 3.1.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.h"

namespace hcube {

/// Edelman's array for a d-cube by the direct algorithm (1 <= d <= 30): row i, column j is
/// n_i = 2i + 1 with bit j + 1 complemented (not for j = d - 1), then bits 0 and j swapped.
RelativeSchedule edelmanSchedule(int d);

/// Checks Theorem 3.2's three conditions (wire appropriateness, row uniqueness, column
/// uniqueness) and that every row has d entries; returns one message per violation.
std::vector<std::string> checkEdelmanConditions(const RelativeSchedule& s);

}  // namespace hcube

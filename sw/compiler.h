// hcube: the compiler — lowers an abstract schedule for a hardware configuration into per-node
// tables of the instructions of docs/hardware.md (DESIGN §3 "compile").
#pragma once

#include "permutation.h"
#include "schedule.h"
#include "table.h"

namespace hcube {

/// Hardware parameters the compiler lowers for.
struct CompileOptions {
  int lanes = 1;          ///< b, words per port and direction per cycle
  bool one_port = false;  ///< one-port hardware
  u64 scratch = 0;        ///< scratch slots to reserve per node
};

/// Lowers a homogeneous relative-address schedule (Edelman 1991 Theorem 3.2; Johnsson & Ho 1992
/// §2.1) for the AAPC `perm` into one shared table with relative slots: for each repetition h
/// of the AAPC (K = m * 2^d, Johnsson & Ho 1992 §2.1) and each step t, channel j sends relative
/// slot (h << d) | w_tj and receives into the same relative slot. Throws Error if the schedule
/// does not fit the permutation or the hardware.
TableSet compileRelative(const RelativeSchedule& schedule, const PermutationSpec& perm,
                         const CompileOptions& options);

/// Lowers a general move schedule into one table per node: step t becomes instruction t of
/// every node; the k-th move on a link in a step uses lane k. Throws Error naming the step,
/// node, port and slots when a link would carry more words in a step than it has lanes, or a
/// move names a dimension or slot the hardware does not have.
TableSet compileMoves(const MoveSchedule& schedule, const PermutationSpec& perm,
                      const CompileOptions& options);

}  // namespace hcube

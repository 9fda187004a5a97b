// hcube: the compiler — lowers an abstract schedule for a hardware configuration into per-node
// tables of the instructions of docs/hardware/node.md (docs/architecture.md §3 "compile").
#pragma once

#include <optional>

#include "schedule/schedule.h"
#include "spec/permutation.h"
#include "tables/table.h"

namespace hcube {

/// Hardware parameters the compiler lowers for.
struct CompileOptions {
  int lanes = 1;          ///< b, words per port and direction per cycle
  bool one_port = false;  ///< one-port hardware
  u64 scratch = 0;        ///< scratch slots to reserve per node
  /// compileMoves: a step of local copies that does not fit one PERMUTE (more than n * b copies
  /// on a node) is split into several PERMUTE cycles when that is exact; otherwise Error.
  bool split_local = true;
  /// τ: start-up cycles per block transfer (Johnsson & Ho 1992 §5), compiled as WAIT τ before
  /// the first step of every block (compileSlots); 0 = no start-up cost.
  u64 startup = 0;
};

/// Lowers a homogeneous relative-address schedule (Edelman 1991 Theorem 3.2; Johnsson & Ho 1992
/// §2.1) for the AAPC `perm` into one shared table with relative slots: for each repetition h
/// of the AAPC (K = m * 2^d, Johnsson & Ho 1992 §2.1) and each step t, channel j sends relative
/// slot (h << d) | w_tj and receives into the same relative slot. Throws Error if the schedule
/// does not fit the permutation or the hardware.
TableSet compileRelative(const RelativeSchedule& schedule, const PermutationSpec& perm,
                         const CompileOptions& options);

/// Lowers a homogeneous slot schedule (SlotSchedule: all K = m * 2^d relative slots, lanes, block
/// transfers; Johnsson & Ho 1992 §2.1, §5, §6) for the AAPC `perm` into one shared table with
/// relative slots: WAIT τ (options.startup, if > 0) before every step that starts a block
/// transfer, then one XFER per step in which channel c sends relative slot steps[t][c] and
/// receives into the same relative slot. The hardware needs at least the schedule's lanes; in
/// one-port mode every step must use one port. Throws Error naming the step, port and slot when
/// the schedule does not fit the permutation or the hardware, or moves an element twice in a
/// step.
TableSet compileSlots(const SlotSchedule& schedule, const PermutationSpec& perm,
                      const CompileOptions& options);

/// Lowers a general move schedule into one table per node. A step of link moves becomes one XFER
/// of every node; the k-th move on a link in a step uses lane k. A step of local copies
/// (Move::kLocal) becomes PERMUTE cycles (docs/hardware/node.md §2.1): node x's copies, in schedule
/// order, fill channels 0 .. n*b-1 of one PERMUTE, then of the next (only with split_local, and
/// only if no copy reads a slot an earlier PERMUTE of the step wrote, so the step semantics stay
/// exact); every node gets the same number of PERMUTEs (empty ones pad). Throws Error naming the
/// step, node, port and slots when a link would carry more words in a step than it has lanes, a
/// step mixes link moves and local copies, local copies cannot be split exactly, one-port
/// hardware would send or receive on two ports of a node, or a move names a node, dimension or
/// slot the hardware does not have.
TableSet compileMoves(const MoveSchedule& schedule, const PermutationSpec& perm,
                      const CompileOptions& options);

/// What the compile* calls of this thread lowered while a recorder is set: the abstract schedule
/// of each call, its permutation and options. `hcube schedule` builds a catalogue case with a
/// recorder set to write its abstract schedule to a schedule file (sw/algorithms/schedule_file.h).
struct CompileRecord {
  int calls = 0;  ///< compile* calls made; the schedule below is the last one's
  std::optional<RelativeSchedule> relative;
  std::optional<SlotSchedule> slots;
  std::optional<MoveSchedule> moves;
  std::optional<PermutationSpec> perm;
  CompileOptions options;
};

/// Sets (or, with nullptr, clears) this thread's recorder; returns the previous one.
CompileRecord* setCompileRecorder(CompileRecord* record);

}  // namespace hcube

// hcube: the schedule file format (.hcs, docs/schedule-format.md) — a schedule as a paper states
// it, per step which element crosses which dimension, in one of the compiler's three abstract
// forms (sw/schedule/schedule.h), with the permutation it realises:
//  * relative: Edelman 1991 Theorem 3.2's array w_ij (Johnsson & Ho 1992 §2.1 homogeneous
//    schedules): in step i every node x sends its word at local address w_ij ^ x across dim j;
//  * slots: a homogeneous slot schedule over all K = m 2^d relative slots, with lanes and the
//    steps that start a block transfer (Johnsson & Ho 1992 §2.1, §5, §6);
//  * moves: a general schedule, per step the moves (node, slot, dimension, destination slot) or
//    the local copies of one PERMUTE (docs/hardware/node.md §2.1).
// The reader checks what the schedule alone decides — ranges, two words on one lane, two words
// into one slot, and that every element ends where the permutation sends it — and names file,
// line, step, node and dimension ("FILE:LINE: ..."), as the table text format does.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "schedule/schedule.h"
#include "tables/compiler.h"

namespace hcube {

struct ScheduleFile {
  enum class Form { kRelative, kSlots, kMoves };
  Form form = Form::kRelative;
  std::string algo;
  int n = 1;
  PermutationSpec perm = PermutationSpec::aapc(1, 1);
  int lanes = 1;    ///< slots: channels per port; moves: words a link carries per step
  u64 scratch = 0;  ///< moves: scratch slots per node beyond the K data slots
  std::optional<RelativeSchedule> relative;
  std::optional<SlotSchedule> slots;
  std::optional<MoveSchedule> moves;
  std::string source;           ///< the file, for messages
  std::vector<int> step_lines;  ///< the line of every step
  u64 steps() const;
};

const char* formName(ScheduleFile::Form form);

/// Writes a schedule file (docs/schedule-format.md).
void writeScheduleFile(std::ostream& out, const ScheduleFile& s);
void writeScheduleFile(const std::string& path, const ScheduleFile& s);

/// Reads and checks a schedule file; `source` names it in messages ("FILE:LINE: ...").
/// Throws Error on any syntax or range problem, a lane carrying two words in a step, two words
/// stored into one slot in a step, or an element that does not end where the permutation says.
ScheduleFile readScheduleFile(std::istream& in, const std::string& source);
ScheduleFile readScheduleFile(const std::string& path);

/// Compiles a schedule file for the hardware of `options` (sw/tables/compiler.h); compile errors
/// that only the hardware decides (one-port, too few lanes) are prefixed with the file.
TableSet compileScheduleFile(const ScheduleFile& s, const CompileOptions& options);

/// The case a schedule file makes on that hardware: its tables, the permutation, the bound
/// known for it (K/2 for an all-port AAPC, or K/2b on b lanes; none otherwise) and its span.
BuiltCase caseFromSchedule(const ScheduleFile& s, const CompileOptions& options);

/// The abstract schedule of a catalogue case, as a schedule file: the case is built with a
/// compile recorder (sw/tables/compiler.h) and its tables must be exactly one compiled schedule.
/// Throws Error naming why when the algorithm has no such form (tables built instruction by
/// instruction, several schedules joined, tables changed after compiling).
ScheduleFile scheduleOfCase(const CaseSpec& spec, CompileOptions* options = nullptr);

}  // namespace hcube

// hcube: the table executor's decoded programs (sw/exec/executor.h). Every distinct table of a set
// is decoded once (a shared table once for all nodes) into flat lists of operations, so that
// the executor's inner loop runs an instruction without re-deciding what the table fixes in
// advance: which channels send or receive and how, which PASS registers an XFER forwards,
// which receive slots could ever name one slot, whether the one-port rule is broken, which
// slots could fall outside the memory at some node, where a table without END overruns.
//
// The semantics are those of docs/hardware/node.md §2 (PERMUTE: docs/hardware/node.md §2.1) and
// docs/hardware/checks.md; nothing here runs a cycle. A new instruction kind (the accumulating
// receive, a block multiply-accumulate) gets its own Kind and its own operation list here, and its
// own case in the executor's step.
#pragma once

#include <vector>

#include "tables/table.h"

namespace hcube {

/// A memory slot an operation names: `slot` XOR (node AND rel_mask), rel_mask all ones for a
/// relative slot and 0 for an absolute one.
struct ExecSlot {
  u32 slot = 0;
  u32 rel_mask = 0;
  bool may_overflow = false;  ///< outside the memory at some node (needs the range check)

  u64 at(u64 node) const { return slot ^ (node & rel_mask); }
};

/// An XFER channel whose output side sends: MEM reads `from`, FWD sends PASS register `fwd`.
struct ExecSend {
  u32 channel = 0;
  u32 port = 0;
  bool fwd = false;
  u32 fwd_channel = 0;
  ExecSlot from;
};

/// An XFER channel whose input side takes a word: MEM writes `to`, ADD adds the word into `to`
/// (the combining receive, docs/hardware/arithmetic.md §1), PASS fills the register.
struct ExecReceive {
  u32 channel = 0;
  bool pass = false;
  bool add = false;
  ExecSlot to;
};

/// A legal PERMUTE channel (MEM/MEM): copies `from` into `to`.
struct ExecCopy {
  ExecSlot from;
  ExecSlot to;
};

/// Two writes of one instruction (indices into its receives or copies) that name one slot at
/// some node: the only pairs the conflict check has to compare.
struct ExecClash {
  u32 first = 0;
  u32 second = 0;
};

/// A half-open range [begin, end) of one of the program's pools.
struct ExecRange {
  u32 begin = 0;
  u32 end = 0;
  bool empty() const { return begin == end; }
};

/// A lockstep move (see ExecStep::lockstep): for every node x, relative slot `to` of node
/// x ^ 2^port receives relative slot `from` of node x. With the executor's relative memory
/// layout both are rows of its memory, so a move is one sweep along two rows.
struct ExecMove {
  u32 from = 0;
  u32 to = 0;
  u32 port = 0;
  /// `to` is `from` and no other move of the step names that row: the move swaps the words of
  /// every pair of neighbours across `port` in place.
  bool in_place = false;
};

/// One decoded instruction.
struct ExecStep {
  enum class Kind : std::uint8_t { kEnd, kXfer, kWait, kPermute, kMac };
  Kind kind = Kind::kEnd;
  /// The END a sequencer reads past the last word of a table without END: entering it is an
  /// overrun (docs/hardware/checks.md).
  bool overrun = false;
  bool one_port = false;  ///< one-port mode and more than one port sends or receives
  bool illegal = false;   ///< PERMUTE: some channel is neither IDLE/IDLE nor MEM/MEM
  u32 wait = 0;           ///< WAIT: cycles
  ExecRange sends;        ///< XFER: into ExecProgram::sends, by channel
  ExecRange receives;     ///< XFER: into ExecProgram::receives, by channel
  ExecRange copies;       ///< PERMUTE: into ExecProgram::copies, by channel
  ExecRange forwarded;    ///< XFER: distinct PASS registers it forwards (ExecProgram::channels)
  ExecRange clashes;      ///< pairs of its writes that may name one slot (ExecProgram::clashes)
  bool adds = false;      ///< XFER: some receive is an ADD (its sums read the start of the cycle)
  /// XFER of a shared table that the decode proves raises no error at any node: every channel
  /// that sends (from memory, a relative slot inside the memory everywhere) also receives
  /// (into memory, likewise), no two writes meet, the one-port rule holds. All nodes run it
  /// in the same cycle, so the executor runs it as its `moves`, row by row, with no check.
  bool lockstep = false;
  bool staged = false;  ///< lockstep: some move writes a row another move reads (read all first)
  ExecRange moves;      ///< lockstep: into ExecProgram::moves, by channel
  // ---- block multiply-accumulate (docs/hardware/arithmetic.md §2, sw/tables/mac.h) ----
  u32 mac = 0;         ///< MAC: index into ExecProgram::macs
  u64 mac_cycles = 0;  ///< MAC: cycles on the header's multiply-add units
};

/// The decoded tables of a set: one run of steps per distinct table, each closed by an END.
struct ExecProgram {
  std::vector<ExecStep> steps;
  std::vector<ExecSend> sends;
  std::vector<ExecReceive> receives;
  std::vector<ExecCopy> copies;
  std::vector<u32> channels;
  std::vector<ExecClash> clashes;
  std::vector<ExecMove> moves;
  std::vector<MacField> macs;
  /// Per table of the set (one if shared): the index of its first step.
  std::vector<u32> entry;
  bool shared = true;
  /// Every step is END, WAIT or lockstep (a shared table): values only move, no error fires.
  bool all_lockstep = false;

  u32 entryOf(u64 node) const { return shared ? entry[0] : entry[node]; }
};

/// Decodes `set` (already checked by checkTableShape) for a memory of `words_per_node` words.
ExecProgram decodeTables(const TableSet& set, u64 words_per_node);

}  // namespace hcube

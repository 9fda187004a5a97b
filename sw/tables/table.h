// hcube: per-node schedule tables — the instruction set of docs/hardware/node.md §2.
//
// A table is the program a node's sequencer runs, one instruction per cycle: XFER (per channel
// an output side IDLE / MEM(slot) / FWD(channel) and an input side IDLE / MEM(slot) / PASS /
// ADD(slot), the combining receive),
// PERMUTE (the same channel fields; a MEM/MEM channel copies one local slot into another,
// docs/hardware/node.md §2.1), WAIT c, END. A channel is one lane of one port: channel = port *
// lanes + lane. A slot may be relative (XOR the node's address), so one table can serve every node
// of a homogeneous schedule (Edelman 1991 Theorem 3.2; docs/architecture.md §4).
#pragma once

#include <string>
#include <vector>

#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {

enum class OutOp : std::uint8_t { kIdle = 0, kMem = 1, kFwd = 2 };
/// Input side. kAdd is the combining receive of docs/hardware/arithmetic.md §1: the arriving
/// word is added (W-bit wrap-around) into the slot instead of overwriting it.
enum class InOp : std::uint8_t { kIdle = 0, kMem = 1, kPass = 2, kAdd = 3 };
/// docs/hardware/node.md §2: END, XFER (one transfer cycle), WAIT c, PERMUTE (one cycle of local
/// copies, same channel fields as XFER, docs/hardware/node.md §2.1), MAC (block
/// multiply-accumulate, docs/hardware/arithmetic.md §2; encoded as opcode 0 with sub-opcode 1, so
/// its enumerator is outside the 2-bit opcode field).
enum class Opcode : std::uint8_t { kEnd = 0, kXfer = 1, kWait = 2, kPermute = 3, kMac = 4 };

/// The block multiply-accumulate of docs/hardware/arithmetic.md §2: C += A x B over dense
/// row-major blocks in the node's own memory, A an m x k block at slot `a`, B a k x p block at
/// slot `b`, C an m x p block at slot `c` (absolute slots), W-bit wrap-around arithmetic.
struct MacField {
  u32 a = 0;
  u32 b = 0;
  u32 c = 0;
  u32 m = 1;
  u32 k = 1;
  u32 p = 1;
  friend bool operator==(const MacField&, const MacField&) = default;
};

/// Cycles a MAC takes on `units` multiply-add units: the units work on one element of C at a
/// time, each adding one product a(i,l) b(l,j) of a chunk of `units` consecutive l, so
/// m * p * ceil(k / units) cycles (= ceil(m k p / units) when units divides k).
inline u64 macCycles(const MacField& f, u32 units) {
  return u64{f.m} * u64{f.p} * ((u64{f.k} + units - 1) / units);
}

struct OutField {
  OutOp op = OutOp::kIdle;
  bool rel = false;
  u32 idx = 0;  ///< MEM: slot; FWD: source channel
  friend bool operator==(const OutField&, const OutField&) = default;
};

struct InField {
  InOp op = InOp::kIdle;
  /// MEM or ADD: the input side names a slot (it writes memory).
  bool writes() const { return op == InOp::kMem || op == InOp::kAdd; }
  bool rel = false;
  u32 slot = 0;
  friend bool operator==(const InField&, const InField&) = default;
};

struct Channel {
  OutField out;
  InField in;
  friend bool operator==(const Channel&, const Channel&) = default;
};

struct Instruction {
  Opcode op = Opcode::kEnd;
  u32 wait = 0;                   ///< WAIT: cycles (>= 1)
  std::vector<Channel> channels;  ///< XFER, PERMUTE: n * lanes channels
  MacField mac;                   ///< MAC: the blocks (default otherwise)
  friend bool operator==(const Instruction&, const Instruction&) = default;

  static Instruction end() { return {}; }
  static Instruction waitFor(u32 cycles) { return {Opcode::kWait, cycles, {}, {}}; }
  static Instruction xfer(size_t channels) {
    return {Opcode::kXfer, 0, std::vector<Channel>(channels), {}};
  }
  static Instruction permute(size_t channels) {
    return {Opcode::kPermute, 0, std::vector<Channel>(channels), {}};
  }
  static Instruction macBlock(const MacField& f) { return {Opcode::kMac, 0, {}, f}; }
  /// Cycles this instruction occupies the sequencer on hardware with `mac_units` multiply-add
  /// units per node.
  u64 cycles(u32 mac_units = 1) const {
    switch (op) {
      case Opcode::kXfer:
      case Opcode::kPermute:
        return 1;
      case Opcode::kWait:
        return wait;
      case Opcode::kMac:
        return macCycles(mac, mac_units);
      case Opcode::kEnd:
        break;
    }
    return 0;
  }
};

using Table = std::vector<Instruction>;

/// The configuration every table of a set shares.
struct TableHeader {
  std::string algo;  ///< the algorithm that produced the tables (informational)
  PermutationSpec perm = PermutationSpec::aapc(1, 1);  ///< what the tables must achieve
  int n = 1;                                           ///< cube dimensions
  u64 slots = 2;                                       ///< K, data slots per node
  u64 scratch = 0;        ///< scratch slots per node (K .. K + scratch - 1)
  int lanes = 1;          ///< b, words per port and direction per cycle
  bool one_port = false;  ///< at most one sending and one receiving port per node per cycle
  u32 mac_units = 1;      ///< U, multiply-add units per node (MAC, docs/hardware/arithmetic.md §2)
  /// MAC overlap mode (docs/hardware/arithmetic.md §3): a MAC occupies the sequencer for one cycle
  /// and its units run on in the background while the next instructions execute. Off by default.
  bool mac_overlap = false;

  u64 nodes() const { return u64{1} << n; }
  u64 memoryWords() const { return slots + scratch; }
  size_t channels() const { return static_cast<size_t>(n) * static_cast<size_t>(lanes); }
  friend bool operator==(const TableHeader& a, const TableHeader& b) {
    return a.algo == b.algo && a.perm.str() == b.perm.str() && a.n == b.n && a.slots == b.slots &&
           a.scratch == b.scratch && a.lanes == b.lanes && a.one_port == b.one_port &&
           a.mac_units == b.mac_units && a.mac_overlap == b.mac_overlap;
  }
};

/// Tables for every node: one shared table (homogeneous schedule) or one per node.
struct TableSet {
  TableHeader header;
  bool shared = true;
  std::vector<Table> tables;  ///< size 1 if shared, else 2^n

  const Table& tableOf(u64 node) const { return shared ? tables.at(0) : tables.at(node); }
  /// Cycles of the longest table (XFER = 1, WAIT c = c, MAC its macCycles; in MAC overlap mode
  /// a MAC takes one cycle of the sequencer and the node is done when both its sequencer has
  /// reached END and its MAC units are idle), i.e. what a run must measure.
  u64 cycles() const;
  /// Longest table in instructions, END included.
  size_t depth() const;
  friend bool operator==(const TableSet&, const TableSet&) = default;
};

/// Checks sizes and ranges (channel counts, slots, FWD sources, WAIT counts, ENDs, MAC fields:
/// base slots below M and sizes 1..M, what the image's fields hold; a block that runs past the
/// memory is well formed and a `slot` error when it executes); throws Error
/// naming the node, instruction and channel. Run before any executor sees a table set. A PERMUTE
/// channel that is neither IDLE/IDLE nor MEM/MEM passes this check: it is well formed, and the
/// hardware flags it as `illegal` when it executes (docs/hardware/node.md §2.1); the text format
/// refuses to read one.
void checkTableShape(const TableSet& set);

}  // namespace hcube

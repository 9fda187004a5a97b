// hcube: one injected fault, the same on every backend (docs/hardware/faults.md).
//
// A link fault acts on a word at one well-defined point: as it leaves the sending node's output
// on channel (port, lane), before anything sees it on the link. The link's counters (words,
// link words, transfer cycles), the traffic monitor and the receiver's input register all see
// the faulty word, or no word at all if it was removed. Kinds:
//   flip  : the word crossing (node, port, lane) in cycle t has bit b inverted;
//   stuck : from cycle t on, every word crossing (node, port, lane) has bit b forced to v;
//   dead  : from cycle t on, nothing crosses (node, port, lane): every word is removed;
//   drop  : the word crossing (node, port, lane) in cycle t is removed.
// A table fault (kind table) flips bit b of the encoded table word of instruction `step` of
// node x (docs/hardware/node.md §3) before the tables are loaded, so all three backends load the
// same corrupted tables (applyTableFault).
//
// Header-inline apply(): the table executor and the TLM nodes call it per word sent when a fault
// is given (and not otherwise).
#pragma once

#include <string>

#include "spec/address.h"
#include "tables/table.h"

namespace hcube {

enum class FaultKind : int { kFlip = 0, kStuck = 1, kDead = 2, kDrop = 3, kTable = 4 };
constexpr int kFaultKinds = 5;

const char* faultKindName(FaultKind k);

struct Fault {
  FaultKind kind = FaultKind::kFlip;
  u64 node = 0;   ///< the sending node (table: the node whose table is corrupted)
  int port = 0;   ///< link faults: the dimension of the link
  int lane = 0;   ///< link faults: the lane of the port
  u64 cycle = 0;  ///< link faults: the cycle (flip, drop) or the first cycle (stuck, dead)
  int bit = 0;    ///< flip, stuck: the bit of the word; table: the bit of the table word
  int value = 0;  ///< stuck: the value the bit is stuck at
  u64 step = 0;   ///< table: the instruction index in the node's table

  bool onLink() const { return kind != FaultKind::kTable; }

  /// Applies a link fault to `word`, which node x sends on (p, l) in cycle t. Returns false if
  /// the word does not cross the link.
  bool apply(u64 x, int p, int l, u64 t, u32& word) const {
    if (x != node || p != port || l != lane) return true;
    switch (kind) {
      case FaultKind::kFlip:
        if (t == cycle) word ^= u32{1} << bit;
        return true;
      case FaultKind::kStuck:
        if (t >= cycle) word = (word & ~(u32{1} << bit)) | (u32(value) << bit);
        return true;
      case FaultKind::kDead:
        return t < cycle;
      case FaultKind::kDrop:
        return t != cycle;
      case FaultKind::kTable:
        return true;
    }
    return true;
  }

  friend bool operator==(const Fault&, const Fault&) = default;
};

/// Parses an --inject spec against the case's tables (ranges: node < 2^n, port < n, lane <
/// width, bit < 32 or < the table word's width, step < the node's table length, cycle < the
/// tables' cycle count):
///   flip:NODE:PORT:LANE:CYCLE[:BIT]      (BIT defaults to 0)
///   stuck:NODE:PORT:LANE:CYCLE:BIT:VALUE (VALUE 0 or 1)
///   dead:NODE:PORT:LANE:CYCLE
///   drop:NODE:PORT:LANE:CYCLE
///   table:NODE:STEP:BIT
/// Throws Error naming the field that is wrong.
Fault parseFault(const std::string& spec, const TableSet& set);

/// The spec parseFault reads back.
std::string formatFault(const Fault& f);

/// The tables with a table fault applied: bit `bit` of node `node`'s instruction `step`, as
/// encoded for the image (sw/tables/table_image.h), inverted and decoded again (a shared table set
/// becomes one table per node). Throws Error if the corrupted word is not a valid instruction
/// (the image reader refuses it: the fault is caught at load).
TableSet applyTableFault(const TableSet& set, const Fault& f);

}  // namespace hcube

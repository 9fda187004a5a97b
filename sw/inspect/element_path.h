// hcube inspection: the path of one element through a run (hcube trace --element NODE:SLOT),
// cycle by cycle. An element is followed by its tag, its initial global address node * K +
// slot (sw/spec/reference.h, taggedMemory).
//
// Which links the element crossed, and when, comes from the traffic monitor's log
// (RunResult::traffic), which every backend records the same way: a send is (cycle, node, port,
// word), a store (cycle, word). The rest is read from the tables the run executed (straight-line
// programs, docs/hardware/node.md §2): the sender's instruction in that cycle says which lane of
// the port sent the slot (or PASS register) holding the element, the receiver's says whether that
// lane's word was stored (and into which slot) or held in a PASS register to leave in the next
// cycle. Where the tables cannot tell (two lanes of the port send a slot the element is in, or
// a PERMUTE moved it without a link), the lane and slot are left unknown and "stored" is taken
// from the log: the cycle's stores of the tag against its arrivals.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exec/hw_errors.h"
#include "tables/table.h"

namespace hcube {

struct ElementHop {
  u64 cycle = 0;            ///< the cycle the word crosses the link
  u64 from = 0;             ///< sending node
  int port = 0;             ///< dimension of the link
  u64 to = 0;               ///< receiving node, from ^ 2^port
  std::optional<int> lane;  ///< lane of the port, if the tables tell
  bool stored = false;      ///< written into `to`'s memory (else held in a PASS register)
  std::optional<u64> slot;  ///< the slot of `to` it is written into, if stored and known
  friend bool operator==(const ElementHop&, const ElementHop&) = default;
};

struct ElementPath {
  u64 node = 0;  ///< where the element starts
  u64 slot = 0;
  u64 tag = 0;                                    ///< node * K + slot
  std::vector<ElementHop> hops;                   ///< in cycle order, then sender
  std::vector<std::pair<u64, u64>> final_places;  ///< (node, data slot) holding it at the end
};

/// Parses "NODE:SLOT" (decimal) for an n-cube with K data slots per node; throws Error naming
/// `text` if it is malformed or outside the cube or the data slots.
std::pair<u64, u64> parseElement(const std::string& text, int n, u64 slots);

/// The path of element (node, slot) in `run`, a run of `set`. Throws Error if the run did not
/// record its traffic log.
ElementPath traceElement(const RunResult& run, const TableSet& set, u64 node, u64 slot);

/// The path as a table, one line per hop, then the final places.
std::string formatElementPath(const ElementPath& path);

}  // namespace hcube

// hcube inspection: the path of one element through a run (hcube trace --element NODE:SLOT),
// cycle by cycle, from the traffic monitor's log (RunResult::traffic), so it is the same on
// every backend. An element is followed by its tag, its initial global address node * K + slot
// (sw/reference.h, taggedMemory).
//
// What the log holds per event is what every backend reports: a send (cycle, node, port, word)
// and a store (cycle, word). The rest is derived: a send across dimension j reaches node ^ 2^j;
// a word that arrives and is not stored sits in a PASS register and leaves the receiver in the
// next cycle (docs/hardware.md §2); the slot is read from the receiver's final memory, so it is
// known only where that node still holds the element at the end. The lane is not recorded (the
// TLM node reports ports, not channels).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hw_errors.h"

namespace hcube {

struct ElementHop {
  u64 cycle = 0;                  ///< the cycle the word crosses the link
  u64 from = 0;                   ///< sending node
  int port = 0;                   ///< dimension of the link
  u64 to = 0;                     ///< receiving node, from ^ 2^port
  bool stored = false;            ///< written into `to`'s memory (else held in PASS)
  std::optional<u64> final_slot;  ///< the data slot of `to` that holds it at the end, if any
  friend bool operator==(const ElementHop&, const ElementHop&) = default;
};

struct ElementPath {
  u64 node = 0;  ///< where the element starts
  u64 slot = 0;
  u64 tag = 0;                                    ///< node * K + slot
  std::vector<ElementHop> hops;                   ///< in cycle order, then sender
  std::vector<std::pair<u64, u64>> final_places;  ///< (node, slot) holding it at the end
};

/// Parses "NODE:SLOT" (decimal) for an n-cube with K data slots per node; throws Error naming
/// `text` if it is malformed or outside the cube or the data slots.
std::pair<u64, u64> parseElement(const std::string& text, int n, u64 slots);

/// The path of element (node, slot) in `run` on an n-cube with K = `slots` data slots per
/// node. Throws Error if the run did not record its traffic log.
ElementPath traceElement(const RunResult& run, int n, u64 slots, u64 node, u64 slot);

/// The path as a table, one line per hop, then the final places.
std::string formatElementPath(const ElementPath& path);

}  // namespace hcube

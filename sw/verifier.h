// hcube: the static verifier (DESIGN §5). Before anything runs, it executes a table set
// symbolically — on element identities, not data — and checks: port capacity and the one-port
// rule, send/receive pairing on every link (nothing sent is lost, nothing is received from
// nobody), every FWD has a PASS word and every PASS word is forwarded, no slot is overwritten
// while it holds the last copy of an element, no empty slot is sent, no two receives write one
// slot in a cycle, every table ends, and the final data slots equal the reference permutation.
// PERMUTE cycles (docs/hardware.md §2.1) are local copies on the same element identities: only
// MEM/MEM and idle channels are legal, a copy must read a slot that holds an element, must not
// overwrite a last copy, and no word may arrive from a neighbour meanwhile.
// Every violation names node, cycle, port, lane and slot.
#pragma once

#include <string>
#include <vector>

#include "table.h"

namespace hcube {

struct VerifyReport {
  std::vector<std::string> errors;  ///< the first `max_errors` violations, in cycle order
  u64 total_errors = 0;             ///< all violations found
  u64 cycles = 0;                   ///< cycles the symbolic run took
  bool ok() const { return total_errors == 0; }
};

VerifyReport verifyTables(const TableSet& set, size_t max_errors = 20);

}  // namespace hcube

// hcube: the static verifier (docs/architecture.md §5). Before anything runs, it executes a table
// set symbolically — on element identities, not data — and checks: port capacity and the one-port
// rule, send/receive pairing on every link (nothing sent is lost, nothing is received from
// nobody), every FWD has a PASS word and every PASS word is forwarded, no slot is overwritten
// while it holds the last copy of an element, no empty slot is sent, no two receives write one
// slot in a cycle, every table ends, and the final data slots equal the reference permutation.
// A combining receive (ADD, docs/hardware/arithmetic.md §1) makes a slot hold a sum, which the
// verifier tracks as the multiset of the elements added: values, not only identities. PERMUTE
// cycles (docs/hardware/node.md §2.1) are local copies on the same element identities: only MEM/MEM
// and idle channels are legal, a copy must read a slot that holds an element, must not overwrite a
// last copy, and no word may arrive from a neighbour meanwhile. Every violation names node, cycle,
// port, lane and slot.
#pragma once

#include <string>
#include <vector>

#include "tables/resource_limits.h"
#include "tables/table.h"

namespace hcube {

struct VerifyReport {
  std::vector<std::string> errors;  ///< the first `max_errors` violations, in cycle order
  u64 total_errors = 0;             ///< all violations found
  u64 cycles = 0;                   ///< cycles the symbolic run took
  u64 steps = 0;  ///< cycles simulated one by one (a stretch where every node waits is one step)
  bool ok() const { return total_errors == 0; }
};

/// Refuses (Error) a set whose verification would exceed the limits of resource_limits.h,
/// naming the header field through `origin` when the set was read from a file; nothing large
/// is allocated before that check.
VerifyReport verifyTables(const TableSet& set, size_t max_errors = 20,
                          const HeaderOrigin* origin = nullptr);

}  // namespace hcube

// hcube: the differences between two table sets, instruction by instruction (hcube diff, and
// the check that a directory's tables.hct and tables.hex describe the same tables). Each
// difference names the header field, or the node (or the shared table), the step (instruction
// index) and the channel (port and lane) where the two sets part.
#pragma once

#include <string>
#include <vector>

#include "tables/table.h"

namespace hcube {

struct TableDiff {
  std::vector<std::string> shown;  ///< the first `max_shown` differences, in node and step order
  u64 total = 0;                   ///< all differences found
  bool same() const { return total == 0; }
};

/// Compares `a` (named `name_a` in the messages) with `b`. A shared table is compared with
/// every node table of the other set; two shared tables once, as "shared table".
TableDiff diffTables(const TableSet& a, const TableSet& b, const std::string& name_a,
                     const std::string& name_b, size_t max_shown = 20);

/// Text of one instruction as the table format writes it ("X m^1>m^1 .>.", "W 5", "E").
std::string formatInstruction(const Instruction& ins);

}  // namespace hcube

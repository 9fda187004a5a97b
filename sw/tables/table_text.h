// hcube: the table text format (docs/table-format.md) — stable, line-oriented, diff-friendly.
#pragma once

#include <iosfwd>
#include <string>

#include "tables/resource_limits.h"
#include "tables/table.h"

namespace hcube {

/// Writes a table set in the text format.
void writeTableText(std::ostream& out, const TableSet& set);
void writeTableTextFile(const std::string& path, const TableSet& set);

/// Reads a table set; `source` names the input in error messages ("file:line: ...").
/// Throws Error on any syntax, range or size problem. If `origin` is given, it receives the
/// source and the line of every header field (for later messages about the set's size).
TableSet readTableText(std::istream& in, const std::string& source, HeaderOrigin* origin = nullptr);
TableSet readTableTextFile(const std::string& path, HeaderOrigin* origin = nullptr);

/// The value of a 'perm' line (docs/table-format.md): every field belongs to the kind, appears
/// once and is in range (nothing is cut to 32 bits). Throws Error without a location.
PermutationSpec parsePermText(const std::string& text);

/// Text of one channel cell, e.g. "m^3>m^3", "f1>.", ".>p".
std::string formatChannel(const Channel& ch);

}  // namespace hcube

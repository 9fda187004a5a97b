// hcube: the table text format (docs/table-format.md) — stable, line-oriented, diff-friendly.
#pragma once

#include <iosfwd>
#include <string>

#include "table.h"

namespace hcube {

/// Writes a table set in the text format.
void writeTableText(std::ostream& out, const TableSet& set);
void writeTableTextFile(const std::string& path, const TableSet& set);

/// Reads a table set; `source` names the input in error messages ("file:line: ...").
/// Throws Error on any syntax, range or size problem.
TableSet readTableText(std::istream& in, const std::string& source);
TableSet readTableTextFile(const std::string& path);

/// Text of one channel cell, e.g. "m^3>m^3", "f1>.", ".>p".
std::string formatChannel(const Channel& ch);

}  // namespace hcube

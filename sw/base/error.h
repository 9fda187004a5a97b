// hcube: the two kinds of exception the library throws.
//
// Error (also spelled InputError) is bad input: it names the input that is wrong (a file and
// line, a parameter, a node / cycle / port / slot) and what is wrong with it; the tool prints
// it and exits 2. InternalError is a broken invariant of hcube itself (a schedule builder that
// loses an element, a lowering that writes one slot twice): a bug to report, never the user's
// fault; the tool exits 3 on it, and the fuzz harnesses, which accept Error as the answer to
// bad input, let it through as a finding. Library code never exits the process.
#pragma once

#include <stdexcept>
#include <string>

namespace hcube {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

using InputError = Error;

/// Not derived from Error: a `catch (const Error&)` that answers bad input must not swallow it.
class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& what) : std::logic_error(what) {}
};

}  // namespace hcube

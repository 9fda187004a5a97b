// hcube: the one exception type the library throws.
//
// Every error names the input that is wrong (a file and line, a parameter, a node / cycle /
// port / slot) and what is wrong with it. Library code never exits the process.
#pragma once

#include <stdexcept>
#include <string>

namespace hcube {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace hcube

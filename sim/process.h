// hcube: running helper programs (cmake, the Verilated runner, fst2vcd) from the tool.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace hcube {

struct ProcessResult {
  int status = -1;     ///< exit status (-1 if the program could not run or was killed)
  std::string output;  ///< everything it printed on stdout and stderr
};

/// Runs argv[0] with arguments (no shell), merging stdout and stderr; `on_line` sees each line
/// as it is printed (for progress), and the whole output is returned.
ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::function<void(const std::string&)>& on_line = {});

/// Finds a program on PATH; empty if absent.
std::string findProgram(const std::string& name);

}  // namespace hcube

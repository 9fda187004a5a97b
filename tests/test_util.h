// hcube tests: small helpers shared by the test files.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hcube::testing {

/// Lines of a golden file with comments ('#') and blank lines removed.
inline std::vector<std::string> goldenLines(const std::string& name) {
  std::ifstream in(std::string(HCUBE_GOLDEN_DIR) + "/" + name);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

/// w as d binary digits, most significant first, as the papers print addresses.
inline std::string binary(unsigned long long w, int d) {
  std::string s;
  for (int b = d - 1; b >= 0; --b) s += ((w >> b) & 1U) ? '1' : '0';
  return s;
}

}  // namespace hcube::testing

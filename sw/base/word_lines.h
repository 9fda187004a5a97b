// hcube: the line reader of the project's text formats (table text, schedule files): a line is
// words separated by blanks, '#' starts a comment to the end of the line, blank lines are
// skipped.
#pragma once

#include <istream>
#include <sstream>
#include <string>
#include <vector>

namespace hcube {

/// Reads the next line of `in` that holds a word once its comment is cut: its words into
/// `words`, the text after the first word into `rest` (for a field that keeps its spacing).
/// `line` counts the lines read. False at the end of the input.
inline bool nextWordLine(std::istream& in, int& line, std::vector<std::string>& words,
                         std::string& rest) {
  std::string text;
  while (std::getline(in, text)) {
    ++line;
    if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    std::istringstream split(text);
    words.clear();
    std::string w;
    while (split >> w) words.push_back(w);
    if (words.empty()) continue;
    rest = text.substr(text.find(words[0]) + words[0].size());
    return true;
  }
  return false;
}

}  // namespace hcube

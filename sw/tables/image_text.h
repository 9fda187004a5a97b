// hcube: the syntax of the table image file (docs/hardware/node.md §3), read once for the
// library (tables/table_image.h, which decodes the words into instructions) and for the RTL
// runner (tb/image.h, which loads them as bits). Header-only and standard C++ only, because the
// testbench compiles it into every Verilated model.
//
// This layer checks everything the file says on its own: the magic line, the header fields
// (known, once each, numbers in range, memory not below slots), the table blocks ("table *"
// alone, or one "table <node>" per node in node order), the hex words (as many digits as the
// table width needs, no bit above it), "end" and nothing after it. What the words mean, and
// whether the image fits a build, is each reader's own check. Every error names the source and
// the line: "SOURCE:LINE: message".
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/hex.h"

namespace hcube::image_text {

/// A malformed image; what() is "SOURCE:LINE: message".
class SyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One table word as read: 32-bit limbs, least significant first (ceil(width / 32) of them).
using Word = std::vector<uint32_t>;

/// A header field: its text (the value; for `perm` the rest of the line) and its line.
struct Field {
  std::string text;
  int line = 0;
};

/// One table block: "table *" (shared) or "table <node>", its line, and its words with the line
/// of each.
struct Block {
  bool shared = false;
  uint64_t node = 0;
  int line = 0;
  std::vector<Word> words;
  std::vector<int> lines;
};

/// A parsed image.
struct Text {
  std::string source;
  std::map<std::string, Field> fields;  ///< every header field given, by name
  uint64_t dim = 0;
  uint64_t slots = 0;
  uint64_t memory = 0;
  uint64_t lanes = 0;
  bool one_port = false;
  uint64_t width = 0;      ///< table-width
  uint64_t mac_units = 0;  ///< 0 when the optional field is absent
  bool mac_overlap = false;
  bool shared = true;  ///< one "table *" block; false: one block per node, node order
  std::vector<Block> blocks;
  int body_line = 0;  ///< the line of the first "table" (or "end"), where the header ends
  int end_line = 0;

  bool has(const std::string& key) const { return fields.count(key) != 0; }
  int lineOf(const std::string& key) const {
    auto it = fields.find(key);
    return it == fields.end() ? 0 : it->second.line;
  }
  /// "SOURCE:LINE: message", for a reader's own checks.
  [[nodiscard]] SyntaxError error(int line, const std::string& message) const {
    return SyntaxError(source + ":" + std::to_string(line) + ": " + message);
  }
};

/// The header fields an image may have, and those it must have.
inline constexpr const char* kFields[] = {"algo",      "perm",       "dim",      "slots",
                                          "memory",    "lanes",      "one-port", "table-width",
                                          "mac-units", "mac-overlap"};
inline constexpr const char* kRequiredFields[] = {"dim",   "slots",    "memory",
                                                  "lanes", "one-port", "table-width"};

/// Parses a table word of exactly ceil(width / 4) hex digits, most significant first, with no
/// bit at or above `width`, into `word`. Returns what is wrong with it, empty if nothing.
inline std::string parseHex(const std::string& hex, uint64_t width, Word& word) {
  const uint64_t digits = (width + 3) / 4;
  if (hex.size() != digits) {
    return "hex word '" + hex + "' has " + std::to_string(hex.size()) + " digits, expected " +
           std::to_string(digits);
  }
  word.assign((width + 31) / 32, 0);
  for (uint64_t i = 0; i < digits; ++i) {
    const int digit = hexDigitValue(hex[digits - 1 - i]);
    if (digit < 0) return "hex word '" + hex + "' has a non-hex digit";
    const auto v = static_cast<uint32_t>(digit);
    const uint64_t bit = 4 * i;
    if (bit + 4 > width && (v >> (width - bit)) != 0) {
      return "hex word '" + hex + "' has bits above the table width";
    }
    word[bit / 32] |= v << (bit % 32);
  }
  return "";
}

/// A reader's own checks of the header (throw Text::error to refuse): they run when the header
/// is complete, before the blocks are read, so that a header that does not fit is named before
/// the words it would make wrong.
using HeaderCheck = std::function<void(const Text&)>;

/// The most words a table may have (0: no limit) and what sets the limit, as the message names
/// it ("this simulator's table depth"): checked at the table's first line, before its words.
struct TableLimit {
  uint64_t words = 0;
  std::string what;
};

namespace detail {

class Parser {
 public:
  Parser(std::istream& in, const std::string& source, const HeaderCheck& check,
         const TableLimit& limit)
      : in_(in), check_(check), limit_(limit) {
    text_.source = source;
  }

  Text parse() {
    std::vector<std::string> tok;
    if (!next(tok)) fail("empty input, expected 'hcube-image 1'");
    if (tok.size() != 2 || tok[0] != "hcube-image") fail("expected 'hcube-image 1'");
    if (tok[1] != "1") fail("unsupported image version " + tok[1]);
    header(tok);
    if (check_) check_(text_);
    blocks(tok);
    return std::move(text_);
  }

 private:
  [[noreturn]] void fail(const std::string& message, int line = -1) const {
    throw text_.error(line < 0 ? line_ : line, message);
  }

  // The next non-blank line without its comment, split into tokens (rest_: the text after the
  // first token); false at the end of the input.
  bool next(std::vector<std::string>& tok) {
    std::string raw;
    while (std::getline(in_, raw)) {
      ++line_;
      raw = raw.substr(0, raw.find('#'));
      std::istringstream words(raw);
      tok.clear();
      for (std::string w; words >> w;) tok.push_back(w);
      if (tok.empty()) continue;
      rest_ = raw.substr(raw.find(tok[0]) + tok[0].size());
      return true;
    }
    return false;  // an error at the end of the input names the last line read
  }

  uint64_t number(const std::string& text, const std::string& what, uint64_t lo,
                  uint64_t hi) const {
    uint64_t v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi) {
      fail(what + " '" + text + "' is not an integer in " + std::to_string(lo) + ".." +
           std::to_string(hi));
    }
    return v;
  }

  void header(std::vector<std::string>& tok) {
    while (true) {
      if (!next(tok)) fail("unexpected end of input in the header");
      if (tok[0] == "table" || tok[0] == "end") break;
      const std::string& key = tok[0];
      if (std::find_if(std::begin(kFields), std::end(kFields),
                       [&](const char* k) { return key == k; }) == std::end(kFields)) {
        fail("unknown header field '" + key + "'");
      }
      if (text_.has(key)) fail("header field '" + key + "' given twice");
      if (key == "perm") {
        text_.fields[key] = {rest_, line_};
        continue;
      }
      if (tok.size() != 2) fail("header field '" + key + "' takes one value");
      text_.fields[key] = {tok[1], line_};
      if (key == "dim") {
        text_.dim = number(tok[1], "dim", 1, 24);
      } else if (key == "slots") {
        text_.slots = number(tok[1], "slots", 1, uint64_t{1} << 32);
      } else if (key == "memory") {
        text_.memory = number(tok[1], "memory", 1, uint64_t{1} << 33);
      } else if (key == "lanes") {
        text_.lanes = number(tok[1], "lanes", 1, 64);
      } else if (key == "one-port") {
        text_.one_port = number(tok[1], "one-port", 0, 1) == 1;
      } else if (key == "table-width") {
        text_.width = number(tok[1], "table-width", 1, uint64_t{1} << 20);
      } else if (key == "mac-units") {
        text_.mac_units = number(tok[1], "mac-units", 1, 64);
      } else if (key == "mac-overlap") {
        text_.mac_overlap = number(tok[1], "mac-overlap", 0, 1) == 1;
      }
    }
    text_.body_line = line_;
    for (const char* key : kRequiredFields) {
      if (!text_.has(key)) fail(std::string("header field '") + key + "' is missing");
    }
    if (text_.memory < text_.slots) {
      fail("memory " + std::to_string(text_.memory) + " is less than slots " +
               std::to_string(text_.slots),
           text_.lineOf("memory"));
    }
  }

  void blocks(std::vector<std::string>& tok) {
    const uint64_t nodes = uint64_t{1} << text_.dim;
    while (tok[0] != "end") {
      if (tok[0] != "table" || tok.size() != 3) {
        fail("expected 'table * <words>', 'table <node> <words>' or 'end'");
      }
      Block block;
      block.line = line_;
      if (tok[1] == "*") {
        if (!text_.blocks.empty()) fail("'table *' must be the only table");
        block.shared = true;
      } else {
        block.node = number(tok[1], "node", 0, nodes - 1);
        if (!text_.blocks.empty() && text_.shared) fail("'table <node>' after 'table *'");
        text_.shared = false;
        if (block.node != text_.blocks.size()) {
          fail("expected 'table " + std::to_string(text_.blocks.size()) +
               "' (tables in node order)");
        }
      }
      const uint64_t words = number(tok[2], "table length", 1, uint64_t{1} << 32);
      if (limit_.words != 0 && words > limit_.words) {
        fail((block.shared ? std::string("table *")
                           : "table of node " + std::to_string(block.node)) +
             " has " + std::to_string(words) + " words, more than " + limit_.what + " " +
             std::to_string(limit_.words));
      }
      for (uint64_t i = 0; i < words; ++i) {
        if (!next(tok)) {
          fail("unexpected end of input: " + std::to_string(words - i) +
               " more table word(s) expected");
        }
        if (tok.size() != 1) fail("expected a hex table word");
        block.words.push_back(hexWord(tok[0]));
        block.lines.push_back(line_);
      }
      text_.blocks.push_back(std::move(block));
      if (!next(tok)) fail("unexpected end of input: missing 'end'");
    }
    if (tok.size() != 1) fail("'end' takes no value");
    text_.end_line = line_;
    if (next(tok)) fail("text after 'end'");
    if (text_.blocks.empty()) fail("no table", text_.end_line);
    if (!text_.shared && text_.blocks.size() != nodes) {
      fail("only " + std::to_string(text_.blocks.size()) + " of " + std::to_string(nodes) +
               " node tables given",
           text_.end_line);
    }
  }

  Word hexWord(const std::string& hex) const {
    Word word;
    const std::string error = parseHex(hex, text_.width, word);
    if (!error.empty()) fail(error);
    return word;
  }

  std::istream& in_;
  const HeaderCheck& check_;
  const TableLimit& limit_;
  Text text_;
  int line_ = 0;
  std::string rest_;
};

}  // namespace detail

/// Reads an image's text; throws SyntaxError naming `source` and the line.
inline Text parse(std::istream& in, const std::string& source, const HeaderCheck& check = {},
                  const TableLimit& limit = {}) {
  return detail::Parser(in, source, check, limit).parse();
}

}  // namespace hcube::image_text

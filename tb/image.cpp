// hcube testbench: reading and checking table image files (docs/hardware/node.md §3).
#include "image.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace hcube::tb {
namespace {

class Reader {
 public:
  Reader(const std::string& path, const CubeConfig& config) : path_(path), config_(config) {}

  Image Read() {
    std::ifstream in(path_);
    if (!in) throw ImageError(path_ + ": cannot open image file");
    image_.path = path_;

    std::string raw;
    bool magic_seen = false;
    bool ended = false;
    while (std::getline(in, raw)) {
      ++line_;
      std::vector<std::string> tok = Tokens(raw);
      if (tok.empty()) continue;
      if (ended) Fail("text after 'end'");
      if (!magic_seen) {
        if (tok.size() != 2 || tok[0] != "hcube-image") {
          Fail("not an hcube image: expected 'hcube-image 1'");
        }
        if (tok[1] != "1") Fail("unsupported image version '" + tok[1] + "' (expected 1)");
        magic_seen = true;
        continue;
      }
      if (words_left_ > 0) {
        if (tok.size() != 1) Fail("expected a hex table word");
        image_.tables[current_].push_back(ParseWord(tok[0]));
        --words_left_;
        continue;
      }
      if (tok[0] == "table") {
        StartTable(tok);
      } else if (tok[0] == "end") {
        if (tok.size() != 1) Fail("unexpected text after 'end'");
        Finish();
        ended = true;
      } else {
        HeaderLine(tok);
      }
    }
    ++line_;
    if (!magic_seen) FailAt(1, "empty file: expected 'hcube-image 1'");
    if (words_left_ > 0) {
      Fail("truncated: " + std::to_string(words_left_) + " more table word(s) expected for " +
           TableName(current_));
    }
    if (!ended) Fail("truncated: missing 'end'");
    return image_;
  }

 private:
  [[noreturn]] void Fail(const std::string& msg) const {
    throw ImageError(path_ + ":" + std::to_string(line_) + ": " + msg);
  }
  [[noreturn]] void FailAt(int line, const std::string& msg) const {
    throw ImageError(path_ + ":" + std::to_string(line) + ": " + msg);
  }

  static std::vector<std::string> Tokens(const std::string& raw) {
    std::string s = raw.substr(0, raw.find('#'));
    std::istringstream is(s);
    std::vector<std::string> tok;
    std::string t;
    while (is >> t) tok.push_back(t);
    return tok;
  }

  long Number(const std::string& s, const std::string& what) const {
    if (s.empty() || s.size() > 10 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      Fail("bad " + what + " '" + s + "' (expected a non-negative decimal number)");
    }
    return std::strtol(s.c_str(), nullptr, 10);
  }

  void HeaderLine(const std::vector<std::string>& tok) {
    // 'algo' and 'perm' name what the tables are for (hcube verify reads them back); the
    // runner loads tables and needs neither.
    if (tok[0] == "algo" || tok[0] == "perm") {
      if (header_done_) Fail("header line '" + tok[0] + "' after the first table");
      return;
    }
    static const char* const kKeys[] = {"dim",      "slots",       "memory",    "lanes",
                                        "one-port", "table-width", "mac-units", "mac-overlap"};
    if (std::find(std::begin(kKeys), std::end(kKeys), tok[0]) == std::end(kKeys)) {
      Fail("unknown header line '" + tok[0] + "'");
    }
    if (header_done_) Fail("header line '" + tok[0] + "' after the first table");
    if (tok.size() != 2) Fail("header line '" + tok[0] + "' needs exactly one value");
    if (header_.count(tok[0])) {
      Fail("duplicate header line '" + tok[0] + "' (first on line " +
           std::to_string(header_[tok[0]].line) + ")");
    }
    header_[tok[0]] = {Number(tok[1], tok[0]), line_};
  }

  // Checks the header against the build when the first table starts.
  void CheckHeader() {
    for (const char* key : {"dim", "slots", "memory", "lanes", "one-port", "table-width"}) {
      if (!header_.count(key)) Fail(std::string("missing header line '") + key + "'");
    }
    auto expect = [&](const char* key, long want, const std::string& build_name) {
      const Field& f = header_[key];
      if (f.value != want) {
        FailAt(f.line, std::string(key) + " " + std::to_string(f.value) +
                           " does not fit this simulator, built for " + build_name + " " +
                           std::to_string(want) + " (" + config_.Describe() + ")");
      }
    };
    expect("dim", config_.dim, "dim");
    expect("lanes", config_.lanes, "lanes");
    const Field& memory = header_["memory"];
    if (memory.value < 1 || memory.value > config_.num_slots) {
      FailAt(memory.line, "memory " + std::to_string(memory.value) +
                              " does not fit this simulator, built for memory 1.." +
                              std::to_string(config_.num_slots) + " (" + config_.Describe() + ")");
    }
    expect("table-width", config_.TableWidth(), "table-width");
    const Field& slots = header_["slots"];
    if (slots.value > memory.value) {
      FailAt(slots.line, "slots " + std::to_string(slots.value) + " exceed memory " +
                             std::to_string(memory.value));
    }
    const Field& one_port = header_["one-port"];
    if (one_port.value > 1) FailAt(one_port.line, "one-port must be 0 or 1");
    // Optional: images without MACs on one unit leave it out.
    if (header_.count("mac-units")) expect("mac-units", config_.mac_units, "mac-units");
    image_.dim = config_.dim;
    image_.lanes = config_.lanes;
    image_.memory = static_cast<int>(memory.value);
    image_.table_width = config_.TableWidth();
    image_.slots = static_cast<int>(slots.value);
    image_.one_port = one_port.value == 1;
    if (header_.count("mac-overlap")) {  // optional, default 0 (docs/hardware/arithmetic.md §3)
      const Field& overlap = header_["mac-overlap"];
      if (overlap.value > 1) FailAt(overlap.line, "mac-overlap must be 0 or 1");
      image_.mac_overlap = overlap.value == 1;
    }
    header_done_ = true;
  }

  void StartTable(const std::vector<std::string>& tok) {
    if (!header_done_) CheckHeader();
    if (tok.size() != 3) Fail("expected 'table * <words>' or 'table <node> <words>'");
    const bool bcast = tok[1] == "*";
    const long words = Number(tok[2], "table length");
    int node = 0;
    if (!bcast) {
      const long n = Number(tok[1], "node");
      if (n >= config_.NumNodes()) {
        Fail("node " + tok[1] + " out of range (the cube has nodes 0.." +
             std::to_string(config_.NumNodes() - 1) + ")");
      }
      node = static_cast<int>(n);
    }
    if (tables_seen_ == 0) {
      image_.broadcast = bcast;
      image_.tables.assign(bcast ? 1 : config_.NumNodes(), {});
      loaded_.assign(image_.tables.size(), false);
    } else if (bcast || image_.broadcast) {
      Fail("a file has either one 'table *' block or one 'table <node>' block per node");
    }
    if (loaded_[node]) Fail("second table for node " + std::to_string(node));
    if (words < 1) Fail("a table needs at least one word (END)");
    if (words > config_.table_depth) {
      Fail(TableName(node) + " has " + std::to_string(words) +
           " words, more than this simulator's table depth " + std::to_string(config_.table_depth));
    }
    current_ = node;
    loaded_[node] = true;
    words_left_ = words;
    ++tables_seen_;
  }

  std::string TableName(int node) const {
    return image_.broadcast ? std::string("table *") : "table of node " + std::to_string(node);
  }

  TableWord ParseWord(const std::string& hex) const {
    const int digits = config_.TableHexDigits();
    if (static_cast<int>(hex.size()) != digits) {
      Fail("table word '" + hex + "' has " + std::to_string(hex.size()) + " hex digits, expected " +
           std::to_string(digits) + " for table-width " + std::to_string(config_.TableWidth()));
    }
    const int width = config_.TableWidth();
    TableWord word((width + 31) / 32, 0);
    for (int i = 0; i < digits; ++i) {
      const char c = hex[digits - 1 - i];
      uint32_t v;
      if (c >= '0' && c <= '9') {
        v = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        v = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        v = c - 'A' + 10;
      } else {
        Fail("bad hex digit '" + std::string(1, c) + "' in table word '" + hex + "'");
      }
      const int bit = 4 * i;
      if (bit + 4 > width && (v >> (width - bit)) != 0) {
        Fail("table word '" + hex + "' has bits set above bit " + std::to_string(width - 1));
      }
      word[bit / 32] |= v << (bit % 32);
    }
    return word;
  }

  void Finish() {
    if (!header_done_) CheckHeader();
    if (tables_seen_ == 0) Fail("no table before 'end'");
    for (size_t x = 0; x < loaded_.size(); ++x) {
      if (!loaded_[x]) Fail("no table for node " + std::to_string(x) + " before 'end'");
    }
  }

  struct Field {
    long value = 0;
    int line = 0;
  };

  std::string path_;
  const CubeConfig& config_;
  Image image_;
  int line_ = 0;
  std::map<std::string, Field> header_;
  bool header_done_ = false;
  int tables_seen_ = 0;
  std::vector<bool> loaded_;
  int current_ = 0;
  long words_left_ = 0;
};

}  // namespace

uint64_t Image::MaxCycles() const {
  uint64_t most = 0;
  for (const auto& table : tables) {
    uint64_t sum = 0;
    for (const TableWord& w : table) {
      const uint32_t op = w[0] & 3U;
      if (op == 0) break;  // END; XFER (1) and PERMUTE (3) take one cycle
      if (op == 2) {       // WAIT c, c in bits [33:2]
        const uint64_t c =
            (w[0] >> 2) | (static_cast<uint64_t>(w.size() > 1 ? w[1] & 3U : 0) << 30);
        sum += c == 0 ? 1 : c;
      } else {
        sum += 1;
      }
    }
    most = std::max(most, sum);
  }
  return most;
}

Image ReadImage(const std::string& path, const CubeConfig& config) {
  return Reader(path, config).Read();
}

}  // namespace hcube::tb

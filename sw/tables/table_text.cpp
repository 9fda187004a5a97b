#include "tables/table_text.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "base/utf8.h"
#include "base/word_lines.h"

namespace hcube {
namespace {

constexpr const char* kMagic = "hcube-table";
constexpr int kVersion = 1;

std::string formatSlot(u32 slot, bool rel) { return (rel ? "m^" : "m") + std::to_string(slot); }

// Fails if `text` is a number above `hi` (PermutationSpec would cut it to 32 bits).
u64 permNumber(const std::string& name, const std::string& text, u64 hi, bool field = true) {
  const std::string what = "perm " + (field ? name + "=" + text : name + " '" + text + "'");
  u64 v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    return 0;  // not a number at all: PermutationSpec names it
  }
  if (ec == std::errc::result_out_of_range || v > hi) {
    throw Error(what + ": out of range (0.." + std::to_string(hi) + ")");
  }
  return v;
}

// The fields of a 'perm' line before PermutationSpec reads them: each belongs to the kind,
// appears once, and every number is in range (none is cut to 32 bits).
void checkPermFields(const std::string& text) {
  std::istringstream in(text);
  std::string kind;
  in >> kind;
  std::vector<std::string> allowed;
  if (kind == "aapc") {
    allowed = {"n", "m"};
  } else if (kind == "broadcast-all" || kind == "reduce-all") {
    allowed = {"n", "m", "enc"};  // enc=gray: TR-623 Table 1's Gray code encoding
  } else if (kind == "scatter" || kind == "gather") {
    allowed = {"n", "m", "l", "root"};
  } else if (kind == "broadcast-one" || kind == "reduce-one") {
    allowed = {"n", "m", "root"};
  } else if (kind == "dim") {
    allowed = {"n", "k", "delta"};
  } else if (kind == "linear") {
    allowed = {"n", "k", "rows", "virtual"};
  } else {
    return;  // PermutationSpec names the unknown kind
  }
  std::vector<std::string> seen;
  std::string field;
  while (in >> field) {
    const auto eq = field.find('=');
    if (eq == std::string::npos) return;  // PermutationSpec names the malformed field
    const std::string name = field.substr(0, eq);
    const std::string value = field.substr(eq + 1);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a + "=";
      throw Error("perm: field '" + name + "' does not belong to a '" + kind +
                  "' permutation (it takes " + list + ")");
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw Error("perm: field '" + name + "' given twice");
    }
    seen.push_back(name);
    if (name == "n" || name == "k" || name == "l") {
      permNumber(name, value, 64);
    } else if (name == "m") {
      permNumber(name, value, u64{1} << 32);
    } else if (name == "root") {
      permNumber(name, value, ~u64{0});
    } else {
      // Lists: delta entries are bit positions, rows and virtual entries bit masks.
      std::istringstream items(value);
      std::string item;
      while (std::getline(items, item, ',')) {
        permNumber(name + "= entry", item, name == "delta" ? 127 : ~u64{0}, false);
      }
    }
  }
}

class Parser {
 public:
  Parser(std::istream& in, std::string source, HeaderOrigin* origin)
      : in_(in), source_(std::move(source)), origin_(origin) {}

  TableSet parse() {
    TableSet set;
    TableHeader& h = set.header;
    if (origin_ != nullptr) *origin_ = HeaderOrigin{source_, {}};
    std::vector<std::string> tok;
    if (!next(tok)) fail("empty input, expected '" + std::string(kMagic) + " 1'");
    if (tok.size() != 2 || tok[0] != kMagic) fail("expected '" + std::string(kMagic) + " 1'");
    if (number(tok[1], "version") != kVersion) fail("unsupported version " + tok[1]);

    // The first seven are required; mac-units (default 1) and mac-overlap (default
    // 0, docs/hardware/arithmetic.md §3) are optional.
    bool have[9] = {};
    const char* keys[9] = {"algo",  "perm",  "dim",       "slots",      "scratch",
                           "lanes", "ports", "mac-units", "mac-overlap"};
    std::string perm_text;
    int perm_line = 0;
    while (true) {
      if (!next(tok)) fail("unexpected end of input in the header");
      if (tok[0] == "table") break;
      int key = -1;
      for (int i = 0; i < 9; ++i) {
        if (tok[0] == keys[i]) key = i;
      }
      if (key < 0) fail("unknown header field '" + tok[0] + "'");
      if (have[key]) fail("header field '" + tok[0] + "' given twice");
      have[key] = true;
      if (origin_ != nullptr) origin_->lines[tok[0]] = line_;
      if (key == 1) {
        perm_text = rest_;
        perm_line = line_;
        continue;
      }
      if (tok.size() != 2) fail("header field '" + tok[0] + "' takes one value");
      switch (key) {
        case 0:
          if (!isValidUtf8(tok[1])) fail("algo name is not UTF-8 text");
          h.algo = tok[1];
          break;
        case 2:
          h.n = static_cast<int>(number(tok[1], "dim", 1, 24));
          break;
        case 3:
          h.slots = number(tok[1], "slots", 1, u64{1} << 32);
          break;
        case 4:
          h.scratch = number(tok[1], "scratch", 0, u64{1} << 32);
          break;
        case 5:
          h.lanes = static_cast<int>(number(tok[1], "lanes", 1, 64));
          break;
        case 6:
          if (tok[1] != "all" && tok[1] != "one") fail("ports must be 'all' or 'one'");
          h.one_port = tok[1] == "one";
          break;
        case 7:
          h.mac_units = static_cast<u32>(number(tok[1], "mac-units", 1, 64));
          break;
        case 8:
          h.mac_overlap = number(tok[1], "mac-overlap", 0, 1) == 1;
          break;
        default:
          break;
      }
    }
    for (int i = 0; i < 7; ++i) {
      if (!have[i]) fail("header field '" + std::string(keys[i]) + "' is missing");
    }
    {
      // Errors name the 'perm' line, not the first 'table'.
      const int table_line = line_;
      line_ = perm_line;
      try {
        h.perm = parsePermText(perm_text);
      } catch (const Error& e) {
        fail(e.what());
      }
      line_ = table_line;
    }
    if (h.perm.n() != h.n || h.perm.slots() != h.slots) {
      fail("permutation '" + h.perm.str() + "' does not match dim " + std::to_string(h.n) +
           " and slots " + std::to_string(h.slots));
    }

    // Table blocks: "table *" once, or "table <node>" for every node in order; then "end".
    const u64 nodes = h.nodes();
    while (true) {
      if (tok[0] == "end") {
        if (tok.size() != 1) fail("'end' takes no value");
        break;
      }
      if (tok[0] != "table" || tok.size() != 2) fail("expected 'table *', 'table <node>' or 'end'");
      if (tok[1] == "*") {
        if (!set.tables.empty()) fail("'table *' must be the only table");
        set.shared = true;
      } else {
        const u64 node = number(tok[1], "node", 0, nodes - 1);
        if (set.tables.empty()) set.shared = false;
        if (set.shared) fail("'table <node>' after 'table *'");
        if (node != set.tables.size()) {
          fail("expected 'table " + std::to_string(set.tables.size()) + "' (tables in node order)");
        }
      }
      set.tables.emplace_back();
      Table& table = set.tables.back();
      const int table_line = line_;
      while (true) {
        if (!next(tok)) fail("unexpected end of input: missing 'end'");
        if (tok[0] == "table" || tok[0] == "end") break;
        table.push_back(instruction(tok, h));
      }
      if (table.empty()) {
        line_ = table_line;
        fail(
            "this table has no instructions (a table ends with E; a node with nothing to do "
            "has the table 'E')");
      }
    }
    if (next(tok)) fail("text after 'end'");
    if (set.tables.empty()) fail("no table");
    if (!set.shared && set.tables.size() != nodes) {
      fail("only " + std::to_string(set.tables.size()) + " of " + std::to_string(nodes) +
           " node tables given");
    }
    try {
      checkTableShape(set);
    } catch (const Error& e) {
      throw Error(source_ + ": " + e.what());
    }
    return set;
  }

 private:
  // Reads the next non-empty line (comments stripped) into tokens; false at end of input.
  bool next(std::vector<std::string>& tok) { return nextWordLine(in_, line_, tok, rest_); }

  [[noreturn]] void fail(const std::string& msg) const {
    throw Error(source_ + ":" + std::to_string(line_) + ": " + msg);
  }

  u64 number(const std::string& text, const std::string& what, u64 lo = 0, u64 hi = ~u64{0}) const {
    u64 v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end) {
      fail(what + " '" + text + "' is not a non-negative integer");
    }
    if (v < lo || v > hi) {
      fail(what + " " + text + " is out of range (" + std::to_string(lo) + ".." +
           std::to_string(hi) + ")");
    }
    return v;
  }

  // "m5" / "m^5" -> slot, rel.
  void slotField(const std::string& text, u32& slot, bool& rel) const {
    rel = text.size() > 1 && text[1] == '^';
    const std::string digits = text.substr(rel ? 2 : 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
      fail("'" + text + "': slot '" + digits + "' is not a non-negative integer");
    }
    slot = static_cast<u32>(number(digits, "slot in '" + text + "'", 0, 0xFFFFFFFFU));
  }

  Channel cell(const std::string& text, size_t index) const {
    const auto gt = text.find('>');
    if (gt == std::string::npos || text.find('>', gt + 1) != std::string::npos) {
      fail("channel " + std::to_string(index) + " '" + text + "' is not of the form OUT>IN");
    }
    const std::string out = text.substr(0, gt);
    const std::string in = text.substr(gt + 1);
    Channel ch;
    if (out == ".") {
      ch.out.op = OutOp::kIdle;
    } else if (!out.empty() && out[0] == 'm') {
      ch.out.op = OutOp::kMem;
      slotField(out, ch.out.idx, ch.out.rel);
    } else if (!out.empty() && out[0] == 'f') {
      ch.out.op = OutOp::kFwd;
      ch.out.idx = static_cast<u32>(
          number(out.substr(1), "forward channel in '" + text + "'", 0, 0xFFFFFFFFU));
    } else {
      fail("channel " + std::to_string(index) + " output '" + out +
           "' is not '.', 'm<slot>', 'm^<slot>' or 'f<channel>'");
    }
    if (in == ".") {
      ch.in.op = InOp::kIdle;
    } else if (in == "p") {
      ch.in.op = InOp::kPass;
    } else if (!in.empty() && in[0] == 'm') {
      ch.in.op = InOp::kMem;
      slotField(in, ch.in.slot, ch.in.rel);
    } else if (!in.empty() && in[0] == 'a') {
      ch.in.op = InOp::kAdd;  // the combining receive (docs/hardware/arithmetic.md §1)
      slotField(in, ch.in.slot, ch.in.rel);
    } else {
      fail("channel " + std::to_string(index) + " input '" + in +
           "' is not '.', 'p', 'm<slot>', 'm^<slot>', 'a<slot>' or 'a^<slot>'");
    }
    return ch;
  }

  Instruction instruction(const std::vector<std::string>& tok, const TableHeader& h) const {
    if (tok[0] == "E") {
      if (tok.size() != 1) fail("'E' takes no operands");
      return Instruction::end();
    }
    if (tok[0] == "W") {
      if (tok.size() != 2) fail("'W' takes one operand, the cycle count");
      return Instruction::waitFor(static_cast<u32>(number(tok[1], "wait cycles", 1, 0xFFFFFFFFU)));
    }
    if (tok[0] == "M") {
      // docs/hardware/arithmetic.md §2: M a b c m k p, C (at c, m x p) += A (at a, m x k) x B (at
      // b, k x p).
      if (tok.size() != 7) fail("'M' takes six operands: a b c m k p");
      MacField f;
      f.a = static_cast<u32>(number(tok[1], "MAC slot a", 0, 0xFFFFFFFFU));
      f.b = static_cast<u32>(number(tok[2], "MAC slot b", 0, 0xFFFFFFFFU));
      f.c = static_cast<u32>(number(tok[3], "MAC slot c", 0, 0xFFFFFFFFU));
      f.m = static_cast<u32>(number(tok[4], "MAC rows m", 1, 0xFFFFFFFFU));
      f.k = static_cast<u32>(number(tok[5], "MAC inner size k", 1, 0xFFFFFFFFU));
      f.p = static_cast<u32>(number(tok[6], "MAC columns p", 1, 0xFFFFFFFFU));
      return Instruction::macBlock(f);
    }
    if (tok[0] == "X" || tok[0] == "P") {
      const size_t channels = h.channels();
      if (tok.size() - 1 != channels) {
        fail("'" + tok[0] + "' has " + std::to_string(tok.size() - 1) + " channels, dim " +
             std::to_string(h.n) + " x lanes " + std::to_string(h.lanes) + " needs " +
             std::to_string(channels));
      }
      const bool permute = tok[0] == "P";
      Instruction ins = permute ? Instruction::permute(channels) : Instruction::xfer(channels);
      for (size_t c = 0; c < channels; ++c) {
        ins.channels[c] = cell(tok[c + 1], c);
        if (!permute) continue;
        // A PERMUTE channel copies slot a into slot b (m<a>>m<b>) or does nothing (.>.); the
        // hardware would flag anything else as illegal (docs/hardware/node.md §2.1).
        const Channel& ch = ins.channels[c];
        const bool idle = ch.out.op == OutOp::kIdle && ch.in.op == InOp::kIdle;
        const bool copy = ch.out.op == OutOp::kMem && ch.in.op == InOp::kMem;
        if (!idle && !copy) {
          fail("'P' channel " + std::to_string(c) + " '" + tok[c + 1] +
               "': a PERMUTE cell is a local copy 'm<a>>m<b>' (or with m^) or idle '.>.'");
        }
      }
      return ins;
    }
    fail("unknown instruction '" + tok[0] + "' (expected X, P, W, E, table or end)");
  }

  std::istream& in_;
  std::string source_;
  HeaderOrigin* origin_;
  int line_ = 0;
  std::string rest_;
};

}  // namespace

PermutationSpec parsePermText(const std::string& text) {
  checkPermFields(text);
  return PermutationSpec::parse(text);
}

std::string formatChannel(const Channel& ch) {
  std::string s;
  switch (ch.out.op) {
    case OutOp::kIdle:
      s = ".";
      break;
    case OutOp::kMem:
      s = formatSlot(ch.out.idx, ch.out.rel);
      break;
    case OutOp::kFwd:
      s = "f" + std::to_string(ch.out.idx);
      break;
  }
  s += '>';
  switch (ch.in.op) {
    case InOp::kIdle:
      s += ".";
      break;
    case InOp::kMem:
      s += formatSlot(ch.in.slot, ch.in.rel);
      break;
    case InOp::kPass:
      s += "p";
      break;
    case InOp::kAdd:
      s += "a" + formatSlot(ch.in.slot, ch.in.rel).substr(1);
      break;
  }
  return s;
}

void writeTableText(std::ostream& out, const TableSet& set) {
  const TableHeader& h = set.header;
  out << kMagic << ' ' << kVersion << '\n';
  out << "# hcube schedule tables; format: docs/table-format.md\n";
  out << "algo " << (h.algo.empty() ? "unknown" : h.algo) << '\n';
  out << "perm " << h.perm.str() << '\n';
  out << "dim " << h.n << '\n';
  out << "slots " << h.slots << '\n';
  out << "scratch " << h.scratch << '\n';
  out << "lanes " << h.lanes << '\n';
  out << "ports " << (h.one_port ? "one" : "all") << '\n';
  if (h.mac_units != 1) out << "mac-units " << h.mac_units << '\n';
  if (h.mac_overlap) out << "mac-overlap 1\n";
  out << "# X: one cell OUT>IN per channel (channel = port * lanes + lane)\n";
  std::string line;
  for (size_t t = 0; t < set.tables.size(); ++t) {
    out << "table " << (set.shared ? std::string("*") : std::to_string(t)) << '\n';
    for (const Instruction& ins : set.tables[t]) {
      switch (ins.op) {
        case Opcode::kEnd:
          out << "E\n";
          break;
        case Opcode::kWait:
          out << "W " << ins.wait << '\n';
          break;
        case Opcode::kMac:
          out << "M " << ins.mac.a << ' ' << ins.mac.b << ' ' << ins.mac.c << ' ' << ins.mac.m
              << ' ' << ins.mac.k << ' ' << ins.mac.p << '\n';
          break;
        case Opcode::kXfer:
        case Opcode::kPermute:
          line = ins.op == Opcode::kXfer ? "X" : "P";
          for (const Channel& ch : ins.channels) {
            line += ' ';
            line += formatChannel(ch);
          }
          line += '\n';
          out << line;
          break;
      }
    }
  }
  out << "end\n";
}

void writeTableTextFile(const std::string& path, const TableSet& set) {
  std::ofstream out(path);
  if (!out) throw Error(path + ": cannot open for writing");
  writeTableText(out, set);
  if (!out) throw Error(path + ": write failed");
}

TableSet readTableText(std::istream& in, const std::string& source, HeaderOrigin* origin) {
  return Parser(in, source, origin).parse();
}

TableSet readTableTextFile(const std::string& path, HeaderOrigin* origin) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open for reading");
  return readTableText(in, path, origin);
}

}  // namespace hcube

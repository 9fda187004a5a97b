#include "tables/table_image.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>

#include "base/error.h"
#include "base/utf8.h"
#include "tables/table_text.h"

namespace hcube {
namespace {

void putBits(TableWord& w, int pos, int width, u64 value) {
  for (int i = 0; i < width; ++i) {
    if ((value >> i) & 1U) w[(pos + i) / 64] |= u64{1} << ((pos + i) % 64);
  }
}

u64 getBits(const TableWord& w, int pos, int width) {
  u64 v = 0;
  for (int i = 0; i < width; ++i) {
    if ((w[(pos + i) / 64] >> ((pos + i) % 64)) & 1U) v |= u64{1} << i;
  }
  return v;
}

}  // namespace

int ImageLayout::slotBits() const { return bitsFor(memory_words); }

int ImageLayout::idxBits() const {
  return std::max(slotBits(), bitsFor(static_cast<u64>(n)) + bitsFor(static_cast<u64>(lanes)));
}

int ImageLayout::tableWidth() const {
  return std::max({34, 2 + n * lanes * chanBits(), kMacFieldsAt + 6 * slotBits()});
}

TableWord encodeInstruction(const Instruction& ins, const ImageLayout& l) {
  const int width = l.tableWidth();
  TableWord w((width + 63) / 64, 0);
  if (ins.op == Opcode::kMac) {
    // docs/hardware/arithmetic.md §2: opcode 0, sub-opcode 1, then a, b, c, m-1, k-1, p-1.
    putBits(w, 2, 3, kSubOpMac);
    const int sb = l.slotBits();
    const MacField& f = ins.mac;
    const u64 fields[6] = {f.a, f.b, f.c, f.m - 1, f.k - 1, f.p - 1};
    for (int i = 0; i < 6; ++i) putBits(w, kMacFieldsAt + i * sb, sb, fields[i]);
    return w;
  }
  putBits(w, 0, 2, static_cast<u64>(ins.op));
  if (ins.op == Opcode::kWait) putBits(w, 2, 32, ins.wait);
  if (ins.op != Opcode::kXfer && ins.op != Opcode::kPermute) return w;
  const int ib = l.idxBits();
  const int sb = l.slotBits();
  for (size_t c = 0; c < ins.channels.size(); ++c) {
    const Channel& ch = ins.channels[c];
    const int base = 2 + static_cast<int>(c) * l.chanBits();
    putBits(w, base, 2, static_cast<u64>(ch.out.op));
    putBits(w, base + 2, 1, ch.out.rel ? 1 : 0);
    putBits(w, base + 3, ib, ch.out.idx);
    putBits(w, base + 3 + ib, 2, static_cast<u64>(ch.in.op));
    putBits(w, base + 5 + ib, 1, ch.in.rel ? 1 : 0);
    putBits(w, base + 6 + ib, sb, ch.in.slot);
  }
  return w;
}

Instruction decodeInstruction(const TableWord& w, const ImageLayout& l) {
  const u64 op = getBits(w, 0, 2);
  if (op == 0 && getBits(w, 2, 3) == kSubOpMac) {
    const int sb = l.slotBits();
    u64 v[6];
    for (int i = 0; i < 6; ++i) v[i] = getBits(w, kMacFieldsAt + i * sb, sb);
    MacField f;
    f.a = static_cast<u32>(v[0]);
    f.b = static_cast<u32>(v[1]);
    f.c = static_cast<u32>(v[2]);
    f.m = static_cast<u32>(v[3] + 1);
    f.k = static_cast<u32>(v[4] + 1);
    f.p = static_cast<u32>(v[5] + 1);
    return Instruction::macBlock(f);
  }
  // Opcode 0 with any other sub-opcode is an extension not built yet: it executes as END.
  if (op == 0) return Instruction::end();
  if (op == 2) return Instruction::waitFor(static_cast<u32>(getBits(w, 2, 32)));
  // Opcodes 1 (XFER) and 3 (PERMUTE) carry the same channel fields. A PERMUTE channel that is
  // neither IDLE/IDLE nor MEM/MEM decodes as it is: the hardware flags it as illegal when it runs.
  const size_t channels = static_cast<size_t>(l.n) * static_cast<size_t>(l.lanes);
  Instruction ins = op == 1 ? Instruction::xfer(channels) : Instruction::permute(channels);
  const int ib = l.idxBits();
  const int sb = l.slotBits();
  for (size_t c = 0; c < channels; ++c) {
    Channel& ch = ins.channels[c];
    const int base = 2 + static_cast<int>(c) * l.chanBits();
    const u64 out_op = getBits(w, base, 2);
    const u64 in_op = getBits(w, base + 3 + ib, 2);  // 3 is ADD, 0..3 all valid
    if (out_op == 3) throw Error("table word: channel " + std::to_string(c) + " output op 3");
    ch.out.op = static_cast<OutOp>(out_op);
    ch.out.rel = getBits(w, base + 2, 1) != 0;
    ch.out.idx = static_cast<u32>(getBits(w, base + 3, ib));
    ch.in.op = static_cast<InOp>(in_op);
    ch.in.rel = getBits(w, base + 5 + ib, 1) != 0;
    ch.in.slot = static_cast<u32>(getBits(w, base + 6 + ib, sb));
  }
  return ins;
}

std::string toHex(const TableWord& w, int width) {
  static const char* kDigits = "0123456789abcdef";
  const int digits = (width + 3) / 4;
  std::string s(static_cast<size_t>(digits), '0');
  for (int d = 0; d < digits; ++d) {
    s[static_cast<size_t>(digits - 1 - d)] = kDigits[getBits(w, 4 * d, 4)];
  }
  return s;
}

TableWord fromHex(const std::string& text, int width) {
  const int digits = (width + 3) / 4;
  if (static_cast<int>(text.size()) != digits) {
    throw Error("hex word '" + text + "' has " + std::to_string(text.size()) +
                " digits, expected " + std::to_string(digits));
  }
  TableWord w((digits * 4 + 63) / 64, 0);
  for (int d = 0; d < digits; ++d) {
    const char ch = text[static_cast<size_t>(digits - 1 - d)];
    u64 v = 0;
    if (ch >= '0' && ch <= '9') {
      v = static_cast<u64>(ch - '0');
    } else if (ch >= 'a' && ch <= 'f') {
      v = static_cast<u64>(ch - 'a' + 10);
    } else if (ch >= 'A' && ch <= 'F') {
      v = static_cast<u64>(ch - 'A' + 10);
    } else {
      throw Error("hex word '" + text + "' has a non-hex digit");
    }
    putBits(w, 4 * d, 4, v);
  }
  for (int i = width; i < digits * 4; ++i) {
    if (getBits(w, i, 1)) throw Error("hex word '" + text + "' has bits above the table width");
  }
  w.resize((width + 63) / 64);
  return w;
}

void writeImage(std::ostream& out, const TableSet& set) {
  writeImage(out, set, ImageLayout::of(set.header));
}

void writeImage(std::ostream& out, const TableSet& set, const ImageLayout& l) {
  checkTableShape(set);
  if (l.n != set.header.n || l.lanes != set.header.lanes ||
      l.memory_words < set.header.memoryWords()) {
    throw Error("image: hardware with dim " + std::to_string(l.n) + ", lanes " +
                std::to_string(l.lanes) + ", " + std::to_string(l.memory_words) +
                " memory words cannot run tables for dim " + std::to_string(set.header.n) +
                ", lanes " + std::to_string(set.header.lanes) + ", " +
                std::to_string(set.header.memoryWords()) + " words");
  }
  const int width = l.tableWidth();
  out << "hcube-image 1\n";
  // What the tables achieve, for hcube verify / run on the image; the RTL runner skips both.
  out << "algo " << (set.header.algo.empty() ? "unknown" : set.header.algo) << '\n';
  out << "perm " << set.header.perm.str() << '\n';
  out << "dim " << l.n << '\n';
  out << "slots " << set.header.slots << '\n';
  out << "memory " << l.memory_words << '\n';
  out << "lanes " << l.lanes << '\n';
  out << "one-port " << (set.header.one_port ? 1 : 0) << '\n';
  out << "table-width " << width << '\n';
  // Written only where it is not the default, so that images without MACs read as before.
  if (set.header.mac_units != 1) out << "mac-units " << set.header.mac_units << '\n';
  if (set.header.mac_overlap) out << "mac-overlap 1\n";  // docs/hardware/arithmetic.md §3
  for (size_t t = 0; t < set.tables.size(); ++t) {
    out << "table " << (set.shared ? std::string("*") : std::to_string(t)) << ' '
        << set.tables[t].size() << '\n';
    for (const Instruction& ins : set.tables[t])
      out << toHex(encodeInstruction(ins, l), width) << '\n';
  }
  out << "end\n";
}

void writeImageFile(const std::string& path, const TableSet& set) {
  writeImageFile(path, set, ImageLayout::of(set.header));
}

void writeImageFile(const std::string& path, const TableSet& set, const ImageLayout& layout) {
  std::ofstream out(path);
  if (!out) throw Error(path + ": cannot open for writing");
  writeImage(out, set, layout);
  if (!out) throw Error(path + ": write failed");
}

TableSet readImage(std::istream& in, const std::string& source, HeaderOrigin* origin) {
  int line = 0;
  auto fail = [&](const std::string& msg) -> void {
    throw Error(source + ":" + std::to_string(line) + ": " + msg);
  };
  // The next non-blank line without its comment, split into tokens; false at the end.
  std::string rest;
  auto next = [&](std::vector<std::string>& tok) {
    std::string raw;
    while (std::getline(in, raw)) {
      ++line;
      raw = raw.substr(0, raw.find('#'));
      std::istringstream words(raw);
      tok.clear();
      for (std::string w; words >> w;) tok.push_back(w);
      if (tok.empty()) continue;
      rest = raw.substr(raw.find(tok[0]) + tok[0].size());
      return true;
    }
    return false;
  };
  auto number = [&](const std::string& text, const std::string& what, u64 lo, u64 hi) {
    u64 v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi) {
      fail(what + " '" + text + "' is not an integer in " + std::to_string(lo) + ".." +
           std::to_string(hi));
    }
    return v;
  };

  std::vector<std::string> tok;
  if (!next(tok)) fail("empty input, expected 'hcube-image 1'");
  if (tok.size() != 2 || tok[0] != "hcube-image") fail("expected 'hcube-image 1'");
  if (tok[1] != "1") fail("unsupported image version " + tok[1]);
  TableSet set;
  TableHeader& h = set.header;
  std::map<std::string, int> lines;
  std::string perm_text;
  u64 memory = 0;
  u64 width = 0;
  while (true) {
    if (!next(tok)) fail("unexpected end of input in the header");
    if (tok[0] == "table" || tok[0] == "end") break;
    const std::string& key = tok[0];
    static const char* const kKeys[] = {"algo",      "perm",       "dim",      "slots",
                                        "memory",    "lanes",      "one-port", "table-width",
                                        "mac-units", "mac-overlap"};
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      fail("unknown header field '" + key + "'");
    }
    if (lines.count(key) != 0) fail("header field '" + key + "' given twice");
    lines[key] = line;
    if (key == "perm") {
      perm_text = rest;
      continue;
    }
    if (tok.size() != 2) fail("header field '" + key + "' takes one value");
    if (key == "algo") {
      if (!isValidUtf8(tok[1])) fail("algo name is not UTF-8 text");
      h.algo = tok[1];
    } else if (key == "dim") {
      h.n = static_cast<int>(number(tok[1], "dim", 1, 24));
    } else if (key == "slots") {
      h.slots = number(tok[1], "slots", 1, u64{1} << 32);
    } else if (key == "memory") {
      memory = number(tok[1], "memory", 1, u64{1} << 33);
    } else if (key == "lanes") {
      h.lanes = static_cast<int>(number(tok[1], "lanes", 1, 64));
    } else if (key == "one-port") {
      h.one_port = number(tok[1], "one-port", 0, 1) == 1;
    } else if (key == "mac-units") {
      h.mac_units = static_cast<u32>(number(tok[1], "mac-units", 1, 64));
    } else if (key == "mac-overlap") {
      h.mac_overlap = number(tok[1], "mac-overlap", 0, 1) == 1;
    } else {
      width = number(tok[1], "table-width", 1, u64{1} << 20);
    }
  }
  for (const char* key : {"dim", "slots", "memory", "lanes", "one-port", "table-width"}) {
    if (lines.count(key) == 0) fail(std::string("header field '") + key + "' is missing");
  }
  if (lines.count("perm") == 0) {
    fail(
        "the image names no permutation (no 'perm' line: written by an hcube before images "
        "carried one); verify the tables.hct beside it");
  }
  const int table_line = line;
  line = lines["perm"];
  try {
    h.perm = parsePermText(perm_text);
  } catch (const Error& e) {
    fail(e.what());
  }
  line = lines["memory"];
  if (memory < h.slots) {
    fail("memory " + std::to_string(memory) + " is less than slots " + std::to_string(h.slots));
  }
  h.scratch = memory - h.slots;
  if (h.perm.n() != h.n || h.perm.slots() != h.slots) {
    line = lines["perm"];
    fail("permutation '" + h.perm.str() + "' does not match dim " + std::to_string(h.n) +
         " and slots " + std::to_string(h.slots));
  }
  const ImageLayout layout = ImageLayout::of(h);
  if (width != static_cast<u64>(layout.tableWidth())) {
    line = lines["table-width"];
    fail("table-width " + std::to_string(width) + " is not the " +
         std::to_string(layout.tableWidth()) + " bits of dim " + std::to_string(h.n) + ", lanes " +
         std::to_string(h.lanes) + ", memory " + std::to_string(memory));
  }
  line = table_line;
  if (origin != nullptr) {
    origin->file = source;
    origin->lines = lines;
    origin->lines["scratch"] = lines["memory"];
  }

  // Blocks: "table * W" once, or "table <node> W" for every node in order, each followed by W
  // hex words; then "end".
  const u64 nodes = h.nodes();
  while (tok[0] != "end") {
    if (tok[0] != "table" || tok.size() != 3) {
      fail("expected 'table * <words>', 'table <node> <words>' or 'end'");
    }
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
    const u64 words = number(tok[2], "table length", 1, u64{1} << 32);
    set.tables.emplace_back();
    for (u64 i = 0; i < words; ++i) {
      if (!next(tok)) {
        fail("unexpected end of input: " + std::to_string(words - i) +
             " more table word(s) "
             "expected");
      }
      if (tok.size() != 1) fail("expected a hex table word");
      try {
        set.tables.back().push_back(
            decodeInstruction(fromHex(tok[0], layout.tableWidth()), layout));
      } catch (const Error& e) {
        fail(e.what());
      }
    }
    if (!next(tok)) fail("unexpected end of input: missing 'end'");
  }
  if (tok.size() != 1) fail("'end' takes no value");
  if (next(tok)) fail("text after 'end'");
  if (set.tables.empty()) fail("no table");
  if (!set.shared && set.tables.size() != nodes) {
    fail("only " + std::to_string(set.tables.size()) + " of " + std::to_string(nodes) +
         " node tables given");
  }
  try {
    checkTableShape(set);
  } catch (const Error& e) {
    throw Error(source + ": " + e.what());
  }
  return set;
}

TableSet readImageFile(const std::string& path, HeaderOrigin* origin) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open for reading");
  return readImage(in, path, origin);
}

}  // namespace hcube

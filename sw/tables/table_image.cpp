#include "tables/table_image.h"

#include <algorithm>
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>

#include "base/error.h"
#include "base/utf8.h"
#include "tables/image_text.h"
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

// A word as image_text reads it (32-bit limbs) as the library keeps it (64-bit limbs).
TableWord fromLimbs(const image_text::Word& limbs, int width) {
  TableWord w((width + 63) / 64, 0);
  for (size_t i = 0; i < limbs.size(); ++i) w[i / 2] |= u64{limbs[i]} << (32 * (i % 2));
  return w;
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
    const ChannelFieldLayout& f = kChannelField;
    const int in = base + f.in_at + ib;
    putBits(w, base + f.out_op_at, 2, static_cast<u64>(ch.out.op));
    putBits(w, base + f.out_rel_at, 1, ch.out.rel ? 1 : 0);
    putBits(w, base + f.out_idx_at, ib, ch.out.idx);
    putBits(w, in + f.in_op_at, 2, static_cast<u64>(ch.in.op));
    putBits(w, in + f.in_rel_at, 1, ch.in.rel ? 1 : 0);
    putBits(w, in + f.in_slot_at, sb, ch.in.slot);
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
    const ChannelFieldLayout& f = kChannelField;
    const int in = base + f.in_at + ib;
    const u64 out_op = getBits(w, base + f.out_op_at, 2);
    const u64 in_op = getBits(w, in + f.in_op_at, 2);  // 3 is ADD, 0..3 all valid
    if (out_op == 3) throw Error("table word: channel " + std::to_string(c) + " output op 3");
    ch.out.op = static_cast<OutOp>(out_op);
    ch.out.rel = getBits(w, base + f.out_rel_at, 1) != 0;
    ch.out.idx = static_cast<u32>(getBits(w, base + f.out_idx_at, ib));
    ch.in.op = static_cast<InOp>(in_op);
    ch.in.rel = getBits(w, in + f.in_rel_at, 1) != 0;
    ch.in.slot = static_cast<u32>(getBits(w, in + f.in_slot_at, sb));
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
  image_text::Word limbs;
  const std::string error = image_text::parseHex(text, static_cast<u64>(width), limbs);
  if (!error.empty()) throw Error(error);
  return fromLimbs(limbs, width);
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
  // The syntax, the header's numbers and the blocks are image_text's; what follows is what the
  // library adds: the permutation, the width the header implies and the instructions.
  TableSet set;
  TableHeader& h = set.header;
  std::optional<ImageLayout> layout;
  auto header = [&](const image_text::Text& text) {
    auto fail = [&](int line, const std::string& msg) { throw text.error(line, msg); };
    h.n = static_cast<int>(text.dim);
    h.slots = text.slots;
    h.scratch = text.memory - text.slots;
    h.lanes = static_cast<int>(text.lanes);
    h.one_port = text.one_port;
    h.mac_overlap = text.mac_overlap;
    if (text.mac_units != 0) h.mac_units = static_cast<u32>(text.mac_units);
    if (text.has("algo")) {
      if (!isValidUtf8(text.fields.at("algo").text)) {
        fail(text.lineOf("algo"), "algo name is not UTF-8 text");
      }
      h.algo = text.fields.at("algo").text;
    }
    if (!text.has("perm")) {
      fail(text.body_line,
           "the image names no permutation (no 'perm' line: written by an hcube before images "
           "carried one); verify the tables.hct beside it");
    }
    try {
      h.perm = parsePermText(text.fields.at("perm").text);
    } catch (const Error& e) {
      fail(text.lineOf("perm"), e.what());
    }
    if (h.perm.n() != h.n || h.perm.slots() != h.slots) {
      fail(text.lineOf("perm"), "permutation '" + h.perm.str() + "' does not match dim " +
                                    std::to_string(h.n) + " and slots " + std::to_string(h.slots));
    }
    layout = ImageLayout::of(h);
    if (text.width != static_cast<u64>(layout->tableWidth())) {
      fail(text.lineOf("table-width"),
           "table-width " + std::to_string(text.width) + " is not the " +
               std::to_string(layout->tableWidth()) + " bits of dim " + std::to_string(h.n) +
               ", lanes " + std::to_string(h.lanes) + ", memory " + std::to_string(text.memory));
    }
  };
  image_text::Text text;
  try {
    text = image_text::parse(in, source, header);
  } catch (const image_text::SyntaxError& e) {
    throw Error(e.what());
  }
  if (origin != nullptr) {
    origin->file = source;
    origin->lines.clear();
    for (const auto& [key, field] : text.fields) origin->lines[key] = field.line;
    origin->lines["scratch"] = text.lineOf("memory");
  }
  set.shared = text.shared;
  for (const image_text::Block& block : text.blocks) {
    set.tables.emplace_back();
    for (size_t i = 0; i < block.words.size(); ++i) {
      const TableWord w = fromLimbs(block.words[i], layout->tableWidth());
      try {
        set.tables.back().push_back(decodeInstruction(w, *layout));
      } catch (const Error& e) {
        throw Error(text.error(block.lines[i], e.what()).what());
      }
    }
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

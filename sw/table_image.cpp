#include "table_image.h"

#include <algorithm>
#include <fstream>
#include <ostream>

#include "error.h"

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

int ImageLayout::tableWidth() const { return std::max(34, 2 + n * lanes * chanBits()); }

TableWord encodeInstruction(const Instruction& ins, const ImageLayout& l) {
  const int width = l.tableWidth();
  TableWord w((width + 63) / 64, 0);
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
    const u64 in_op = getBits(w, base + 3 + ib, 2);
    if (out_op == 3) throw Error("table word: channel " + std::to_string(c) + " output op 3");
    if (in_op == 3) throw Error("table word: channel " + std::to_string(c) + " input op 3");
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
  out << "dim " << l.n << '\n';
  out << "slots " << set.header.slots << '\n';
  out << "memory " << l.memory_words << '\n';
  out << "lanes " << l.lanes << '\n';
  out << "one-port " << (set.header.one_port ? 1 : 0) << '\n';
  out << "table-width " << width << '\n';
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

}  // namespace hcube

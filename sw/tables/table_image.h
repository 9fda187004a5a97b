// hcube: the binary table-word encoding and the image file the RTL loads (docs/hardware/node.md
// §3).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tables/resource_limits.h"
#include "tables/table.h"

namespace hcube {

/// MAC (docs/hardware/arithmetic.md §2): sub-opcode in bits [4:2] of an opcode-0 word, and where
/// its six SlotBits-wide fields (a, b, c, m-1, k-1, p-1) start.
inline constexpr u64 kSubOpMac = 1;
inline constexpr int kMacFieldsAt = 5;

/// One channel's field of an XFER or PERMUTE word (channel c at 2 + c * ChanBits), least
/// significant first: the output side's op (2 bits), relative bit and index (IdxBits), then, from
/// in_at + IdxBits on, the input side's op (2 bits), relative bit and slot (SlotBits). The RTL
/// names the same places Ch*At in rtl/hc_pkg.sv (tests/registry_test.cpp checks the two agree).
struct ChannelFieldLayout {
  int out_op_at;
  int out_rel_at;
  int out_idx_at;
  int in_at;  ///< plus IdxBits: where the input side starts
  int in_op_at;
  int in_rel_at;
  int in_slot_at;
};
inline constexpr ChannelFieldLayout kChannelField{0, 2, 3, 3, 0, 2, 3};

/// Field widths of a table word, derived from the hardware configuration.
struct ImageLayout {
  int n = 1;
  int lanes = 1;
  u64 memory_words = 2;  ///< M, the memory size the slot fields index

  int slotBits() const;
  int idxBits() const;
  int chanBits() const { return 6 + idxBits() + slotBits(); }
  /// max(34, 2 + n b ChanBits, 5 + 6 SlotBits): the last term makes room for a MAC's fields.
  int tableWidth() const;
  static ImageLayout of(const TableHeader& h) { return {h.n, h.lanes, h.memoryWords()}; }
};

/// A table word, little-endian 64-bit limbs; bit i is limbs[i / 64] >> (i % 64).
using TableWord = std::vector<u64>;

TableWord encodeInstruction(const Instruction& ins, const ImageLayout& layout);
/// Decodes a word; throws Error for an illegal opcode or field value.
Instruction decodeInstruction(const TableWord& word, const ImageLayout& layout);

/// Hex text of a word, most significant digit first, ceil(width / 4) digits.
std::string toHex(const TableWord& word, int width);
/// Parses hex text of exactly ceil(width / 4) digits; throws Error on bad digits or bits above
/// width.
TableWord fromHex(const std::string& text, int width);

/// Writes the image file of docs/hardware/node.md §3 for hardware whose memory has
/// `layout.memory_words` words (>= the table set's K + scratch): the slot fields are as wide as
/// that hardware's. The one-argument form encodes for exactly K + scratch words.
void writeImage(std::ostream& out, const TableSet& set, const ImageLayout& layout);
void writeImage(std::ostream& out, const TableSet& set);
void writeImageFile(const std::string& path, const TableSet& set);
void writeImageFile(const std::string& path, const TableSet& set, const ImageLayout& layout);

/// Reads an image file back into a table set (docs/hardware/node.md §3): the header gives dim,
/// lanes, one-port, slots (K) and memory (K + scratch); `table-width` must be the width those
/// imply; the `perm` line (and `algo`) name what the tables achieve. An image without `perm`
/// (written before images carried it) is refused: its permutation is unknown. Every error names
/// `source` and the line. `origin`, if given, receives the line of every header field, under the
/// names of the text format ("dim", "slots", "scratch" for the memory line, "lanes", "perm").
TableSet readImage(std::istream& in, const std::string& source, HeaderOrigin* origin = nullptr);
TableSet readImageFile(const std::string& path, HeaderOrigin* origin = nullptr);

}  // namespace hcube

// hcube TLM model: the table decoder the nodes of a cube share.
//
// A node's table memory holds the raw table words it was loaded with (docs/hardware/node.md §3). At
// start, its sequencer gets the decoded table from this decoder, which decodes each distinct
// table content once: after a broadcast load all 2^n nodes share one decoded table instead of
// holding 2^n copies (which would cost memory bandwidth, and time, at n = 10). A word the
// decoder rejects (output op 3) becomes a one-cycle instruction that raises `illegal`
// and moves nothing.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "spec/address.h"
#include "tables/table.h"
#include "tables/table_image.h"

namespace hcube {

class HcTlmDecoder {
 public:
  /// Opcode of the instruction a rejected word decodes to (no opcode of docs/hardware/node.md §3).
  static constexpr Opcode kIllegal = static_cast<Opcode>(0xFF);

  HcTlmDecoder(const ImageLayout& layout, unsigned word_bytes)
      : m_layout(layout), m_limbs(word_bytes / 8) {}

  /// A decoded table, and per instruction whether its memory writes can never name one slot
  /// twice at any node: every MEM input has the same relative flag and a slot of its own (the
  /// XOR with the node address keeps distinct slots distinct), so no node needs the conflict
  /// check (docs/hardware/checks.md) for it.
  struct Decoded {
    Table table;
    std::vector<char> distinct_writes;
  };

  /// The decoded table of the first `words` table words of `bits` (word_bytes / 8 limbs each).
  const Decoded& decode(const std::vector<u64>& table_memory, size_t words) {
    const std::vector<u64> bits(
        table_memory.begin(), table_memory.begin() + static_cast<std::ptrdiff_t>(words * m_limbs));
    auto it = m_tables.find(bits);
    if (it != m_tables.end()) return *it->second;
    auto decoded = std::make_unique<Decoded>();
    Table* table = &decoded->table;
    table->reserve(bits.size() / m_limbs);
    TableWord word(m_limbs);
    for (size_t i = 0; i + m_limbs <= bits.size(); i += m_limbs) {
      word.assign(bits.begin() + static_cast<std::ptrdiff_t>(i),
                  bits.begin() + static_cast<std::ptrdiff_t>(i + m_limbs));
      try {
        table->push_back(decodeInstruction(word, m_layout));
      } catch (const std::exception&) {
        Instruction illegal;
        illegal.op = kIllegal;
        table->push_back(illegal);
      }
    }
    for (const Instruction& ins : *table) decoded->distinct_writes.push_back(distinctWrites(ins));
    return *m_tables.emplace(bits, std::move(decoded)).first->second;
  }

 private:
  ImageLayout m_layout;
  size_t m_limbs;
  std::map<std::vector<u64>, std::unique_ptr<Decoded>> m_tables;

  static bool distinctWrites(const Instruction& ins) {
    std::vector<const InField*> writes;
    for (const Channel& ch : ins.channels) {
      if (ch.in.writes()) writes.push_back(&ch.in);
    }
    for (size_t i = 0; i < writes.size(); ++i) {
      if (writes[i]->rel != writes[0]->rel) return false;
      for (size_t j = 0; j < i; ++j) {
        if (writes[i]->slot == writes[j]->slot) return false;
      }
    }
    return true;
  }
};

}  // namespace hcube

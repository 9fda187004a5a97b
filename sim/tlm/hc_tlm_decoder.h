// hcube TLM model: the table decoder the nodes of a cube share.
//
// A node's table memory holds the raw table words it was loaded with (docs/hardware.md §3). At
// start, its sequencer gets the decoded table from this decoder, which decodes each distinct
// table content once: after a broadcast load all 2^n nodes share one decoded table instead of
// holding 2^n copies (which would cost memory bandwidth, and time, at n = 10). A word the
// decoder rejects (output or input op 3) becomes a one-cycle instruction that raises `illegal`
// and moves nothing.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "address.h"
#include "table.h"
#include "table_image.h"

namespace hcube {

class HcTlmDecoder {
 public:
  /// Opcode of the instruction a rejected word decodes to (no opcode of docs/hardware.md §3).
  static constexpr Opcode kIllegal = static_cast<Opcode>(0xFF);

  HcTlmDecoder(const ImageLayout& layout, unsigned word_bytes)
      : m_layout(layout), m_limbs(word_bytes / 8) {}

  /// The decoded table of the first `words` table words of `bits` (word_bytes / 8 limbs each).
  const Table& decode(const std::vector<u64>& table_memory, size_t words) {
    const std::vector<u64> bits(
        table_memory.begin(), table_memory.begin() + static_cast<std::ptrdiff_t>(words * m_limbs));
    auto it = m_tables.find(bits);
    if (it != m_tables.end()) return *it->second;
    auto table = std::make_unique<Table>();
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
    return *m_tables.emplace(bits, std::move(table)).first->second;
  }

 private:
  ImageLayout m_layout;
  size_t m_limbs;
  std::map<std::vector<u64>, std::unique_ptr<Table>> m_tables;
};

}  // namespace hcube

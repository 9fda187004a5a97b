// hcube-rtl-sim --memory FILE: an initial memory instead of tags (seeded values, the
// same words the table executor and the TLM start from; sim/rtl_table_run.cpp writes the file).
//
// The file holds W words of every node, node 0 first, each word 4 bytes little-endian (W: the
// size over 4 x nodes, at most the build's NumSlots; slots W.. start at zero). Header-only so
// the model's build lists no new source.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cube_tb.h"
#include "image.h"

namespace hcube::tb {

/// Writes the file's words into slots 0..W-1 of every node and zero into the build's slots
/// W..NumSlots-1; throws ImageError naming the file if its size is not nodes x W words with
/// W <= NumSlots.
inline void FillFromMemoryFile(CubeTb& tb, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ImageError(path + ": cannot read the initial memory file");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const int nodes = tb.config().NumNodes();
  const uint64_t row = static_cast<uint64_t>(nodes) * 4;
  const uint64_t words = bytes.size() / row;
  if (bytes.size() % row != 0 || words > static_cast<uint64_t>(tb.config().num_slots)) {
    throw ImageError(path + ": " + std::to_string(bytes.size()) +
                     " bytes is not an initial memory of " + std::to_string(nodes) +
                     " nodes x at most " + std::to_string(tb.config().num_slots) +
                     " words of 4 bytes");
  }
  std::vector<uint32_t> slot(static_cast<size_t>(nodes));
  for (uint64_t l = 0; l < static_cast<uint64_t>(tb.config().num_slots); ++l) {
    for (int x = 0; x < nodes; ++x) {
      uint32_t w = 0;
      if (l < words) {
        const size_t at = static_cast<size_t>((static_cast<uint64_t>(x) * words + l) * 4);
        for (int b = 0; b < 4; ++b) {
          w |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
        }
      }
      slot[static_cast<size_t>(x)] = w;
    }
    tb.WriteSlot(static_cast<int>(l), slot);
  }
}

}  // namespace hcube::tb

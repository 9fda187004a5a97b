// hcube testbench: the table image file (docs/hardware/node.md §3) the RTL runner loads.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cube_config.h"

namespace hcube::tb {

/// One table word, 32-bit words least significant first (ceil(TableWidth / 32) of them).
using TableWord = std::vector<uint32_t>;

/// A malformed image, or one that does not fit the build; what() is
/// "FILE:LINE: message" (or "FILE: message" when no line applies).
class ImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A parsed image file.
struct Image {
  std::string path;
  int dim = 0;
  int slots = 0;   ///< K: data slots that receive tags
  int memory = 0;  ///< M: memory words per node (<= the build's NumSlots)
  int lanes = 0;
  bool one_port = false;
  bool mac_overlap = false;  ///< MAC overlap mode (docs/hardware/arithmetic.md §3), optional line
  int table_width = 0;
  /// true: tables[0] is loaded into every node; false: tables[x] is node x's table.
  bool broadcast = true;
  std::vector<std::vector<TableWord>> tables;

  /// Upper bound of the cycles any node can run: the largest sum, over a node's table up to
  /// its first END, of 1 per XFER or PERMUTE and c per WAIT c (at least 1).
  uint64_t MaxCycles() const;
};

/// Reads an image (its syntax checked by sw/tables/image_text.h, as the library reads it) and
/// checks it against the build configuration. Throws ImageError naming the file and line on a
/// malformed image, a dim / lanes / table-width / MAC units other than the build's, memory above
/// the build's NumSlots, or more table words than TableDepth.
Image ReadImage(const std::string& path, const CubeConfig& config);

}  // namespace hcube::tb

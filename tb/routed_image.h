// hcube testbench: the routed image (docs/hardware/router.md §1) — what software loads into every
// node's router for a routed run: the header words, the message words in queue order, and the
// node's initial memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cube_config.h"
#include "image.h"

namespace hcube::tb {

struct RoutedNode {
  std::vector<TableWord> header;    ///< configuration, then where each queue begins (n + 2)
  std::vector<TableWord> messages;  ///< message words, queue by queue
  std::vector<uint32_t> data;       ///< the initial memory, `memory` words
};

struct RoutedImage {
  std::string path;
  int dim = 0;
  int slots = 0;        ///< K
  int memory = 0;       ///< M = 2K words per node (<= the build's NumSlots)
  uint64_t tagged = 0;  ///< words below this are tags (the traffic monitor's span)
  int fifo_depth = 0;   ///< D (also in the configuration word)
  int vcs = 1;  ///< V: virtual channels per link, the model's (docs/hardware/router.md §13)
  uint64_t deadlock = 0;    ///< L (also in the configuration word)
  bool deliveries = false;  ///< report every delivery's cycle ("delivery" result lines)
  std::vector<RoutedNode> nodes;

  /// The release cycle of message `index` of node `node`.
  uint64_t Release(const CubeConfig& config, int node, uint64_t index) const;
  /// Whether message `index` of node `node` is the first word of a message that pays the
  /// start-up tau (its start flag, docs/hardware/router.md §7).
  bool Starts(const CubeConfig& config, int node, uint64_t index) const;
};

/// True if the file starts with "hcube-routed-image".
bool IsRoutedImage(const std::string& path);

/// Reads and checks a routed image against the build: dim, message width, memory <= NumSlots,
/// messages per node <= TableDepth, FIFO depth 1..4, virtual channels (the model's), node
/// blocks. Throws ImageError naming the
/// file and line.
RoutedImage ReadRoutedImage(const std::string& path, const CubeConfig& config);

}  // namespace hcube::tb

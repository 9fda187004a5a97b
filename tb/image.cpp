// hcube testbench: reading table image files (docs/hardware/node.md §3) and checking them against
// the build.
#include "image.h"

#include <algorithm>
#include <fstream>

#include "tables/image_text.h"  // sw/: the image's syntax, read as the library reads it

namespace hcube::tb {
namespace {

// The build's own checks of the header: the image must be for this build's dim, lanes, table
// width and MAC units, and need no more memory than it has.
void CheckFit(const image_text::Text& text, const CubeConfig& config) {
  auto expect = [&](const char* key, uint64_t have, long want) {
    if (have != static_cast<uint64_t>(want)) {
      throw text.error(text.lineOf(key), std::string(key) + " " + std::to_string(have) +
                                             " does not fit this simulator, built for " + key +
                                             " " + std::to_string(want) + " (" + config.Describe() +
                                             ")");
    }
  };
  expect("dim", text.dim, config.dim);
  expect("lanes", text.lanes, config.lanes);
  if (text.memory > static_cast<uint64_t>(config.num_slots)) {
    throw text.error(text.lineOf("memory"),
                     "memory " + std::to_string(text.memory) +
                         " does not fit this simulator, built for memory 1.." +
                         std::to_string(config.num_slots) + " (" + config.Describe() + ")");
  }
  expect("table-width", text.width, config.TableWidth());
  // Optional: images without MACs on one unit leave it out.
  if (text.has("mac-units")) expect("mac-units", text.mac_units, config.mac_units);
}

}  // namespace

uint64_t Image::MaxCycles() const {
  uint64_t most = 0;
  for (const auto& table : tables) {
    uint64_t sum = 0;
    for (const TableWord& w : table) {
      const uint32_t op = w[0] & 3U;
      if (op == 0) break;  // END; XFER (1) and PERMUTE (3) take one cycle
      if (op == 2) {       // WAIT c, c in bits [33:2]
        const uint64_t c =
            (w[0] >> 2) | (static_cast<uint64_t>(w.size() > 1 ? w[1] & 3U : 0) << 30);
        sum += c == 0 ? 1 : c;
      } else {
        sum += 1;
      }
    }
    most = std::max(most, sum);
  }
  return most;
}

Image ReadImage(const std::string& path, const CubeConfig& config) {
  std::ifstream in(path);
  if (!in) throw ImageError(path + ": cannot open image file");
  image_text::Text text;
  try {
    text = image_text::parse(
        in, path, [&](const image_text::Text& t) { CheckFit(t, config); },
        {static_cast<uint64_t>(config.table_depth), "this simulator's table depth"});
  } catch (const image_text::SyntaxError& e) {
    throw ImageError(e.what());
  }
  Image image;
  image.path = path;
  image.dim = config.dim;
  image.lanes = config.lanes;
  image.memory = static_cast<int>(text.memory);
  image.slots = static_cast<int>(text.slots);
  image.table_width = config.TableWidth();
  image.one_port = text.one_port;
  image.mac_overlap = text.mac_overlap;
  image.broadcast = text.shared;
  image.tables.reserve(text.blocks.size());
  for (image_text::Block& block : text.blocks) image.tables.push_back(std::move(block.words));
  return image;
}

}  // namespace hcube::tb

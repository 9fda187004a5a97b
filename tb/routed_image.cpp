// hcube testbench: the routed image reader (docs/hardware/router.md §1).
//
//   hcube-routed-image 1
//   dim 2                  # the build's Dim
//   slots 4                # K
//   memory 8               # M = 2K
//   tagged 16              # words below this are tags
//   msg-width 46           # the build's message width (rtl/hc_pkg.sv hc_msg_width)
//   fifo-depth 4
//   vcs 2                  # optional (default 1): virtual channels per link, the build's
//   deadlock 64
//   deliveries 1           # optional: report every delivery's cycle
//   node 0                 # every node, in order
//   header HEX ...         # n + 3 words: configuration, where Q_0 .. Q_{n-1}, Q_L begin, end
//   message HEX            # one line per message, queue by queue
//   data HEX ...           # M words of initial memory
//   end
#include "routed_image.h"

#include <fstream>
#include <sstream>

namespace hcube::tb {
namespace {

TableWord ParseHex(const std::string& hex, int width_bits, const std::string& where) {
  const int words = (width_bits + 31) / 32;
  TableWord w(static_cast<size_t>(words), 0);
  if (hex.empty()) throw ImageError(where + ": empty hex word");
  int bit = 0;
  for (auto it = hex.rbegin(); it != hex.rend(); ++it, bit += 4) {
    const char c = *it;
    int v = 0;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else {
      throw ImageError(where + ": bad hex digit '" + std::string(1, c) + "'");
    }
    if (v == 0) continue;
    for (int b = 0; b < 4; ++b) {
      if (((v >> b) & 1) == 0) continue;
      if (bit + b >= width_bits) {
        throw ImageError(where + ": hex word wider than " + std::to_string(width_bits) + " bits");
      }
      w[static_cast<size_t>((bit + b) / 32)] |= 1U << ((bit + b) % 32);
    }
  }
  return w;
}

}  // namespace

uint64_t RoutedImage::Release(const CubeConfig& config, int node, uint64_t index) const {
  const TableWord& m = nodes.at(static_cast<size_t>(node)).messages.at(index);
  uint64_t r = 0;
  const int lsb = config.ReleaseLsb();
  for (int b = 0; b < 32; ++b) {
    const int at = lsb + b;
    if ((m[static_cast<size_t>(at / 32)] >> (at % 32)) & 1U) r |= uint64_t{1} << b;
  }
  return r;
}

bool RoutedImage::Starts(const CubeConfig& config, int node, uint64_t index) const {
  const TableWord& m = nodes.at(static_cast<size_t>(node)).messages.at(index);
  const int at = config.StartBit();
  return ((m[static_cast<size_t>(at / 32)] >> (at % 32)) & 1U) != 0;
}

bool IsRoutedImage(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  return static_cast<bool>(in >> first) && first == "hcube-routed-image";
}

RoutedImage ReadRoutedImage(const std::string& path, const CubeConfig& config) {
  std::ifstream in(path);
  if (!in) throw ImageError(path + ": cannot open");
  RoutedImage img;
  img.path = path;
  std::string line;
  int lineno = 0;
  auto where = [&]() { return path + ":" + std::to_string(lineno); };
  auto fail = [&](const std::string& msg) { throw ImageError(where() + ": " + msg); };
  bool header = false;
  bool ended = false;
  int msg_width = 0;
  RoutedNode* cur = nullptr;
  while (std::getline(in, line)) {
    ++lineno;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string key;
    if (!(words >> key)) continue;
    if (!header) {
      int version = 0;
      if (key != "hcube-routed-image" || !(words >> version) || version != 1) {
        fail("not an hcube-routed-image 1 file");
      }
      header = true;
      continue;
    }
    auto number = [&]() {
      long long v = -1;
      if (!(words >> v) || v < 0) fail("'" + key + "' needs a non-negative number");
      return static_cast<uint64_t>(v);
    };
    if (key == "dim") {
      img.dim = static_cast<int>(number());
      if (img.dim != config.dim) {
        fail("dim " + std::to_string(img.dim) + " but the model is built for " + config.Describe());
      }
    } else if (key == "slots") {
      img.slots = static_cast<int>(number());
    } else if (key == "memory") {
      img.memory = static_cast<int>(number());
      if (img.memory > config.num_slots || img.memory < 1) {
        fail("memory " + std::to_string(img.memory) + " does not fit the model (" +
             config.Describe() + ")");
      }
    } else if (key == "tagged") {
      img.tagged = number();
    } else if (key == "msg-width") {
      msg_width = static_cast<int>(number());
      if (msg_width != config.MsgWidth()) {
        fail("msg-width " + std::to_string(msg_width) + " but the model's is " +
             std::to_string(config.MsgWidth()));
      }
    } else if (key == "fifo-depth") {
      img.fifo_depth = static_cast<int>(number());
      if (img.fifo_depth < 1 || img.fifo_depth > CubeConfig::kFifoDepthMax) {
        fail("fifo-depth must be 1.." + std::to_string(CubeConfig::kFifoDepthMax));
      }
    } else if (key == "vcs") {
      img.vcs = static_cast<int>(number());
      if (img.vcs != config.vcs) {
        fail("vcs " + std::to_string(img.vcs) + " but the model is built with " +
             std::to_string(config.vcs) + " virtual channel(s) per link (HC_VCS)");
      }
    } else if (key == "deadlock") {
      img.deadlock = number();
      if (img.deadlock < 1 || img.deadlock > 65535) fail("deadlock must be 1..65535");
    } else if (key == "deliveries") {
      img.deliveries = number() != 0;
    } else if (key == "node") {
      const uint64_t x = number();
      if (msg_width == 0 || img.memory == 0) fail("'node' before msg-width and memory");
      if (x != img.nodes.size() || x >= static_cast<uint64_t>(config.NumNodes())) {
        fail("node " + std::to_string(x) + " out of order or out of range");
      }
      img.nodes.emplace_back();
      cur = &img.nodes.back();
    } else if (key == "header" || key == "message" || key == "data") {
      if (cur == nullptr) fail("'" + key + "' before 'node'");
      std::string hex;
      while (words >> hex) {
        if (key == "header") {
          cur->header.push_back(ParseHex(hex, config.LoadWidth(), where()));
        } else if (key == "message") {
          cur->messages.push_back(ParseHex(hex, msg_width, where()));
          if (static_cast<int>(cur->messages.size()) > config.table_depth) {
            fail("more messages than the model's table depth " +
                 std::to_string(config.table_depth));
          }
        } else {
          cur->data.push_back(ParseHex(hex, 32, where())[0]);
        }
      }
      continue;
    } else if (key == "end") {
      ended = true;
      break;
    } else {
      fail("unknown key '" + key + "'");
    }
  }
  if (!header) throw ImageError(path + ": empty file");
  if (img.vcs != config.vcs) {  // no vcs line: 1
    throw ImageError(path + ": no 'vcs' line (1 virtual channel) but the model is built with " +
                     std::to_string(config.vcs) + " per link (HC_VCS)");
  }
  if (!ended) throw ImageError(path + ": truncated (no 'end')");
  if (static_cast<int>(img.nodes.size()) != config.NumNodes()) {
    throw ImageError(path + ": " + std::to_string(img.nodes.size()) +
                     " node blocks, the cube has " + std::to_string(config.NumNodes()));
  }
  for (size_t x = 0; x < img.nodes.size(); ++x) {
    const RoutedNode& n = img.nodes[x];
    if (static_cast<int>(n.header.size()) != config.dim + 3) {
      throw ImageError(path + ": node " + std::to_string(x) + " needs " +
                       std::to_string(config.dim + 3) + " header words");
    }
    if (static_cast<int>(n.data.size()) != img.memory) {
      throw ImageError(path + ": node " + std::to_string(x) + " needs " +
                       std::to_string(img.memory) + " data words");
    }
  }
  return img;
}

}  // namespace hcube::tb

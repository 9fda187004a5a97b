// hcube: the result document of a run (docs/hardware/testbench.md §4), described once: its name,
// its version, the keys of its counters and the encodings of its arrays. The RTL testbench
// (tb/result_file.h) writes it, the TLM child sends it through its pipe and the library writes
// one from any RunResult and reads every one (exec/result_json.h, router/routed_result.h).
// Header-only, standard C++ and nlohmann-json only, so the RTL testbench compiles it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "base/hex.h"

namespace hcube::result_format {

/// The value of the document's "format" key.
inline constexpr const char* kFormat = "hcube-result";
/// The value of its "version" key; a reader refuses any other.
inline constexpr int kVersion = 1;

/// The counters every run reports, under the keys `hcube run --json` gives them.
struct Counters {
  uint64_t cycles = 0;
  uint64_t transfer_cycles = 0;
  uint64_t local_cycles = 0;
  uint64_t mac_cycles = 0;
  uint64_t words = 0;
  bool timeout = false;
  double wall_seconds = 0;
  uint64_t span = 0;
};

/// The document's head: format, version, backend, the cube's shape (nodes, dimensions n, memory
/// words per node), the counters and the words per directed link (index node * n + port).
inline nlohmann::ordered_json head(const std::string& backend, uint64_t nodes, uint64_t dims,
                                   uint64_t memory_words, const Counters& c,
                                   const std::vector<uint64_t>& link_words) {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["backend"] = backend;
  j["nodes"] = nodes;
  j["n"] = dims;
  j["memory_words"] = memory_words;
  j["cycles"] = c.cycles;
  j["transfer_cycles"] = c.transfer_cycles;
  j["local_cycles"] = c.local_cycles;
  j["mac_cycles"] = c.mac_cycles;
  j["words"] = c.words;
  j["timeout"] = c.timeout;
  j["wall_seconds"] = c.wall_seconds;
  j["span"] = c.span;
  j["link_words"] = link_words;
  j["hw_errors"] = nlohmann::ordered_json::array();
  return j;
}

/// One entry of "hw_errors": a non-zero error counter (kind: the docs/hardware/checks.md name).
inline nlohmann::ordered_json hwError(uint64_t node, const char* kind, uint64_t count) {
  return {{"node", node}, {"kind", kind}, {"count", count}};
}

/// The "traffic" object of a run that recorded the monitor's log: "sends" (each
/// [cycle, node, port, word, lane]), "stores" ([cycle, word]) and "error_events"
/// ([cycle, node, kind]), each list in the canonical order of exec/traffic_monitor.h.
inline nlohmann::ordered_json trafficSection() {
  return {{"sends", nlohmann::ordered_json::array()},
          {"stores", nlohmann::ordered_json::array()},
          {"error_events", nlohmann::ordered_json::array()}};
}
inline nlohmann::ordered_json send(uint64_t cycle, uint64_t node, int port, uint32_t word,
                                   int lane) {
  return nlohmann::ordered_json::array({cycle, node, port, word, lane});
}
inline nlohmann::ordered_json store(uint64_t cycle, uint32_t word) {
  return nlohmann::ordered_json::array({cycle, word});
}
inline nlohmann::ordered_json errorEvent(uint64_t cycle, uint64_t node, const char* kind) {
  return nlohmann::ordered_json::array({cycle, node, kind});
}

/// One node's memory as the "memory" array holds it: 8 lowercase hex digits per word, slot 0
/// first, no separator (one string per node keeps a big cube's document small and fast to read).
inline std::string memoryHex(const uint32_t* words, size_t count) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(count * 8, '0');
  for (size_t i = 0; i < count; ++i) {
    for (int d = 0; d < 8; ++d)
      s[i * 8 + static_cast<size_t>(d)] = kDigits[(words[i] >> (28 - 4 * d)) & 0xFU];
  }
  return s;
}

/// Parses memoryHex's text back into `out` (count words); false if the text is not exactly
/// 8 * count hex digits.
inline bool parseMemoryHex(const std::string& text, size_t count, uint32_t* out) {
  if (text.size() != count * 8) return false;
  for (size_t i = 0; i < count; ++i) {
    uint32_t w = 0;
    for (size_t d = 0; d < 8; ++d) {
      const int v = hexDigitValue(text[i * 8 + d]);
      if (v < 0) return false;
      w = (w << 4) | static_cast<uint32_t>(v);
    }
    out[i] = w;
  }
  return true;
}

/// Writes the document, compact, with a final newline; an error writing is the stream's state.
template <typename Json>
void write(std::ostream& out, const Json& doc) {
  out << doc.dump() << '\n';
}

}  // namespace hcube::result_format

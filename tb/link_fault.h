// hcube-rtl-sim --fault SPEC: one link fault (docs/hardware/faults.md), the model of
// sw/exec/fault.h driven onto hc_cube's fault-mask inputs cycle by cycle (CubeTb::SetFault). The
// spec is what hcube's formatFault writes for a link fault:
//   flip:NODE:PORT:LANE:CYCLE:BIT         the word of CYCLE has BIT inverted
//   stuck:NODE:PORT:LANE:CYCLE:BIT:VALUE  from CYCLE on, BIT is forced to VALUE
//   dead:NODE:PORT:LANE:CYCLE             from CYCLE on, nothing crosses
//   drop:NODE:PORT:LANE:CYCLE             the word of CYCLE is removed
// (Table faults are applied to the image before it is written: the runner never sees them.)
// Header-only so the model's build lists no new source.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "cube_config.h"

namespace hcube::tb {

struct LinkFault {
  enum class Kind { kFlip, kStuck, kDead, kDrop };
  Kind kind = Kind::kFlip;
  int node = 0;
  int port = 0;
  int lane = 0;
  uint64_t cycle = 0;
  int bit = 0;
  int value = 0;

  /// The fault-mask inputs of hc_cube in one cycle of the run.
  struct Mask {
    bool enable = false;
    uint32_t xor_bits = 0;
    uint32_t clear_bits = 0;
    uint32_t set_bits = 0;
    bool kill = false;
    bool operator==(const Mask& o) const {  // (the model's build is C++17: no = default)
      return enable == o.enable && xor_bits == o.xor_bits && clear_bits == o.clear_bits &&
             set_bits == o.set_bits && kill == o.kill;
    }
  };

  /// The mask in cycle t (0 = the cycle that executes instruction 0).
  Mask MaskAt(uint64_t t) const {
    Mask m;
    const uint32_t b = uint32_t{1} << bit;
    switch (kind) {
      case Kind::kFlip:
        m.enable = t == cycle;
        m.xor_bits = m.enable ? b : 0;
        break;
      case Kind::kStuck:
        m.enable = t >= cycle;
        if (m.enable) (value != 0 ? m.set_bits : m.clear_bits) = b;
        break;
      case Kind::kDead:
        m.enable = m.kill = t >= cycle;
        break;
      case Kind::kDrop:
        m.enable = m.kill = t == cycle;
        break;
    }
    return m;
  }

  /// Parses a spec (above) against this build; throws std::invalid_argument naming the field.
  static LinkFault Parse(const std::string& spec, const CubeConfig& config) {
    std::vector<std::string> f;
    for (size_t start = 0;;) {
      const size_t colon = spec.find(':', start);
      f.push_back(spec.substr(start, colon - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
    LinkFault out;
    size_t want = 5;
    if (f[0] == "flip") {
      out.kind = Kind::kFlip;
      want = 6;
    } else if (f[0] == "stuck") {
      out.kind = Kind::kStuck;
      want = 7;
    } else if (f[0] == "dead") {
      out.kind = Kind::kDead;
    } else if (f[0] == "drop") {
      out.kind = Kind::kDrop;
    } else {
      throw std::invalid_argument("--fault " + spec + ": kind '" + f[0] +
                                  "' must be flip, stuck, dead or drop");
    }
    if (f.size() != want) {
      throw std::invalid_argument("--fault " + spec + ": " + f[0] + " takes " +
                                  std::to_string(want - 1) + " fields, got " +
                                  std::to_string(f.size() - 1));
    }
    auto number = [&](size_t i, const char* name, uint64_t limit) {
      const std::string& v = f[i];
      char* end = nullptr;
      errno = 0;
      const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || v[0] == '-' || *end != '\0' || errno != 0 || x >= limit) {
        throw std::invalid_argument("--fault " + spec + ": bad " + name + " '" + v + "' (below " +
                                    std::to_string(limit) + ")");
      }
      return static_cast<uint64_t>(x);
    };
    out.node = static_cast<int>(number(1, "node", static_cast<uint64_t>(config.NumNodes())));
    out.port = static_cast<int>(number(2, "port", static_cast<uint64_t>(config.dim)));
    out.lane = static_cast<int>(number(3, "lane", static_cast<uint64_t>(config.lanes)));
    out.cycle = number(4, "cycle", ~uint64_t{0});
    if (want >= 6) out.bit = static_cast<int>(number(5, "bit", 32));
    if (want == 7) out.value = static_cast<int>(number(6, "value", 2));
    return out;
  }
};

}  // namespace hcube::tb

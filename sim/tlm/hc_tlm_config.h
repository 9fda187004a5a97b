// hcube TLM model: the configuration of a cube (docs/hardware/node.md §1) and the address map of
// its load socket (the TLM counterpart of the RTL's table load port and memory scan port,
// docs/hardware/testbench.md §1).
//
// SystemC-free on purpose, so the backend entry point and the tests need no SystemC headers.
#pragma once

#include <cstddef>

#include "spec/address.h"
#include "tables/table_image.h"

namespace hcube {

/// Sizes of a cube, fixed at elaboration like the RTL parameters.
struct HcTlmConfig {
  int n = 1;               ///< Dim: 2^n nodes, port j of node x links to x ^ (1 << j)
  int lanes = 1;           ///< Lanes b per port and direction
  u64 memory_words = 2;    ///< NumSlots M
  size_t table_depth = 2;  ///< TableDepth D (table words per node)
  bool one_port = false;   ///< one-port mode (the RTL's one_port_i)
  u32 mac_units =
      1;  ///< MacUnits U: multiply-add units per node (MAC, docs/hardware/arithmetic.md §2)
  bool mac_overlap =
      false;  ///< MAC overlap mode (docs/hardware/arithmetic.md §3; the RTL's mac_overlap_i)
  u64 tagged_elements = 0;  ///< traffic monitor: words below this are tags (span)

  u64 nodes() const { return u64{1} << n; }
  size_t channels() const { return static_cast<size_t>(n) * static_cast<size_t>(lanes); }
  ImageLayout layout() const { return {n, lanes, memory_words}; }
  /// Bytes of one table word on the load socket: the TableWord limbs, little-endian u64s.
  unsigned tableWordBytes() const {
    return static_cast<unsigned>(8 * ((layout().tableWidth() + 63) / 64));
  }
};

/// Address map of the load socket (64-bit byte addresses, all data little-endian host words).
///
///   [63:40] node        which node (ignored for kRegionCube)
///   [36]    broadcast   write every node at once (table and memory writes only)
///   [35:32] region      see below
///   [31:0]  offset      byte offset inside the region
///
/// A node's own load socket sees only [35:0] (region and offset).
namespace hc_tlm_map {

constexpr int kNodeShift = 40;
constexpr u64 kBroadcast = u64{1} << 36;
constexpr int kRegionShift = 32;
constexpr u64 kRegionMask = u64{0xF} << kRegionShift;
constexpr u64 kOffsetMask = 0xFFFFFFFFULL;

/// Table word i at offset i * HcTlmConfig::tableWordBytes(); bursts of whole words. R/W.
constexpr u64 kRegionTable = 0;
/// Memory slot s at offset 4 * s (u32 words); bursts of whole words. R/W.
constexpr u64 kRegionMemory = 1;
/// Read only, u32 words: error counter of kind k (docs/hardware/checks.md) at offset 4 * k, then
/// the done flag at offset kStatusDone.
constexpr u64 kRegionStatus = 2;
constexpr u64 kStatusDone = 4 * 10;  // 4 * kHwErrorKinds
/// Cube registers (u64, 8-byte accesses), not routed to a node:
constexpr u64 kRegionCube = 0xF;
constexpr u64 kCubeStart = 0x00;        ///< W: 1 starts a run at the next rising clock edge
constexpr u64 kCubeMaxCycles = 0x08;    ///< RW: cycle limit of a run (0: none)
constexpr u64 kCubeStatus = 0x10;       ///< R: bit 0 run finished, bit 1 timeout
constexpr u64 kCubeCycles = 0x18;       ///< R: cycles_o
constexpr u64 kCubeXferCycles = 0x20;   ///< R: xfer_cycles_o
constexpr u64 kCubeWords = 0x28;        ///< R: words_o
constexpr u64 kCubeLocalCycles = 0x30;  ///< R: local_cycles_o (cycles with a PERMUTE)
constexpr u64 kCubeMacCycles =
    0x38;  ///< R: mac_cycles_o (cycles with a MAC, docs/hardware/arithmetic.md §2)

constexpr u64 address(u64 node, u64 region, u64 offset) {
  return (node << kNodeShift) | (region << kRegionShift) | offset;
}
constexpr u64 broadcast(u64 region, u64 offset) {
  return kBroadcast | (region << kRegionShift) | offset;
}
constexpr u64 cubeRegister(u64 offset) { return address(0, kRegionCube, offset); }

}  // namespace hc_tlm_map
}  // namespace hcube

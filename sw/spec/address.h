// hcube: addresses on a Boolean n-cube.
//
// A node address x has n bits; port j of node x links to node x ^ (1 << j). The global address
// of local slot l of node x is (x | l), the papers' (j|i) notation (Johnsson & Ho 1992, §2.1):
// with K slots per node its integer value is x * K + l. Binary-reflected Gray code as in
// Johnsson & Ho 1987 (§2).
#pragma once

#include <bit>
#include <cstdint>

namespace hcube {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

/// Global address (node | slot) of one element.
struct GlobalAddress {
  u64 node = 0;
  u64 slot = 0;
  friend bool operator==(const GlobalAddress&, const GlobalAddress&) = default;
};

inline u64 packAddress(GlobalAddress a, u64 slots_per_node) {
  return a.node * slots_per_node + a.slot;
}
inline GlobalAddress unpackAddress(u64 value, u64 slots_per_node) {
  return {value / slots_per_node, value % slots_per_node};
}

inline int popcount(u64 x) { return std::popcount(x); }
inline int hammingDistance(u64 a, u64 b) { return std::popcount(a ^ b); }
inline u64 neighbour(u64 node, int dim) { return node ^ (u64{1} << dim); }
inline bool bitOf(u64 x, int i) { return ((x >> i) & 1U) != 0; }

/// Binary-reflected Gray code G(x) = x ^ (x >> 1).
inline u64 grayEncode(u64 x) { return x ^ (x >> 1); }

/// Inverse of grayEncode: prefix XOR from the most significant bit down.
inline u64 grayDecode(u64 g) {
  u64 x = g;
  for (int shift = 1; shift < 64; shift <<= 1) x ^= x >> shift;
  return x;
}

inline bool isPowerOfTwo(u64 x) { return x != 0 && (x & (x - 1)) == 0; }
inline int log2Exact(u64 x) { return std::countr_zero(x); }
/// Smallest number of bits that can index x values (at least 1).
inline int bitsFor(u64 values) {
  int b = 1;
  while ((u64{1} << b) < values) ++b;
  return b;
}

}  // namespace hcube

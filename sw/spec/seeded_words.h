// hcube: the seeded generator of initial values (`--seed S`), header-only and standard
// C++17 only, so that any other implementation reproduces the values from this description:
//
//   splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
//   OOPSLA 2014; the form of Vigna's public-domain splitmix64.c): the state starts at S; each
//   output adds 0x9E3779B97F4A7C15 to the state and returns the state mixed by
//     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;  z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//     z ^ (z >> 31)                                      (all arithmetic mod 2^64).
//
// A seeded memory holds, in data slot l < K of node x, the low 32 bits of output number
// g = x K + l (counting from 0) of the generator seeded with S; scratch slots (K and above)
// hold 0. Output g is computed directly (state S + (g + 1) * 0x9E3779B97F4A7C15), so nodes can
// be filled in any order.
#pragma once

#include <cstdint>

namespace hcube {

/// Output number `index` (0, 1, ...) of splitmix64 seeded with `seed`.
inline std::uint64_t splitmix64At(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The initial word of data slot `slot` of node `node` (K = `data_slots`) for seed `seed`.
inline std::uint32_t seededWord(std::uint64_t seed, std::uint64_t node, std::uint64_t slot,
                                std::uint64_t data_slots) {
  return static_cast<std::uint32_t>(splitmix64At(seed, node * data_slots + slot));
}

}  // namespace hcube

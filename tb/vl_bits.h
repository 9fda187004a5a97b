// hcube testbench: bit-field access to Verilated ports of any width.
//
// Verilator maps a port of up to 8/16/32/64 bits to CData/SData/IData/QData and a wider one to
// VlWide<N> (N 32-bit words, least significant first). These helpers read and write a field
// [lsb +: width] (width <= 64) of either kind, so the testbench is written once for every build
// configuration.
#pragma once

#include <verilated.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace hcube::tb {

inline uint64_t LowMask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

/// Writes value into bits [lsb +: width] of a port held in an integer.
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
void SetBits(T& port, int lsb, int width, uint64_t value) {
  const uint64_t mask = LowMask(width) << lsb;
  uint64_t p = static_cast<uint64_t>(port);
  p = (p & ~mask) | ((value << lsb) & mask);
  port = static_cast<T>(p);
}

/// Reads bits [lsb +: width] of a port held in an integer.
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
uint64_t GetBits(const T& port, int lsb, int width) {
  return (static_cast<uint64_t>(port) >> lsb) & LowMask(width);
}

/// Writes value into bits [lsb +: width] of a wide port.
template <std::size_t N>
void SetBits(VlWide<N>& port, int lsb, int width, uint64_t value) {
  for (int done = 0; done < width;) {
    const int bit = lsb + done;
    const int word = bit / 32;
    const int off = bit % 32;
    const int n = std::min(32 - off, width - done);
    const uint32_t mask = static_cast<uint32_t>(LowMask(n) << off);
    const uint32_t part = static_cast<uint32_t>((value >> done) << off);
    port[word] = (port[word] & ~mask) | (part & mask);
    done += n;
  }
}

/// Reads bits [lsb +: width] of a wide port.
template <std::size_t N>
uint64_t GetBits(const VlWide<N>& port, int lsb, int width) {
  uint64_t value = 0;
  for (int done = 0; done < width;) {
    const int bit = lsb + done;
    const int word = bit / 32;
    const int off = bit % 32;
    const int n = std::min(32 - off, width - done);
    value |= ((static_cast<uint64_t>(port[word]) >> off) & LowMask(n)) << done;
    done += n;
  }
  return value;
}

/// 32-bit word i of a port, bits [32 i +: 32] (the testbench's words are 32 bits wide).
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
uint32_t GetWord(const T& port, int i) {
  return static_cast<uint32_t>(static_cast<uint64_t>(port) >> (32 * i));
}
template <std::size_t N>
uint32_t GetWord(const VlWide<N>& port, int i) {
  return port[static_cast<std::size_t>(i)];
}

}  // namespace hcube::tb

namespace hcube::tb {

/// Clears a port held in an integer.
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
void ClearBits(T& port) {
  port = 0;
}

/// Clears a wide port.
template <std::size_t N>
void ClearBits(VlWide<N>& port) {
  for (std::size_t i = 0; i < N; ++i) port[i] = 0;
}

}  // namespace hcube::tb

// hcube: hexadecimal digits, read the same way by every text format of the project (the table
// image's words, the result document's memories). Header-only and standard C++ only: the RTL
// testbench compiles it too.
#pragma once

namespace hcube {

/// The value of a hex digit (0-9, a-f, A-F), or -1 if `c` is none.
inline int hexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace hcube

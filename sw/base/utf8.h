// hcube: UTF-8 validation (RFC 3629), for text that reaches JSON output or a table header: a
// byte sequence that is not UTF-8 (an overlong form, a surrogate, a code point above U+10FFFF,
// a stray continuation byte, a truncated sequence) is refused or replaced, never copied.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hcube {

/// Length of the well-formed UTF-8 sequence that starts at s[i] (1..4), or 0 if none does.
inline size_t utf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t j) { return static_cast<unsigned char>(s[j]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80;  // the range of the second byte (RFC 3629 §4)
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t j = 2; j < len; ++j) {
    if (byte(i + j) < 0x80 || byte(i + j) > 0xBF) return 0;
  }
  return len;
}

/// True if all of `s` is well-formed UTF-8.
inline bool isValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t len = utf8SequenceLength(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

/// `text` with every byte that is not part of well-formed UTF-8 written as \xHH: an error that
/// quotes a file never copies raw bytes of the file to the terminal.
inline std::string escapeNonUtf8(std::string_view text) {
  if (isValidUtf8(text)) return std::string(text);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string clean;
  for (size_t i = 0; i < text.size();) {
    const size_t len = utf8SequenceLength(text, i);
    if (len == 0) {
      const auto b = static_cast<unsigned char>(text[i]);
      clean += "\\x";
      clean += kHex[b >> 4];
      clean += kHex[b & 15];
      ++i;
    } else {
      clean.append(text, i, len);
      i += len;
    }
  }
  return clean;
}

}  // namespace hcube

#pragma once
// The lockstep moves of the table executor with carried first-send cycles, for both engines
// (exec/executor.cpp in one process, exec/exec_partitioned.cpp on a rank's subcube).
//
// Where words only move and no tag starts in two slots, every copy of a tag descends from its
// one initial slot, so the cycle of its first send can travel with the word: a second array
// beside the memory holds, per slot, the first-send cycle of the word there (kNotSent before
// the first). A send keeps the smaller of it and the cycle, the receiver's slot takes it, and
// the store's span candidate (cycle - first + 1, tags only) is formed at once: sequential loads
// and stores instead of the traffic monitor's per-tag record at a random address. The encoding
// needs every cycle below 2^32 (kCarriedCycles): kNotSent, 2^32 - 1, can only meet a first send
// of cycle 2^32 - 1, the last cycle there is, whose stores then count 1 either way.

#include <algorithm>

#include "spec/address.h"

namespace hcube::carried {

constexpr u32 kNotSent = 0xFFFFFFFFu;
constexpr u64 kCarriedCycles = u64{1} << 32;

/// The smallest first-send cycle of the tags a lockstep cycle stored, and whether it stored one.
struct LockstepSpan {
  u32 first = kNotSent;
  bool tagged = false;
};

/// `len` words from `from` (first-send cycles `from_first`) to `to` (`to_first`) in cycle
/// `now`; words below `tagged` are tags.
inline void moveRow(const u32* from, u32* from_first, u32* to, u32* to_first, u64 len, u32 now,
                    u64 tagged, LockstepSpan& span) {
  for (u64 i = 0; i < len; ++i) {
    const u32 word = from[i];
    const u32 first = std::min(from_first[i], now);
    from_first[i] = first;
    to[i] = word;
    to_first[i] = first;
    const bool tag = word < tagged;
    span.tagged |= tag;
    span.first = std::min(span.first, tag ? first : kNotSent);
  }
}

/// An in-place move's pair: the slots `at` and `at + bit` of `mem` exchange their words and
/// first-send cycles (`first`) in cycle `now`.
inline void swapPair(u32* mem, u32* first, u64 at, u64 bit, u32 now, u64 tagged,
                     LockstepSpan& span) {
  const u32 a = mem[at];
  const u32 b = mem[at + bit];
  mem[at] = b;
  mem[at + bit] = a;
  const u32 fa = std::min(first[at], now);
  const u32 fb = std::min(first[at + bit], now);
  first[at] = fb;
  first[at + bit] = fa;
  span.tagged |= a < tagged || b < tagged;
  span.first = std::min({span.first, a < tagged ? fa : kNotSent, b < tagged ? fb : kNotSent});
}

}  // namespace hcube::carried

// hcube: one cycle of the block multiply-accumulate (docs/hardware/arithmetic.md §2), the
// semantics the table executor and the TLM node run and rtl/hc_mac.sv implements.
//
// MAC f computes C += A x B over dense row-major blocks of the node's memory: A is m x k at slot
// f.a, B is k x p at f.b, C is m x p at f.c. The node's U multiply-add units work on one element
// of C per cycle: in cycle t of the instruction they take element e = t / ceil(k/U) (row-major,
// i = e / p, j = e mod p) and the chunk l = l0 .. l0 + U - 1 (l0 = (t mod ceil(k/U)) U, units
// with l >= k idle), read a(i,l) and b(l,j) and c(i,j) as the memory is at the start of the
// cycle and write c(i,j) + sum of a(i,l) b(l,j) at its end, W = 32-bit wrap-around. So the
// instruction takes m p ceil(k/U) cycles and the result is the sequential one even when C
// overlaps A or B (which is nevertheless a `conflict`, below).
//
// Errors, per cycle of the MAC (docs/hardware/checks.md): `slot` if a slot read or written in the
// cycle is outside the memory (the read gives 0, the write is dropped); `conflict` in every
// cycle if the C block overlaps the A or the B block (a check on the instruction: the result
// then depends on the order of the products, which no schedule should rely on).
//
// MAC overlap mode (docs/hardware/arithmetic.md §3): the units run on in the background while the
// sequencer executes the next instructions; macReadHazard / macWriteHazard say which slots a
// transfer or PERMUTE must then leave alone (an `overlap` error otherwise).
#pragma once

#include "tables/table.h"

namespace hcube {

/// Whether the C block of `f` overlaps its A or B block (the MAC's `conflict` condition).
inline bool macOverlap(const MacField& f) {
  auto meet = [](u64 x, u64 xl, u64 y, u64 yl) { return x < y + yl && y < x + xl; };
  const u64 c_len = u64{f.m} * f.p;
  return meet(f.c, c_len, f.a, u64{f.m} * f.k) || meet(f.c, c_len, f.b, u64{f.k} * f.p);
}

/// Whether `slot` lies in the block of `len` slots from `base`.
inline bool inBlock(u64 slot, u64 base, u64 len) { return slot >= base && slot - base < len; }

/// MAC overlap mode (docs/hardware/arithmetic.md §3): whether a channel that reads `slot` (an
/// XFER's MEM send, a PERMUTE's copy source) conflicts with MAC `f` running in the background: it
/// reads the C block, which the MAC is accumulating.
inline bool macReadHazard(const MacField& f, u64 slot) {
  return inBlock(slot, f.c, u64{f.m} * f.p);
}
/// ... and whether a channel that writes `slot` (an XFER's MEM or ADD receive, a PERMUTE's copy
/// destination) does: it writes into the A, B or C block.
inline bool macWriteHazard(const MacField& f, u64 slot) {
  return inBlock(slot, f.a, u64{f.m} * f.k) || inBlock(slot, f.b, u64{f.k} * f.p) ||
         inBlock(slot, f.c, u64{f.m} * f.p);
}

/// The work of one MAC cycle: the word written into c(i,j) at the end of the cycle (`writes`
/// false: C's slot is outside the memory, nothing is written) and whether a slot outside the
/// memory was named (the `slot` error of the cycle).
struct MacCycle {
  bool writes = false;
  u64 slot = 0;
  u32 word = 0;
  bool out_of_range = false;
};

/// Cycle `t` (0 .. macCycles(f, units) - 1) of MAC `f` on a memory of `words` words, read
/// through `read(slot)` as the memory is at the start of the cycle. The caller writes
/// `word` into `slot` at the end of the cycle, after the channels' writes: of the MAC and a
/// channel writing one slot in one cycle (an `overlap` error, docs/hardware/arithmetic.md §3) the
/// MAC's word is kept.
template <typename Read>
MacCycle macStep(const MacField& f, u32 units, u64 t, u64 words, Read&& read) {
  const u64 chunks = (u64{f.k} + units - 1) / units;
  const u64 e = t / chunks;
  const u64 l0 = (t % chunks) * units;
  const u64 i = e / f.p;
  const u64 j = e % f.p;
  MacCycle r;
  auto load = [&](u64 slot) -> u32 {
    if (slot < words) return read(slot);
    r.out_of_range = true;
    return 0;
  };
  u32 sum = 0;
  for (u64 l = l0; l < l0 + units && l < f.k; ++l) {
    sum += load(f.a + i * f.k + l) * load(f.b + l * f.p + j);
  }
  const u64 c = f.c + i * f.p + j;
  if (c < words) {
    r.writes = true;
    r.slot = c;
    r.word = read(c) + sum;
  } else {
    r.out_of_range = true;
  }
  return r;
}

}  // namespace hcube

// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §3.1 and §3.2: the methods that rotate blocks on Gray-coded rings. "rotation", A(.,1,1)
// with rotations (§3.1, "A Rotation Algorithm A(1,1,1)"), and "cannon", Cannon's algorithm A(.,2,1)
// (§3.2, "Cannon's Algorithm A(1,2,1)", with the paper's simulation of a square grid when N1 !=
// N2), including its MAC overlap mode (docs/hardware/arithmetic.md §3).
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"
#include "base/error.h"

namespace hcube::matmul_detail {

namespace {

/// The cube dimension linking grid positions t and t + 1 (mod 2^bits) of a Gray-coded ring,
/// offset by `shift` (the field's position in the node address).
int ringDim(u64 t, int bits, int shift) {
  const u64 ring = u64{1} << bits;
  return shift + std::countr_zero(grayCode(t) ^ grayCode((t + 1) % ring));
}

/// One step of a ring rotation of the block at `base` (`words` long) along a grid ring of
/// 2^bits processors whose dimensions start at `shift`: the processor at ring position t sends
/// towards t - 1 and receives from t + 1. Nothing when the ring has one processor.
Rotation rotateAlong(u64 t, int bits, int shift, u64 base, u64 words) {
  Rotation r;
  if (bits == 0) return r;
  const u64 size = u64{1} << bits;
  r.active = true;
  r.base = base;
  r.words = words;
  r.send = ringDim((t + size - 1) % size, bits, shift);  // towards t - 1
  r.recv = ringDim(t, bits, shift);                      // from t + 1
  return r;
}

/// Rotation of C one processor to the left along grid row rings (receive from column a2 + 1).
Rotation rotateC(const MatmulLayout& l, u64 x) {
  return rotateAlong(l.gridCol(x), l.n2, 0, l.c_base, l.c_rows * l.c_cols);
}

/// Rotation of D one processor up along grid column rings (receive from row a1 + 1).
Rotation rotateD(const MatmulLayout& l, u64 x) {
  return rotateAlong(l.gridRow(x), l.n1, l.n2, l.d_base, l.d_rows * l.d_cols);
}

// ---- MAC overlap mode (docs/hardware/arithmetic.md §3) ----
// Cannon's multiply phase with the MACs overlapping the rotations (square grids, after the
// alignment): double buffering, C and D in two buffers each, the blocks at c_base and d_base
// and two scratch blocks after the data slots. In step t every node issues the MAC of the
// blocks in its current buffers and, while the MAC units run, rotates those blocks to its ring
// neighbours (reading the MAC's A and B blocks, which overlap mode allows) into the other
// buffers, then waits for the units before the next step's MAC. A step takes max(MAC cycles,
// 1 + rotation cycles) instead of their sum; the last MAC drains at END.
TableSet cannonOverlapped(const MatmulOptions& o, const MatmulLayout& l, Builder& b,
                          MatmulCounts* counts) {
  const u64 nodes = u64{1} << l.n;
  const u64 side = l.gridRows();
  const u64 c_words = l.c_rows * l.c_cols;
  const u64 d_words = l.d_rows * l.d_cols;
  b.setScratch(c_words + d_words);
  u64 c_at = l.c_base;  // the current buffers
  u64 d_at = l.d_base;
  u64 c_other = l.slots;  // the other buffers (scratch)
  u64 d_other = l.slots + c_words;
  for (u64 t = 0; t < side; ++t) {
    MacField f;
    f.a = static_cast<u32>(c_at);
    f.b = static_cast<u32>(d_at);
    f.c = static_cast<u32>(l.a_base);
    f.m = static_cast<u32>(l.c_rows);
    f.k = static_cast<u32>(l.c_cols);
    f.p = static_cast<u32>(l.d_cols);
    const u64 issued = b.elapsed();
    b.mac(std::vector<MacField>(nodes, f));
    if (t + 1 == side) break;
    std::vector<std::array<Rotation, 2>> rot(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      rot[x][0] = rotateC(l, x);
      rot[x][0].base = c_at;
      rot[x][0].dest = c_other;
      rot[x][1] = rotateD(l, x);
      rot[x][1].base = d_at;
      rot[x][1].dest = d_other;
    }
    b.rotate(rot, false);
    b.waitForMac(issued, macCycles(f, o.mac_units));
    std::swap(c_at, c_other);
    std::swap(d_at, d_other);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-cannon");
}
// ---- end MAC overlap ----

}  // namespace

// TR-623 §3.1, "A Rotation Algorithm A(1,1,1)", column partitioning, Gray code encoding.
TableSet rotation(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  if (l.n1 != 0) {
    throw Error("--method rotation: A(.,1,1) is the one-dimensional column partitioning, grid 1x" +
                std::to_string(u64{1} << l.n) + " (got " + std::to_string(l.gridRows()) + "x" +
                std::to_string(l.gridCols()) + ")");
  }
  const u64 nodes = u64{1} << l.n;
  Builder b(o, l);
  for (u64 t = 0; t < nodes; ++t) {
    std::vector<MacField> macs(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      // Processor a holds C's block column (a + t) mod N: it meets rows of D's block from there.
      const u64 col = (l.gridCol(x) + t) % nodes;
      MacField& f = macs[x];
      f.a = static_cast<u32>(l.c_base);
      f.b = static_cast<u32>(l.d_base + col * l.c_cols * l.d_cols);
      f.c = static_cast<u32>(l.a_base);
      f.m = static_cast<u32>(l.c_rows);
      f.k = static_cast<u32>(l.c_cols);
      f.p = static_cast<u32>(l.d_cols);
    }
    b.mac(macs);
    if (t + 1 == nodes) break;
    std::vector<std::array<Rotation, 2>> rot(nodes);
    for (u64 x = 0; x < nodes; ++x) rot[x][0] = rotateC(l, x);
    b.rotate(rot, false);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-rotation");
}

// TR-623 §3.2, "Cannon's Algorithm A(1,2,1)", Gray code encoding. For N1 != N2 the paper's
// simulation of a square grid: with S = max(N1, N2), C's and D's blocks are cut into strips of
// Q/S along the inner index, rc = S/N2 column strips (P/N1 x Q/S) of C's block and rd = S/N1 row
// strips (Q/S x R/N2) of D's (one of rc, rd is 1), so that a grid row holds S strips of C on a
// ring of N2 processors and a grid column S strips of D on a ring of N1: each processor
// simulates S/N2 (or S/N1) processors of the S x S grid. A rotation moves one strip: every
// processor sends its head strip (the lowest inner index it holds) to its ring neighbour and
// receives the next one into the same slots, which become its last strip. The alignment
// rotates C's row a1 left by a1 rd strips and D's column a2 up by a2 rc strips, after which
// processor (a1, a2) holds strip a1 rd + a2 rc + t of both at the head in step t; S products of
// head strips with S - 1 rotations between them. With N1 = N2 this is Cannon's algorithm.
TableSet cannon(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const u64 nodes = u64{1} << l.n;
  const u64 side = std::max(l.gridRows(), l.gridCols());  // S
  const u64 rc = side / l.gridCols();                     // C strips per processor
  const u64 rd = side / l.gridRows();                     // D strips per processor
  const u64 strip = l.q / side;                           // Q/S (N1 and N2 divide Q)
  // Which strip is at the head of each processor's C and D: it advances with every rotation.
  std::vector<u64> c_head(nodes, 0);
  std::vector<u64> d_head(nodes, 0);
  auto cStrip = [&](u64 x) {
    Rotation r = rotateC(l, x);
    if (!r.active) return r;
    r.base = l.c_base + c_head[x] * strip;
    r.words = l.c_rows * strip;
    r.width = strip;
    r.stride = l.c_cols;
    return r;
  };
  auto dStrip = [&](u64 x) {
    Rotation r = rotateD(l, x);
    if (!r.active) return r;
    r.base = l.d_base + d_head[x] * strip * l.d_cols;
    r.words = strip * l.d_cols;
    return r;
  };
  // One rotation step: C moves in the rows where `c(x)`, D in the columns where `d(x)`. On a
  // ring of one processor (N2 = 1 for C, N1 = 1 for D) nothing moves, but the head advances.
  Builder b(o, l);
  auto step = [&](auto c, auto d, bool alignment) {
    std::vector<std::array<Rotation, 2>> rot(nodes);
    std::vector<std::array<bool, 2>> moves(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      moves[x] = {c(x), d(x)};
      if (moves[x][0]) rot[x][0] = cStrip(x);
      if (moves[x][1]) rot[x][1] = dStrip(x);
    }
    b.rotate(rot, alignment);
    for (u64 x = 0; x < nodes; ++x) {
      if (moves[x][0]) c_head[x] = (c_head[x] + 1) % rc;
      if (moves[x][1]) d_head[x] = (d_head[x] + 1) % rd;
    }
  };
  // Initial alignment: in step s, rows with a1 rd >= s rotate C left by a strip, columns with
  // a2 rc >= s rotate D up by one.
  for (u64 s = 1; s < side; ++s) {
    step([&](u64 x) { return l.gridRow(x) * rd >= s; },
         [&](u64 x) { return l.gridCol(x) * rc >= s; }, true);
  }
  if (o.mac_overlap) return cannonOverlapped(o, l, b, counts);
  for (u64 t = 0; t < side; ++t) {
    // The head strips: one MAC when C's strip is its whole block (rc = 1), else one per row of
    // C (a column strip of a row-major block is not a dense block).
    std::vector<std::vector<MacField>> macs(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      const u64 c_at = l.c_base + c_head[x] * strip;
      const u64 d_at = l.d_base + d_head[x] * strip * l.d_cols;
      const u64 rows = rc == 1 ? 1 : l.c_rows;
      for (u64 i = 0; i < rows; ++i) {
        MacField f;
        f.a = static_cast<u32>(c_at + i * l.c_cols);
        f.b = static_cast<u32>(d_at);
        f.c = static_cast<u32>(l.a_base + i * l.d_cols);
        f.m = static_cast<u32>(rc == 1 ? l.c_rows : 1);
        f.k = static_cast<u32>(strip);
        f.p = static_cast<u32>(l.d_cols);
        macs[x].push_back(f);
      }
    }
    b.macs(macs);
    if (t + 1 == side) break;
    step([](u64) { return true; }, [](u64) { return true; }, false);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-cannon");
}

}  // namespace hcube::matmul_detail

// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §3.2 and appendix B: Algorithms A(.,2,2) .. A(.,2,5), methods "a122" .. "a125", on grids
// N1 x N2 with N1 != N2, where the transposes combine an exchange within the |n1 - n2| extra
// dimensions with the square transpose (§2). A(.,2,3) and A(.,2,5) with N1 < N2 (transposedAWide),
// with N1 > N2 (a123Tall, a125Tall), A(.,2,4) with N1 > N2 (a124Tall), and A(.,2,2), A(.,2,4)
// otherwise (twoDimensionalNotSquare, which picks among them).
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"
#include "base/error.h"

namespace hcube::matmul_detail {

namespace {

/// The dimensions a square transpose of the N1 x N2 grid swaps when N1 > N2: the high n2 bits
/// of the row field (from n2 + e) with the column field (from 0), e = n1 - n2.
int tallHi(const MatmulLayout& l) { return l.n2 + (l.n1 - l.n2); }

// TR-623 §3.2, Algorithms A(.,2,3) (text) and A(.,2,5) (appendix B) on grids N1 x N2 with
// N1 < N2 (e = n2 - n1, r = 2^e, h = n1), Gray code encoding. A(.,2,3): the transpose of C into
// lc_txp (gridTransposePhases), the all-to-all broadcast of D within grid rows (ld_row), the
// products la_txp = lc_txp x ld_row, the all-to-all reduction within grid columns into la_txp_red
// (processor (b1, b2) ends with A's rows b2 P/N2 .. and columns b1 R/N1 .., the allocation of A^T),
// and the transpose of A^T back into la. A(.,2,5): the transpose of D into ld_txp, the broadcast
// of C within grid columns (lc_col), la_txp = lc_col x ld_txp, the reduction within grid rows
// into la_txp_red, the same transpose back. The A^T block of (b1, b2) is r pieces of P/N2 x R/N2,
// one for each A column block b1 r + s (dense, so every product is one MAC of P/N2 x Q/N2 x R/N2);
// the piece bound for column block a2 is kept at position fiberSlot(b2 / r, G(a2) mod r), which is
// the row offset (in P/N2 rows) it takes in A's block, so the transpose back is §2's combination
// run in reverse: the one-dimensional exchange within the low e column bits (subcubeExchange)
// gathers the r pieces of one A block at one node in A's row order, then the square transpose of
// the row field with the high h column bits (squareTranspose) adds the whole block into A. On the
// nodes where that square transpose stays put (b1 = b2 / r) the exchange adds the arriving
// pieces into A itself and the reduction leaves the node's own piece in A. Element transfers,
// one-port: Table 8's broadcast and reduction terms exactly, the transposes e M/2 + 2h M each
// (Table 8 charges n M); 3n start-ups (Table 8). Needs N2 | P (the P/N2 rows of A^T).
TableSet transposedAWide(const MatmulOptions& o, const MatmulLayout& l, int which,
                         MatmulCounts* counts) {
  const int e = l.n2 - l.n1;
  const u64 r = u64{1} << e;
  const int h = l.n1;
  if (l.p % l.gridCols() != 0) {
    throw Error("--method " + o.method + ": P = " + std::to_string(l.p) +
                " does not divide over the " + std::to_string(l.gridCols()) +
                " grid columns (A(.,2," + std::to_string(which) +
                ") reduces A^T into P/N2 x R/N1 blocks)");
  }
  const bool c_moves = which == 3;  // A(.,2,3) transposes C, A(.,2,5) D
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;      // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;      // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;      // P/N1 x R/N2 = P/N2 x R/N1
  const u64 rows = l.p >> l.n2;            // P/N2
  const u64 inner = l.q >> l.n2;           // Q/N2
  const u64 pa = rows * l.a_cols;          // a piece of A^T, P/N2 x R/N2
  const u64 moved = c_moves ? cb : db;     // the transposed block
  const u64 gathered = c_moves ? db : cb;  // D's blocks in a grid row, or C's in a column
  const u64 gathered_count = c_moves ? l.gridCols() : l.gridRows();
  const u64 partial_count = c_moves ? l.gridRows() : l.gridCols();
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + std::max(moved, ab);        // gathered block g
  const u64 p_buf = g_buf + gathered_count * gathered;  // partial A^T block for position g
  const u64 t_buf = p_buf + partial_count * ab;         // this node's A^T block
  auto diag = [&](u64 x) { return l.gridRow(x) == (l.gridCol(x) >> e); };
  // Where the piece bound for A column block a2 sits in an A^T block held in grid column b2.
  auto pos = [&](u64 b2, u64 a2) { return fiberSlot(b2 >> e, grayCode(a2) & (r - 1), r); };
  // Word w of this node's own A^T block: A itself for the piece that stays here, else t_buf.
  auto own = [&](u64 x, u64 w) {
    const u64 b2 = l.gridCol(x);
    return diag(x) && w / pa == pos(b2, b2) ? l.a_base + w : t_buf + w;
  };
  Builder b(o, l);
  const u64 scratch = t_buf + ab - l.slots;
  b.setScratch(scratch);
  b.needScratch(scratch + gridTransposePhases(b, o, l, c_moves ? l.q : l.r, moved,
                                              c_moves ? l.c_base : l.d_base, visit,
                                              l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return c_moves
               ? subcubeBroadcast(st, x, l.n2, 0, l.d_base, g_buf, db, n_port, o.tau, o.packet)
               : subcubeBroadcast(st, x, l.n1, l.n2, l.c_base, g_buf, cb, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    // The target of the piece bound for column block a2 of the A^T block of grid position g.
    auto target = [&](u64 g, bool mine, u64 dest_col, u64 a2) {
      const u64 at = pos(dest_col, a2) * pa;
      return mine ? own(x, at) : p_buf + g * ab + at;
    };
    std::vector<MacField> out;
    if (c_moves) {
      // lc_txp piece t: C's rows b2 P/N2 .., columns src Q/N2 .. (src = gridPieceSource, in
      // b1 r .. b1 r + r - 1), which meet rows (src - b1 r) Q/N2 .. of D's blocks in grid row b1.
      // Partial block g (grid row g of this grid column): A's columns g R/N1 .., column blocks
      // g r + s.
      for (u64 g = 0; g < l.gridRows(); ++g) {
        for (u64 s = 0; s < r; ++s) {
          const u64 a2 = g * r + s;
          const u64 d_at = a2 == b2 ? l.d_base : g_buf + a2 * db;
          for (u64 t = 0; t < r; ++t) {
            const u64 src = gridPieceSource(l, b1, b2, t);
            out.push_back(macField(l.c_base + t * (cb / r),
                                   d_at + (src - b1 * r) * inner * l.d_cols,
                                   target(g, g == b1, b2, a2), rows, inner, l.d_cols));
          }
        }
      }
    } else {
      // ld_txp piece t: D's rows b2 Q/N2 .., columns src R/N2 .. (A's column block src). Partial
      // block g (grid column g of this grid row): A's rows g P/N2 .., in C's block row g / r.
      for (u64 g = 0; g < l.gridCols(); ++g) {
        const u64 a1 = g >> e;
        const u64 c_at = (a1 == b1 ? l.c_base : g_buf + a1 * cb) + (g & (r - 1)) * rows * inner;
        for (u64 t = 0; t < r; ++t) {
          const u64 src = gridPieceSource(l, b1, b2, t);
          out.push_back(macField(c_at, l.d_base + t * (db / r), target(g, g == b2, g, src), rows,
                                 inner, l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    if (c_moves) {
      return subcubeReduce(
          st, x, dimRange(l.n2, l.n1), ab, n_port, o.tau, o.packet,
          [&](u64 y, u64 w) { return y == x ? own(x, w) : p_buf + l.gridRow(y) * ab + w; });
    }
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet, [&](u64 y, u64 w) {
      return y == x ? own(x, w) : p_buf + l.gridCol(y) * ab + w;
    });
  });
  // The transpose back: the exchange within the low e column bits, then the square transpose of
  // the row field with the high h column bits.
  b.phase([&](u64 x, Stream& st) {
    const u64 high = l.gridCol(x) >> e;
    return subcubeExchange(
        st, x, dimRange(0, e), pa, n_port, o.tau, o.packet,
        [&](u64 i) { return t_buf + fiberSlot(high, i & (r - 1), r) * pa; },
        [&](u64 src) -> std::optional<u64> {
          if (!diag(x)) return std::nullopt;
          return l.a_base + fiberSlot(high, src & (r - 1), r) * pa;
        });
  });
  b.needScratch(scratch +
                squarePhase(b, o, l, h, l.n2, e, ab, t_buf, visit, l.a_base, l.slots + scratch));
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-a12" + std::to_string(which)).c_str());
}

// TR-623 §3.2 and appendix B, Algorithm A(.,2,4) on grids N1 x N2 with N1 > N2 (e = n1 - n2,
// r = 2^e, h = n2), Gray code encoding. As with N1 <= N2, grid column b2 must end with D's rows
// b2 Q/N2 .. (its C blocks' columns) spread over its N1 processors, to be broadcast within the
// column. Here those rows are r of D's block rows, N1 whole blocks (b2 r + s, a2) of Q/N1 x R/N2:
// the transposed allocation gives processor (b1, b2) the block with a2 = b1 / r and s =
// fiberSlot(b2, G(b1) mod r) (the paper's ld_txp splits the same rows by columns instead, R/N1
// each, which would cut D's blocks into column strips that the MAC cannot read as its B block).
// Moving block (a1, a2) to that processor swaps the high h bits of the row field with the column
// field and keeps the low e bits: the square transpose of h bit pairs alone (squareTranspose),
// 2h M element transfers and 2h start-ups (Table 8 charges n M and n). Then, as the paper says,
// the broadcast of the blocks within grid columns ((N1-1) R/N1 Q/N2, Table 8), one product per
// gathered block and row of C (C's columns that meet block (b2 r + s, a2) are a column strip
// Q/N1 wide of its block: 1 x Q/N1 x R/N2 MACs into the partial block of column block a2), and
// the reduction within grid rows ((N2-1) P/N1 R/N2, Table 8) leaving A's block in la.
TableSet a124Tall(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const int e = l.n1 - l.n2;
  const u64 r = u64{1} << e;
  const int h = l.n2;
  const u64 nodes = u64{1} << l.n;
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const u64 strip = l.q >> l.n1;       // Q/N1
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + db;                 // D block of grid row g
  const u64 p_buf = g_buf + l.gridRows() * db;  // partial block of A's column block g
  Builder b(o, l);
  const u64 scratch = db + l.gridRows() * db + l.gridCols() * ab;
  b.setScratch(scratch);
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, db, l.d_base, visit, std::nullopt,
                                      l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n1, l.n2, l.d_base, g_buf, db, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    auto partial = [&](u64 a2) { return a2 == b2 ? l.a_base : p_buf + a2 * ab; };
    std::vector<MacField> out;
    for (u64 g = 0; g < l.gridRows(); ++g) {
      // Grid row g of this column holds D's block (b2 r + s, g / r).
      const u64 s = fiberSlot(b2, grayCode(g) & (r - 1), r);
      const u64 d_at = g == b1 ? l.d_base : g_buf + g * db;
      for (u64 i = 0; i < l.c_rows; ++i) {
        out.push_back(macField(l.c_base + i * l.c_cols + s * strip, d_at,
                               partial(g >> e) + i * l.a_cols, 1, strip, l.d_cols));
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return y == x ? l.a_base : p_buf + l.gridCol(y) * ab; });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a124");
}

// TR-623 §3.2, Algorithm A(.,2,3) on grids N1 x N2 with N1 > N2 (e = n1 - n2, r = 2^e, h = n2),
// Gray code encoding: transpose C (gridTransposePhases; processor (b1, b2) gets C's rows b2 P/N2
// .., columns b1 Q/N1 .., as r column strips P/N1 x Q/N1, each one of C's block rows b2 r + s),
// broadcast D within grid rows (ld_row, Table 8's (N2-1) Q/N1 R/N2), multiply, and reduce within
// grid columns. The reduction is the paper's alternative (§3.2, A(.,2,3): "the accumulation can
// be made such that P/max(N1, N2) elements for each column are accumulated in a processor
// selected such that the proper allocation of A is obtained through a ... personalized
// communication"): with N1 > N2 each processor of grid column b2 receives the P/N1 x R/N2 sum of
// one whole block of A, (b2 r + s, a2) for the processor b1 with b1 / r = a2 and G(b1) mod r =
// G(b2 r + s) mod r. Its home differs from it by the high h bits of the row field and the
// column field, swapped: the square transpose of h bit pairs moves every block home, adding it
// into A (the processors with b1 / r = b2 reduce straight into A). The main-text reduction would
// give each processor P/N2 rows of R/N1 columns, a column strip of D's blocks, which the MAC
// cannot read as its B block. Products: C's strip rows (1 x Q/N1) times D's block (Q/N1 x R/N2)
// of the same grid row, P MACs per processor. Element transfers, one-port: the transpose of C
// e M/2 + 2h M, Table 8's broadcast (N2-1) Q/N1 R/N2 and reduction (N1-1) R/N1 P/N2, the
// transpose of A 2h M (Table 8: n M); n + n2 + n1 + 2h start-ups (Table 8: 3n).
TableSet a123Tall(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const int e = l.n1 - l.n2;
  const u64 r = u64{1} << e;
  const int h = l.n2;
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const u64 strip = l.q >> l.n1;       // Q/N1
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + std::max(cb, ab);   // D block of grid column g
  const u64 p_buf = g_buf + l.gridCols() * db;  // partial block for grid row g
  const u64 t_buf = p_buf + l.gridRows() * ab;  // this node's sum, bound for the transpose
  auto diag = [&](u64 x) { return (l.gridRow(x) >> e) == l.gridCol(x); };
  Builder b(o, l);
  const u64 scratch = t_buf + ab - l.slots;
  b.setScratch(scratch);
  b.needScratch(scratch +
                gridTransposePhases(b, o, l, l.q, cb, l.c_base, visit, l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n2, 0, l.d_base, g_buf, db, n_port, o.tau, o.packet);
  });
  auto mine = [&](u64 x) { return diag(x) ? l.a_base : t_buf; };
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    std::vector<MacField> out;
    for (u64 t = 0; t < r; ++t) {
      const u64 src = gridPieceSource(l, b1, b2, t);  // C's block row b2 r + s
      for (u64 a2 = 0; a2 < l.gridCols(); ++a2) {
        // The processor of this grid column that sums A's block (src, a2).
        const u64 g = grayInverse((grayCode(a2) << e) | (grayCode(src) & (r - 1)));
        const u64 into = g == b1 ? mine(x) : p_buf + g * ab;
        const u64 d_at = a2 == b2 ? l.d_base : g_buf + a2 * db;
        for (u64 i = 0; i < l.c_rows; ++i) {
          out.push_back(macField(l.c_base + i * l.c_cols + t * strip, d_at, into + i * l.a_cols, 1,
                                 strip, l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, dimRange(l.n2, l.n1), ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return y == x ? mine(x) : p_buf + l.gridRow(y) * ab; });
  });
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, ab, t_buf, visit, l.a_base,
                                      l.slots + scratch));
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a123");
}

// TR-623 appendix B, Algorithm A(.,2,5) on grids N1 x N2 with N1 > N2 (e = n1 - n2, r = 2^e,
// h = n2), Gray code encoding, in the paper's form: transpose D into ld_txp (processor (b1, b2)
// gets D's rows b2 Q/N2 .. and columns b1 R/N1 ..), broadcast C within grid columns (lc_col),
// la_txp = lc_col x ld_txp, reduce within grid rows into la_txp_red (A's rows b2 P/N2 ..,
// columns b1 R/N1 ..), transpose A^T back into la. With N1 > N2 a block's R/N1 columns are a
// column strip of D's and A's blocks (R/N2 wide), so both transposes run §2's combination in the
// order that ends where the data must be dense:
//  * D: the square transpose of the high h row bits with the column field (squarePhase) moves
//    D's block (a1, a2) to the node whose row is G(a2) with G(a1)'s low e bits and whose column
//    is a1 / r; the exchange within the low e row bits (subcubeExchange) then sends column strip
//    u (Q/N1 x R/N1) to the member b1 = a2 r + u, where it is stored as a dense piece, the pieces
//    stacked in the order of D's rows (a Q/N2 x R/N1 matrix, the B block of one MAC). The strip a
//    node keeps for itself does not move: a local copy (PERMUTE, ceil(Q/N1 R/N1 / n) cycles)
//    puts it in its place.
//  * A: the partial blocks of A^T are r pieces P/N1 x R/N1 (A's block rows b2' r + s), dense in
//    scratch (one MAC of P/N1 x Q/N2 x R/N1 per piece: C's gathered block times the stacked D);
//    this node's own block is kept in A's shape (P/N1 x R/N2, the piece for A's row block a1 in
//    the column strip of A's block it will fill) so that the exchange within the low e row bits
//    and the square transpose back land it in A unchanged (per-row MACs write it). The nodes the
//    square transpose leaves in place (b1 / r = b2) add their arriving strips into A in the
//    exchange and reduce their own piece straight into A.
// Element transfers, one-port: the transposes e M/2 + 2h M each (Table 8: n M), Table 8's
// broadcast (N1-1) P/N1 Q/N2 and reduction (N2-1) R/N1 P/N2; 3n start-ups (Table 8). Needs
// N1 | R.
TableSet a125Tall(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const int e = l.n1 - l.n2;
  const u64 r = u64{1} << e;
  const int h = l.n2;
  if (l.r % l.gridRows() != 0) {
    throw Error("--method a125: R = " + std::to_string(l.r) + " does not divide over the " +
                std::to_string(l.gridRows()) +
                " grid rows (A(.,2,5) transposes D into Q/N2 x R/N1 blocks)");
  }
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2 = P/N2 x R/N1
  const u64 width = l.r >> l.n1;       // R/N1
  const u64 pd = l.d_rows * width;     // a D^T piece, Q/N1 x R/N1
  const u64 pa = l.a_rows * width;     // an A^T piece, P/N1 x R/N1
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + std::max(db, ab);   // C block of grid row g
  const u64 p_buf = g_buf + l.gridRows() * cb;  // partial A^T block for grid column g
  const u64 t_buf = p_buf + l.gridCols() * ab;  // this node's A^T block, in A's shape
  const u64 dd = t_buf + ab;                    // D^T, dense, Q/N2 x R/N1
  const u64 scratch = dd + db - l.slots;
  auto diag = [&](u64 x) { return (l.gridRow(x) >> e) == l.gridCol(x); };
  // The row-low bits of a node (its place within its group of r grid rows).
  auto sigma = [&](u64 y) { return (y >> l.n2) & (r - 1); };
  Builder b(o, l);
  b.setScratch(scratch);
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, db, l.d_base, visit, std::nullopt,
                                      l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    const u64 high = l.gridRow(x) >> e;  // a2 of the block held
    const u64 b2 = l.gridCol(x);
    return subcubeExchange(
        st, x, dimRange(l.n2, e), pd, n_port, o.tau, o.packet,
        [&](u64 i) { return l.d_base + fiberSlot(high, sigma(i), r) * width; },
        [&](u64 src) -> std::optional<u64> { return dd + fiberSlot(b2, sigma(src), r) * pd; },
        width, l.d_cols, LandShape{false, false});
  });
  std::vector<std::vector<std::pair<u64, u64>>> copies(nodes);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 from = l.d_base + fiberSlot(l.gridRow(x) >> e, sigma(x), r) * width;
    const u64 to = dd + fiberSlot(l.gridCol(x), sigma(x), r) * pd;
    for (u64 w = 0; w < pd; ++w) {
      copies[x].push_back({from + (w / width) * l.d_cols + w % width, to + w});
    }
  }
  b.localCopies(copies);
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n1, l.n2, l.c_base, g_buf, cb, n_port, o.tau, o.packet);
  });
  // Word w of this node's own A^T block (piece s, row rho, column c, pieces dense in that
  // order) in A's shape: the column strip of the member the piece is bound for, in t_buf, or in
  // A for the piece that stays here.
  auto own = [&](u64 x, u64 w) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    const u64 s = w / pa;
    const u64 at = fiberSlot(b1 >> e, grayCode(b2 * r + s) & (r - 1), r);
    const bool stays = diag(x) && b2 * r + s == b1;
    return (stays ? l.a_base : t_buf) + ((w % pa) / width) * l.a_cols + at * width + w % width;
  };
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    std::vector<MacField> out;
    for (u64 g = 0; g < l.gridCols(); ++g) {
      for (u64 s = 0; s < r; ++s) {
        const u64 a1 = g * r + s;  // A's block row of piece s of grid column g's block
        const u64 c_at = a1 == b1 ? l.c_base : g_buf + a1 * cb;
        if (g != b2) {
          out.push_back(macField(c_at, dd, p_buf + g * ab + s * pa, l.c_rows, l.c_cols, width));
          continue;
        }
        for (u64 i = 0; i < l.c_rows; ++i) {
          out.push_back(
              macField(c_at + i * l.c_cols, dd, own(x, s * pa + i * width), 1, l.c_cols, width));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet, [&](u64 y, u64 w) {
      return y == x ? own(x, w) : p_buf + l.gridCol(y) * ab + w;
    });
  });
  b.phase([&](u64 x, Stream& st) {
    const u64 high = l.gridRow(x) >> e;
    return subcubeExchange(
        st, x, dimRange(l.n2, e), pa, n_port, o.tau, o.packet,
        [&](u64 i) { return t_buf + fiberSlot(high, sigma(i), r) * width; },
        [&](u64 src) -> std::optional<u64> {
          if (!diag(x)) return std::nullopt;
          return l.a_base + fiberSlot(high, sigma(src), r) * width;
        },
        width, l.a_cols, LandShape{true, true});
  });
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, ab, t_buf, visit, l.a_base,
                                      l.slots + scratch));
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a125");
}

}  // namespace

// TR-623 §3.2, Algorithms A(.,2,2) and A(.,2,4) (Figure 2, appendix B) on grids N1 x N2 with
// N1 != N2, Gray code encoding: the transpose of C (A(.,2,2)) or D (A(.,2,4)) into the paper's
// lc_txp allocation (P/N2 x Q/N1 blocks, rows over the grid columns) or its D counterpart
// (Q/N2 x R/N1), by gridTransposePhases; the all-to-all broadcast of those blocks within grid rows
// (A(.,2,2), N2 of them) or columns (A(.,2,4), N1); the products into partial blocks of A; the
// all-to-all reduction within grid columns (A(.,2,2), N1 partial blocks of P/N1 x R/N2) or rows
// (A(.,2,4), N2 of them). One-port element transfers: Table 8's broadcast and reduction terms,
// (N2-1) Q/N1 P/N2 + (N1-1) P/N1 R/N2 (A(1,2,2)), (N1-1) R/N1 Q/N2 + (N2-1) P/N1 R/N2
// (A(1,2,4)); the transpose e M/2 + 2h M (gridTransposePhases; Table 8 charges n M); 2n start-ups.
// The products: A(.,2,2), N1 < N2: one MAC per transposed piece (P/N2 x Q/N2 x R/N2); N1 > N2:
// the pieces are column strips, one MAC per row of a piece (1 x Q/N1 x R/N2). A(.,2,4), N1 < N2:
// one MAC per piece (P/N1 x Q/N2 x R/N2). PQR/N multiply-adds in every case.
TableSet twoDimensionalNotSquare(const MatmulOptions& o, const MatmulLayout& l, int which,
                                 MatmulCounts* counts) {
  if (which == 3 || which == 5) {
    if (l.n1 < l.n2) return transposedAWide(o, l, which, counts);
    return which == 3 ? a123Tall(o, l, counts) : a125Tall(o, l, counts);
  }
  if (which == 4 && l.n1 > l.n2) return a124Tall(o, l, counts);
  const bool c_moves = which == 2;
  if (c_moves && l.n1 < l.n2 && l.p % l.gridCols() != 0) {
    throw Error("--method a122: P = " + std::to_string(l.p) + " does not divide over the " +
                std::to_string(l.gridCols()) +
                " grid columns (A(.,2,2) transposes C into P/N2 x Q/N1 blocks)");
  }
  const int e = std::abs(l.n1 - l.n2);
  const u64 r = u64{1} << e;
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const bool n_port = !o.one_port;
  const u64 moved = c_moves ? cb : db;
  const u64 own = c_moves ? l.c_base : l.d_base;
  const u64 gathered_count = c_moves ? l.gridCols() : l.gridRows();
  const u64 partial_count = c_moves ? l.gridRows() : l.gridCols();
  const u64 visit = l.slots;
  const u64 g_buf = visit + moved;                   // gathered block g
  const u64 p_buf = g_buf + gathered_count * moved;  // partial block g
  Builder b(o, l);
  const u64 scratch = moved + gathered_count * moved + partial_count * ab;
  b.setScratch(scratch);
  b.needScratch(scratch + gridTransposePhases(b, o, l, c_moves ? l.q : l.r, moved, own, visit,
                                              l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return c_moves
               ? subcubeBroadcast(st, x, l.n2, 0, own, g_buf, moved, n_port, o.tau, o.packet)
               : subcubeBroadcast(st, x, l.n1, l.n2, own, g_buf, moved, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 row = l.gridRow(x);
    const u64 col = l.gridCol(x);
    const u64 piece = moved / r;
    std::vector<MacField> out;
    if (c_moves) {
      // Gathered block g is C's rows g P/N2 .. and columns row Q/N1 .. (this processor's D rows).
      auto partial = [&](u64 a1) { return a1 == row ? l.a_base : p_buf + a1 * ab; };
      for (u64 g = 0; g < l.gridCols(); ++g) {
        const u64 block = g == col ? own : g_buf + g * moved;
        for (u64 t = 0; t < r; ++t) {
          const u64 source = gridPieceSource(l, row, g, t);
          if (l.n1 < l.n2) {
            const u64 rows = l.p >> l.n2;  // P/N2: rows g P/N2 .. of A's block row g / r
            const u64 d_row = (source - row * r) * l.c_cols;  // C's column block in Q/N1
            out.push_back(macField(block + t * piece, l.d_base + d_row * l.d_cols,
                                   partial(g >> e) + (g & (r - 1)) * rows * l.a_cols, rows,
                                   l.c_cols, l.d_cols));
          } else {
            const u64 width = l.q >> l.n1;  // Q/N1: piece t is a column strip
            for (u64 i = 0; i < l.c_rows; ++i) {
              out.push_back(macField(block + i * l.c_cols + t * width, l.d_base,
                                     partial(source) + i * l.a_cols, 1, width, l.d_cols));
            }
          }
        }
      }
    } else {
      // Gathered block g is D's rows col Q/N2 .. (this processor's C columns) and columns
      // g R/N1 .., in r pieces of Q/N2 x R/N2, each one column block of A.
      auto partial = [&](u64 a2) { return a2 == col ? l.a_base : p_buf + a2 * ab; };
      for (u64 g = 0; g < l.gridRows(); ++g) {
        const u64 block = g == row ? own : g_buf + g * moved;
        for (u64 t = 0; t < r; ++t) {
          out.push_back(macField(l.c_base, block + t * piece,
                                 partial(gridPieceSource(l, g, col, t)), l.c_rows, l.c_cols,
                                 l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    if (c_moves) {
      return subcubeReduce(st, x, dimRange(l.n2, l.n1), ab, n_port, o.tau, o.packet,
                           [&](u64 y) { return y == x ? l.a_base : p_buf + l.gridRow(y) * ab; });
    }
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return y == x ? l.a_base : p_buf + l.gridCol(y) * ab; });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-a12" + std::to_string(which)).c_str());
}

}  // namespace hcube::matmul_detail

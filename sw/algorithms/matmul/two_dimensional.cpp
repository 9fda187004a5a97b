// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §3.2: Algorithms A(.,2,2) .. A(.,2,5) (Figure 2; A(.,2,4) and A(.,2,5) in appendix B) on
// a square grid N1 = N2, methods "a122" .. "a125", with Table 8's (one-port) and Table 11's
// (all-port) costs. The grids N1 != N2 are in two_dimensional_rect.cpp.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"

namespace hcube::matmul_detail {

// TR-623 §3.2, Algorithms A(.,2,2) .. A(.,2,5) (Figure 2; A(.,2,2) and A(.,2,3) in the text,
// A(.,2,4) and A(.,2,5) in appendix B), two-dimensional partitioning on a square grid S x S
// (N1 = N2 = S = 2^h), Gray code encoding. Each is a transpose (squareTranspose, n M), an
// all-to-all broadcast within grid rows or columns (subcubeBroadcast), S products of blocks
// P/S x Q/S x R/S and an all-to-all reduction within grid columns or rows (subcubeReduce), and
// for A(.,2,3) and A(.,2,5) a transpose of A that adds into A where each block arrives (the
// diagonal processors reduce straight into A). Element transfers (Table 8, one-port):
//   A(1,2,2): P/S Q/S n + Q/S P/S (S-1) + P/S R/S (S-1)              2n start-ups
//   A(1,2,3): P/S Q/S n + Q/S R/S (S-1) + R/S P/S (S-1) + R/S P/S n  3n
//   A(1,2,4): Q/S R/S n + R/S Q/S (S-1) + P/S R/S (S-1)              2n
//   A(1,2,5): Q/S R/S n + P/S Q/S (S-1) + R/S P/S (S-1) + R/S P/S n  3n
// On all-port hardware the broadcasts and reductions run on nRSBTs (h parts, Table 11's
// (S-1)/h terms, ceil per part) and the transposes are packet transposes (squarePhase: the SPT
// with the optimum packet, Table 11's (sqrt(P/S Q/S) t_c + sqrt((n-1) tau))^2, or the DPT or MPT
// with --transpose). Arithmetic: PQR/N multiply-adds.
TableSet twoDimensional(const MatmulOptions& o, const MatmulLayout& l, int which,
                        MatmulCounts* counts) {
  const std::string name = "A(.,2," + std::to_string(which) + ")";
  requireGrid(o, l, name.c_str(), true);
  const int h = l.n1;
  const u64 side = l.gridRows();
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/S x Q/S
  const u64 db = l.d_rows * l.d_cols;  // Q/S x R/S
  const u64 ab = l.a_rows * l.a_cols;  // P/S x R/S
  const bool n_port = !o.one_port;
  const bool transpose_c = which == 2 || which == 3;
  const bool transpose_a = which == 3 || which == 5;
  const bool gather_c = which == 2 || which == 5;  // else D is gathered
  // Gathered within grid rows (the column field, dimensions 0 .. h-1) or columns (h .. 2h-1).
  const bool gather_rows = which == 2 || which == 3;
  const u64 gathered = gather_c ? cb : db;
  const u64 visit = l.slots;                         // a transpose's visitor
  const u64 g_buf = visit + std::max({cb, db, ab});  // gathered block b
  const u64 p_buf = g_buf + side * gathered;         // partial block b
  const u64 t_buf = p_buf + side * ab;               // A^T's block
  Builder b(o, l);
  const u64 scratch = t_buf + ab - l.slots;
  b.setScratch(scratch);
  const u64 moved = transpose_c ? l.c_base : l.d_base;
  b.needScratch(scratch + squarePhase(b, o, l, h, h, 0, transpose_c ? cb : db, moved, visit,
                                      std::nullopt, l.slots + scratch));
  const u64 own_gathered = gather_c ? l.c_base : l.d_base;
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, h, gather_rows ? 0 : h, own_gathered, g_buf, gathered, n_port,
                            o.tau, o.packet);
  });
  // The reduction runs within grid columns (A(.,2,2), A(.,2,3)) or rows (A(.,2,4), A(.,2,5)):
  // partial block b goes to the processor at position b there; its own one ends in A, or, when A
  // is transposed afterwards, in A^T's block (A itself on the diagonal).
  const bool reduce_in_columns = which == 2 || which == 3;
  auto position = [&](u64 y) { return reduce_in_columns ? l.gridRow(y) : l.gridCol(y); };
  auto final_slot = [&](u64 x) {
    return !transpose_a || l.gridRow(x) == l.gridCol(x) ? l.a_base : t_buf;
  };
  macsOf(b, nodes, [&](u64 x) {
    const u64 mine = gather_rows ? l.gridCol(x) : l.gridRow(x);  // own gathered position
    std::vector<MacField> out;
    for (u64 g = 0; g < side; ++g) {
      const u64 block = g == mine ? own_gathered : g_buf + g * gathered;
      const u64 target = g == position(x) ? final_slot(x) : p_buf + g * ab;
      // A(.,2,2), A(.,2,5): gathered C block g times the local D; A(.,2,3), A(.,2,4): the local C
      // times gathered D block g.
      out.push_back(gather_c ? macField(block, l.d_base, target, l.c_rows, l.c_cols, l.d_cols)
                             : macField(l.c_base, block, target, l.c_rows, l.c_cols, l.d_cols));
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, reduce_in_columns ? dimRange(h, h) : dimRange(0, h), ab, n_port,
                         o.tau, o.packet,
                         [&](u64 y) { return y == x ? final_slot(x) : p_buf + position(y) * ab; });
  });
  if (transpose_a) {
    b.needScratch(scratch +
                  squarePhase(b, o, l, h, h, 0, ab, t_buf, visit, l.a_base, l.slots + scratch));
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-a12" + std::to_string(which)).c_str());
}

}  // namespace hcube::matmul_detail

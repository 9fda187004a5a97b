// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §3.2, "A Doubling Algorithm A(.,2,1)": matrix multiplication by all-to-all broadcasting
// of C within grid rows and D within grid columns, methods "broadcast" and (on the grid 1 x N,
// §3.1's "A Doubling Algorithm A(.,1,1)") "doubling".
#include <string>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"

namespace hcube::matmul_detail {

// TR-623 §3.2, A(.,2,1) by broadcasting (the paper's "Doubling Algorithm A(.,2,1)", lc_row and
// ld_col): C's blocks are broadcast all-to-all within grid rows, D's within grid columns (SBTs,
// one-port: Table 8, (N2-1) P/N1 Q/N2 + (N1-1) Q/N1 R/N2 element transfers, n start-ups; nRSBTs,
// n-port: Table 11, max((N2-1)/n2 P/N1 Q/N2 + n2 tau, (N1-1)/n1 Q/N1 R/N2 + n1 tau)), no initial
// alignment, any N1 x N2 grid; then every processor multiplies its row of C by its column of D.
// Temporary storage: the gathered blocks, N2 of C's and N1 of D's (the paper's PQ/N1 and QR/N2).
TableSet broadcast(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;
  const u64 db = l.d_rows * l.d_cols;
  const u64 c_buf = l.slots;
  const u64 d_buf = c_buf + l.gridCols() * cb;
  Builder b(o, l);
  b.setScratch(l.gridCols() * cb + l.gridRows() * db);
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(2));
  std::vector<u64> messages(2);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 mc = subcubeBroadcast(streams[x][0], x, l.n2, 0, l.c_base, c_buf, cb, o.n_port_tree,
                                    o.tau, o.packet);
    const u64 md = subcubeBroadcast(streams[x][1], x, l.n1, l.n2, l.d_base, d_buf, db,
                                    o.n_port_tree, o.tau, o.packet);
    if (x == 0) messages = {mc, md};
  }
  b.emit(streams, messages);
  // A += sum over the grid columns a2' of C(a1, a2') times D's rows a2' Q/N2 .. (a2'+1) Q/N2 - 1
  // of column a2. With N1 <= N2 those rows lie in one of D's blocks (one MAC per a2'); with
  // N1 > N2 they span N1/N2 blocks, and a C block's columns that meet one D block are not a
  // dense block: one MAC per row of C and D block.
  const u64 q2 = l.c_cols;  // Q / N2
  const u64 q1 = l.d_rows;  // Q / N1
  std::vector<std::vector<MacField>> macs(nodes);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 a1 = l.gridRow(x);
    const u64 a2 = l.gridCol(x);
    auto cAt = [&](u64 col) { return col == a2 ? l.c_base : c_buf + col * cb; };
    auto dAt = [&](u64 row) { return row == a1 ? l.d_base : d_buf + row * db; };
    for (u64 col = 0; col < l.gridCols(); ++col) {
      const u64 j0 = col * q2;  // the first row of D that C's block column col meets
      if (q2 <= q1) {
        MacField f;
        f.a = static_cast<u32>(cAt(col));
        f.b = static_cast<u32>(dAt(j0 / q1) + (j0 % q1) * l.d_cols);
        f.c = static_cast<u32>(l.a_base);
        f.m = static_cast<u32>(l.c_rows);
        f.k = static_cast<u32>(q2);
        f.p = static_cast<u32>(l.d_cols);
        macs[x].push_back(f);
        continue;
      }
      for (u64 row = j0 / q1; row < (j0 + q2) / q1; ++row) {
        for (u64 i = 0; i < l.c_rows; ++i) {
          MacField f;
          f.a = static_cast<u32>(cAt(col) + i * q2 + (row * q1 - j0));
          f.b = static_cast<u32>(dAt(row));
          f.c = static_cast<u32>(l.a_base + i * l.d_cols);
          f.m = 1;
          f.k = static_cast<u32>(q1);
          f.p = static_cast<u32>(l.d_cols);
          macs[x].push_back(f);
        }
      }
    }
  }
  b.macs(macs);
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-" + o.method).c_str());
}

}  // namespace hcube::matmul_detail

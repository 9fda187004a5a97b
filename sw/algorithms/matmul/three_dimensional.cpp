// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §3.3, "Algorithm A(.,3,1)": three-dimensional partitioning N1' x N2' x N3' on the layout
// grid N1 x N2, method "a131", with the fiber (the N3' direction) in the low bits of the column
// field (threeDimensional) or of the row field (threeDimensionalRows).
#include <optional>
#include <string>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"
#include "base/error.h"

namespace hcube::matmul_detail {

namespace {

// TR-623 §3.3, "Algorithm A(.,3,1)" with the fiber in the row bits: N1' N3' = N1, N2' = N2 and
// N1' >= N2' (default N1' = N2), the mirror image of threeDimensional below. Node bits: the low
// n3' bits of the row field are the fiber (N3' direction), the high n1' bits the N1' direction,
// the column field the N2' direction. D stays where the layout puts it (the paper's ld3, D
// partitioned N1' N3' x N2': fiber position sigma holds D's block rows whose Gray-coded low bits
// are sigma, S(sigma)); C's block column a2 (Q/N2 columns) holds N1/N2 column sub-strips of Q/N1
// columns, one for each of D's block rows, of which the w = N1'/N2 in S(sigma) go to fiber
// position sigma: the transformation into lc3 (C partitioned N1' x N2' N3') is an all-to-all
// personalized exchange within each fiber (subcubeExchange, n3' M/2 one-port with M = P/N1 Q/N2,
// Table 4), in place, so the sub-strips stay column strips of C's block. Then C is broadcast
// along N2' and D along N1' (both at once on all-port hardware), every node multiplies, row by
// row of the C sub-strips (1 x Q/N1 x R/N2 MACs: a column strip is no dense block), into the N3'
// partial blocks of A (P/N1 x R/N2 each, its own one straight into A), and the partial blocks
// are reduced all-to-all within the fiber. Element transfers, one-port: Table 8's A(1,2,1) on
// N1' x N2' with Q/N3', (N2-1) P/N1 Q/N2 + (N1'-1) Q/N1 R/N2; the reduction (N3'-1) P/N1 R/N2;
// the transformation n3' P/N1 Q/N2 / 2; start-ups n3' + n2 + n1' + n3'. Arithmetic: P MACs per
// node, PQR/N multiply-adds.
TableSet threeDimensionalRows(const MatmulOptions& o, const MatmulLayout& l, int d3,
                              MatmulCounts* counts) {
  const int h1 = l.n1 - d3;  // n1'
  if (d3 < 0 || h1 < l.n2) {
    throw Error("--method a131: A(.,3,1) with the fiber in the row bits needs N1' >= N2' (got " +
                std::to_string(u64{1} << std::max(h1, 0)) + "x" + std::to_string(l.gridCols()) +
                "x" + std::to_string(u64{1} << std::max(d3, 0)) + ")");
  }
  const u64 depth = u64{1} << d3;  // N3'
  const u64 low = depth - 1;
  const u64 lines = u64{1} << h1;  // N1'
  const u64 w = lines >> l.n2;     // column sub-strips of a C block per fiber position
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const u64 width = l.d_rows;          // Q/N1, a column sub-strip of C's block
  const u64 strip = l.c_rows * width;  // P/N1 x Q/N1
  const bool n_port = !o.one_port;
  auto sigma = [&](u64 y) { return (y >> l.n2) & low; };
  // The place (in units of Q/N1 columns) within C's block column g / w of the sub-strip of D's
  // block row g depth + fiberSlot(g, s), g its N1' position.
  auto place = [&](u64 g, u64 s) { return (g % w) * depth + fiberSlot(g, s, depth); };
  const u64 c_buf = l.slots;                    // gathered C block of grid column b
  const u64 d_buf = c_buf + l.gridCols() * cb;  // gathered D block at N1' position g
  const u64 p_buf = d_buf + lines * db;         // partial block for fiber position s
  auto partial = [&](u64 x, u64 y) { return y == x ? l.a_base : p_buf + sigma(y) * ab; };
  Builder b(o, l);
  b.setScratch(l.gridCols() * cb + lines * db + depth * ab);
  const std::vector<int> fiber = dimRange(l.n2, d3);
  b.phase([&](u64 x, Stream& st) {
    const u64 a2 = l.gridCol(x);
    return subcubeExchange(st, x, fiber, w * strip, n_port, o.tau, o.packet, [&](u64 i, u64 word) {
      const u64 k = word / strip;
      const u64 in = word % strip;
      return l.c_base + (in / width) * l.c_cols + place(a2 * w + k, sigma(i)) * width + in % width;
    });
  });
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(2));
  std::vector<u64> messages(2);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 mc =
        subcubeBroadcast(streams[x][0], x, l.n2, 0, l.c_base, c_buf, cb, n_port, o.tau, o.packet);
    const u64 md = subcubeBroadcast(streams[x][1], x, h1, l.n2 + d3, l.d_base, d_buf, db, n_port,
                                    o.tau, o.packet);
    if (x == 0) messages = {mc, md};
  }
  b.emit(streams, messages);
  macsOf(b, nodes, [&](u64 x) {
    const u64 a2 = l.gridCol(x);
    const u64 own = l.gridRow(x) >> d3;  // own N1' position
    std::vector<MacField> out;
    for (u64 y : subcubeOf(x, fiber)) {
      for (u64 g = 0; g < lines; ++g) {
        // D's block row at N1' position g meets C's column sub-strip of fiber position y's rows,
        // in the C block of grid column g / w at y's place.
        const u64 col = g / w;
        const u64 c_at = (col == a2 ? l.c_base : c_buf + col * cb) + place(g, sigma(y)) * width;
        const u64 d_at = g == own ? l.d_base : d_buf + g * db;
        for (u64 i = 0; i < l.c_rows; ++i) {
          out.push_back(macField(c_at + i * l.c_cols, d_at, partial(x, y) + i * l.a_cols, 1, width,
                                 l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, fiber, ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return partial(x, y); });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a131");
}

}  // namespace

// TR-623 §3.3, "Algorithm A(.,3,1)", three-dimensional partitioning on N1' x N2' x N3'
// processors, Gray code encoding, on the layout grid N1 x N2 with N1' = N1, N2' N3' = N2 and
// N2' >= N1 (default N2' = N1). The paper's final allocation la2 keeps A N1 x N2 partitioned,
// each N1' x N2' cell of the three-dimensional grid split over the N3' processors of its fiber.
// Node bits: the row field (n1) is the N1' direction, the high n2' bits of the column field the
// N2' direction, its low n3' = n2 - n2' bits the N3' direction; a fiber (fixed N1', N2'
// coordinates) is the subcube of those low bits and holds N3' consecutive block columns.
// The slice of Q that fiber position sigma (the low bits) multiplies, S(sigma), is the set of C
// block columns held by the nodes with low bits sigma, N2' of them (the paper's lc3: C
// partitioned N1' x N2' N3', so C does not move). D's block row a1 (Q/N1 rows) holds N2/N1
// sub-strips of Q/N2 rows, one for each block column of C, of which the w = N2'/N1 in S(sigma)
// go to fiber position sigma: the paper's transformation into ld3 (D partitioned N1' N3' x N2')
// is an all-to-all personalized exchange within each fiber (subcubeExchange, n3' M/2 one-port
// with M = Q/N1 R/N2, Table 4). (With N2' < N1, or with the fiber in the row bits as well, a
// sub-strip would not stay within one fiber: the transformation becomes a dimension permutation
// across fibers, which is not built.) Then, as in the paper, C is broadcast all-to-all in the N2'
// direction and D in the N1' direction (both at once on all-port hardware), every node
// multiplies its gathered P/N1 x Q/N3' slice of C by the matching Q/N3' x R/N2' slice of D
// into N3' partial blocks of A (P/N1 x R/N2 each, its own one straight into A), and the partial
// blocks are reduced all-to-all within the fiber (subcubeReduce), leaving node (a1, a2) with A's
// block (a1, a2). Element transfers, one-port: the broadcasts are Table 8's A(1,2,1) on the
// N1' x N2' grid with Q replaced by Q/N3', (N2'-1) P/N1 Q/N2 + (N1-1) Q/N1 R/N2; the reduction
// §3.3's sum over i = 1 .. n3' of P/N1' R/N2' / 2^i = (N3'-1) P/N1 R/N2; the transformation
// n3' Q/N1 R/N2 / 2; start-ups n3' + n2' + n1 + n3'. All-port: nRSBTs and n-port exchange and
// reduction (ceil per part). Arithmetic: N2 MACs of P/N1 x Q/N2 x R/N2, PQR/N multiply-adds
// (Table 5's 2PQR/N operations); the reduction's additions are in the combining receives.
TableSet threeDimensional(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  if (o.fiber_in_rows || (o.fiber_dims < 0 && l.n1 > l.n2)) {
    return threeDimensionalRows(o, l, o.fiber_dims < 0 ? l.n1 - l.n2 : o.fiber_dims, counts);
  }
  const std::string got =
      "(got " + std::to_string(l.gridRows()) + "x" + std::to_string(l.gridCols()) + ")";
  const int d3 = o.fiber_dims < 0 ? l.n2 - l.n1 : o.fiber_dims;  // n3'
  const int h2 = l.n2 - d3;                                      // n2'
  if (d3 < 0 || h2 < l.n1) {
    const std::string three = o.fiber_dims < 0 ? got
                                               : "(got " + std::to_string(l.gridRows()) + "x" +
                                                     std::to_string(u64{1} << h2) + "x" +
                                                     std::to_string(u64{1} << d3) + ")";
    throw Error(
        "--method a131: A(.,3,1) is built for N1' = N1 and N2' N3' = N2 with N2' >= N1' on the "
        "grid N1 x N2 (the fiber within the column bits; with N2' < N1' D's sub-strips would "
        "leave their fiber) " +
        three);
  }
  const u64 depth = u64{1} << d3;  // N3'
  const u64 low = depth - 1;       // a node's fiber position: its low column bits
  const u64 lines = u64{1} << h2;  // N2'
  const u64 w = lines >> l.n1;     // sub-strips of a D block per fiber position
  const u64 side = l.gridRows();   // N1' = N1
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;   // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;   // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;   // P/N1 x R/N2
  const u64 sub = l.c_cols * l.d_cols;  // Q/N2 x R/N2, a sub-strip of D's block
  const bool n_port = !o.one_port;
  // The place, within the D block of grid row b, of the sub-strip of C's block column g v + j
  // (j = fiberSlot(g, sigma)) for the N2' position g: (g mod w) v + j, the block row being g / w.
  auto place = [&](u64 g, u64 sigma) { return (g % w) * depth + fiberSlot(g, sigma, depth); };
  const u64 c_buf = l.slots;             // gathered C block at position g (N2' direction)
  const u64 d_buf = c_buf + lines * cb;  // gathered D block of grid row b
  const u64 p_buf = d_buf + side * db;   // partial block for fiber position sigma
  auto partial = [&](u64 x, u64 y) { return y == x ? l.a_base : p_buf + (y & low) * ab; };
  Builder b(o, l);
  b.setScratch(lines * cb + side * db + depth * ab);
  const std::vector<int> fiber = dimRange(0, d3);
  b.phase([&](u64 x, Stream& st) {
    const u64 a1 = l.gridRow(x);
    // The strip for fiber position sigma: the w sub-strips of D's block (a1, .) whose C block
    // columns lie in S(sigma), k = 0 .. w-1 at N2' position a1 w + k.
    return subcubeExchange(st, x, fiber, w * sub, n_port, o.tau, o.packet, [&](u64 i, u64 word) {
      return l.d_base + place(a1 * w + word / sub, i & low) * sub + word % sub;
    });
  });
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(2));
  std::vector<u64> messages(2);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 mc =
        subcubeBroadcast(streams[x][0], x, h2, d3, l.c_base, c_buf, cb, n_port, o.tau, o.packet);
    const u64 md = subcubeBroadcast(streams[x][1], x, l.n1, l.n2, l.d_base, d_buf, db, n_port,
                                    o.tau, o.packet);
    if (x == 0) messages = {mc, md};
  }
  b.emit(streams, messages);
  macsOf(b, nodes, [&](u64 x) {
    const u64 a1 = l.gridRow(x);
    const u64 own = grayInverse((x & (l.gridCols() - 1)) >> d3);  // own N2' position
    std::vector<MacField> out;
    for (u64 y : subcubeOf(x, fiber)) {
      for (u64 g = 0; g < lines; ++g) {
        // C's block column at N2' position g meets the sub-strip of D's block row g / w that
        // fiber position y holds, at its place for y.
        const u64 c_at = g == own ? l.c_base : c_buf + g * cb;
        const u64 row = g / w;
        const u64 d_at = (row == a1 ? l.d_base : d_buf + row * db) + place(g, y & low) * sub;
        out.push_back(macField(c_at, d_at, partial(x, y), l.c_rows, l.c_cols, l.d_cols));
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, fiber, ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return partial(x, y); });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a131");
}

}  // namespace hcube::matmul_detail

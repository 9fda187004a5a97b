// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §3.1: the one-dimensional (column) partitionings beyond rotation and doubling:
// "exchange", A(.,1,1) by the Gray code exchange ("A Gray code Exchange alg. A(1,1,1)" and
// "A(n,1,1)"), "a114", Algorithm A(.,1,4), and "a113", Algorithm A(.,1,3), with the costs of Tables
// 5 and 6.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"
#include "base/error.h"

namespace hcube::matmul_detail {

// TR-623 §3.1, "A Gray code Exchange alg. A(1,1,1)" and "A(n,1,1)", column partitioning (grid
// 1 x N), Gray code encoding. Before step t = 1 .. N-1 every processor exchanges the C block it
// holds with its neighbour across dimension T(t-1) (the Gray code's transition bit: the
// trailing ones of t-1), in place, so that in step t processor x holds the block that started
// in x XOR G(t) and multiplies it with the matching Q/N rows of its D. n-port (A(n,1,1)): C's
// block is cut into n pieces of rows (piece u: rows u P/n .. (u+1) P/n - 1, as near equal as P
// allows), piece u crossing dimension (T(t-1) + u) mod n, so each step uses every port; one
// MAC per piece. Each step's exchange is a message of a piece (or messages of `packet` words),
// each after a start-up of tau.
TableSet exchange(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  if (l.n1 != 0) {
    throw Error("--method exchange: A(.,1,1) is the one-dimensional column partitioning, grid 1x" +
                std::to_string(u64{1} << l.n) + " (got " + std::to_string(l.gridRows()) + "x" +
                std::to_string(l.gridCols()) + ")");
  }
  const u64 nodes = u64{1} << l.n;
  const u64 pieces = o.one_port ? 1 : static_cast<u64>(l.n);
  std::vector<u64> first_row(pieces + 1);
  for (u64 u = 0; u <= pieces; ++u) first_row[u] = u * l.c_rows / pieces;
  u64 longest = 0;
  for (u64 u = 0; u < pieces; ++u) {
    longest = std::max(longest, (first_row[u + 1] - first_row[u]) * l.c_cols);
  }
  // source[x][u]: the node whose C rows of piece u node x holds now.
  std::vector<std::vector<u64>> source(nodes, std::vector<u64>(pieces));
  for (u64 x = 0; x < nodes; ++x) std::fill(source[x].begin(), source[x].end(), x);
  Builder b(o, l);
  for (u64 t = 0; t < nodes; ++t) {
    if (t > 0) {
      const int transition = std::countr_one(t - 1);
      const u64 size = o.packet == 0 ? longest : o.packet;
      std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(1));
      for (u64 start = 0; start < longest; start += size) {
        const u64 len = std::min(size, longest - start);
        for (u64 x = 0; x < nodes; ++x) {
          Stream& st = streams[x][0];
          st.insert(st.end(), o.tau, {});
          const size_t at = st.size();
          st.resize(at + len);
          for (u64 u = 0; u < pieces; ++u) {
            const int d =
                static_cast<int>((static_cast<u64>(transition) + u) % static_cast<u64>(l.n));
            const u64 base = l.c_base + first_row[u] * l.c_cols;
            const u64 words = (first_row[u + 1] - first_row[u]) * l.c_cols;
            for (u64 w = start; w < start + len && w < words; ++w) {
              st[at + (w - start)].push_back(
                  {d, static_cast<u32>(base + w), static_cast<u32>(base + w)});
            }
          }
        }
        b.addStartups(1);
      }
      b.emit(streams);
      for (u64 x = 0; x < nodes; ++x) {
        for (u64 u = 0; u < pieces; ++u) {
          source[x][u] ^= u64{1} << ((static_cast<u64>(transition) + u) % static_cast<u64>(l.n));
        }
      }
    }
    std::vector<std::vector<MacField>> macs(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      for (u64 u = 0; u < pieces; ++u) {
        if (first_row[u + 1] == first_row[u]) continue;
        const u64 col = l.gridCol(source[x][u]);  // the block column of C held
        MacField f;
        f.a = static_cast<u32>(l.c_base + first_row[u] * l.c_cols);
        f.b = static_cast<u32>(l.d_base + col * l.c_cols * l.d_cols);
        f.c = static_cast<u32>(l.a_base + first_row[u] * l.d_cols);
        f.m = static_cast<u32>(first_row[u + 1] - first_row[u]);
        f.k = static_cast<u32>(l.c_cols);
        f.p = static_cast<u32>(l.d_cols);
        macs[x].push_back(f);
      }
    }
    b.macs(macs);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-exchange");
}

// TR-623 §3.1, "Algorithm A(.,1,4)", column partitioning (grid 1 x N), Gray code encoding:
// transpose D (processor a gets rows a Q/N .. (a+1) Q/N - 1 of all of D, ld_txp), multiply its C
// (P x Q/N) by them into partial products of every block column of A, and reduce those over
// the processors so that processor a ends with the sum of block column a (la_red). The
// transpose is the exchange AAPC (subcubeExchange over all n dimensions, M = Q R/N: D's block is
// N row strips of Q/N x R/N, strip j bound for grid column j, at the slot of its grid position;
// at the end strip s of processor a is D's block (a, s)); the reduction the all-to-all reduction
// (subcubeReduce, M = P R). One-port, A^c(1,1,4): (N-1) P R/N + n Q/2 R/N element transfers and
// 2n start-ups (Table 6). n-port, A^c(n,1,4) (all-port hardware): every strip and partial block
// cut into n parts on rotated dimension orders, (N-1) P R/N / n + Q/2 R/N (Table 6, ceil per
// part when n does not divide). Arithmetic: N MACs of P x Q/N x R/N, PQR/N multiply-adds; the
// reduction's additions are in the receives.
TableSet a114(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  requireGrid(o, l, "A(.,1,4)", false);
  const u64 nodes = u64{1} << l.n;
  const u64 strip = l.c_cols * l.d_cols;  // Q/N x R/N
  const u64 part = l.a_rows * l.a_cols;   // a partial block of A, P x R/N
  const u64 partial_buf = l.slots;        // partial block of column g at partial_buf + g part
  const bool n_port = !o.one_port;
  const std::vector<int> all = dimRange(0, l.n);
  Builder b(o, l);
  b.setScratch(nodes * part);
  b.phase([&](u64 x, Stream& st) {
    return subcubeExchange(
        st, x, all, strip, n_port, o.tau, o.packet,
        [&](u64 i) { return l.d_base + l.gridCol(i) * strip; }, nullptr);
  });
  // Partial products: A's own block column straight into A, the others into the buffer.
  macsOf(b, nodes, [&](u64 x) {
    std::vector<MacField> out;
    for (u64 g = 0; g < nodes; ++g) {
      out.push_back(macField(l.c_base, l.d_base + g * strip,
                             g == l.gridCol(x) ? l.a_base : partial_buf + g * part, l.c_rows,
                             l.c_cols, l.d_cols));
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, all, part, n_port, o.tau, o.packet, [&](u64 y) {
      return y == x ? l.a_base : partial_buf + l.gridCol(y) * part;
    });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a114");
}

// TR-623 §3.1, "Algorithm A(.,1,3)", column partitioning (grid 1 x N), Gray code encoding:
// transpose C (lc_txp: processor a gets rows a P/N .. (a+1) P/N - 1 of all of C), broadcast D
// all-to-all (ld_brd: every processor gets all of D), multiply into the transposed block row of
// A (la_txp, P/N x R) and transpose that back (la), the second transpose adding into A with
// combining receives where each block arrives. The transposes are the exchange AAPC
// (subcubeExchange): C's block is N row strips of P/N x Q/N, strip g bound for grid column g, at
// the slot of its grid position, so processor a ends with C(a P/N.., s Q/N..) at strip s; A^T's
// N blocks P/N x R/N sit in scratch by destination (processor a's own block goes straight into
// A). One-port, A^c(1,1,3): (N-1) Q R/N + n P/2 R/N + n P/2 Q/N element transfers, 3n start-ups
// (Table 6). n-port, A^c(n,1,3): nRSBT broadcast and n-port exchanges, (N-1) Q R/N / n + P/2 R/N
// + P/2 Q/N (ceil per part). Arithmetic: N^2 MACs of P/N x Q/N x R/N, 2QR P/N operations
// (Table 5). Needs N | P.
TableSet a113(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  requireGrid(o, l, "A(.,1,3)", false);
  const u64 nodes = u64{1} << l.n;
  if (l.p % nodes != 0) {
    throw Error("--method a113: P = " + std::to_string(l.p) + " does not divide over the " +
                std::to_string(nodes) + " processors (A(.,1,3) transposes C into P/N row strips)");
  }
  const u64 rows = l.p / nodes;          // P/N
  const u64 cs = rows * l.c_cols;        // a strip of C, P/N x Q/N
  const u64 db = l.d_rows * l.d_cols;    // D's block, Q x R/N
  const u64 ds = l.c_cols * l.d_cols;    // Q/N rows of D's block, Q/N x R/N
  const u64 ab = rows * l.a_cols;        // a block of A^T, P/N x R/N
  const u64 d_buf = l.slots;             // D's block g at d_buf + g db
  const u64 a_buf = d_buf + nodes * db;  // A^T's block for column g at a_buf + g ab
  const bool n_port = !o.one_port;
  const std::vector<int> all = dimRange(0, l.n);
  Builder b(o, l);
  b.setScratch(nodes * (db + ab));
  b.phase([&](u64 x, Stream& st) {
    return subcubeExchange(
        st, x, all, cs, n_port, o.tau, o.packet,
        [&](u64 i) { return l.c_base + l.gridCol(i) * cs; }, nullptr);
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n, 0, l.d_base, d_buf, db, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 own = l.gridCol(x);
    std::vector<MacField> out;
    for (u64 g = 0; g < nodes; ++g) {
      const u64 d = g == own ? l.d_base : d_buf + g * db;
      const u64 a = g == own ? l.a_base + own * ab : a_buf + g * ab;
      for (u64 s = 0; s < nodes; ++s) {
        out.push_back(macField(l.c_base + s * cs, d + s * ds, a, rows, l.c_cols, l.d_cols));
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeExchange(
        st, x, all, ab, n_port, o.tau, o.packet, [&](u64 i) { return a_buf + l.gridCol(i) * ab; },
        [&](u64 src) -> std::optional<u64> { return l.a_base + l.gridCol(src) * ab; });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a113");
}

}  // namespace hcube::matmul_detail

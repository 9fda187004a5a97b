// hcube: where the matrices of a matrix multiplication live (Johnsson & Ho 1988, TR-623, §3.2,
// "Initial allocations of C and D" and "Final allocation of A").
//
// The N = 2^n processors form an N1 x N2 grid (N1 = 2^n1; N1 = 1 is the one-dimensional column
// partitioning of §3.1). Processor (a1, a2) is node G(a1) 2^n2 + G(a2), G the binary-reflected
// Gray code, so that grid neighbours (a2 and a2 + 1 mod N2, likewise a1) are cube neighbours and
// a rotation along a grid row or column is nearest-neighbour communication (§3.1, Gray code
// encoding). Processor (a1, a2) holds, row-major in its data slots,
//   C(a1 P/N1 + i', a2 Q/N2 + j')  i' < P/N1, j' < Q/N2   from slot 0,
//   D(a1 Q/N1 + j', a2 R/N2 + k')  j' < Q/N1, k' < R/N2   next,
//   A(a1 P/N1 + i', a2 R/N2 + k')  i' < P/N1, k' < R/N2   last,
// the paper's lc, ld and la. A ends as its initial words plus C x D (W-bit wrap-around).
#pragma once

#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {

inline u64 grayCode(u64 t) { return t ^ (t >> 1); }
inline u64 grayInverse(u64 g) {
  u64 t = 0;
  for (; g != 0; g >>= 1) t ^= g;
  return t;
}

struct MatmulLayout {
  int n = 0;
  int n1 = 0;  ///< grid rows N1 = 2^n1
  int n2 = 0;  ///< grid columns N2 = 2^n2
  u64 p = 0, q = 0, r = 0;
  u64 c_rows = 0, c_cols = 0, d_rows = 0, d_cols = 0, a_rows = 0, a_cols = 0;
  u64 c_base = 0, d_base = 0, a_base = 0, slots = 0;

  static MatmulLayout of(const PermutationSpec& s) {
    MatmulLayout l;
    l.n = s.n();
    l.n1 = s.gridRowDims();
    l.n2 = l.n - l.n1;
    l.p = s.matP();
    l.q = s.matQ();
    l.r = s.matR();
    l.c_rows = l.p >> l.n1;
    l.c_cols = l.q >> l.n2;
    l.d_rows = l.q >> l.n1;
    l.d_cols = l.r >> l.n2;
    l.a_rows = l.c_rows;
    l.a_cols = l.d_cols;
    l.d_base = l.c_rows * l.c_cols;
    l.a_base = l.d_base + l.d_rows * l.d_cols;
    l.slots = l.a_base + l.a_rows * l.a_cols;
    return l;
  }

  u64 gridRows() const { return u64{1} << n1; }
  u64 gridCols() const { return u64{1} << n2; }
  u64 node(u64 a1, u64 a2) const { return (grayCode(a1) << n2) | grayCode(a2); }
  u64 gridRow(u64 x) const { return grayInverse(x >> n2); }
  u64 gridCol(u64 x) const { return grayInverse(x & (gridCols() - 1)); }

  GlobalAddress cAt(u64 i, u64 j) const {
    return {node(i / c_rows, j / c_cols), c_base + (i % c_rows) * c_cols + j % c_cols};
  }
  GlobalAddress dAt(u64 j, u64 k) const {
    return {node(j / d_rows, k / d_cols), d_base + (j % d_rows) * d_cols + k % d_cols};
  }
  GlobalAddress aAt(u64 i, u64 k) const {
    return {node(i / a_rows, k / a_cols), a_base + (i % a_rows) * a_cols + k % a_cols};
  }
};

}  // namespace hcube

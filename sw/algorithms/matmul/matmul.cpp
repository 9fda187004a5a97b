// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §3: matmulTables, the dispatch from MatmulOptions::method to the method families of this
// folder (README.md), and the checks every method shares (MAC overlap mode).
#include "algorithms/matmul/matmul.h"

#include <string>

#include "algorithms/matmul/matmul_builder.h"
#include "base/error.h"
#include "spec/matmul_layout.h"

namespace hcube {

using matmul_detail::a113;
using matmul_detail::a114;
using matmul_detail::broadcast;
using matmul_detail::cannon;
using matmul_detail::exchange;
using matmul_detail::requireGrid;
using matmul_detail::rotation;
using matmul_detail::threeDimensional;
using matmul_detail::twoDimensional;
using matmul_detail::twoDimensionalNotSquare;

TableSet matmulTables(const MatmulOptions& o, MatmulCounts* counts) {
  const MatmulLayout l = MatmulLayout::of(o.spec);
  // MAC overlap mode (docs/hardware/arithmetic.md §3): an overlapped schedule exists for Cannon's
  // algorithm on square grids; every other method's tables would run as they are (their MACs
  // and transfers alternate), so they are refused rather than labelled overlapped.
  if (o.mac_overlap && o.method != "cannon") {
    throw Error("--mac-overlap: only --method cannon has an overlapped schedule (got '" + o.method +
                "')");
  }
  if (o.mac_overlap && l.n1 != l.n2) {
    throw Error("--mac-overlap: the overlapped Cannon schedule needs a square grid (got " +
                std::to_string(l.gridRows()) + "x" + std::to_string(l.gridCols()) +
                "; an even --n with --grid auto or N1 = N2)");
  }
  if (o.method == "rotation") return rotation(o, l, counts);
  if (o.method == "cannon") return cannon(o, l, counts);
  if (o.method == "broadcast") return broadcast(o, l, counts);
  if (o.method == "doubling") {
    // TR-623 §3.1, "A Doubling Algorithm A(.,1,1)": lc_brd, C broadcast all-to-all over the
    // cube, then one product: the broadcast form on the grid 1 x N (D's columns never move).
    requireGrid(o, l, "A(.,1,1)", false);
    return broadcast(o, l, counts);
  }
  if (o.method == "exchange") return exchange(o, l, counts);
  if (o.method == "a114") return a114(o, l, counts);
  if (o.method == "a113") return a113(o, l, counts);
  if (o.method.size() == 4 && o.method.starts_with("a12") && o.method[3] >= '2' &&
      o.method[3] <= '5') {
    const int which = o.method[3] - '0';
    if (l.n1 != l.n2) return twoDimensionalNotSquare(o, l, which, counts);
    return twoDimensional(o, l, which, counts);
  }
  if (o.method == "a131") return threeDimensional(o, l, counts);
  throw Error("--method '" + o.method + "': unknown matmul method (" + kMatmulMethods + ")");
}

}  // namespace hcube

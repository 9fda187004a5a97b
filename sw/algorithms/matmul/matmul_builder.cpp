// hcube: what the matmul methods share beyond the Builder (matmul_builder.h): the grid check of the
// methods that need a one-dimensional or a square grid, and MAC fields.
#include "algorithms/matmul/matmul_builder.h"

#include <functional>
#include <string>
#include <vector>

#include "base/error.h"

namespace hcube::matmul_detail {

/// The grid a method needs: one-dimensional (1 x N) or square; throws Error naming the method.
void requireGrid(const MatmulOptions& o, const MatmulLayout& l, const char* name, bool square) {
  const std::string got = std::to_string(l.gridRows()) + "x" + std::to_string(l.gridCols()) + ")";
  if (!square && l.n1 != 0) {
    throw Error("--method " + o.method + ": " + name +
                " is the one-dimensional column partitioning, grid 1x" +
                std::to_string(u64{1} << l.n) + " (got " + got);
  }
  if (square && l.n1 != l.n2) {
    throw Error("--method " + o.method + ": " + name +
                " is built for square grids N1 = N2 only (n even; got " + got);
  }
}

/// Every node's MACs of one same-shaped product step: `f(x)` gives node x's list.
void macsOf(Builder& b, u64 nodes, const std::function<std::vector<MacField>(u64)>& f) {
  std::vector<std::vector<MacField>> macs(nodes);
  for (u64 x = 0; x < nodes; ++x) macs[x] = f(x);
  b.macs(macs);
}

MacField macField(u64 a, u64 bb, u64 c, u64 m, u64 k, u64 p) {
  MacField f;
  f.a = static_cast<u32>(a);
  f.b = static_cast<u32>(bb);
  f.c = static_cast<u32>(c);
  f.m = static_cast<u32>(m);
  f.k = static_cast<u32>(k);
  f.p = static_cast<u32>(p);
  return f;
}

}  // namespace hcube::matmul_detail

// hcube: matrix multiplication of Johnsson & Ho 1988 (TR-623) §3 as a catalogue entry:
//   hcube run --algo matmul --method rotation|exchange|a113|a114|cannon|broadcast|a122..a125|a131
//             --n N --shape PxQxR
//             [--grid N1xN2|auto] [--tau T] [--packet B] [--units U] [--ports one|all]
//             [--tree sbt|nrsbt] [--mac-overlap]
// Tables from sw/algorithms/matmul/matmul.h; the check is A += C x D on every element of A
// (sw/spec/reference.h, matmulExpected). The bound is the paper's element transfers (Table 6 for
// the rotation, the rotations of Cannon's algorithm plus its alignment) plus start-ups times tau;
// arithmetic cycles are reported beside Table 5.
#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>
#include <string>

#include "algorithms/families.h"
#include "algorithms/matmul/matmul.h"
#include "base/error.h"
#include "spec/matmul_layout.h"

namespace hcube {
namespace {

/// "AxB" or "AxBxC" into its numbers; throws Error naming the option.
std::vector<u64> dims(const std::string& option, const std::string& text, size_t count) {
  std::vector<u64> out;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, 'x')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
        item.size() > 9) {
      out.clear();
      break;
    }
    out.push_back(std::stoull(item));
  }
  if (out.size() != count || std::find(out.begin(), out.end(), 0U) != out.end()) {
    throw Error("--" + option + " '" + text + "': expected " +
                (count == 3 ? std::string("PxQxR") : std::string("N1xN2")) +
                " (positive integers)");
  }
  return out;
}

/// --grid auto: the grid rows n1 (N1 = 2^n1) of TR-623 Table 9, rounded to the nearest power of
/// two within 1 .. N (ties: the smaller N1): for A(1,2,1) (both forms, Cannon's rotations and the
/// broadcasts) N1 = sqrt(P N / R), for A(1,2,2) .. A(1,2,5) the table's own N1; the
/// one-dimensional methods are 1 x N.
/// --grid3 "N1'xN2'xN3'" into its numbers.
std::vector<u64> dims3(const std::string& text) {
  std::istringstream in(text);
  std::string item;
  std::vector<u64> out;
  while (std::getline(in, item, 'x')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
        item.size() > 9) {
      out.clear();
      break;
    }
    out.push_back(std::stoull(item));
  }
  if (out.size() != 3 || std::find(out.begin(), out.end(), 0U) != out.end()) {
    throw Error("--grid3 '" + text + "': expected N1'xN2'xN3' (positive integers)");
  }
  return out;
}

int autoGridRows(const std::string& method, int n, const std::vector<u64>& shape) {
  if (method == "rotation" || method == "exchange" || method == "doubling" || method == "a113" ||
      method == "a114") {
    return 0;
  }
  // log2 of sqrt(u N / v), to the nearest integer within 0 .. n (ties: the smaller).
  auto table9 = [&](u64 u, u64 v) {
    const double half =
        (std::log2(static_cast<double>(u)) + n - std::log2(static_cast<double>(v))) / 2;
    return static_cast<int>(std::clamp(std::ceil(half - 0.5), 0.0, static_cast<double>(n)));
  };
  // Table 9: A(1,2,2) N1 = sqrt(QN/R), A(1,2,3) sqrt(QN/P), A(1,2,4) sqrt(PN/Q), A(1,2,5)
  // sqrt(RN/Q).
  if (method == "a122") return table9(shape[1], shape[2]);
  if (method == "a123") return table9(shape[1], shape[0]);
  if (method == "a124") return table9(shape[0], shape[1]);
  if (method == "a125") return table9(shape[2], shape[1]);
  // A(.,3,1) on N1 x N1 x N3': N1 = 2^floor(n/3), the cube-like grid of §3.3 (no table of
  // optimum N1', N2', N3' in the paper).
  if (method == "a131") return n / 3;
  // A(1,2,1): N1 = sqrt(PN/R).
  return table9(shape[0], shape[2]);
}

/// Which of the paper's formulas the bound is.
std::string boundText(const MatmulOptions& o) {
  if (o.method == "rotation") return "Table 6, A^l(1,1,1): (N-1) P Q/N element transfers";
  if (o.method == "exchange") {
    return o.one_port ? "Table 6, A^l(1,1,1) Gray code exchange: (N-1) P Q/N element transfers"
                      : "Table 6, A^l(n,1,1) Gray code exchange: (N-1) ceil(P/n) Q/N element "
                        "transfers";
  }
  if (o.method == "a114" && !o.one_port) {
    return "Table 6, A^c(n,1,4): (N-1) P R/N / n + Q/2 R/N element transfers (n-port transpose "
           "of D and reduction of A)";
  }
  if (o.method == "a114") {
    return "Table 6, A^c(1,1,4): (N-1) P R/N + n Q/2 R/N element transfers (transpose of D, "
           "all-to-all reduction of A)";
  }
  if (o.method == "a113") {
    return o.one_port ? "Table 6, A^c(1,1,3): (N-1) Q R/N + n P/2 R/N + n P/2 Q/N element "
                        "transfers (transposes of C and A, broadcast of D)"
                      : "Table 6, A^c(n,1,3): (N-1) Q R/N / n + P/2 R/N + P/2 Q/N element "
                        "transfers";
  }
  if (o.method.starts_with("a12")) {
    const std::string which = "A(1,2," + o.method.substr(3) + ")";
    if (o.one_port) return "Table 8, " + which + ": transpose, broadcast and reduction";
    const std::string kind = o.transpose.empty() ? "spt" : o.transpose;
    const std::string n_port = which.substr(0, 2) + "n" + which.substr(3);
    if (kind == "sbt") {
      return "section 3.2, " + n_port + ": SBT transpose, nRSBT broadcast and reduction";
    }
    return (kind == "spt" ? "Table 11, " : "section 3.2, ") + n_port + ": " +
           (kind == "spt"   ? std::string("SPT")
            : kind == "dpt" ? "DPT"
                            : "MPT") +
           " transpose (Johnsson & Ho 1987 section 6.1), nRSBT broadcast and reduction";
  }
  if (o.method == "cannon") return "section 3.2, Cannon: rotations of C and D";
  if (o.method == "a131") {
    return o.one_port ? "section 3.3, A(1,3,1): Table 8's A(1,2,1) broadcasts with Q/N3', the "
                        "N3' reduction and the exchange of D into ld3: element transfers"
                      : "section 3.3, A(n,3,1): nRSBT broadcasts, n-port reduction and exchange "
                        "of D into ld3: element transfers";
  }
  if (o.method == "doubling") {
    return o.n_port_tree ? "Table 6, A^c(n,1,1) doubling on nRSBTs: (N-1) P Q/N / n element "
                           "transfers"
                         : "Table 6, A^c(1,1,1) doubling on SBTs: (N-1) P Q/N element transfers";
  }
  if (o.n_port_tree) return "Table 11, A^c(n,2,1) on nRSBTs: element transfers";
  if (o.one_port) return "Table 8, A^c(1,2,1) on SBTs: element transfers";
  return "A(.,2,1) on SBTs, rows and columns at once: element transfers";
}

/// Refuses a matmul case too large to build (sw/tables/resource_limits.h), from the block sizes of
/// its layout: every node's table has at most (N1 + N2) rotations of its C and D blocks (Cannon's
/// alignment and steps), or for the other methods (N1 + N2 + 2n) passes over its C, D and A
/// blocks (gathers, transposes, reductions), twice with start-ups, and 4N block MACs. Measured
/// with hcube tables on 64x64x64 at n = 2, 4, 6 and 16x256x64 at n = 4, every method: at most
/// 0.5 of the Cannon bound and 0.35 of the other (rotation at n = 6: 4097 instructions, C, D and
/// A blocks of 64 words).
CaseSize requireMatmulFits(const CaseSpec& spec, const MatmulOptions& o) {
  const MatmulLayout l = MatmulLayout::of(o.spec);
  const double rows = static_cast<double>(l.gridRows());
  const double cols = static_cast<double>(l.gridCols());
  const double c = static_cast<double>(l.c_rows) * static_cast<double>(l.c_cols);
  const double d = static_cast<double>(l.d_rows) * static_cast<double>(l.d_cols);
  const double a = static_cast<double>(l.a_rows) * static_cast<double>(l.a_cols);
  const double passes =
      o.method == "cannon" ? (rows + cols) * (c + d) / (c + d + a) : rows + cols + 2.0 * spec.n;
  return perNodeSize(spec, sizeOption(spec, "shape"), c + d + a, passes, o.tau > 0,
                     4.0 * static_cast<double>(u64{1} << spec.n));
}

BuiltCase buildMatmul(const CaseSpec& spec) {
  CaseParams params(spec);
  if (spec.n < 1 || spec.n > 16) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1..16");
  }
  if (spec.lanes != 1) throw Error("--width: 'matmul' sends one word per port and cycle");
  if (spec.slots != 0) throw Error("--k: 'matmul' takes its slots from --shape and --grid");
  MatmulOptions o;
  const auto method = params.text("method");
  if (!method) {
    throw Error(std::string("--method is required for matmul (") + kMatmulMethods + ")");
  }
  o.method = *method;
  static const std::vector<std::string> known = {"rotation", "exchange", "doubling",  "a113",
                                                 "a114",     "cannon",   "broadcast", "a122",
                                                 "a123",     "a124",     "a125",      "a131"};
  if (std::find(known.begin(), known.end(), o.method) == known.end()) {
    throw Error("--method '" + o.method + "': unknown matmul method (" + kMatmulMethods + ")");
  }
  const auto shape_text = params.text("shape");
  if (!shape_text) throw Error("--shape PxQxR is required for matmul");
  const std::vector<u64> shape = dims("shape", *shape_text, 3);
  const u64 nodes = u64{1} << spec.n;
  const bool one_dimensional = o.method == "rotation" || o.method == "exchange" ||
                               o.method == "doubling" || o.method == "a113" || o.method == "a114";
  int n1 = one_dimensional ? 0 : o.method == "a131" ? spec.n / 3 : spec.n / 2;
  const auto grid = params.text("grid");
  if (grid && *grid == "auto") {
    n1 = autoGridRows(o.method, spec.n, shape);
  } else if (grid) {
    const std::vector<u64> g = dims("grid", *grid, 2);
    if (g[0] * g[1] != nodes || (g[0] & (g[0] - 1)) != 0) {
      throw Error("--grid " + *grid + ": N1 x N2 must be the " + std::to_string(nodes) +
                  " processors of the " + std::to_string(spec.n) + "-cube, powers of two");
    }
    n1 = std::countr_zero(g[0]);
  }
  o.tau = static_cast<u32>(params.integer("tau", 0, 0, 1LL << 20));
  o.packet = static_cast<u64>(params.integer("packet", 0, 0, 1LL << 30));
  o.mac_units = static_cast<u32>(params.integer("units", 1, 1, 64));
  o.mac_overlap =
      params.text("mac-overlap").has_value();  // a flag (docs/hardware/arithmetic.md §3)
  const auto tree = params.text("tree");
  const auto transpose = params.text("transpose");
  const auto grid3 = params.text("grid3");
  params.finish();
  o.one_port = spec.one_port;
  if (tree && o.method != "broadcast" && o.method != "doubling") {
    throw Error("--tree: only --method broadcast and doubling have broadcast trees (sbt, nrsbt)");
  }
  if (tree && *tree != "sbt" && *tree != "nrsbt") {
    throw Error("--tree '" + *tree + "': must be sbt (one-port) or nrsbt (n-port)");
  }
  if (transpose && !o.method.starts_with("a12")) {
    throw Error(
        "--transpose: only --method a122 .. a125 transpose a block-partitioned matrix "
        "(sbt, spt, dpt, mpt)");
  }
  if (transpose && *transpose != "sbt" && *transpose != "spt" && *transpose != "dpt" &&
      *transpose != "mpt") {
    throw Error("--transpose '" + *transpose +
                "': must be sbt (TR-623 section 2.2, one port at a time) or spt, dpt, mpt "
                "(Johnsson & Ho 1987 section 6.1, all ports)");
  }
  if (transpose && *transpose != "sbt" && spec.one_port) {
    throw Error("--transpose " + *transpose +
                ": the packet transposes use every port at once, not one-port hardware "
                "(--ports one takes --transpose sbt)");
  }
  if (transpose) o.transpose = *transpose;
  if (grid3) {
    // TR-623 §3.3: N1' x N2' x N3' on the layout grid N1' x N2' N3' or N1' N3' x N2'.
    if (o.method != "a131") throw Error("--grid3: only --method a131 has a three-dimensional grid");
    const std::vector<u64> g = dims3(*grid3);
    if (g[0] * g[1] * g[2] != nodes || (g[0] & (g[0] - 1)) != 0 || (g[1] & (g[1] - 1)) != 0 ||
        (g[2] & (g[2] - 1)) != 0) {
      throw Error("--grid3 " + *grid3 + ": N1' x N2' x N3' must be the " + std::to_string(nodes) +
                  " processors of the " + std::to_string(spec.n) + "-cube, powers of two");
    }
    // The fiber lies in the column bits (grid N1' x N2' N3') when N2' >= N1', else in the row
    // bits (grid N1' N3' x N2').
    o.fiber_in_rows = g[0] > g[1];
    const u64 rows = o.fiber_in_rows ? g[0] * g[2] : g[0];
    if (grid && *grid != "auto" && (u64{1} << n1) != rows) {
      throw Error("--grid3 " + *grid3 + " with --grid " + *grid +
                  ": A(.,3,1) is built on the grid N1' x N2' N3' when N2' >= N1', N1' N3' x N2' "
                  "otherwise");
    }
    n1 = std::countr_zero(rows);
    o.fiber_dims = std::countr_zero(g[2]);
  }
  o.n_port_tree = tree ? *tree == "nrsbt" : !spec.one_port;
  if (o.one_port && o.n_port_tree) {
    throw Error("--tree nrsbt: uses every port at once, not one-port hardware (--ports one)");
  }
  o.spec = PermutationSpec::matmul(spec.n, shape[0], shape[1], shape[2], n1);
  const CaseSize size = requireMatmulFits(spec, o);
  MatmulCounts counts;
  BuiltCase c;
  c.size = size;
  c.perm = o.spec;
  c.tables = matmulTables(o, &counts);
  c.lower_bound = counts.transfer_cycles;
  std::ostringstream src;
  src << "Johnsson & Ho 1988 (TR-623) " << boundText(o) << " (grid " << (u64{1} << n1) << "x"
      << (nodes >> n1) << ")"
      << ", t_c = 1; " << counts.startups << " start-ups of tau; arithmetic "
      << counts.arithmetic_cycles << " cycles (Table 5: PQR/N multiply-adds on U = " << o.mac_units
      << " units)";
  if (counts.alignment_transfers != 0) {
    src << "; of the transfers " << counts.alignment_transfers << " are the initial alignment";
  }
  if (o.mac_overlap) src << "; MAC overlap mode: the MACs run beside the rotations";
  c.bound_source = src.str();
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> matmulAlgorithms() {
  return {
      {{"matmul",
        "A += C x D (--shape PxQxR): --method rotation | exchange (A(.,1,1), grid 1xN) | a113 "
        "(A(.,1,3), grid 1xN) | a114 (A(.,1,4), grid 1xN) | cannon (A(.,2,1), any N1xN2) | "
        "broadcast (A(.,2,1) on SBTs / nRSBTs, --tree sbt|nrsbt) | doubling (A(.,1,1) by "
        "broadcasting C, grid 1xN) | a122 .. a125 (A(.,2,2) .. A(.,2,5), any N1xN2; --transpose "
        "sbt|spt|dpt|mpt) | a131 (A(.,3,1) on N1 x N1 x N2/N1, grid N1xN2 with N2 >= N1, or "
        "--grid3 N1'xN2'xN3'); --grid N1xN2|auto (Table 9), --tau, --packet, "
        "--units (MAC units), --mac-overlap (cannon on a square grid: MACs overlapping the "
        "rotations, docs/hardware/arithmetic.md §3)",
        "Johnsson & Ho 1988 (TR-623), section 3, Tables 5-11"},
       [](const CaseSpec& s) { return buildMatmul(s); }},
  };
}

}  // namespace hcube

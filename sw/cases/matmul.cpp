// hcube: matrix multiplication of Johnsson & Ho 1988 (TR-623) §3 as a catalogue entry:
//   hcube run --algo matmul --method rotation|cannon --n N --shape PxQxR
//             [--grid N1xN2] [--tau T] [--packet B] [--units U] [--ports one|all]
// Tables from sw/schedules/matmul.h; the check is A += C x D on every element of A
// (sw/reference.h, matmulExpected). The bound is the paper's element transfers (Table 6 for the
// rotation, the rotations of Cannon's algorithm plus its alignment) plus start-ups times tau;
// arithmetic cycles are reported beside Table 5.
#include "schedules/matmul.h"

#include <algorithm>
#include <bit>
#include <sstream>
#include <string>

#include "error.h"
#include "families.h"

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

BuiltCase buildMatmul(const CaseSpec& spec) {
  CaseParams params(spec);
  if (spec.n < 1 || spec.n > 16) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1..16");
  }
  if (spec.lanes != 1) throw Error("--width: 'matmul' sends one word per port and cycle");
  if (spec.slots != 0) throw Error("--k: 'matmul' takes its slots from --shape and --grid");
  MatmulOptions o;
  const auto method = params.text("method");
  if (!method) throw Error("--method is required for matmul (rotation, cannon)");
  o.method = *method;
  if (o.method != "rotation" && o.method != "cannon") {
    throw Error("--method '" + o.method + "': unknown matmul method (rotation, cannon)");
  }
  const auto shape_text = params.text("shape");
  if (!shape_text) throw Error("--shape PxQxR is required for matmul");
  const std::vector<u64> shape = dims("shape", *shape_text, 3);
  const u64 nodes = u64{1} << spec.n;
  int n1 = o.method == "rotation" ? 0 : spec.n / 2;
  if (const auto grid = params.text("grid")) {
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
  params.finish();
  o.one_port = spec.one_port;
  o.spec = PermutationSpec::matmul(spec.n, shape[0], shape[1], shape[2], n1);
  MatmulCounts counts;
  BuiltCase c;
  c.perm = o.spec;
  c.tables = matmulTables(o, &counts);
  c.lower_bound = counts.transfer_cycles;
  std::ostringstream src;
  src << "Johnsson & Ho 1988 (TR-623) "
      << (o.method == "rotation" ? "Table 6, A^l(1,1,1): (N-1) P Q/N element transfers"
                                 : "section 3.2, Cannon: rotations of C and D")
      << ", t_c = 1; " << counts.startups << " start-ups of tau; arithmetic "
      << counts.arithmetic_cycles << " cycles (Table 5: PQR/N multiply-adds on U = " << o.mac_units
      << " units)";
  if (counts.alignment_transfers != 0) {
    src << "; of the transfers " << counts.alignment_transfers << " are the initial alignment";
  }
  c.bound_source = src.str();
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> matmulAlgorithms() {
  return {
      {{"matmul",
        "A += C x D (--shape PxQxR): --method rotation (A(.,1,1), grid 1xN) | cannon "
        "(A(.,2,1), square grid); --grid N1xN2, --tau, --packet, --units (MAC units)",
        "Johnsson & Ho 1988 (TR-623), section 3, Tables 5-6"},
       [](const CaseSpec& s) { return buildMatmul(s); }},
  };
}

}  // namespace hcube

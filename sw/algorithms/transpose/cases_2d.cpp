// hcube: the two-dimensional transpose family — Johnsson & Ho 1987 §6.1: SPT (§6.1.1), DPT
// (§6.1.2) and MPT (§6.1.3) on a 2^p x 2^q matrix with n/2 row and n/2 column node bits.
//
// Options: the matrix options of sw/algorithms/transpose/layout.h (--matrix, --partition, default
// 2d-consecutive, --encoding), --packet B (default: the paper's optimal B, at least 1),
// --tau τ (start-up cycles per packet transfer, default 0), --route greedy|sync (SPT and DPT,
// default greedy), --forward store|cut (SPT and DPT, default store), --sizing per-class|uniform
// (MPT, default per-class: the ~s classes off the anti-diagonal size their own packets). The case's
// bound is Theorem 3; its source text also names the §6.1 formula and B_opt for the case.
//
// Virtual elements (Definition 2, --virtual): only the real elements are planned into packets.
// The bound is then Theorem 3's argument over the real elements and the formula the §6.1 one with
// PQ/N replaced by the real elements R_x node x sends, maximised over the nodes
// (transposeRealLowerBound, transpose2dRealCycles); the report names both and the extended
// matrix's values they replace. The default B is the paper's B_opt for the busiest node's R_x.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "algorithms/families.h"
#include "algorithms/transpose/layout.h"
#include "algorithms/transpose/transpose2d.h"
#include "base/error.h"

namespace hcube {

namespace {

std::string fixed1(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

/// The bound and formula text of a case with virtual elements (Definition 2): Theorem 3's
/// argument and the §6.1 formula over the real elements, each next to the extended matrix's value
/// it replaces.
std::string virtualBoundSource(const Transpose2dPlan& plan, const PermutationSpec& perm,
                               u64 busiest, double b_opt) {
  const std::vector<u64> real = realElementsSent(perm);
  const Transpose2dOptions& o = plan.options;
  const int n = plan.n;
  const u64 k = plan.slots;
  const RealLowerBound lb = transposeRealLowerBound(perm, o.tau, o.lanes, o.cut_through);
  std::string s =
      std::string("Johnsson & Ho 1987 Theorem 3 over the real elements (Definition 2), ") +
      std::string(o.cut_through ? "max(tau+d, R_q/(N/2), R_max/n) (cut-through: one start-up)"
                                : "max(d*tau, R_q/(N/2), R_max/n)") +
      " with d = " + std::to_string(lb.distance) +
      " the longest real distance, R_q = " + std::to_string(lb.quadrant) +
      " real elements in the busier off-diagonal quadrant, R_max = " + std::to_string(lb.busiest) +
      " on the busiest node (extended matrix: " +
      std::string(o.cut_through ? "max(tau+n, PQ/2N)" : "max(n*tau, PQ/2N)") + " = " +
      std::to_string(transposeLowerBound(n, k, o.tau, o.lanes, o.cut_through)) + "); ";
  std::string formula;
  u64 extended = 0;
  const std::string hops = o.synchronous ? "n-2i0(x)" : "2H(x)";
  if (o.cut_through) {
    const bool dual = o.algo == Transpose2dAlgo::kDpt;
    formula = "cut-through ceil(R_x/" + std::string(dual ? "2" : "") + "B)(B+tau)+" + hops + "-1";
    extended = cutThroughFormulaCycles(dual, n, k, o.packet, o.tau, o.lanes);
  } else if (o.algo == Transpose2dAlgo::kSpt) {
    formula = "section 6.1.1 (ceil(R_x/B)+" + hops + "-1)(B+tau)";
    extended = sptFormulaCycles(n, k, o.packet, o.tau, o.lanes);
  } else if (o.algo == Transpose2dAlgo::kDpt) {
    formula = "section 6.1.2 (ceil(R_x/2B)+" + hops + "-1)(B+tau)";
    extended = dptFormulaCycles(n, k, o.packet, o.tau, o.lanes);
  } else {
    formula =
        std::string("section 6.1.3 schedule, max over H of steps(H, ceil(R_H/B_H))*(B_H+tau)") +
        ", R_H = max R_x over H(x) = H" + (o.per_class_packets ? ", B_{n/2} = B" : ", B_H = B");
    extended = o.per_class_packets ? mptPerClassCycles(n, k, o.packet, o.tau, o.lanes)
                                   : mptScheduleCycles(n, k, o.packet, o.tau, o.lanes);
  }
  s += formula + " with R_x the real elements node x sends (at most " + std::to_string(busiest) +
       " of K = " + std::to_string(k) +
       "), max over x, = " + std::to_string(transpose2dRealCycles(n, real, o)) +
       " cycles (extended matrix: " + std::to_string(extended) + ")";
  if (o.algo == Transpose2dAlgo::kMpt) {
    s += ", Theorem 2 with PQ/N = " + std::to_string(busiest) + " ~ " +
         fixed1(mptTheorem2(n, busiest, o.tau));
  }
  s += "; B = " + std::to_string(o.packet) +
       ", paper's B_opt for PQ/N = " + std::to_string(busiest) + " = " +
       (o.tau == 0 ? std::string("1 (tau = 0: no start-up cost to amortise)") : fixed1(b_opt));
  s += "; " + std::to_string(plan.virtual_slots) +
       " virtual elements (Definition 2) left out of the packets, not sent";
  return s;
}

BuiltCase buildTranspose2d(const CaseSpec& spec, Transpose2dAlgo algo) {
  if (spec.one_port) {
    throw Error("--ports one: the " + spec.algo +
                " transpose sends on several ports of a node at once (Johnsson & Ho 1987 "
                "§6.1); it needs all-port hardware");
  }
  CaseParams params(spec);
  LayoutDefaults defaults;
  defaults.partition = "2d-consecutive";
  defaults.allow_virtual = true;  // virtual elements (Definition 2) are not put into packets
  const TransposeLayouts layouts = layoutsFromParams(params, spec, defaults);
  const PermutationSpec perm = transposePermutation(layouts.before, layouts.after);
  const int n = perm.n();
  const u64 k = perm.slots();
  const bool virtuals = perm.hasVirtual();
  // The most real elements an off-diagonal node sends (K without virtual elements), counted here
  // without checking where they go: planTranspose2d names a layout that does not fit, after the
  // options are read.
  u64 busiest = k;
  if (virtuals) {
    busiest = 0;
    const std::vector<u64> real = perm.participatingPerNode();
    for (u64 x = 0; x < perm.nodes(); ++x) {
      if (transposeHalfDistance(n, x) != 0) busiest = std::max(busiest, real[x]);
    }
  }
  Transpose2dOptions o;
  o.algo = algo;
  o.lanes = spec.lanes;
  o.tau = static_cast<u64>(params.integer("tau", 0, 0, 1'000'000));
  double b_opt = algo == Transpose2dAlgo::kSpt   ? sptOptimalPacket(n, busiest, o.tau)
                 : algo == Transpose2dAlgo::kDpt ? dptOptimalPacket(n, busiest, o.tau)
                                                 : mptOptimalPacket(n, busiest, o.tau);
  const long long default_packet =
      std::clamp<long long>(std::llround(b_opt), 1, static_cast<long long>(k));
  o.packet =
      static_cast<u64>(params.integer("packet", default_packet, 1, static_cast<long long>(k)));
  const std::string route = params.text("route").value_or("greedy");
  if (route != "greedy" && route != "sync") {
    throw Error("--route '" + route + "': must be greedy or sync");
  }
  o.synchronous = route == "sync";
  const std::string forward = params.text("forward").value_or("store");
  if (forward != "store" && forward != "cut") {
    throw Error("--forward '" + forward + "': must be store (scratch slots) or cut (FWD)");
  }
  o.cut_through = forward == "cut";
  if (algo == Transpose2dAlgo::kMpt) {
    const std::string sizing = params.text("sizing").value_or("per-class");
    if (sizing != "per-class" && sizing != "uniform") {
      throw Error("--sizing '" + sizing + "': must be per-class or uniform");
    }
    o.per_class_packets = sizing == "per-class";
  }
  params.finish();
  // The section 6.1 formula's cycles without start-ups, twice for the start-up WAITs and the
  // greedy routes' extra steps (spt n = 6, K = 1024, B = 1: 1192 instructions, formula 1029),
  // and K for the local copies.
  const u64 estimate_cycles =
      algo == Transpose2dAlgo::kSpt   ? sptFormulaCycles(n, k, o.packet, 0, o.lanes)
      : algo == Transpose2dAlgo::kDpt ? dptFormulaCycles(n, k, o.packet, 0, o.lanes)
      : o.per_class_packets           ? mptPerClassCycles(n, k, o.packet, 0, o.lanes)
                                      : mptScheduleCycles(n, k, o.packet, 0, o.lanes);
  const CaseSize size = perNodeSize(spec, sizeOption(spec), static_cast<double>(k), 1, false,
                                    2.0 * static_cast<double>(estimate_cycles));

  const Transpose2dPlan plan = planTranspose2d(perm, o);
  Transpose2dTables lowered = lowerTranspose2d(plan, perm);
  BuiltCase c;
  c.size = size;
  c.perm = perm;
  c.tables = std::move(lowered.tables);
  c.tables.header.algo = spec.algo;
  c.lower_bound = transposeLowerBound(n, k, o.tau, o.lanes, o.cut_through);
  if (virtuals) {
    c.bound_source = virtualBoundSource(plan, perm, busiest, b_opt);
    c.lower_bound = transposeRealLowerBound(perm, o.tau, o.lanes, o.cut_through).cycles;
    if (lowered.local_tail > 0) {
      c.bound_source += "; +" + std::to_string(lowered.local_tail) + " local-copy cycles";
    }
    return c;
  }
  std::string formula;
  u64 formula_cycles = 0;
  if (o.cut_through) {
    formula_cycles =
        cutThroughFormulaCycles(algo == Transpose2dAlgo::kDpt, n, k, o.packet, o.tau, o.lanes);
    formula = "cut-through ceil(PQ/" + std::string(algo == Transpose2dAlgo::kDpt ? "2" : "") +
              "BN)(B+tau)+n-1";
  } else if (algo == Transpose2dAlgo::kSpt) {
    formula_cycles = sptFormulaCycles(n, k, o.packet, o.tau, o.lanes);
    formula = "section 6.1.1 (ceil(PQ/BN)+n-1)(B+tau)";
  } else if (algo == Transpose2dAlgo::kDpt) {
    formula_cycles = dptFormulaCycles(n, k, o.packet, o.tau, o.lanes);
    formula = "section 6.1.2 (ceil(PQ/2BN)+n-1)(B+tau)";
  } else {
    formula_cycles = o.per_class_packets ? mptPerClassCycles(n, k, o.packet, o.tau, o.lanes)
                                         : mptScheduleCycles(n, k, o.packet, o.tau, o.lanes);
    formula = o.per_class_packets
                  ? "section 6.1.3 schedule, max over H of steps(H)*(B_H+tau), B_{n/2} = B"
                  : "section 6.1.3 schedule, max over H of steps(H)*(B+tau)";
  }
  c.bound_source =
      std::string(o.cut_through ? "Johnsson & Ho 1987 Theorem 3 with cut-through forwarding "
                                  "(one start-up per element, not one per hop), "
                                  "max(tau+n, PQ/2N); "
                                : "Johnsson & Ho 1987 Theorem 3, max(n*tau, PQ/2N); ") +
      formula + " = " + std::to_string(formula_cycles) + " cycles";
  if (algo == Transpose2dAlgo::kMpt) {
    c.bound_source += ", Theorem 2 ~ " + fixed1(mptTheorem2(n, k, o.tau));
  }
  c.bound_source +=
      "; B = " + std::to_string(o.packet) + ", paper's B_opt = " +
      (o.tau == 0 ? std::string("1 (tau = 0: no start-up cost to amortise)") : fixed1(b_opt));
  if (lowered.local_tail > 0) {
    c.bound_source += "; +" + std::to_string(lowered.local_tail) + " local-copy cycles";
  }
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> transpose2dAlgorithms() {
  return {
      {{"spt",
        "2D transpose, one path x -> tr(x) per node, pipelined packets of B (--packet, --tau, "
        "--route greedy|sync, --forward store|cut)",
        "Johnsson & Ho 1987, section 6.1.1 (Single Path Transpose)"},
       [](const CaseSpec& s) { return buildTranspose2d(s, Transpose2dAlgo::kSpt); }},
      {{"dpt",
        "2D transpose, two edge-disjoint paths per node, half the data on each (--packet, "
        "--tau, --route, --forward)",
        "Johnsson & Ho 1987, section 6.1.2 (Dual Paths Transpose)"},
       [](const CaseSpec& s) { return buildTranspose2d(s, Transpose2dAlgo::kDpt); }},
      {{"mpt",
        "2D transpose, 2H(x) paths per node launched with (2,2H(x))-disjoint timing (--packet, "
        "--tau, --sizing per-class|uniform)",
        "Johnsson & Ho 1987, section 6.1.3 (Multiple Paths Transpose), Theorems 2 and 3"},
       [](const CaseSpec& s) { return buildTranspose2d(s, Transpose2dAlgo::kMpt); }},
  };
}

}  // namespace hcube

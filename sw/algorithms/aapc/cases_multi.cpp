// hcube: the multiple-AAPC family — s AAPCs on successive processor axes sharing one set of
// local memory dimensions (Johnsson & Ho 1992 §2.3, §4).
#include <algorithm>

#include "algorithms/aapc/multi_aapc.h"
#include "algorithms/families.h"
#include "base/error.h"
#include "tables/compiler.h"

namespace hcube {

namespace {

/// Reads --axes, --d, --k of a multiple-AAPC case: s axes of d bits (default n / s) on an
/// n-cube with K = 2^k elements per node (default 2^d).
MultiAapcShape shapeOf(const CaseSpec& spec, CaseParams& params) {
  MultiAapcShape sh;
  sh.n = spec.n;
  if (sh.n < 1 || sh.n > 20) {
    throw Error("--n " + std::to_string(sh.n) + ": the cube dimension must be 1..20");
  }
  sh.s = static_cast<int>(params.integer("axes", 1, 1, 20));
  sh.d = static_cast<int>(params.integer("d", std::max(1, sh.n / sh.s), 1, 20));
  const u64 k = spec.slots == 0 ? u64{1} << sh.d : spec.slots;
  if (!isPowerOfTwo(k)) {
    throw Error("--k " + std::to_string(k) + ": the AAPCs need K = 2^k elements per node");
  }
  sh.k = log2Exact(k);
  checkMultiAapcShape(sh);
  return sh;
}

/// Refuses a multiple-AAPC case too large to build (sw/tables/resource_limits.h): K/2 + (s-1)d
/// steps and, with --align explicit, the PERMUTE phases; measured with hcube tables at n = 4, 6, K
/// = 8..1024, --axes 1..3: at most 0.56 K instructions (1.12 K at K = 8), 0.85 K with --align
/// explicit.
CaseSize requireMultiAapcFits(const CaseSpec& spec, const MultiAapcShape& sh) {
  return perNodeSize(spec, sizeOption(spec), static_cast<double>(sh.slots()), 1.5, false,
                     2.0 * sh.s * sh.d);
}

std::string boundText(const MultiAapcShape& sh) {
  return "K/2 + (s-1)d = " + std::to_string(sh.slots() / 2) + " + " + std::to_string(sh.s - 1) +
         "*" + std::to_string(sh.d) + ", Johnsson & Ho 1992 Corollary 2 (section 4.1)";
}

BuiltCase buildPipelined(const CaseSpec& spec) {
  CaseParams params(spec);
  const MultiAapcShape sh = shapeOf(spec, params);
  const std::string align = params.text("align").value_or("slots");
  if (align != "slots" && align != "explicit") {
    throw Error("--align '" + align +
                "': must be 'slots' (no local data motion) or 'explicit' "
                "(PERMUTE phases 1 and 3)");
  }
  params.finish();
  const MultiAapcAlignment a =
      align == "explicit" ? MultiAapcAlignment::kExplicit : MultiAapcAlignment::kSlots;
  if (a == MultiAapcAlignment::kExplicit && sh.n * spec.lanes < 2) {
    throw Error("--align explicit: a PERMUTE on n * b = 1 channel cannot exchange two slots");
  }
  const CaseSize size = requireMultiAapcFits(spec, sh);
  const MoveSchedule schedule = jhPipelinedAapcs(sh, a, spec.lanes);
  CompileOptions options;
  options.lanes = spec.lanes;
  options.one_port = spec.one_port;
  BuiltCase c;
  c.size = size;
  c.perm = successiveAapcPermutation(sh);
  c.tables = compileMoves(schedule, c.perm, options);
  c.lower_bound = corollary2Steps(sh);
  c.bound_source = boundText(sh);
  c.schedule_span = moveScheduleSpan(schedule, sh.nodes(), sh.slots(), sh.slots());
  return c;
}

BuiltCase buildConcurrent(const CaseSpec& spec) {
  CaseParams params(spec);
  const MultiAapcShape sh = shapeOf(spec, params);
  params.finish();
  const CaseSize size = requireMultiAapcFits(spec, sh);
  const MoveSchedule schedule = jhConcurrentAapcs(sh, spec.lanes);
  CompileOptions options;
  options.lanes = spec.lanes;
  options.one_port = spec.one_port;
  BuiltCase c;
  c.size = size;
  c.perm = successiveAapcPermutation(sh);
  c.tables = compileMoves(schedule, c.perm, options);
  c.lower_bound = theorem2Steps(sh);
  c.bound_source = "Johnsson & Ho 1992 Theorem 2 (section 4.2) for s = " + std::to_string(sh.s) +
                   ", d = " + std::to_string(sh.d) + ", K = " + std::to_string(sh.slots());
  c.schedule_span = moveScheduleSpan(schedule, sh.nodes(), sh.slots(), sh.slots());
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> multiAapcAlgorithms() {
  return {
      {{"jh4-pipelined",
        "--axes s AAPCs of --d bits (default n/s) on successive axes, pipelined: Corollary 2's "
        "K/2+(s-1)d steps (complement-pair blocks; a leading sliding group searched at build "
        "time when d does not divide K/2, for every d the cube allows; blocks only, "
        "d*ceil(K/2d)+(s-1)d, if none)",
        "Johnsson & Ho 1992, sections 2.3 and 4.1, Corollary 2"},
       buildPipelined},
      {{"jh5",
        "--axes s AAPCs of --d bits: some data sets start on a later axis to fill the pipeline "
        "(Theorem 2's bound); with a second local axis (K >= 2^2d) by a local exchange and one "
        "final local reordering, without one by passing axis 1 twice",
        "Johnsson & Ho 1992, section 4.2, Algorithm 5, Theorem 2"},
       buildConcurrent},
  };
}

}  // namespace hcube

// hcube: the relative-address AAPC family — Edelman 1991 (Theorem 3.2, the direct algorithm)
// and Johnsson & Ho 1992 Algorithms 1-4 (§3.1-3.5).
#include "aapc.h"

#include "error.h"
#include "families.h"
#include "schedules/edelman.h"
#include "schedules/johnsson_ho.h"

namespace hcube {

namespace {
constexpr int kMaxTableDims = 20;
}  // namespace

PermutationSpec aapcFor(const CaseSpec& spec) {
  if (spec.n < 1 || spec.n > kMaxTableDims) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1.." +
                std::to_string(kMaxTableDims));
  }
  const u64 nodes = u64{1} << spec.n;
  const u64 k = spec.slots == 0 ? nodes : spec.slots;
  if (k % nodes != 0) {
    throw Error("--k " + std::to_string(k) + ": an AAPC on " + std::to_string(nodes) +
                " nodes needs K = m * 2^n elements per node (a multiple of " +
                std::to_string(nodes) + ")");
  }
  if (k > (u64{1} << 24)) {
    throw Error("--k " + std::to_string(k) + ": more than 2^24 elements per node");
  }
  return PermutationSpec::aapc(spec.n, k / nodes);
}

BuiltCase relativeAapcCase(const RelativeSchedule& schedule, const PermutationSpec& perm,
                           const CompileOptions& options, const std::string& bound_source) {
  BuiltCase c;
  c.perm = perm;
  c.tables = compileRelative(schedule, c.perm, options);
  c.lower_bound = aapcAllPortBound(c.perm.slots());
  c.bound_source = bound_source;
  c.schedule_span = relativeScheduleSpan(schedule);
  return c;
}

namespace {

CompileOptions plainOptions(const CaseSpec& spec) {
  CompileOptions options;
  options.lanes = spec.lanes;
  options.one_port = spec.one_port;
  return options;
}

BuiltCase buildRelative(const CaseSpec& spec, RelativeSchedule (*schedule)(int)) {
  CaseParams params(spec);
  params.finish();
  const PermutationSpec perm = aapcFor(spec);
  const std::string bound = spec.algo == "edelman"
                                ? "K/2, Edelman 1991 Theorem 3.1"
                                : "K/2, Johnsson & Ho 1992 section 1 (all-port AAPC)";
  return relativeAapcCase(schedule(spec.n), perm, plainOptions(spec), bound);
}

}  // namespace

std::vector<AlgorithmEntry> aapcAlgorithms() {
  return {
      {{"edelman",
        "all-to-all personalized communication, optimal K/2 all-port steps, relative addressing",
        "Edelman 1991, Theorem 3.2 and the direct algorithm (section 3)"},
       [](const CaseSpec& s) { return buildRelative(s, edelmanSchedule); }},
      {{"jh1",
        "AAPC, complement pairs in blocks of n: n*ceil(2^(n-1)/n) steps per 2^n elements, span n",
        "Johnsson & Ho 1992, section 3.1, Algorithm 1"},
       [](const CaseSpec& s) { return buildRelative(s, jhAlgorithm1); }},
      {{"jh2",
        "AAPC, pair u in dimension r in step (u+r) mod 2^(n-1): optimal K/2 steps, span 2^(n-1)",
        "Johnsson & Ho 1992, section 3.2, Algorithm 2"},
       [](const CaseSpec& s) { return buildRelative(s, jhAlgorithm2); }},
      {{"jh3",
        "AAPC, Algorithm 2 on n + (2^(n-1) mod n) pairs, Algorithm 1 on the rest: optimal K/2 "
        "steps",
        "Johnsson & Ho 1992, section 3.3, Algorithm 3"},
       [](const CaseSpec& s) { return buildRelative(s, jhAlgorithm3); }},
      {{"jh4",
        "AAPC by necklaces and cyclic complement pairs: optimal K/2 steps and optimal span n",
        "Johnsson & Ho 1992, section 3.5, Algorithm 4 (Theorem 1)"},
       [](const CaseSpec& s) { return buildRelative(s, [](int d) { return jhAlgorithm4(d); }); }},
  };
}

}  // namespace hcube

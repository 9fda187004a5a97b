#include "algorithms.h"

#include "compiler.h"
#include "error.h"
#include "schedules/edelman.h"
#include "schedules/johnsson_ho.h"

namespace hcube {

const std::vector<AlgorithmInfo>& algorithmCatalogue() {
  static const std::vector<AlgorithmInfo> kCatalogue = {
      {"edelman",
       "all-to-all personalized communication, optimal K/2 all-port steps, relative addressing",
       "Edelman 1991, Theorem 3.2 and the direct algorithm (section 3)"},
      {"jh1",
       "AAPC, complement pairs in blocks of n: n*ceil(2^(n-1)/n) steps per 2^n elements, span n",
       "Johnsson & Ho 1992, section 3.1, Algorithm 1"},
      {"jh2",
       "AAPC, pair u in dimension r in step (u+r) mod 2^(n-1): optimal K/2 steps, span 2^(n-1)",
       "Johnsson & Ho 1992, section 3.2, Algorithm 2"},
      {"jh3",
       "AAPC, Algorithm 2 on n + (2^(n-1) mod n) pairs, Algorithm 1 on the rest: optimal K/2 steps",
       "Johnsson & Ho 1992, section 3.3, Algorithm 3"},
      {"jh4", "AAPC by necklaces and cyclic complement pairs: optimal K/2 steps and optimal span n",
       "Johnsson & Ho 1992, section 3.5, Algorithm 4 (Theorem 1)"},
  };
  return kCatalogue;
}

u64 aapcAllPortBound(u64 slots) { return slots / 2; }

namespace {

constexpr int kMaxTableDims = 20;

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

/// A case whose schedule is one homogeneous relative-address schedule of an AAPC, repeated
/// K / 2^n times by the compiler.
BuiltCase relativeAapcCase(const CaseSpec& spec, const RelativeSchedule& schedule,
                           const PermutationSpec& perm, const std::string& bound_source) {
  BuiltCase c;
  c.perm = perm;
  CompileOptions options;
  options.lanes = spec.lanes;
  options.one_port = spec.one_port;
  c.tables = compileRelative(schedule, c.perm, options);
  c.lower_bound = aapcAllPortBound(c.perm.slots());
  c.bound_source = bound_source;
  c.schedule_span = relativeScheduleSpan(schedule);
  return c;
}

}  // namespace

BuiltCase buildCase(const CaseSpec& spec) {
  if (spec.lanes < 1) throw Error("--width " + std::to_string(spec.lanes) + ": must be >= 1");
  if (spec.algo == "edelman") {
    return relativeAapcCase(spec, edelmanSchedule(spec.n), aapcFor(spec),
                            "K/2, Edelman 1991 Theorem 3.1");
  }
  if (spec.algo == "jh1" || spec.algo == "jh2" || spec.algo == "jh3" || spec.algo == "jh4") {
    const PermutationSpec perm = aapcFor(spec);
    const std::string bound = "K/2, Johnsson & Ho 1992 section 1 (all-port AAPC)";
    if (spec.algo == "jh1") return relativeAapcCase(spec, jhAlgorithm1(spec.n), perm, bound);
    if (spec.algo == "jh2") return relativeAapcCase(spec, jhAlgorithm2(spec.n), perm, bound);
    if (spec.algo == "jh3") return relativeAapcCase(spec, jhAlgorithm3(spec.n), perm, bound);
    return relativeAapcCase(spec, jhAlgorithm4(spec.n), perm, bound);
  }
  std::string known;
  for (const AlgorithmInfo& a : algorithmCatalogue()) known += (known.empty() ? "" : ", ") + a.name;
  throw Error("--algo '" + spec.algo + "': unknown algorithm (known: " + known + ")");
}

BuiltCase caseFromTables(TableSet tables) {
  BuiltCase c;
  c.perm = tables.header.perm;
  if (c.perm.kind() == PermutationSpec::Kind::kAapc && !tables.header.one_port) {
    c.lower_bound = aapcAllPortBound(c.perm.slots());
    c.bound_source = "K/2, Edelman 1991 Theorem 3.1";
  } else {
    c.bound_source = "none known";
  }
  c.tables = std::move(tables);
  return c;
}

}  // namespace hcube

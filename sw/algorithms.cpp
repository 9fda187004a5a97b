#include "algorithms.h"

#include "compiler.h"
#include "error.h"
#include "schedules/edelman.h"

namespace hcube {

const std::vector<AlgorithmInfo>& algorithmCatalogue() {
  static const std::vector<AlgorithmInfo> kCatalogue = {
      {"edelman",
       "all-to-all personalized communication, optimal K/2 all-port steps, relative addressing",
       "Edelman 1991, Theorem 3.2 and the direct algorithm (section 3)"},
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

}  // namespace

BuiltCase buildCase(const CaseSpec& spec) {
  if (spec.lanes < 1) throw Error("--width " + std::to_string(spec.lanes) + ": must be >= 1");
  if (spec.algo == "edelman") {
    BuiltCase c;
    c.perm = aapcFor(spec);
    const RelativeSchedule schedule = edelmanSchedule(spec.n);
    CompileOptions options;
    options.lanes = spec.lanes;
    options.one_port = spec.one_port;
    c.tables = compileRelative(schedule, c.perm, options);
    c.lower_bound = aapcAllPortBound(c.perm.slots());
    c.bound_source = "K/2, Edelman 1991 Theorem 3.1";
    c.schedule_span = relativeScheduleSpan(schedule);
    return c;
  }
  std::string known;
  for (const AlgorithmInfo& a : algorithmCatalogue()) known += (known.empty() ? "" : ", ") + a.name;
  throw Error("--algo '" + spec.algo + "': unknown algorithm (known: " + known + ")");
}

}  // namespace hcube

// hcube: the relative-address AAPC family — Edelman 1991 (Theorem 3.2, the direct algorithm),
// Johnsson & Ho 1992 Algorithms 1-4 (§3.1-3.5) with blocking and start-up cost (§5) and wide
// channels (§6), the one-port standard exchange algorithm and SBnT routing (Johnsson & Ho 1987
// §3.2, §5).
#include "algorithms/aapc/cases.h"

#include "algorithms/aapc/aapc_family.h"
#include "algorithms/aapc/edelman.h"
#include "algorithms/families.h"
#include "base/error.h"

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
  // One shared table of K/2 XFERs and the END.
  const double k = static_cast<double>(perm.slots());
  const CaseSize size = checkedSize(spec, sizeOption(spec), k, true, k / 2 + spec.n + 2);
  BuiltCase c = relativeAapcCase(schedule(spec.n), perm, plainOptions(spec), bound);
  c.size = size;
  return c;
}

constexpr long long kMaxStartup = (1LL << 31) - 1;

u64 ceilDiv(u64 a, u64 b) { return (a + b - 1) / b; }

/// --tau T: start-up cycles per block transfer (Johnsson & Ho 1992 §5; 1987 §3.2 τ).
u64 startupParam(CaseParams& params) {
  return static_cast<u64>(params.integer("tau", 0, 0, kMaxStartup));
}

/// --NAME on|off.
bool switchParam(CaseParams& params, const std::string& name) {
  const auto v = params.text(name);
  if (!v || *v == "off") return false;
  if (*v == "on") return true;
  throw Error("--" + name + " '" + *v + "': must be on or off");
}

/// The size of a slot-schedule AAPC (one shared table) of at most `steps` XFERs; a start-up is
/// one WAIT before a block, and a block has at least one step.
CaseSize slotSize(const CaseSpec& spec, u64 slots, double steps, u64 startup) {
  return checkedSize(spec, sizeOption(spec), static_cast<double>(slots), true,
                     (steps + 2) * (startup > 0 ? 2 : 1));
}

BuiltCase slotCase(const SlotSchedule& s, const PermutationSpec& perm, const CaseSpec& spec,
                   u64 startup, u64 bound, const std::string& bound_source) {
  CompileOptions options = plainOptions(spec);
  options.startup = startup;
  BuiltCase c;
  c.perm = perm;
  c.tables = compileSlots(s, perm, options);
  c.lower_bound = bound;
  c.bound_source = bound_source;
  c.schedule_span = slotScheduleSpan(s);
  return c;
}

/// Johnsson & Ho 1992 Algorithms 1-4 with --tau, --blocking and --width (§5, §6).
BuiltCase buildJh(const CaseSpec& spec) {
  CaseParams params(spec);
  const u64 startup = startupParam(params);
  const bool blocked = switchParam(params, "blocking");
  params.finish();
  const PermutationSpec perm = aapcFor(spec);
  if (spec.one_port) {
    throw Error("--ports one: " + spec.algo +
                " sends on every port in every step (all-port); the one-port AAPC is --algo "
                "exchange");
  }
  const u64 k = perm.slots();
  // K/2 steps (Algorithm 1: n ceil(K/2n)).
  const CaseSize size = slotSize(spec, k, static_cast<double>(k / 2 + spec.n), startup);
  // The shared AAPC family (sw/algorithms/aapc/aapc_family.h, also what SDP Algorithm A2 runs).
  AapcScheduleOptions options;
  options.lanes = spec.lanes;
  options.blocking = blocked;
  const SlotSchedule s = aapcSlotSchedule(spec.algo, spec.n, k, options);
  const u64 b = static_cast<u64>(spec.lanes);
  std::string source = "K/2, Johnsson & Ho 1992 section 1 (all-port AAPC)";
  u64 bound = k / 2;
  if (b > 1) {
    bound = ceilDiv(k, 2 * b);
    source =
        "ceil(K/2b) (all-port AAPC, b lanes); Johnsson & Ho 1992 Lemma 5 gives d*ceil(K/2db) = " +
        std::to_string(static_cast<u64>(spec.n) * ceilDiv(k, 2 * static_cast<u64>(spec.n) * b)) +
        " when floor(K/2d) >= b";
  }
  if (startup > 0) {
    source += "; plus " + std::to_string(s.blocks()) + " block transfers * tau " +
              std::to_string(startup) + " start-up cycles (" +
              (blocked ? "blocked, section 5" : "one block per step") + ")";
  }
  BuiltCase c = slotCase(s, perm, spec, startup, bound, source);
  c.size = size;
  return c;
}

/// Johnsson & Ho 1987 §3.2, §5: the standard exchange algorithm (one-port; also all-port).
BuiltCase buildExchange(const CaseSpec& spec) {
  CaseParams params(spec);
  const u64 startup = startupParam(params);
  const PermutationSpec perm = aapcFor(spec);
  const u64 k = perm.slots();
  const u64 packet = static_cast<u64>(
      params.integer("packet", static_cast<long long>(k / 2), 1, static_cast<long long>(k)));
  params.finish();
  // n exchanges of K/2 steps.
  const CaseSize size =
      slotSize(spec, k, static_cast<double>(spec.n) * static_cast<double>(k / 2), startup);
  AapcScheduleOptions options;
  options.lanes = spec.lanes;
  options.packet = packet;
  const SlotSchedule s = aapcSlotSchedule("exchange", spec.n, k, options);
  const u64 d = static_cast<u64>(spec.n);
  const u64 b = static_cast<u64>(spec.lanes);
  std::string source;
  u64 bound = 0;
  if (spec.one_port) {
    bound = d * ceilDiv(k / 2, b);
    source =
        "n*K/2 (per lane b: n*ceil(K/2b)), one-port exchange algorithm, Johnsson & Ho 1987 "
        "section 3.2: T = n(K/2 t_c + ceil(K/2B) tau)";
  } else {
    bound = ceilDiv(k, 2 * b);
    source =
        "K/2 (per lane b: ceil(K/2b)), all-port AAPC, Edelman 1991 Theorem 3.1; the "
        "exchange algorithm needs n*K/2 (Johnsson & Ho 1987 section 3.2)";
  }
  if (startup > 0) {
    source += "; plus " + std::to_string(s.blocks()) + " block transfers (packets of " +
              std::to_string(packet) + ") * tau " + std::to_string(startup);
  }
  BuiltCase c = slotCase(s, perm, spec, startup, bound, source);
  c.size = size;
  return c;
}

/// Johnsson & Ho 1987 §3.2, §5: AAPC routed on spanning balanced n-trees (all-port).
BuiltCase buildSbnt(const CaseSpec& spec) {
  CaseParams params(spec);
  const u64 startup = startupParam(params);
  const std::string mode = params.text("schedule").value_or("rounds");
  const std::string tree = params.text("tree").value_or("sbnt");
  params.finish();
  if (tree != "sbnt" && tree != "rsbt") {
    throw Error("--tree '" + tree +
                "': must be sbnt (spanning balanced n-trees) or rsbt (rotated "
                "spanning binomial trees)");
  }
  if (mode != "rounds" && mode != "greedy") {
    throw Error("--schedule '" + mode + "': must be rounds or greedy");
  }
  if (mode == "greedy" && startup > 0) {
    throw Error("--tau " + std::to_string(startup) +
                ": the greedy SBnT schedule has no block transfers; use --schedule rounds");
  }
  if (spec.one_port) {
    throw Error(
        "--ports one: sbnt sends on all ports at once; the one-port AAPC is --algo exchange");
  }
  if (spec.lanes != 1) {
    throw Error("--width " + std::to_string(spec.lanes) +
                ": sbnt uses one word per port and cycle");
  }
  const PermutationSpec perm = aapcFor(spec);
  // K/2 + the trees' depth for the rounds (measured at most 1.4 K/2); at most K steps.
  const CaseSize size =
      slotSize(spec, perm.slots(), static_cast<double>(perm.slots()) + 2 * spec.n, startup);
  AapcScheduleOptions options;
  options.sbnt_scheduling = mode == "rounds" ? SbntScheduling::kRounds : SbntScheduling::kGreedy;
  options.sbnt_tree = tree == "sbnt" ? SbntTree::kBalanced : SbntTree::kRotatedBinomial;
  const SlotSchedule s = aapcSlotSchedule("sbnt", spec.n, perm.slots(), options);
  std::string source =
      "K/2, SBnT routing T_min = K/2 t_c + n tau, Johnsson & Ho 1987 section 3.2 (all-port AAPC "
      "bound, Edelman 1991 Theorem 3.1)";
  if (startup > 0) {
    source += "; plus " + std::to_string(s.blocks()) + " rounds * tau " + std::to_string(startup);
  }
  BuiltCase c = slotCase(s, perm, spec, startup, perm.slots() / 2, source);
  c.size = size;
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> aapcAlgorithms() {
  return {
      {{"edelman",
        "all-to-all personalized communication, optimal K/2 all-port steps, relative addressing",
        "Edelman 1991, Theorem 3.2 and the direct algorithm (section 3)"},
       [](const CaseSpec& s) { return buildRelative(s, edelmanSchedule); }},
      {{"jh1",
        "AAPC, complement pairs in blocks of n: n*ceil(K/2n) steps, span n (--tau, --blocking, "
        "--width)",
        "Johnsson & Ho 1992, section 3.1, Algorithm 1; blocking section 5, wide channels section "
        "6"},
       buildJh},
      {{"jh2",
        "AAPC, pair u in dimension r in step (u+r) mod 2^(n-1): optimal K/2 steps, span 2^(n-1)",
        "Johnsson & Ho 1992, section 3.2, Algorithm 2; blocking section 5, wide channels section "
        "6"},
       buildJh},
      {{"jh3",
        "AAPC, Algorithm 2 on n + (2^(n-1) mod n) pairs, Algorithm 1 on the rest: optimal K/2 "
        "steps",
        "Johnsson & Ho 1992, section 3.3, Algorithm 3; blocking section 5, wide channels section "
        "6"},
       buildJh},
      {{"jh4",
        "AAPC by necklaces and cyclic complement pairs: optimal K/2 steps and optimal span n; "
        "--blocking on: n block transfers (--tau T), --width b: Lemma 5",
        "Johnsson & Ho 1992, section 3.5, Algorithm 4 (Theorem 1); blocking section 5 (Lemma 4), "
        "wide channels section 6 (Lemma 5)"},
       buildJh},
      {{"exchange",
        "AAPC by the standard exchange algorithm: n exchanges of K/2 elements, one port at a time "
        "(--tau T, --packet B)",
        "Johnsson & Ho 1987, sections 3.2 and 5 (standard exchange algorithm)"},
       buildExchange},
      {{"sbnt",
        "AAPC routed on spanning balanced n-trees (or --tree rsbt: rotated spanning binomial "
        "trees), all ports, through intermediate nodes (--schedule rounds|greedy, --tau T)",
        "Johnsson & Ho 1987, sections 3.1-3.2 and the SBnT pseudo-code of section 5"},
       buildSbnt},
  };
}

}  // namespace hcube

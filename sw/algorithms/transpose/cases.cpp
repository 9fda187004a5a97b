// hcube: the matrix transposition family of Johnsson & Ho 1987 that moves whole address fields:
// one-dimensional transposition (§5) as an AAPC or by the exchange algorithm, conversions of the
// storage form (Corollaries 6-7), transposition with change of assignment scheme (§6.2) and
// transposition combined with binary <-> Gray conversion (§6.3).
//
// Options (sw/algorithms/transpose/layout.h): --matrix PxQ, --partition, --encoding,
// --to-partition,
// --to-encoding; transpose-1d and storage-convert also --method aapc|exchange|dimperm,
// --aapc edelman|jh1|jh2|jh3|jh4 (method aapc), --shuffle yes|no (method exchange);
// transpose-gray also --pipelined yes|no.
//
// Layouts whose real processor fields overlap (I is not empty, e.g. a one-dimensional partitioning
// before and a two-dimensional one after) are no AAPC. With binary encodings such a transpose is
// still a dimension permutation of the address bits, and --method dimperm (the default for
// them) performs it by §7's exchange round and Lemma 15's parallel swappings (the dimperm
// family, sw/algorithms/permutations/dimperm.h). Gray-coded fields that overlap are refused with an
// error.
//
// Every algorithm here takes matrices extended with virtual elements (Johnsson & Ho 1987
// Definition 2; --virtual needed|square, sw/algorithms/transpose/layout.h) when a layout would
// leave nodes empty: the schedule is built for the extended matrix and the moves of virtual
// elements are dropped before compiling (sw/schedule/virtual_elements.h), so they are never sent
// (§3.3, §5).
#include <bit>

#include "algorithms/aapc/edelman.h"
#include "algorithms/aapc/johnsson_ho.h"
#include "algorithms/families.h"
#include "algorithms/permutations/dimperm.h"
#include "algorithms/transpose/layout.h"
#include "algorithms/transpose/transpose.h"
#include "base/error.h"
#include "schedule/virtual_elements.h"
#include "tables/compiler.h"

namespace hcube {
namespace {

constexpr int kMaxDims = 16;

void checkDims(const CaseSpec& spec) {
  if (spec.n < 1 || spec.n > kMaxDims) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1.." +
                std::to_string(kMaxDims) + " for " + spec.algo);
  }
}

/// The matrix options of every algorithm of this family: virtual elements allowed.
LayoutDefaults familyDefaults() {
  LayoutDefaults d;
  d.allow_virtual = true;
  return d;
}

/// Transfer cycles are at least the total distance over what the links can carry per cycle: one
/// word per lane out of every node (one-port) or out of every port (all-port). For an AAPC this
/// is K/2 all-port and nK/2 one-port (Johnsson & Ho 1987 §3.2).
u64 distanceBound(const PermutationSpec& spec, const CaseSpec& c) {
  const u64 per_node = static_cast<u64>(c.one_port ? 1 : spec.n()) * static_cast<u64>(c.lanes);
  const u64 per_cycle = spec.nodes() * per_node;
  u64 bound = (spec.participatingDistance() + per_cycle - 1) / per_cycle;
  if (spec.hasVirtual()) {
    // Some-to-all and all-to-some (§3.3): the real elements leaving (entering) one node all
    // cross its ports, at most per_node a cycle.
    std::vector<u64> out(spec.nodes(), 0);
    std::vector<u64> in(spec.nodes(), 0);
    for (u64 x = 0; x < spec.nodes(); ++x) {
      for (u64 l = 0; l < spec.slots(); ++l) {
        const u64 y = spec.dest({x, l}).node;
        if (y == x || !spec.participates({x, l})) continue;
        ++out[x];
        ++in[y];
      }
    }
    for (u64 x = 0; x < spec.nodes(); ++x) {
      bound =
          std::max({bound, (out[x] + per_node - 1) / per_node, (in[x] + per_node - 1) / per_node});
    }
  }
  return bound;
}

std::string distanceBoundSource(const CaseSpec& c, bool virtual_elements,
                                const std::string& paper) {
  return std::string("total element distance / (N x ") + (c.one_port ? "1" : "n") +
         " ports x b lanes)" +
         (virtual_elements ? ", or the real elements leaving or entering one node / (" +
                                 std::string(c.one_port ? "1" : "n") + " ports x b lanes)"
                           : std::string()) +
         ", K/2 for an all-port AAPC and nK/2 one-port (Johnsson & Ho 1987 "
         "§3.2); the paper's count: " +
         paper;
}

RelativeSchedule aapcSchedule(const std::string& name, int n) {
  if (name == "edelman") return edelmanSchedule(n);
  if (name == "jh1") return jhAlgorithm1(n);
  if (name == "jh2") return jhAlgorithm2(n);
  if (name == "jh3") return jhAlgorithm3(n);
  if (name == "jh4") return jhAlgorithm4(n);
  throw Error("--aapc '" + name + "': unknown AAPC schedule (edelman, jh1, jh2, jh3, jh4)");
}

BuiltCase compileCase(const TransposeSchedule& s, const PermutationSpec& perm, const CaseSpec& c,
                      const std::string& header_algo, u64 lower_bound,
                      const std::string& bound_source, const CaseSize& size) {
  CompileOptions options;
  options.lanes = c.lanes;
  options.one_port = c.one_port;
  options.scratch = s.scratch;
  options.split_local = false;  // every local round fits one PERMUTE cycle by construction
  BuiltCase built;
  built.size = size;
  built.perm = perm;
  std::string source = bound_source;
  if (perm.hasVirtual()) {
    const VirtualDrop drop =
        dropVirtualMoves(s.moves, perm, perm.slots() + s.scratch, c.lanes, c.one_port);
    built.tables = compileMoves(drop.moves, perm, options);
    source += "; virtual elements (Definition 2) not sent: " + std::to_string(drop.dropped_words) +
              " link words and " + std::to_string(drop.dropped_moves - drop.dropped_words) +
              " local copies dropped, " + std::to_string(drop.steps_before) + " -> " +
              std::to_string(drop.steps_after) + " steps";
  } else {
    built.tables = compileMoves(s.moves, perm, options);
  }
  built.tables.header.algo = header_algo;
  built.lower_bound = lower_bound;
  built.bound_source = source;
  return built;
}

/// Whether the destination node of an element depends on its source node (the real fields
/// before and after share dimensions, I is not empty): then the transpose is no AAPC.
bool realFieldsOverlap(const PermutationSpec& perm) {
  for (int i = 0; i < perm.n(); ++i) {
    if (perm.dest({u64{1} << i, 0}).node != 0) return true;
  }
  return false;
}

/// The dimension permutation a linear map whose rows are single bits is (delta[b] = where
/// source bit b goes), or an empty vector if some destination bit mixes several source bits
/// (Gray codes).
std::vector<int> asDimensionPermutation(const PermutationSpec& perm) {
  const int bits = perm.n() + perm.localBits();
  std::vector<int> delta(static_cast<size_t>(bits), -1);
  for (int b = 0; b < bits; ++b) {
    const u64 row = perm.rows()[static_cast<size_t>(b)];
    if (std::popcount(row) != 1) return {};
    delta[static_cast<size_t>(std::countr_zero(row))] = b;
  }
  return delta;
}

/// --method dimperm: the transpose as a dimension permutation of the address bits, by the exchange
/// round and parallel swappings of §7 (Lemma 15), with virtual elements dropped as for the other
/// methods.
BuiltCase buildByDimensionPermutation(const CaseSpec& c, const PermutationSpec& perm,
                                      const std::string& header) {
  const std::vector<int> delta = asDimensionPermutation(perm);
  if (delta.empty()) {
    throw Error(
        "--encoding / --to-encoding: " + c.algo +
        " --method dimperm: with these Gray-coded fields the transpose mixes address bits (a "
        "linear map over GF(2), not a dimension permutation); use binary encodings, or layouts "
        "whose real fields are disjoint (then --method aapc or exchange)");
  }
  DimPermPlan plan;
  try {
    plan = planDimensionPermutation(perm.n(), perm.localBits(), delta);
  } catch (const Error& e) {
    throw Error("--matrix: " + c.algo + " --method dimperm: " + e.what());
  }
  // As a dimperm case (sw/algorithms/permutations/cases.cpp): the plan's transfer cycles and K for
  // the local PERMUTE phases.
  const double slots = static_cast<double>(perm.slots());
  const CaseSize size = perNodeSize(c, sizeOption(c), slots, 0, false,
                                    static_cast<double>(plan.transferCycles(c.one_port)) + slots);
  const int copies = perm.n() * c.lanes;
  TransposeSchedule s;
  s.moves = dimensionPermutationSchedule(plan, c.one_port, copies, c.algo);
  s.scratch = localScratchSlots(plan, copies);
  return compileCase(
      s, perm, c, header, distanceBound(perm, c),
      distanceBoundSource(
          c, perm.hasVirtual(),
          "dimension permutation (§7, Lemma 15): " + std::to_string(plan.exchangeRounds()) +
              " exchange round(s), " + std::to_string(plan.swappings.size()) +
              " parallel swapping(s) = " + std::to_string(plan.transferCycles(c.one_port)) +
              " transfer cycles before virtual elements are dropped"),
      size);
}

/// transpose-1d and storage-convert: an AAPC through one of the relative AAPC schedules, the
/// exchange algorithm of the §5 pseudo-code, or (overlapping real fields) a dimension
/// permutation.
BuiltCase buildAllToAll(const CaseSpec& c, bool transpose) {
  checkDims(c);
  CaseParams params(c);
  LayoutDefaults defaults = familyDefaults();
  defaults.transpose = transpose;
  if (!transpose) {
    defaults.to_partition = "row-cyclic";
    defaults.tall = true;
  }
  const TransposeLayouts layouts = layoutsFromParams(params, c, defaults);
  const PermutationSpec perm = transpose ? transposePermutation(layouts.before, layouts.after)
                                         : relayoutPermutation(layouts.before, layouts.after);
  const std::string method = params.text("method").value_or(realFieldsOverlap(perm) ? "dimperm"
                                                            : c.one_port            ? "exchange"
                                                                                    : "aapc");
  std::string aapc;
  bool shuffle = true;
  if (method == "dimperm") {
    params.finish();
    return buildByDimensionPermutation(c, perm, c.algo + ":" + layouts.str() + ":dimperm");
  }
  if (method == "aapc") {
    aapc = params.text("aapc").value_or("edelman");
  } else if (method == "exchange") {
    const std::string sh = params.text("shuffle").value_or("yes");
    if (sh != "yes" && sh != "no") throw Error("--shuffle '" + sh + "': must be yes or no");
    shuffle = sh == "yes";
  } else {
    throw Error("--method '" + method + "': must be aapc, exchange or dimperm");
  }
  params.finish();
  // Measured with hcube tables (n = 3..8, K = 64..1024): the AAPC at most 1.27 K instructions,
  // the one-port exchange with its shuffles 4.2 K at n = 6 (n K/2 and the local rounds).
  const CaseSize size = perNodeSize(c, sizeOption(c), static_cast<double>(perm.slots()),
                                    method == "aapc" ? 1.5 : c.n / 2.0 + 1.5, false);
  const std::string header = c.algo + ":" + layouts.str() + ":" +
                             (method == "aapc" ? "aapc-" + aapc
                                               : std::string(shuffle ? "exchange"
                                                                     : "exchange-"
                                                                       "noshuffle"));
  if (method == "aapc") {
    if (c.one_port) {
      throw Error(
          "--ports one: the AAPC schedules send on every port in every step; use "
          "--method exchange (the one-port default)");
    }
    if (c.lanes != 1) {
      throw Error("--width " + std::to_string(c.lanes) +
                  ": the AAPC schedules use one word per port and cycle");
    }
    const RelativeSchedule schedule = aapcSchedule(aapc, c.n);
    const TransposeSchedule s = transposeViaAapc(c.algo, perm, schedule);
    const u64 reps = perm.slots() >> c.n;
    return compileCase(s, perm, c, header, distanceBound(perm, c),
                       distanceBoundSource(c, perm.hasVirtual(),
                                           "AAPC (§5) by " + aapc + ": " + std::to_string(reps) +
                                               " x " + std::to_string(schedule.steps()) + " = " +
                                               std::to_string(reps * schedule.steps()) +
                                               " transfer cycles, plus local reorderings"),
                       size);
  }
  const TransposeSchedule s = transposeByExchange(c.algo, perm, c.lanes, shuffle);
  const u64 half = (perm.slots() / 2 + static_cast<u64>(c.lanes) - 1) / static_cast<u64>(c.lanes);
  return compileCase(
      s, perm, c, header, distanceBound(perm, c),
      distanceBoundSource(c, perm.hasVirtual(),
                          "exchange algorithm (§5, §3.2: n PQ/2N t_c): n x "
                          "ceil(K/2b) = " +
                              std::to_string(static_cast<u64>(c.n) * half) + " transfer cycles"),
      size);
}

BuiltCase buildGray(const CaseSpec& c) {
  checkDims(c);
  CaseParams params(c);
  LayoutDefaults defaults = familyDefaults();
  defaults.partition = "2d-consecutive";
  defaults.encoding = "gray-cols";
  const TransposeLayouts layouts = layoutsFromParams(params, c, defaults);
  const std::string pipe = params.text("pipelined").value_or("no");
  if (pipe != "yes" && pipe != "no") throw Error("--pipelined '" + pipe + "': must be yes or no");
  params.finish();
  const bool pipelined = pipe == "yes";
  const PermutationSpec perm = transposePermutation(layouts.before, layouts.after);
  // n routing steps of K and the local rounds: measured 4.23 K, 6.16 K, 8.12 K at n = 4, 6, 8.
  const CaseSize size =
      perNodeSize(c, sizeOption(c), static_cast<double>(perm.slots()), c.n + 1.0, false);
  const TransposeSchedule s = transposeWithGrayConversion(c.algo, perm, c.lanes, pipelined);
  const u64 block = (perm.slots() + static_cast<u64>(c.lanes) - 1) / static_cast<u64>(c.lanes);
  const u64 n = static_cast<u64>(c.n);
  const std::string paper =
      pipelined ? "n routing steps (§6.3), pipelined: n/2 x (ceil(K/b) + 1) = " +
                      std::to_string(n / 2 * (block + 1)) + " transfer cycles"
                : "n routing steps of PQ/N elements instead of 2n - 2 (§6.3): n x ceil(K/b) = " +
                      std::to_string(n * block) + " transfer cycles";
  return compileCase(s, perm, c, c.algo + ":" + layouts.str() + (pipelined ? ":pipelined" : ""),
                     distanceBound(perm, c), distanceBoundSource(c, perm.hasVirtual(), paper),
                     size);
}

BuiltCase buildGraySeparate(const CaseSpec& c) {
  checkDims(c);
  CaseParams params(c);
  LayoutDefaults defaults = familyDefaults();
  defaults.partition = "2d-consecutive";
  defaults.encoding = "gray-cols";
  const TransposeLayouts layouts = layoutsFromParams(params, c, defaults);
  params.finish();
  const PermutationSpec perm = transposePermutation(layouts.before, layouts.after);
  // 2n - 2 routing steps of K and the local rounds: measured 6.23 K, 10.17 K, 14.12 K at n = 4,
  // 6, 8.
  const CaseSize size =
      perNodeSize(c, sizeOption(c), static_cast<double>(perm.slots()), 2.0 * c.n, false);
  const std::vector<AddressStep> steps =
      grayConversionThenTransposeSteps(c.algo, layouts.before, layouts.after);
  const TransposeSchedule s = runAddressSteps(c.algo, perm, steps, c.lanes, perm.slots());
  const u64 block = (perm.slots() + static_cast<u64>(c.lanes) - 1) / static_cast<u64>(c.lanes);
  return compileCase(
      s, perm, c, c.algo + ":" + layouts.str(), distanceBound(perm, c),
      distanceBoundSource(c, perm.hasVirtual(),
                          "conversions then transpose (§6.3): " + std::to_string(s.routing_steps) +
                              " routing steps of PQ/N elements (2n - 2 when both fields "
                              "change encoding) = " +
                              std::to_string(s.routing_steps * block) + " transfer cycles"),
      size);
}

BuiltCase buildAssign(const CaseSpec& c, int algorithm) {
  checkDims(c);
  CaseParams params(c);
  LayoutDefaults defaults = familyDefaults();
  defaults.partition = "2d-consecutive";
  defaults.to_partition = "2d-cyclic";
  const TransposeLayouts layouts = layoutsFromParams(params, c, defaults);
  params.finish();
  const PermutationSpec perm = transposePermutation(layouts.before, layouts.after);
  // Algorithm 1: n K/2 + n K and the local rounds, measured 6.34 K, 9.2 K, 12.12 K at n = 4, 6,
  // 8; algorithms 2 and 3: n K/2 and a local transpose, at most 2.55 K, 3.36 K, 4.24 K.
  const CaseSize size = perNodeSize(c, sizeOption(c), static_cast<double>(perm.slots()),
                                    algorithm == 1 ? 1.5 * c.n + 1 : c.n / 2.0 + 1, false);
  u64 scratch = 0;
  const std::vector<AddressStep> steps =
      changeOfAssignmentSteps(c.algo, layouts.before, layouts.after, algorithm, scratch);
  const TransposeSchedule s = runAddressSteps(c.algo, perm, steps, c.lanes, scratch);
  const u64 b = static_cast<u64>(c.lanes);
  const u64 half = (perm.slots() / 2 + b - 1) / b;
  const u64 block = (perm.slots() + b - 1) / b;
  const u64 n = static_cast<u64>(c.n);
  const std::string paper =
      algorithm == 1 ? "2n routing steps (§6.2): n exchanges of K/2 and n distance-2 steps of "
                       "K = n x ceil(K/2b) + n x ceil(K/b) = " +
                           std::to_string(n * half + n * block) + " transfer cycles"
                     : "n routing steps (§6.2): n exchanges of K/2 = n x ceil(K/2b) = " +
                           std::to_string(n * half) + " transfer cycles";
  return compileCase(s, perm, c, c.algo + ":" + layouts.str(), distanceBound(perm, c),
                     distanceBoundSource(c, perm.hasVirtual(), paper), size);
}

}  // namespace

std::vector<AlgorithmEntry> transposeAlgorithms() {
  return {
      {{"transpose-1d",
        "matrix transpose, any layouts with disjoint real fields: AAPC schedule (--aapc) with "
        "local reorderings, or the exchange algorithm with local shuffles (--ports one)",
        "Johnsson & Ho 1987, section 5 (one-dimensional partitioning, exchange pseudo-code)"},
       [](const CaseSpec& s) { return buildAllToAll(s, true); }},
      {{"storage-convert",
        "change of storage form of one matrix (consecutive <-> cyclic, binary <-> Gray), as "
        "AAPC or exchange algorithm",
        "Johnsson & Ho 1987, section 5, Lemma 7, Corollaries 6-7"},
       [](const CaseSpec& s) { return buildAllToAll(s, false); }},
      {{"transpose-gray",
        "2D transpose combined with binary <-> Gray conversion in n routing steps instead of "
        "2n - 2 (rows binary / columns Gray by default)",
        "Johnsson & Ho 1987, section 6.3 (pseudo-code and its two variants)"},
       buildGray},
      {{"transpose-gray-separate",
        "2D transpose with binary <-> Gray conversion done separately: conversions in the column "
        "and row subcubes, then the transpose; 2n - 2 routing steps (the baseline of §6.3)",
        "Johnsson & Ho 1987, section 6.3 (first paragraph)"},
       buildGraySeparate},
      {{"transpose-assign1",
        "2D transpose with change of assignment (consecutive <-> cyclic): exchange-row, "
        "exchange-column, global transpose; 2n routing steps",
        "Johnsson & Ho 1987, section 6.2, algorithm 1"},
       [](const CaseSpec& s) { return buildAssign(s, 1); }},
      {{"transpose-assign2",
        "2D transpose with change of assignment: local transpose, then exchange-row and "
        "exchange-column; n routing steps",
        "Johnsson & Ho 1987, section 6.2, algorithm 2"},
       [](const CaseSpec& s) { return buildAssign(s, 2); }},
      {{"transpose-assign3",
        "2D transpose with change of assignment: exchange-row and exchange-column into the "
        "final fields, local shuffle; n routing steps",
        "Johnsson & Ho 1987, section 6.2, algorithm 3"},
       [](const CaseSpec& s) { return buildAssign(s, 3); }},
  };
}

}  // namespace hcube

// hcube: other permutations by transposition — Johnsson & Ho 1987 §7 (bit-reversal by the
// general exchange algorithm, any dimension permutation by parallel swappings (Lemma 15),
// k-shuffles) — and one-to-all / all-to-one / some-to-all / all-to-some personalized
// communication (§3.1, §3.3, Theorem 1, Table 3) as catalogue entries. The plans and schedules
// are in sw/algorithms/permutations/dimperm.h and sw/algorithms/permutations/one_to_all.h; the
// bound of a dimension permutation is Ho & Johnsson 1988 Theorem 1 with tau = 0, that of a
// personalized communication Table 3 of Johnsson & Ho 1987.
#include <sstream>

#include "algorithms/families.h"
#include "algorithms/permutations/dimperm.h"
#include "algorithms/permutations/one_to_all.h"
#include "base/error.h"
#include "tables/compiler.h"

namespace hcube {
namespace {

constexpr int kMaxDims = 16;
constexpr int kMaxLocalBits = 24;

/// n and k (K = 2^k, default K = 2^n) of a dimension-permutation case.
std::pair<int, int> cubeOf(const CaseSpec& spec) {
  if (spec.n < 1 || spec.n > kMaxDims) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1.." +
                std::to_string(kMaxDims));
  }
  const u64 slots = spec.slots == 0 ? u64{1} << spec.n : spec.slots;
  if (!isPowerOfTwo(slots) || slots > (u64{1} << kMaxLocalBits)) {
    throw Error("--k " + std::to_string(slots) + ": a dimension permutation needs K = 2^k slots " +
                "per node (a power of two, at most 2^" + std::to_string(kMaxLocalBits) + ")");
  }
  if (spec.lanes != 1) {
    throw Error("--width " + std::to_string(spec.lanes) + ": '" + spec.algo +
                "' sends one word per port and cycle (width 1)");
  }
  return {spec.n, log2Exact(slots)};
}

/// Which address bits a bit-reversal or k-shuffle acts on: all n + k (default) or the n node
/// bits only (Johnsson & Ho 1987 §7 define both on processor addresses).
bool nodeBitsOnly(CaseParams& params) {
  const auto bits = params.text("bits");
  if (!bits || *bits == "all") return false;
  if (*bits == "node") return true;
  throw Error("--bits '" + *bits + "': must be 'all' (the n + k address bits) or 'node'");
}

std::vector<int> parseDelta(const std::string& text, int n, int k) {
  const int q = n + k;
  std::vector<int> delta;
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    int v = -1;
    try {
      size_t used = 0;
      v = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw Error("--delta '" + text + "': entry '" + item + "' is not a bit position");
    }
    if (v < 0 || v >= q) {
      throw Error("--delta '" + text + "': entry " + std::to_string(v) +
                  " is not a bit position 0.." + std::to_string(q - 1) + " (n + log2 K = " +
                  std::to_string(n) + " + " + std::to_string(k) + " address bits)");
    }
    delta.push_back(v);
  }
  if (static_cast<int>(delta.size()) != q) {
    throw Error("--delta '" + text + "': " + std::to_string(delta.size()) +
                " entries, but n + log2 K = " + std::to_string(n) + " + " + std::to_string(k) +
                " address bits need " + std::to_string(q));
  }
  std::vector<int> seen(q, -1);
  for (int b = 0; b < q; ++b) {
    if (seen[delta[b]] >= 0) {
      throw Error("--delta '" + text + "': not a permutation, bits " +
                  std::to_string(seen[delta[b]]) + " and " + std::to_string(b) +
                  " both go to position " + std::to_string(delta[b]));
    }
    seen[delta[b]] = b;
  }
  return delta;
}

/// --node-perm: Lemma 15's parallel swappings (default), two parallel swappings (two
/// reflections) or §7's exchange twice (sw/algorithms/permutations/dimperm.h, NodePermMethod).
NodePermMethod nodePermMethod(CaseParams& params) {
  const auto text = params.text("node-perm");
  if (!text || *text == "swappings") return NodePermMethod::kParallelSwappings;
  if (*text == "exchange-twice") return NodePermMethod::kExchangeTwice;
  if (*text == "two-swappings") return NodePermMethod::kTwoReflections;
  throw Error("--node-perm '" + *text + "': must be swappings (Lemma 15's parallel swappings), " +
              "two-swappings (two involutions) or exchange-twice (node bits out to local bits " +
              "and back)");
}

BuiltCase buildDimensionCase(const CaseSpec& spec, int n, int k, const std::vector<int>& delta,
                             NodePermMethod method) {
  // Node bits permuted among themselves go through a local bit (dimperm.h, part 2).
  bool node_node = false;
  for (int b = k; b < n + k; ++b) node_node = node_node || (delta[b] >= k && delta[b] != b);
  if (node_node && k == 0) {
    throw Error("--k 1: '" + spec.algo + "' permutes node bits among themselves, which goes " +
                "through a local address bit; it needs K >= 2 slots per node");
  }
  DimPermPlan plan;
  try {
    plan = planDimensionPermutation(n, k, delta, method);
  } catch (const Error& e) {
    if (method != NodePermMethod::kExchangeTwice) throw;
    throw Error("--node-perm exchange-twice with --k " + std::to_string(u64{1} << k) + ": " +
                e.what());
  }
  // The plan's transfer cycles and its local PERMUTE phases, which measured at most K/4 cycles
  // (hcube run --json at n = 6, K = 1024: bit-reversal 128, k-shuffle 205 PERMUTE cycles); K of
  // them allowed.
  const double slots = static_cast<double>(u64{1} << k);
  const CaseSize size =
      perNodeSize(spec, sizeOption(spec), slots, 0, false,
                  static_cast<double>(plan.transferCycles(spec.one_port)) + slots);
  const int copies = n * spec.lanes;
  BuiltCase c;
  c.size = size;
  c.perm = PermutationSpec::dimension(n, k, delta);
  CompileOptions options;
  options.lanes = spec.lanes;
  options.one_port = spec.one_port;
  options.scratch = localScratchSlots(plan, copies);
  c.tables = compileMoves(dimensionPermutationSchedule(plan, spec.one_port, copies, spec.algo),
                          c.perm, options);
  // Ho & Johnsson 1988 Theorem 1, tau = 0: sigma_p node bits change; each such dimension's cut is
  // crossed by half of the N*K elements (K/2 cycles all-port); one-port, every element crosses
  // one link per changed node bit it has, sigma_p * K/2 cycles.
  int sigma_p = 0;
  for (int b = k; b < n + k; ++b) sigma_p += delta[b] != b ? 1 : 0;
  const u64 half = k >= 1 ? u64{1} << (k - 1) : 0;
  c.lower_bound = sigma_p == 0 ? 0 : spec.one_port ? half * static_cast<u64>(sigma_p) : half;
  u64 local = 0;
  for (const DimPermPhase& p : plan.phases) {
    if (p.kind == DimPermPhase::Kind::kLocal) local += localPermuteCycles(k, p.local_perm, copies);
  }
  std::ostringstream src;
  src << (spec.one_port ? "sigma_p*K/2" : "K/2") << ", Ho & Johnsson 1988 Theorem 1 (tau = 0), "
      << "sigma_p = " << sigma_p
      << "; plan (Johnsson & Ho 1987 sections 3.2, 7): " << plan.exchangeRounds()
      << " exchange round(s)"
      << (method == NodePermMethod::kExchangeTwice ? " (node bits exchanged twice)"
          : method == NodePermMethod::kTwoReflections
              ? ", " + std::to_string(plan.swappings.size()) +
                    " parallel swapping(s) (two reflections)"
              : ", " + std::to_string(plan.swappings.size()) + " parallel swapping(s) (Lemma 15)")
      << " = " << plan.transferCycles(spec.one_port) << " transfer cycles + " << local
      << " PERMUTE cycles";
  c.bound_source = src.str();
  return c;
}

BuiltCase buildDimperm(const CaseSpec& spec) {
  CaseParams params(spec);
  const auto [n, k] = cubeOf(spec);
  const auto text = params.text("delta");
  const NodePermMethod method = nodePermMethod(params);
  params.finish();
  if (!text) {
    throw Error("--delta: 'dimperm' needs --delta d0,d1,...: where each of the n + log2 K = " +
                std::to_string(n + k) + " address bits goes (local bits 0.." +
                std::to_string(k - 1) + ", node bit j is position " + std::to_string(k) + " + j)");
  }
  return buildDimensionCase(spec, n, k, parseDelta(*text, n, k), method);
}

BuiltCase buildBitReversal(const CaseSpec& spec) {
  CaseParams params(spec);
  const auto [n, k] = cubeOf(spec);
  const bool node_only = nodeBitsOnly(params);
  const NodePermMethod method = nodePermMethod(params);
  params.finish();
  std::vector<int> delta(n + k);
  for (int b = 0; b < n + k; ++b) delta[b] = b;
  if (node_only) {
    for (int j = 0; j < n; ++j) delta[k + j] = k + n - 1 - j;
  } else {
    for (int b = 0; b < n + k; ++b) delta[b] = n + k - 1 - b;
  }
  return buildDimensionCase(spec, n, k, delta, method);
}

BuiltCase buildShuffle(const CaseSpec& spec) {
  CaseParams params(spec);
  const auto [n, k] = cubeOf(spec);
  const bool node_only = nodeBitsOnly(params);
  const int width = node_only ? n : n + k;
  const long long shift = params.integer("shift", 1, -(width - 1), width - 1);
  const NodePermMethod method = nodePermMethod(params);
  params.finish();
  const int lo = node_only ? k : 0;
  std::vector<int> delta(n + k);
  for (int b = 0; b < n + k; ++b) delta[b] = b;
  for (int b = 0; b < width; ++b) {
    delta[lo + b] = lo + static_cast<int>(((b + shift) % width + width) % width);
  }
  return buildDimensionCase(spec, n, k, delta, method);
}

/// One-to-all / all-to-one (l = 0) and some-to-all / all-to-some (--l) personalized
/// communication on K = m * 2^n slots.
BuiltCase buildPersonalized(const CaseSpec& spec, bool gather, bool subcube) {
  CaseParams params(spec);
  if (spec.n < 1 || spec.n > kMaxDims) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1.." +
                std::to_string(kMaxDims));
  }
  const int n = spec.n;
  const u64 nodes = u64{1} << n;
  const u64 slots = spec.slots == 0 ? nodes : spec.slots;
  if (slots % nodes != 0 || slots > (u64{1} << kMaxLocalBits)) {
    throw Error("--k " + std::to_string(slots) + ": '" + spec.algo + "' on " +
                std::to_string(nodes) + " nodes needs K = m * 2^n slots (a multiple of " +
                std::to_string(nodes) + ", m elements for every node), at most 2^" +
                std::to_string(kMaxLocalBits));
  }
  if (spec.lanes != 1) {
    throw Error("--width " + std::to_string(spec.lanes) + ": '" + spec.algo +
                "' sends one word per port and cycle (width 1)");
  }
  PersonalizedOptions o;
  o.n = n;
  o.m = slots / nodes;
  o.gather = gather;
  o.one_port = spec.one_port;
  o.l = subcube ? static_cast<int>(params.integer("l", n / 2, 0, n)) : 0;
  o.root = static_cast<u64>(params.integer("root", 0, 0, static_cast<long long>(nodes - 1)));
  const auto tree = params.text("tree");
  const auto phases = subcube ? params.text("phases") : std::nullopt;
  params.finish();
  if (phases && *phases != "theorem1" && *phases != "swapped") {
    throw Error("--phases '" + *phases + "': must be theorem1 (" +
                (gather ? "AAPC first, accumulation last" : "splitting first, AAPC last") +
                ") or swapped (the other order, for comparison)");
  }
  o.theorem1_order = !phases || *phases == "theorem1";
  o.tree = tree            ? parseSpanningTree(*tree)
           : spec.one_port ? SpanningTree::kSbt
                           : SpanningTree::kSbnt;
  if (spec.one_port && o.tree != SpanningTree::kSbt) {
    throw Error("--tree " + *tree + ": one-port hardware splits along the SBT (--tree sbt)");
  }
  // Measured with hcube tables at n = 4, 6 and K = 64, 1024: all-port at most 0.64 K
  // instructions, one-port at most (l/2 + 1) K (some-to-all --l 6 --ports one: 3.0 K, one-to-all
  // 0.99 K), as Table 3's l m 2^(l-1) + m 2^l (2^k - 1) says.
  const CaseSize size = perNodeSize(spec, sizeOption(spec), static_cast<double>(slots),
                                    spec.one_port ? o.l / 2.0 + 1.5 : 1.5, false);
  BuiltCase c;
  c.size = size;
  c.perm = PermutationSpec::personalized(n, o.m, gather, o.l, o.root);
  CompileOptions options;
  options.one_port = spec.one_port;
  c.tables = compileMoves(personalizedSchedule(o, spec.algo), c.perm, options);
  c.lower_bound = table3Cycles(n, o.m, o.l, spec.one_port);
  std::ostringstream src;
  src << "Johnsson & Ho 1987 Table 3, t_c = 1, tau = 0, l = " << o.l << ", k = " << n - o.l
      << (spec.one_port ? ": l m 2^(l-1) + m 2^l (2^k - 1)"
                        : ": m 2^(l-1) + m 2^l (2^k - 1) / k, rounded up")
      << "; "
      << (o.theorem1_order == gather
              ? std::string("AAPC first, ") + (gather ? "accumulation" : "splitting") + " last"
              : std::string(gather ? "accumulation" : "splitting") + " first, AAPC last")
      << (o.theorem1_order ? " (Theorem 1's order), " : " (swapped, not Theorem 1's order), ")
      << (spec.one_port ? "SBT" : spanningTreeName(o.tree)) << " routing";
  c.bound_source = src.str();
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> permutationAlgorithms() {
  return {
      {{"bit-reversal",
        "reverse the n + log2 K address bits (--bits node: the node address only) by the "
        "general exchange algorithm",
        "Johnsson & Ho 1987, sections 3.2 (Definition 11) and 7"},
       buildBitReversal},
      {{"k-shuffle",
        "rotate the address bits left by --shift s (default 1; negative: unshuffle; --bits node: "
        "node bits only)",
        "Johnsson & Ho 1987, section 7; Ho & Johnsson 1988, section 2"},
       buildShuffle},
      {{"dimperm",
        "any dimension permutation --delta d0,d1,... of the address bits: exchange round, "
        "parallel swappings of the node bits, local PERMUTE",
        "Johnsson & Ho 1987, section 7 (Definitions 17-18, Lemma 15)"},
       buildDimperm},
      {{"one-to-all",
        "personalized scatter from --root (default 0): m = K/2^n elements for every node; "
        "--tree sbt|sbnt|rsbt",
        "Johnsson & Ho 1987, section 3.1 (SBT, SBnT, rotated SBTs)"},
       [](const CaseSpec& s) { return buildPersonalized(s, false, false); }},
      {{"all-to-one",
        "personalized gather to --root: the one-to-all schedule run backwards; --tree "
        "sbt|sbnt|rsbt",
        "Johnsson & Ho 1987, section 3.1"},
       [](const CaseSpec& s) { return buildPersonalized(s, true, false); }},
      {{"some-to-all",
        "personalized communication from the 2^l nodes of an --l subcube to all: splitting "
        "first, then AAPC",
        "Johnsson & Ho 1987, section 3.3 (Theorem 1, Table 3)"},
       [](const CaseSpec& s) { return buildPersonalized(s, false, true); }},
      {{"all-to-some",
        "personalized communication from all nodes to an --l subcube: AAPC first, "
        "accumulation last",
        "Johnsson & Ho 1987, section 3.3 (Theorem 1, Table 3)"},
       [](const CaseSpec& s) { return buildPersonalized(s, true, true); }},
  };
}

}  // namespace hcube

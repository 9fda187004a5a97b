// hcube: dimension permutations by transposition (Johnsson & Ho 1987 §3.2 and §7); see
// dimperm.h for the plan and its three parts.
#include "algorithms/permutations/dimperm.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/aapc/alignment.h"
#include "algorithms/aapc/edelman.h"
#include "base/error.h"

namespace hcube {
namespace {

/// Bit t of `value` goes to position bits[t].
u64 deposit(u64 value, const std::vector<int>& bits) {
  u64 out = 0;
  for (size_t t = 0; t < bits.size(); ++t) {
    if (bitOf(value, static_cast<int>(t))) out |= u64{1} << bits[t];
  }
  return out;
}

bool isIdentity(const std::vector<int>& p) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] != static_cast<int>(i)) return false;
  }
  return true;
}

void requirePermutation(const std::vector<int>& p, const std::string& what) {
  std::vector<bool> seen(p.size(), false);
  for (size_t i = 0; i < p.size(); ++i) {
    const int t = p[i];
    if (t < 0 || t >= static_cast<int>(p.size())) {
      throw Error(what + ": entry " + std::to_string(i) + " = " + std::to_string(t) +
                  " is not a position 0.." + std::to_string(p.size() - 1));
    }
    if (seen[t]) {
      throw Error(what + " is not a permutation: position " + std::to_string(t) + " appears twice");
    }
    seen[t] = true;
  }
}

/// One level of Lemma 15's proof on the positions `set`: the content of position p must go to
/// cur[p]. Swaps every position of the first half whose content must go to the second half with
/// one of the second half whose content must come back (preferring the pair that puts a content
/// on its final position), then recurses into both halves one level deeper.
void halveAndSwap(std::vector<int>& cur, const std::vector<int>& set, size_t level,
                  std::vector<std::vector<std::pair<int, int>>>& levels) {
  if (set.size() < 2) return;
  const size_t half = (set.size() + 1) / 2;
  const std::vector<int> s1(set.begin(), set.begin() + static_cast<long>(half));
  const std::vector<int> s2(set.begin() + static_cast<long>(half), set.end());
  auto inSecond = [&](int p) { return std::find(s2.begin(), s2.end(), p) != s2.end(); };
  std::vector<int> leave;        // in s1, content bound for s2
  std::vector<int> coming_back;  // in s2, content bound for s1
  for (int p : s1) {
    if (inSecond(cur[p])) leave.push_back(p);
  }
  for (int p : s2) {
    if (!inSecond(cur[p])) coming_back.push_back(p);
  }
  std::vector<bool> taken(coming_back.size(), false);
  std::vector<std::pair<int, int>> pairs;
  std::vector<int> unpaired;
  for (int p : leave) {
    const auto it = std::find(coming_back.begin(), coming_back.end(), cur[p]);
    const size_t i = static_cast<size_t>(it - coming_back.begin());
    if (it != coming_back.end() && !taken[i]) {
      taken[i] = true;
      pairs.push_back({p, *it});
    } else {
      unpaired.push_back(p);
    }
  }
  size_t next = 0;
  for (int p : unpaired) {
    while (taken[next]) ++next;
    taken[next] = true;
    pairs.push_back({p, coming_back[next]});
  }
  if (levels.size() <= level) levels.resize(level + 1);
  for (const auto& [a, b] : pairs) {
    std::swap(cur[a], cur[b]);
    levels[level].push_back({std::min(a, b), std::max(a, b)});
  }
  halveAndSwap(cur, s1, level + 1, levels);
  halveAndSwap(cur, s2, level + 1, levels);
}

/// Content bookkeeping: at[p] is the original position whose content is now at position p.
void applyExchange(std::vector<int>& at, int k, const std::vector<BitExchange>& pairs) {
  for (const BitExchange& e : pairs) std::swap(at[k + e.node_dim], at[e.local_bit]);
}

void applyLocal(std::vector<int>& at, const std::vector<int>& local_perm) {
  const std::vector<int> before = at;
  for (size_t p = 0; p < local_perm.size(); ++p) at[local_perm[p]] = before[p];
}

std::string pairText(const std::vector<BitExchange>& pairs) {
  std::string s;
  for (const BitExchange& e : pairs) {
    s += (s.empty() ? "" : " ") + std::string("n") + std::to_string(e.node_dim) + "<->l" +
         std::to_string(e.local_bit);
  }
  return s;
}

/// Copies (from slot, to slot) of one PERMUTE cycle.
using CopyStep = std::vector<std::pair<u32, u32>>;

/// The slot permutation of a local bit permutation as PERMUTE cycles of at most c copies each
/// (see localPermuteCycles); with c == 1 a cycle of slots goes through the scratch slot K.
std::vector<CopyStep> localCopySteps(int k, const std::vector<int>& local_perm, int c) {
  if (c < 1) throw Error("local permutation: at least one copy per PERMUTE cycle is needed");
  const u64 slots = u64{1} << k;
  std::vector<u32> dest(slots);
  for (u64 l = 0; l < slots; ++l) {
    u64 out = 0;
    for (int b = 0; b < k; ++b) {
      if (bitOf(l, b)) out |= u64{1} << local_perm[b];
    }
    dest[l] = static_cast<u32>(out);
  }
  // The one local-permutation compiler of the project (sw/algorithms/aapc/alignment.h); with one
  // copy per cycle no swap fits a PERMUTE, so cycles of slots go through the scratch slot K.
  std::vector<CopyStep> steps;
  for (const CopyCycle& cycle : compileLocalPermutation(
           dest, static_cast<size_t>(c), c == 1 ? static_cast<long long>(slots) : -1)) {
    CopyStep step;
    for (const LocalCopy& copy : cycle) step.push_back({copy.from, copy.to});
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace

int DimPermPlan::exchangeRounds() const {
  int rounds = 0;
  for (const DimPermPhase& p : phases) rounds += p.kind == DimPermPhase::Kind::kExchange ? 1 : 0;
  return rounds;
}

u64 DimPermPlan::transferCycles(bool one_port) const {
  if (k < 1) return 0;
  const u64 half = u64{1} << (k - 1);
  u64 cycles = 0;
  for (const DimPermPhase& p : phases) {
    if (p.kind != DimPermPhase::Kind::kExchange) continue;
    cycles += one_port ? half * p.pairs.size() : half;
  }
  return cycles;
}

std::vector<std::vector<std::pair<int, int>>> parallelSwappings(const std::vector<int>& rho) {
  requirePermutation(rho, "parallel swappings: rho");
  std::vector<std::vector<std::pair<int, int>>> levels;
  if (isIdentity(rho)) return levels;
  bool involution = true;
  for (size_t i = 0; i < rho.size(); ++i)
    involution = involution && rho[rho[i]] == static_cast<int>(i);
  if (involution) {
    levels.emplace_back();
    for (size_t i = 0; i < rho.size(); ++i) {
      if (static_cast<int>(i) < rho[i]) levels.back().push_back({static_cast<int>(i), rho[i]});
    }
    return levels;
  }
  std::vector<int> moved;
  for (size_t i = 0; i < rho.size(); ++i) {
    if (rho[i] != static_cast<int>(i)) moved.push_back(static_cast<int>(i));
  }
  std::vector<int> cur = rho;
  halveAndSwap(cur, moved, 0, levels);
  if (!isIdentity(cur)) throw std::logic_error("parallelSwappings: decomposition incomplete");
  levels.erase(
      std::remove_if(levels.begin(), levels.end(), [](const auto& l) { return l.empty(); }),
      levels.end());
  return levels;
}

std::vector<std::vector<std::pair<int, int>>> twoReflections(const std::vector<int>& rho) {
  requirePermutation(rho, "two reflections: rho");
  std::vector<std::vector<std::pair<int, int>>> out(2);
  std::vector<bool> done(rho.size(), false);
  for (size_t start = 0; start < rho.size(); ++start) {
    if (done[start] || rho[start] == static_cast<int>(start)) continue;
    std::vector<int> c;  // content at c[i] goes to c[i + 1]
    for (int p = static_cast<int>(start); !done[p]; p = rho[p]) {
      done[p] = true;
      c.push_back(p);
    }
    const size_t len = c.size();
    // First c[i] <-> c[-i], then c[j] <-> c[1 - j]: c[i] -> c[-i] -> c[1 + i].
    for (size_t i = 1; i < len - i; ++i)
      out[0].push_back({std::min(c[i], c[len - i]), std::max(c[i], c[len - i])});
    for (size_t j = 0; j + j < len + 1; ++j) {
      const size_t partner = (len + 1 - j) % len;
      if (partner > j) out[1].push_back({std::min(c[j], c[partner]), std::max(c[j], c[partner])});
    }
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& l) { return l.empty(); }),
            out.end());
  return out;
}

DimPermPlan planDimensionPermutation(int n, int k, const std::vector<int>& delta,
                                     NodePermMethod method) {
  if (n < 1 || k < 0 || n + k > 62) {
    throw Error("dimension permutation: n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                " is out of range");
  }
  const int q = n + k;
  if (static_cast<int>(delta.size()) != q) {
    throw Error("dimension permutation: delta has " + std::to_string(delta.size()) +
                " entries, the n + k = " + std::to_string(q) + " address bits need " +
                std::to_string(q));
  }
  requirePermutation(delta, "dimension permutation: delta");
  DimPermPlan plan;
  plan.n = n;
  plan.k = k;
  std::vector<int> at(q);
  for (int p = 0; p < q; ++p) at[p] = p;
  auto target = [&](int p) { return delta[at[p]]; };

  // 1. One round of the general exchange algorithm (Definition 11): node positions whose content
  //    leaves the node field against local positions whose content enters it.
  std::vector<int> leaving;
  std::vector<int> entering;
  for (int p = k; p < q; ++p) {
    if (target(p) < k) leaving.push_back(p);
  }
  for (int p = 0; p < k; ++p) {
    if (target(p) >= k) entering.push_back(p);
  }
  if (!leaving.empty()) {
    std::vector<bool> used(entering.size(), false);
    std::vector<int> partner(leaving.size(), -1);
    for (size_t i = 0; i < leaving.size(); ++i) {
      for (size_t j = 0; j < entering.size(); ++j) {
        if (!used[j] && target(entering[j]) == leaving[i]) {
          used[j] = true;
          partner[i] = entering[j];
          break;
        }
      }
    }
    size_t next = 0;
    for (size_t i = 0; i < leaving.size(); ++i) {
      if (partner[i] >= 0) continue;
      while (used[next]) ++next;
      used[next] = true;
      partner[i] = entering[next];
    }
    DimPermPhase phase;
    phase.kind = DimPermPhase::Kind::kExchange;
    for (size_t i = 0; i < leaving.size(); ++i) phase.pairs.push_back({leaving[i] - k, partner[i]});
    phase.what =
        "node<->local exchange round (general exchange algorithm): " + pairText(phase.pairs);
    applyExchange(at, k, phase.pairs);
    plan.phases.push_back(std::move(phase));
  }

  // 2. What is left on the node bits, by parallel swappings (Lemma 15), each pair (a, b) through
  //    its own local bit v as (a v)(b v)(a v).
  std::vector<int> rho(n);
  for (int j = 0; j < n; ++j) rho[j] = target(k + j) - k;
  if (method == NodePermMethod::kExchangeTwice) {
    // §7: two exchange rounds with a local permutation between them. The moved node bits j go
    // to local bits v_j, the local permutation takes v_j to v_rho(j), and the second round
    // brings them to the node bits rho(j) (and the local contents back where they were).
    std::vector<int> moved;
    for (int j = 0; j < n; ++j) {
      if (rho[j] != j) moved.push_back(j);
    }
    if (!moved.empty()) {
      if (static_cast<int>(moved.size()) > k) {
        throw Error("dimension permutation: exchanging " + std::to_string(moved.size()) +
                    " node bits twice needs as many local address bits, there are " +
                    std::to_string(k) + " (K >= 2^" + std::to_string(moved.size()) + ")");
      }
      std::vector<int> slot_of(n, -1);
      DimPermPhase round;
      round.kind = DimPermPhase::Kind::kExchange;
      for (size_t s = 0; s < moved.size(); ++s) {
        slot_of[moved[s]] = static_cast<int>(s);
        round.pairs.push_back({moved[s], static_cast<int>(s)});
      }
      DimPermPhase middle;
      middle.kind = DimPermPhase::Kind::kLocal;
      middle.local_perm.resize(k);
      for (int b = 0; b < k; ++b) middle.local_perm[b] = b;
      for (int j : moved) middle.local_perm[slot_of[j]] = slot_of[rho[j]];
      middle.what = "local permutation between the two exchange rounds (PERMUTE)";
      round.what =
          "node bits out to local bits (exchange twice, round 1 of 2): " + pairText(round.pairs);
      applyExchange(at, k, round.pairs);
      plan.phases.push_back(round);
      applyLocal(at, middle.local_perm);
      plan.phases.push_back(std::move(middle));
      round.what =
          "local bits back to node bits (exchange twice, round 2 of 2): " + pairText(round.pairs);
      applyExchange(at, k, round.pairs);
      plan.phases.push_back(std::move(round));
      for (int j = 0; j < n; ++j) rho[j] = target(k + j) - k;
    }
  }
  plan.swappings =
      method == NodePermMethod::kTwoReflections ? twoReflections(rho) : parallelSwappings(rho);
  if (!plan.swappings.empty() && k == 0) {
    throw Error(
        "dimension permutation: the node bits are permuted among themselves, which needs "
        "at least one local address bit to exchange through (K >= 2 slots per node)");
  }
  for (size_t w = 0; w < plan.swappings.size(); ++w) {
    const auto& swapping = plan.swappings[w];
    for (size_t first = 0; first < swapping.size(); first += static_cast<size_t>(k)) {
      const size_t count = std::min(swapping.size() - first, static_cast<size_t>(k));
      std::vector<BitExchange> ra;
      std::vector<BitExchange> rb;
      for (size_t s = 0; s < count; ++s) {
        ra.push_back({swapping[first + s].first, static_cast<int>(s)});
        rb.push_back({swapping[first + s].second, static_cast<int>(s)});
      }
      const std::string name = "parallel swapping " + std::to_string(w + 1) + " of " +
                               std::to_string(plan.swappings.size()) + " (Lemma 15), round ";
      for (int r = 0; r < 3; ++r) {
        DimPermPhase phase;
        phase.kind = DimPermPhase::Kind::kExchange;
        phase.pairs = r == 1 ? rb : ra;
        phase.what = name + std::to_string(r + 1) + " of 3: " + pairText(phase.pairs);
        applyExchange(at, k, phase.pairs);
        plan.phases.push_back(std::move(phase));
      }
    }
  }

  // 3. The local bits, by a local permutation of the slots.
  std::vector<int> local_perm(k);
  for (int p = 0; p < k; ++p) local_perm[p] = target(p);
  if (!isIdentity(local_perm)) {
    DimPermPhase phase;
    phase.kind = DimPermPhase::Kind::kLocal;
    phase.local_perm = local_perm;
    phase.what = "local permutation of the slots (PERMUTE)";
    applyLocal(at, local_perm);
    plan.phases.push_back(std::move(phase));
  }
  if (planEffect(plan) != delta) {
    throw std::logic_error("planDimensionPermutation: the plan does not realise delta");
  }
  return plan;
}

std::vector<int> planEffect(const DimPermPlan& plan) {
  const int q = plan.n + plan.k;
  std::vector<int> at(q);
  for (int p = 0; p < q; ++p) at[p] = p;
  for (const DimPermPhase& phase : plan.phases) {
    if (phase.kind == DimPermPhase::Kind::kExchange) {
      applyExchange(at, plan.k, phase.pairs);
    } else {
      applyLocal(at, phase.local_perm);
    }
  }
  std::vector<int> where(q);
  for (int p = 0; p < q; ++p) where[at[p]] = p;
  return where;
}

u64 localPermuteCycles(int k, const std::vector<int>& local_perm, int copies_per_cycle) {
  return localCopySteps(k, local_perm, copies_per_cycle).size();
}

u64 localScratchSlots(const DimPermPlan& plan, int copies_per_cycle) {
  if (copies_per_cycle > 1) return 0;
  for (const DimPermPhase& p : plan.phases) {
    if (p.kind == DimPermPhase::Kind::kLocal) return 1;
  }
  return 0;
}

MoveSchedule dimensionPermutationSchedule(const DimPermPlan& plan, bool one_port,
                                          int copies_per_cycle, const std::string& algo) {
  const int n = plan.n;
  const int k = plan.k;
  const u64 nodes = u64{1} << n;
  const u64 slots = u64{1} << k;
  MoveSchedule s;
  s.algo = algo;
  s.dims = n;
  for (const DimPermPhase& phase : plan.phases) {
    if (phase.kind == DimPermPhase::Kind::kLocal) {
      for (const CopyStep& cs : localCopySteps(k, phase.local_perm, copies_per_cycle)) {
        std::vector<Move> step;
        step.reserve(nodes * cs.size());
        for (u64 x = 0; x < nodes; ++x) {
          for (const auto& [from, to] : cs) step.push_back({x, from, Move::kLocal, to});
        }
        s.steps.push_back(std::move(step));
      }
      continue;
    }
    const int m = static_cast<int>(phase.pairs.size());
    std::vector<int> vbits;
    for (const BitExchange& e : phase.pairs) vbits.push_back(e.local_bit);
    if (one_port) {
      // The exchange algorithm: the m exchanges one after the other, K/2 slots each.
      for (const BitExchange& e : phase.pairs) {
        std::vector<int> others;
        for (int b = 0; b < k; ++b) {
          if (b != e.local_bit) others.push_back(b);
        }
        for (u64 r = 0; r < slots / 2; ++r) {
          std::vector<Move> step;
          step.reserve(nodes);
          const u64 rest = deposit(r, others);
          for (u64 x = 0; x < nodes; ++x) {
            const u64 l = rest | (bitOf(x, e.node_dim) ? 0 : u64{1} << e.local_bit);
            step.push_back({x, static_cast<u32>(l), e.node_dim,
                            static_cast<u32>(l ^ (u64{1} << e.local_bit))});
          }
          s.steps.push_back(std::move(step));
        }
      }
      continue;
    }
    // All-port: an AAPC in the m-subcubes of the node dimensions, relative address u = (local
    // bits v_s) ^ (node bits a_s), scheduled by Edelman's array; repeated over the other local
    // bits.
    const RelativeSchedule w = edelmanSchedule(m);
    std::vector<int> others;
    for (int b = 0; b < k; ++b) {
      if (std::find(vbits.begin(), vbits.end(), b) == vbits.end()) others.push_back(b);
    }
    const u64 reps = u64{1} << others.size();
    for (u64 h = 0; h < reps; ++h) {
      const u64 base = deposit(h, others);
      for (u64 t = 0; t < w.steps(); ++t) {
        std::vector<Move> step;
        step.reserve(nodes * static_cast<u64>(m));
        for (u64 x = 0; x < nodes; ++x) {
          u64 y = 0;
          for (int i = 0; i < m; ++i) {
            if (bitOf(x, phase.pairs[i].node_dim)) y |= u64{1} << i;
          }
          for (int i = 0; i < m; ++i) {
            const u32 rel = w.at(t, i);
            if (rel == RelativeSchedule::kIdle) continue;
            const u64 l = base | deposit(rel ^ y, vbits);
            step.push_back({x, static_cast<u32>(l), phase.pairs[i].node_dim,
                            static_cast<u32>(l ^ (u64{1} << phase.pairs[i].local_bit))});
          }
        }
        s.steps.push_back(std::move(step));
      }
    }
  }
  return s;
}

}  // namespace hcube

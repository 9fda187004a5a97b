// hcube: the extended-cube scheme, Ho & Johnsson 1988 §4.5 (see sdp_extended.h).
#include "algorithms/sdp/sdp_extended.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace hcube {
namespace {

/// Project bit positions swapped by the spread (storage S_i with processor m_p + i), as the rows
/// of the linear map (destination bit b = source bit rows[b]).
std::vector<u64> spreadRows(const Sdp& sdp, const std::vector<int>& spread) {
  std::vector<int> d(static_cast<size_t>(sdp.q()));
  for (int b = 0; b < sdp.q(); ++b) d[static_cast<size_t>(b)] = b;
  for (size_t i = 0; i < spread.size(); ++i) {
    const int s = sdp.position(spread[i]);
    const int p = sdp.position(sdp.mp + static_cast<int>(i));
    std::swap(d[static_cast<size_t>(s)], d[static_cast<size_t>(p)]);
  }
  std::vector<u64> rows(static_cast<size_t>(sdp.q()));
  for (int b = 0; b < sdp.q(); ++b)
    rows[static_cast<size_t>(d[static_cast<size_t>(b)])] = u64{1} << b;
  return rows;
}

}  // namespace

std::vector<int> extendedSpreadDims(const Sdp& sdp, const SdpClass& cls) {
  const int e = sdp.n - sdp.mp;
  std::vector<bool> in_j(static_cast<size_t>(sdp.q()), false);
  for (const Gsh& g : cls.gshs) {
    for (const int d : g.dims) in_j[static_cast<size_t>(d)] = true;
  }
  std::vector<int> spread;
  for (int d = sdp.q() - 1; d >= sdp.n && static_cast<int>(spread.size()) < e; --d) {
    if (!in_j[static_cast<size_t>(d)]) spread.push_back(d);
  }
  if (static_cast<int>(spread.size()) < e) {
    throw Error(
        "--method extended: the subcube expansion (section 4.5) spreads the data over the " +
        std::to_string(e) + " idle processor dimensions " + std::to_string(sdp.mp) + ".." +
        std::to_string(sdp.n - 1) +
        " by as many storage dimensions outside the "
        "permutation, but only " +
        std::to_string(spread.size()) + " of the log2 K = " + std::to_string(sdp.k) +
        " are free; use a larger K");
  }
  return spread;
}

Sdp extendedInnerSdp(const Sdp& sdp, const std::vector<int>& spread) {
  const int e = static_cast<int>(spread.size());
  std::vector<int> inner_of(static_cast<size_t>(sdp.q()), -1);
  for (int d = 0; d < sdp.n; ++d) inner_of[static_cast<size_t>(d)] = d;
  int next = sdp.n;
  for (int d = sdp.n; d < sdp.q(); ++d) {
    if (std::find(spread.begin(), spread.end(), d) == spread.end()) {
      inner_of[static_cast<size_t>(d)] = next++;
    }
  }
  std::vector<int> delta(static_cast<size_t>(sdp.q() - e));
  for (int d = 0; d < sdp.q(); ++d) {
    const int i = inner_of[static_cast<size_t>(d)];
    if (i < 0) continue;
    delta[static_cast<size_t>(i)] =
        inner_of[static_cast<size_t>(sdp.delta[static_cast<size_t>(d)])];
  }
  return Sdp::fromDelta(sdp.n, sdp.k - e, std::move(delta));
}

SdpSchedule extendedSpreadPhase(const Sdp& sdp, const std::vector<int>& spread, bool compress,
                                bool one_port, u64 packet, int lanes, const std::string& algo) {
  const int e = static_cast<int>(spread.size());
  // Who takes part: expansion, the elements of the data's subcube; compression, the elements
  // whose spread storage bits are 0 (where the full-cube phase left the data, on every node).
  std::vector<u64> checks;
  for (int i = 0; i < e; ++i) {
    checks.push_back(
        u64{1} << sdp.position(compress ? spread[static_cast<size_t>(i)] : sdp.mp + i));
  }
  SdpRouter r(sdp, PermutationSpec::linear(sdp.n, sdp.k, spreadRows(sdp, spread), checks), false,
              one_port, lanes, algo);
  auto index = [e, compress](int j, int u) {
    return compress ? (j + 2 * e - 1 - u) % e : (j + u) % e;
  };
  if (one_port) {
    for (int u = 0; u < e; ++u) {
      const int i = index(0, u);
      r.exchange(spread[static_cast<size_t>(i)], sdp.mp + i, packet);
    }
    return r.finish();
  }
  // n-port: part j = (the slot bits outside S, packed) mod e; they never change in this phase.
  const u64 slots = u64{1} << sdp.k;
  std::vector<int> s_bits;
  for (const int d : spread) s_bits.push_back(sdp.position(d));
  std::vector<int> part(static_cast<size_t>(slots));
  for (u64 s = 0; s < slots; ++s) {
    u64 label = 0;
    int at = 0;
    for (int b = 0; b < sdp.k; ++b) {
      if (std::find(s_bits.begin(), s_bits.end(), b) != s_bits.end()) continue;
      label |= u64{bitOf(s, b)} << at++;
    }
    part[static_cast<size_t>(s)] = static_cast<int>(label % static_cast<u64>(e));
  }
  for (int u = 0; u < e; ++u) {
    r.linkRound(
        [&](u64 el, u64 node, u32 slot) {
          const int i = index(part[static_cast<size_t>(el % slots)], u);
          const int real = sdp.mp + i;
          const int v = s_bits[static_cast<size_t>(i)];
          if (bitOf(node, real) == bitOf(slot, v)) return SdpRouter::Step{-1, slot};
          return SdpRouter::Step{real, slot ^ (u32{1} << v)};
        },
        packet);
  }
  return r.finish();
}

SdpSchedule extendedSchedule(const Sdp& sdp, const std::vector<int>& spread,
                             const SdpSchedule& inner, bool one_port, u64 packet, int lanes,
                             const std::string& algo) {
  const int e = static_cast<int>(spread.size());
  const u64 slots = u64{1} << sdp.k;
  const u64 inner_slots = slots >> e;
  // Inner slot bit t is full slot bit kept[t].
  std::vector<int> kept;
  for (int b = 0; b < sdp.k; ++b) {
    bool is_spread = false;
    for (const int d : spread) is_spread = is_spread || sdp.position(d) == b;
    if (!is_spread) kept.push_back(b);
  }
  auto lift = [&kept, inner_slots, slots](u32 slot) {
    if (slot >= inner_slots) return static_cast<u32>(slots + (slot - inner_slots));
    u32 out = 0;
    for (size_t t = 0; t < kept.size(); ++t)
      out |= static_cast<u32>(bitOf(slot, static_cast<int>(t))) << kept[t];
    return out;
  };
  SdpSchedule out = extendedSpreadPhase(sdp, spread, false, one_port, packet, lanes, algo);
  out.moves.algo = algo;
  for (size_t t = 0; t < inner.moves.steps.size(); ++t) {
    std::vector<Move> step;
    for (const Move& m : inner.moves.steps[t]) {
      step.push_back({m.node, lift(m.slot), m.dim, lift(m.to_slot)});
    }
    out.moves.steps.push_back(std::move(step));
    out.message_start.push_back(inner.message_start[t]);
  }
  const SdpSchedule back = extendedSpreadPhase(sdp, spread, true, one_port, packet, lanes, algo);
  out.moves.steps.insert(out.moves.steps.end(), back.moves.steps.begin(), back.moves.steps.end());
  out.message_start.insert(out.message_start.end(), back.message_start.begin(),
                           back.message_start.end());
  out.startups += inner.startups + back.startups;
  out.transfer_cycles += inner.transfer_cycles + back.transfer_cycles;
  out.local_cycles += inner.local_cycles + back.local_cycles;
  out.element_transfers += inner.element_transfers + back.element_transfers;
  out.scratch = inner.scratch;
  return out;
}

SpreadFormula extendedSpreadFormula(const Sdp& sdp, bool one_port) {
  const int e = sdp.n - sdp.mp;
  SpreadFormula f;
  const double k = std::ldexp(1.0, sdp.k);
  f.transfer_cycles = k * (1.0 - std::ldexp(1.0, -e)) / (one_port ? 1.0 : e);
  f.startups = static_cast<u64>(e);
  return f;
}

}  // namespace hcube

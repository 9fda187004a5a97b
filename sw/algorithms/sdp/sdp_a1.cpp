// hcube: Algorithms A1 and A1', one-port (Ho & Johnsson 1988 §4.2.1, §4.4; see sdp_a1.h).
#include "algorithms/sdp/sdp_a1.h"

#include <algorithm>

#include "base/error.h"

namespace hcube {
namespace {

/// The GSHs in the order A1 runs them: real, mixed, virtual (a real GSH's pivot v is restored
/// when it ends, so the GSHs that use storage dimensions run after).
std::vector<const Gsh*> runOrder(const SdpClass& cls) {
  std::vector<const Gsh*> order;
  for (const Gsh::Kind kind : {Gsh::Kind::kReal, Gsh::Kind::kMixed, Gsh::Kind::kVirtual}) {
    for (const Gsh& g : cls.gshs) {
      if (g.kind == kind) order.push_back(&g);
    }
  }
  return order;
}

/// A1' on a real GSH: step j crosses a_j iff x_(a_j) != x_(a_(j-1)), x the element's node when
/// the GSH starts; the scratch slot bit k flips on every crossing.
void a1PrimeCycle(SdpRouter& r, const Gsh& g, u64 packet) {
  const std::vector<u64> start = r.nodes();
  const int s = g.sigma();
  const u32 v = u32{1} << r.sdp().k;
  for (int j = 0; j < s; ++j) {
    const int a = g.dims[j];
    const int prev = g.dims[(j + s - 1) % s];
    r.linkRound(
        [&start, a, prev, v](u64 e, u64, u32 slot) {
          if (bitOf(start[e], a) == bitOf(start[e], prev)) return SdpRouter::Step{-1, slot};
          return SdpRouter::Step{a, slot ^ v};
        },
        packet);
  }
}

}  // namespace

SdpSchedule sdpA1Schedule(const Sdp& sdp, const SdpClass& cls, SdpA1Variant variant, u64 packet,
                          int lanes, const std::string& algo) {
  const bool prime = variant == SdpA1Variant::kA1Prime;
  if (!prime && cls.beta_real > 0 && sdp.k == 0) {
    throw Error("--method a1: the real GSH (" + std::to_string(cls.gshs.front().dims.front()) +
                ",...) needs a storage dimension to exchange with (Algorithm A1, section 4.2.1), "
                "but K = 1 has none; use K >= 2 or --method a1p (Algorithm A1', scratch slots)");
  }
  SdpRouter r(sdp, prime, true, lanes, algo);
  for (const Gsh* g : runOrder(cls)) {
    if (g->kind == Gsh::Kind::kReal) {
      if (prime) {
        a1PrimeCycle(r, *g, packet);
      } else {
        // v: the lowest storage dimension; restored at the end of the GSH.
        const int v = sdp.n;
        for (const int a : g->dims) r.exchange(v, a, packet);
        r.exchange(v, g->dims.front(), packet);
      }
    } else {
      r.pivotCycle(*g, packet);
    }
  }
  return r.finish();
}

SdpFormula sdpA1Formula(const Sdp& sdp, const SdpClass& cls, SdpA1Variant variant, u64 packet) {
  const u64 k = u64{1} << sdp.k;
  const u64 b = std::max<u64>(packet, 1);
  const u64 half = k / 2;
  SdpFormula f;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) continue;
    if (g.kind == Gsh::Kind::kReal && variant == SdpA1Variant::kA1Prime) {
      const u64 s = static_cast<u64>(g.sigma());
      f.transfer_cycles += s * k;
      f.startups += s * ((k + b - 1) / b);
      continue;
    }
    const u64 ex = static_cast<u64>(g.sigma_p) + (g.kind == Gsh::Kind::kReal ? 1 : 0);
    f.transfer_cycles += ex * half;
    f.startups += ex * ((half + b - 1) / b);
  }
  return f;
}

SdpSchedule sdpA1PrimeNPortSchedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                                    const std::string& algo, bool lockstep) {
  std::vector<const Gsh*> real;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kMixed) {
      // Section 4.4 is the paper's only word on non-separable SDPs: one-port, "Algorithm A1
      // should be used for the mixed cycles" (A1' only for the real ones); n-port, "one can
      // employ the same algorithm as if there is no virtual dimension, for instance Algorithms
      // A4, A5, or A6". It gives the n-port A1' nothing for a mixed GSH, so it is refused.
      throw Error("--method a1p --ports all: the SDP is not separable (GSH " +
                  std::to_string(g.dims.front()) +
                  ",... mixes processor and storage dimensions); section 4.4 runs mixed GSHs by "
                  "Algorithm A1 (\"Algorithm A1 should be used for the mixed cycles\") and, "
                  "n-port, by A4, A5 or A6, never by the n-port A1'; use --method a4 or a6");
    }
    if (g.kind == Gsh::Kind::kReal) real.push_back(&g);
  }
  SdpRouter r(sdp, true, false, lanes, algo);
  const u64 beta = real.size();
  const u32 v = u32{1} << sdp.k;
  const u64 slots = u64{1} << sdp.k;
  // Part i holds the slots s < K with s mod beta = i; its sub-part j for a GSH of order sigma the
  // ones with (s / beta) mod sigma = j, w = s / (beta sigma) the element's place in it.
  std::vector<u64> count(beta);
  for (u64 i = 0; i < beta; ++i) count[i] = (slots - i + beta - 1) / beta;
  for (u64 phase = 0; phase < beta; ++phase) {
    const std::vector<u64> start = r.nodes();
    // Not in lockstep (section 4.1: each GSH's algorithm independently): part i's routing cycle
    // u of its GSH sends sub-part element w at time u W_i + w, W_i = ceil(count_i / sigma), one
    // element per link and time unit (every sub-part element of an active node crosses). The
    // phase is cut into link rounds at every part's cycle boundary u W_i, so a round never holds
    // two cycles of one part, and a part of a shorter GSH sends larger sub-parts in fewer cycles
    // while the others send theirs: the phase lasts max_i sigma_i W_i (K / beta when the orders
    // divide the parts), not sigma_max rounds of the largest sub-part.
    // In lockstep every part's cycle is as long as the largest sub-part of the phase.
    std::vector<u64> width(beta);
    for (u64 i = 0; i < beta; ++i) {
      const u64 sigma = static_cast<u64>(real[(i + phase) % beta]->sigma());
      width[i] = (count[i] + sigma - 1) / sigma;
    }
    const u64 widest = *std::max_element(width.begin(), width.end());
    std::vector<u64> cuts{0};
    for (u64 i = 0; i < beta; ++i) {
      if (lockstep) width[i] = widest;
      const u64 sigma = static_cast<u64>(real[(i + phase) % beta]->sigma());
      for (u64 u = 1; u <= sigma; ++u) cuts.push_back(u * width[i]);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t c = 0; c + 1 < cuts.size(); ++c) {
      const u64 t0 = cuts[c];
      const u64 t1 = cuts[c + 1];
      r.linkRound(
          [&start, &real, &width, beta, phase, v, slots, t0, t1](u64 e, u64, u32 slot) {
            const u64 s = e % slots;  // the element's first slot: its part and sub-part
            const u64 i = s % beta;
            const Gsh& g = *real[(i + phase) % beta];
            const u64 sigma = static_cast<u64>(g.sigma());
            const u64 u = t0 / width[i];
            const u64 at = u * width[i] + s / (beta * sigma);
            if (u >= sigma || at < t0 || at >= t1) return SdpRouter::Step{-1, slot};
            const u64 j = (s / beta) % sigma;
            const int a = g.dims[(j + u) % sigma];
            const int prev = g.dims[(j + u + sigma - 1) % sigma];
            if (bitOf(start[e], a) == bitOf(start[e], prev)) return SdpRouter::Step{-1, slot};
            return SdpRouter::Step{a, slot ^ v};
          },
          packet);
    }
  }
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) r.pivotCycle(g, packet);
  }
  return r.finish();
}

SdpFormula sdpA1PrimeNPortFormula(const Sdp& sdp, const SdpClass& cls, u64 packet) {
  const u64 k = u64{1} << sdp.k;
  const u64 b = std::max<u64>(packet, 1);
  const u64 beta = static_cast<u64>(std::max(cls.beta_real, 1));
  const u64 smax = static_cast<u64>(std::max(cls.sigma_max, 1));
  SdpFormula f;
  f.transfer_cycles = k;
  f.startups = beta * smax * ((k + smax * beta * b - 1) / (smax * beta * b));
  return f;
}

}  // namespace hcube

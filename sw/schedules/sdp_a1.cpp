// hcube: Algorithms A1 and A1', one-port (Ho & Johnsson 1988 §4.2.1, §4.4; see sdp_a1.h).
#include "schedules/sdp_a1.h"

#include <algorithm>

#include "error.h"

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
                                    const std::string& algo) {
  std::vector<const Gsh*> real;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kMixed) {
      throw Error("--method a1p --ports all: the SDP is not separable (GSH " +
                  std::to_string(g.dims.front()) +
                  ",... mixes processor and storage dimensions); the n-port Algorithm A1' "
                  "(section 4.2.1) runs real GSHs; use --method a1 --ports one (section 4.4)");
    }
    if (g.kind == Gsh::Kind::kReal) real.push_back(&g);
  }
  SdpRouter r(sdp, true, false, lanes, algo);
  const u64 beta = real.size();
  const u32 v = u32{1} << sdp.k;
  int sigma_max = 0;
  for (const Gsh* g : real) sigma_max = std::max(sigma_max, g->sigma());
  const u64 slots = u64{1} << sdp.k;
  for (u64 phase = 0; phase < beta; ++phase) {
    const std::vector<u64> start = r.nodes();
    for (int u = 0; u < sigma_max; ++u) {
      r.linkRound(
          [&start, &real, beta, phase, u, v, slots](u64 e, u64, u32 slot) {
            const u64 s = e % slots;  // the element's first slot: its part and sub-part
            const Gsh& g = *real[(s % beta + phase) % beta];
            const int sigma = g.sigma();
            if (u >= sigma) return SdpRouter::Step{-1, slot};
            const u64 j = (s / beta) % static_cast<u64>(sigma);
            const int a = g.dims[(j + static_cast<u64>(u)) % static_cast<u64>(sigma)];
            const int prev = g.dims[(j + static_cast<u64>(u) + static_cast<u64>(sigma) - 1) %
                                    static_cast<u64>(sigma)];
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

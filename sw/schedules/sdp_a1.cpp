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

}  // namespace hcube

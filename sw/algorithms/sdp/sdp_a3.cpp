// hcube: Algorithm A3 (Ho & Johnsson 1988 §4.3.2; see sdp_a3.h).
#include "algorithms/sdp/sdp_a3.h"

#include <algorithm>

#include "base/error.h"

namespace hcube {
namespace {

using Pair = std::pair<int, int>;
using Steps = std::vector<std::vector<Pair>>;

/// Rotation of dims[first .. last) by one (dims[j]'s content to dims[j+1]) as transpositions
/// added to `steps`, the subproblem starting at step 0 (the halves run concurrently).
void rotate(const std::vector<int>& dims, size_t first, size_t last, Steps& steps) {
  const size_t s = last - first;
  if (s < 2) return;
  const size_t h = (s + 1) / 2;
  rotate(dims, first, first + h, steps);
  rotate(dims, first + h, last, steps);
  // The halves take ceil(log2 h) steps; the swap comes right after.
  size_t depth = 0;
  while ((size_t{1} << depth) < h) ++depth;
  if (steps.size() <= depth) steps.resize(depth + 1);
  steps[depth].push_back({dims[first], dims[first + h]});
}

}  // namespace

A3NPortStep a3NPortStep(u64 slots, u64 packet, u64 pairs) {
  A3NPortStep out;
  if (pairs == 0) return out;
  const u64 b = std::max<u64>(packet, 1);
  out.half = std::max<u64>(slots / 2, 1);
  out.part = (out.half + pairs - 1) / pairs;
  out.packets = (out.part + b - 1) / b;
  // A sub-part's packet q crosses pair s's second hop in round s L + q + 1, so the next pair's
  // first hop (round (s + 1) L + q) must come later: L >= 2.
  out.stage = std::max<u64>(out.packets, 2);
  out.rounds = (pairs - 1) * out.stage + out.packets + 1;
  return out;
}

namespace {

int kindOf(const Sdp& sdp, const Pair& p) {
  return (sdp.isProcessorDim(p.first) ? 1 : 0) + (sdp.isProcessorDim(p.second) ? 1 : 0);
}

}  // namespace

Steps sdpA3Steps(const SdpClass& cls) {
  Steps steps;
  for (const Gsh& g : cls.gshs) rotate(g.dims, 0, g.dims.size(), steps);
  return steps;
}

SdpSchedule sdpA3Schedule(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 packet, int lanes,
                          const std::string& algo) {
  const u64 k = u64{1} << sdp.k;
  const u32 scratch = static_cast<u32>(k);
  const u64 b = std::max<u64>(packet, 1);
  SdpRouter r(sdp, true, one_port, lanes, algo);
  for (const std::vector<Pair>& step : sdpA3Steps(cls)) {
    if (one_port) {
      for (const Pair& p : step) {
        if (kindOf(sdp, p) != 2) continue;
        const int a = p.first;
        const int c = p.second;
        // SPT: the nodes with x_a != x_c send everything across a into scratch slots, the
        // intermediate nodes forward it across c into the same slots.
        r.linkRound(
            [a, c, scratch](u64, u64 node, u32 slot) {
              if (bitOf(node, a) == bitOf(node, c)) return SdpRouter::Step{-1, slot};
              return SdpRouter::Step{a, slot + scratch};
            },
            b);
        r.linkRound(
            [c, scratch](u64, u64, u32 slot) {
              if (slot < scratch) return SdpRouter::Step{-1, slot};
              return SdpRouter::Step{c, slot - scratch};
            },
            b);
      }
      for (const Pair& p : step) {
        if (kindOf(sdp, p) != 1) continue;
        const bool first_real = sdp.isProcessorDim(p.first);
        r.exchange(first_real ? p.second : p.first, first_real ? p.first : p.second, b);
      }
    } else {
      // n-port: the step's m pairs of processor dimensions at once (see sdp_a3.h). Sub-part j
      // (low slot bits mod m) does pair (j + s) mod m in stage s by the Dual Path Transpose
      // pipelined in packets: the elements with slot bit k-1 clear go a then c, the others c
      // then a (scratch slot + K on the way); packet q's first hop in round s L + q, its second
      // in the round after. In one round the sub-parts use different pairs, and a first hop
      // leaves a node with x_a != x_c while a second hop leaves one with x_a == x_c, so two
      // stages overlap without sharing a link.
      std::vector<Pair> pairs;
      for (const Pair& p : step) {
        if (kindOf(sdp, p) == 2) pairs.push_back(p);
      }
      const A3NPortStep shape = a3NPortStep(k, b, pairs.size());
      const u64 half = shape.half;
      const u32 top = k >= 2 ? static_cast<u32>(k / 2) : 0;
      const u64 m = pairs.size();
      for (u64 t = 0; t < shape.rounds; ++t) {
        r.linkRound(
            [&pairs, &shape, m, t, b, top, half, scratch](u64, u64 node, u32 slot) {
              const bool in_transit = slot >= scratch;
              const u32 home = in_transit ? slot - scratch : slot;
              const bool c_first = top != 0 && (home & top) != 0;
              const u64 low = home & (static_cast<u32>(half) - 1);
              const u64 j = low % m;
              const u64 q = (low / m) / b;
              if (in_transit) {
                // The second hop, one round after the first (stage s, packet q).
                if (t == 0) return SdpRouter::Step{-1, slot};
                const u64 s = (t - 1) / shape.stage;
                if ((t - 1) % shape.stage != q || s >= m) return SdpRouter::Step{-1, slot};
                const Pair& p = pairs[(j + s) % m];
                return SdpRouter::Step{c_first ? p.first : p.second, home};
              }
              const u64 s = t / shape.stage;
              if (s >= m || t % shape.stage != q) return SdpRouter::Step{-1, slot};
              const Pair& p = pairs[(j + s) % m];
              if (bitOf(node, p.first) == bitOf(node, p.second)) return SdpRouter::Step{-1, slot};
              return SdpRouter::Step{c_first ? p.second : p.first, slot + scratch};
            },
            b);
      }
      for (const Pair& p : step) {
        if (kindOf(sdp, p) != 1) continue;
        const bool first_real = sdp.isProcessorDim(p.first);
        r.exchange(first_real ? p.second : p.first, first_real ? p.first : p.second, b);
      }
    }
    for (const Pair& p : step) {
      if (kindOf(sdp, p) == 0) r.localSwap(p.first, p.second);
    }
  }
  return r.finish();
}

SdpFormula sdpA3Count(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 packet, int lanes) {
  const u64 k = u64{1} << sdp.k;
  const u64 b = std::max<u64>(packet, 1);
  const u64 w = static_cast<u64>(std::max(lanes, 1));
  const auto cycles = [w](u64 len) { return (len + w - 1) / w; };
  const auto messages = [b, w](u64 len) {
    const u64 per = (b + w - 1) / w;
    return (((len + w - 1) / w) + per - 1) / per;
  };
  SdpFormula f;
  for (const std::vector<Pair>& step : sdpA3Steps(cls)) {
    if (!one_port) {
      u64 m = 0;
      for (const Pair& p : step) m += kindOf(sdp, p) == 2 ? 1 : 0;
      const A3NPortStep shape = a3NPortStep(k, b, m);
      for (u64 t = 0; t < shape.rounds; ++t) {
        // Packet q of the largest sub-part (ceil(half / m) elements per path) in its first hop
        // (round s L + q) or its second (the round after).
        u64 len = 0;
        for (const u64 u : {t, t - 1}) {
          if (u > t) continue;  // t - 1 wrapped
          const u64 s = u / shape.stage;
          const u64 q = u % shape.stage;
          if (s < m && q < shape.packets) len = std::max(len, std::min(b, shape.part - q * b));
        }
        f.transfer_cycles += cycles(len);
        f.startups += messages(len);
      }
    }
    for (const Pair& p : step) {
      const int kind = kindOf(sdp, p);
      if (kind == 2 && one_port) {
        f.transfer_cycles += 2 * cycles(k);
        f.startups += 2 * messages(k);
      } else if (kind == 2) {
        continue;  // n-port: all of the step's pairs at once, below
      } else if (kind == 1) {
        f.transfer_cycles += cycles(k / 2);
        f.startups += messages(k / 2);
      }
    }
  }
  return f;
}

SdpFormula sdpA3Table3(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 packet) {
  const u64 k = u64{1} << sdp.k;
  const u64 b = std::max<u64>(packet, 1);
  u64 steps = 0;
  while ((1 << steps) < cls.sigma_max) ++steps;
  const u64 sp = static_cast<u64>(cls.sigma_p);
  SdpFormula f;
  if (one_port) {
    f.transfer_cycles = steps * sp * k;
    f.startups = steps * sp * ((k + b - 1) / b);
  } else {
    const u64 packets = (k + 2 * b - 1) / (2 * b) + 1;
    f.transfer_cycles = steps * packets * b;
    f.startups = steps * packets;
  }
  return f;
}

}  // namespace hcube

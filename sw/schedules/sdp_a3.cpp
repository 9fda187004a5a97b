// hcube: Algorithm A3 (Ho & Johnsson 1988 §4.3.2; see sdp_a3.h).
#include "schedules/sdp_a3.h"

#include <algorithm>

#include "error.h"

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

/// Lengths of the rounds of one n-port step: pipelined packets of `b` over `half` elements per
/// path, with a second hop (`two_hops`) one round behind the first.
std::vector<u64> pipelineRounds(u64 half, u64 b, bool two_hops) {
  const u64 packets = (half + b - 1) / b;
  std::vector<u64> len(packets + (two_hops ? 1 : 0), 0);
  for (u64 j = 0; j < packets; ++j) {
    const u64 l = std::min(b, half - j * b);
    len[j] = std::max(len[j], l);
    if (two_hops) len[j + 1] = std::max(len[j + 1], l);
  }
  return len;
}

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
      // n-port: each pair of processor dimensions by the Dual Path Transpose, pipelined: the
      // elements with slot bit k-1 clear go a then c, the others c then a (scratch slot + K on
      // the way), packet j's first hop in round j and its second in round j + 1. The pairs of a
      // step go one after the other: an element whose node differs in two pairs would need both
      // at once.
      const u64 half = std::max<u64>(k / 2, 1);
      const u32 top = k >= 2 ? static_cast<u32>(k / 2) : 0;
      const u64 packets = (half + b - 1) / b;
      for (const Pair& p : step) {
        if (kindOf(sdp, p) != 2) continue;
        const int a = p.first;
        const int c = p.second;
        for (u64 t = 0; t <= packets; ++t) {
          r.linkRound(
              [a, c, t, b, top, half, scratch](u64, u64 node, u32 slot) {
                const bool in_transit = slot >= scratch;
                const u32 home = in_transit ? slot - scratch : slot;
                const bool c_first = top != 0 && (home & top) != 0;
                const u64 j = (home & (static_cast<u32>(half) - 1)) / b;
                if (!in_transit && j == t && bitOf(node, a) != bitOf(node, c)) {
                  return SdpRouter::Step{c_first ? c : a, slot + scratch};
                }
                if (in_transit && j + 1 == t) return SdpRouter::Step{c_first ? a : c, home};
                return SdpRouter::Step{-1, slot};
              },
              b);
        }
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
    for (const Pair& p : step) {
      const int kind = kindOf(sdp, p);
      if (kind == 2 && one_port) {
        f.transfer_cycles += 2 * cycles(k);
        f.startups += 2 * messages(k);
      } else if (kind == 2) {
        for (const u64 l : pipelineRounds(std::max<u64>(k / 2, 1), b, true)) {
          f.transfer_cycles += cycles(l);
          f.startups += messages(l);
        }
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

// hcube: Algorithm A4 and concurrent exchange sequences (Ho & Johnsson 1988 §4.2.1, §4.3.3; see
// sdp_a4.h).
#include "schedules/sdp_a4.h"

#include <algorithm>
#include <map>

#include "error.h"

namespace hcube {

std::vector<std::vector<int>> a4Sequences(const Sdp& sdp, const SdpClass& cls) {
  std::vector<int> seq;
  int real = 0;
  for (const Gsh& g : cls.gshs) {
    if (g.kind != Gsh::Kind::kReal) continue;
    ++real;
    seq.insert(seq.end(), g.dims.begin(), g.dims.end());
    seq.push_back(g.dims.front());
  }
  if (real == 0) return {};
  const int count = cls.sigma_p + cls.beta + cls.sigma_min - 1;
  std::vector<std::vector<int>> seqs{seq};
  for (int k = 1; k < count; ++k) {
    const std::vector<int>& prev = seqs.back();
    std::vector<int> next(prev.begin() + 1, prev.end());
    next.push_back(sdp.delta[prev.front()]);
    seqs.push_back(std::move(next));
  }
  return seqs;
}

std::vector<std::vector<int>> a1NPortSequences(const Gsh& g) {
  std::vector<std::vector<int>> seqs;
  const int s = g.sigma();
  for (int i = 0; i < s; ++i) {
    std::vector<int> seq;
    for (int j = 0; j < s; ++j) seq.push_back(g.dims[(i + j) % s]);
    seq.push_back(g.dims[i]);
    seqs.push_back(std::move(seq));
  }
  return seqs;
}

int maxSequencesPerDimension(const std::vector<std::vector<int>>& seqs) {
  int most = 0;
  const size_t len = seqs.empty() ? 0 : seqs.front().size();
  for (size_t r = 0; r < len; ++r) {
    std::map<int, int> uses;
    for (const auto& s : seqs) {
      if (s[r] >= 0) most = std::max(most, ++uses[s[r]]);
    }
  }
  return most;
}

SdpSchedule sdpConcurrentSequences(const Sdp& sdp, const SdpClass& cls,
                                   const std::vector<std::vector<int>>& seqs, u64 packet, int lanes,
                                   const std::string& algo) {
  if (sdp.k < 1) {
    throw Error("--k 1: " + algo + " exchanges processor dimensions with a storage dimension " +
                "(Algorithm A1's E(v, d), section 4.2.1); it needs K >= 2");
  }
  SdpRouter r(sdp, false, false, lanes, algo);
  const u64 parts = seqs.size();
  const size_t len = seqs.empty() ? 0 : seqs.front().size();
  for (size_t round = 0; round < len; ++round) {
    r.linkRound(
        [&seqs, parts, round](u64, u64 node, u32 slot) {
          // Slot bit 0 is v; pair m = slot >> 1 belongs to part m mod P.
          const int d = seqs[(slot >> 1) % parts][round];
          if (d < 0 || bitOf(node, d) == bitOf(slot, 0)) return SdpRouter::Step{-1, slot};
          return SdpRouter::Step{d, slot ^ 1U};
        },
        packet);
  }
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) r.pivotCycle(g, packet);
  }
  return r.finish();
}

SdpSchedule sdpA4Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo) {
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kMixed) {
      throw Error("--method a4: the SDP is not separable (GSH " + std::to_string(g.dims.front()) +
                  ",... mixes processor and storage dimensions); Algorithm A4 (section 4.3.3) "
                  "combines real GSHs only; use --method a1");
    }
  }
  return sdpConcurrentSequences(sdp, cls, a4Sequences(sdp, cls), packet, lanes, algo);
}

SdpA4Formula sdpA4Formula(const Sdp& sdp, const SdpClass& cls, u64 packet) {
  SdpA4Formula f;
  const u64 k = u64{1} << sdp.k;
  f.parts = static_cast<u64>(cls.sigma_p + cls.beta + cls.sigma_min - 1);
  const u64 rounds = static_cast<u64>(cls.sigma_p + cls.beta);
  f.transfer_cycles = static_cast<double>(rounds * k) / static_cast<double>(f.parts);
  const u64 b = std::max<u64>(packet, 1);
  f.startups = rounds * ((k + f.parts * b - 1) / (f.parts * b));
  return f;
}

}  // namespace hcube

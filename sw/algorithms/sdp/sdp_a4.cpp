// hcube: Algorithm A4 and concurrent exchange sequences (Ho & Johnsson 1988 §4.2.1, §4.3.3; see
// sdp_a4.h).
#include "algorithms/sdp/sdp_a4.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/error.h"

namespace hcube {

std::map<int, int> a4RealNext(const Sdp& sdp, const SdpClass& cls) {
  std::map<int, int> next;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) continue;
    std::vector<int> real;
    for (const int d : g.dims) {
      if (sdp.isProcessorDim(d)) real.push_back(d);
    }
    for (size_t j = 0; j < real.size(); ++j) next[real[j]] = real[(j + 1) % real.size()];
  }
  return next;
}

std::vector<std::vector<int>> a4Sequences(const Sdp& sdp, const SdpClass& cls) {
  // Seq_0: every real or mixed GSH's processor dimensions in its cyclic order (a mixed GSH's
  // from its first processor dimension), then the first again (A1's restoring exchange).
  std::vector<int> seq;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) continue;
    const size_t at = seq.size();
    for (const int d : g.dims) {
      if (sdp.isProcessorDim(d)) seq.push_back(d);
    }
    seq.push_back(seq[at]);
  }
  if (seq.empty()) return {};
  const std::map<int, int> next = a4RealNext(sdp, cls);
  const int count = cls.sigma_p + cls.beta + cls.sigma_min - 1;
  std::vector<std::vector<int>> seqs{seq};
  for (int k = 1; k < count; ++k) {
    const std::vector<int>& prev = seqs.back();
    std::vector<int> next_seq(prev.begin() + 1, prev.end());
    next_seq.push_back(next.at(prev.front()));
    seqs.push_back(std::move(next_seq));
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

SdpClass realifiedClass(const Sdp& sdp, const SdpClass& cls) {
  SdpClass out = cls;
  for (Gsh& g : out.gshs) {
    if (g.kind != Gsh::Kind::kMixed) continue;
    std::vector<int> real;
    for (const int d : g.dims) {
      if (sdp.isProcessorDim(d)) real.push_back(d);
    }
    g.dims = std::move(real);
    g.kind = Gsh::Kind::kReal;
  }
  out.separable = true;
  out.beta_real = out.beta;
  return out;
}

// Non-separable SDPs (section 4.4: "one can employ the same algorithm as if there is no virtual
// dimension"): the sequences are over every GSH's processor dimensions, so the routing cycles
// (and Lemma 7 for A4) are those of the real SDP. Each sequence runs Algorithm A1 per GSH with
// one storage dimension v outside every mixed GSH: the occurrences of a GSH's dimensions in a
// sequence are r_j, r_(j+1), ..., r_j, A1 along the GSH rotated to start at r_j; after each
// exchange E(v, r) but the last, the storage dimensions that follow r in the mixed cycle (before
// its next processor dimension) are exchanged with v locally, which makes it the chain E(v, a0),
// E(v, a1), ..., E(v, a0) of the whole mixed cycle (sw/algorithms/sdp/sdp_a1.h). The parts are
// dealt by the slot bits other than v and the mixed GSHs' storage dimensions (they alone change
// while the sequences run), so every part keeps its slots and a local swap never splits a pair. For
// a separable SDP this is v = slot bit 0 and part (slot >> 1) mod P.
SdpSchedule sdpConcurrentSequences(const Sdp& sdp, const SdpClass& cls,
                                   const std::vector<std::vector<int>>& seqs, u64 packet, int lanes,
                                   const std::string& algo) {
  if (sdp.k < 1) {
    throw Error("--k 1: " + algo + " exchanges processor dimensions with a storage dimension " +
                "(Algorithm A1's E(v, d), section 4.2.1); it needs K >= 2");
  }
  std::vector<bool> in_mixed(static_cast<size_t>(sdp.k), false);
  // after[r]: the storage dimensions following processor dimension r in its mixed cycle.
  std::map<int, std::vector<int>> after;
  std::map<int, int> gsh_of;
  for (size_t gi = 0; gi < cls.gshs.size(); ++gi) {
    const Gsh& g = cls.gshs[gi];
    if (g.kind == Gsh::Kind::kVirtual) continue;
    const int s = g.sigma();
    for (int j = 0; j < s; ++j) {
      const int d = g.dims[static_cast<size_t>(j)];
      if (!sdp.isProcessorDim(d)) {
        in_mixed[static_cast<size_t>(d - sdp.n)] = true;
        continue;
      }
      gsh_of[d] = static_cast<int>(gi);
      std::vector<int>& follow = after[d];
      for (int t = 1; t < s; ++t) {
        const int x = g.dims[static_cast<size_t>((j + t) % s)];
        if (sdp.isProcessorDim(x)) break;
        follow.push_back(x);
      }
    }
  }
  int v_bit = -1;
  for (int b = 0; b < sdp.k && v_bit < 0; ++b) {
    if (!in_mixed[static_cast<size_t>(b)]) v_bit = b;
  }
  if (v_bit < 0) {
    // Section 4.4's m'_s: the storage dimensions of the index set followed (delta) by a processor
    // dimension. The paper counts them and the sequences they could pivot, and stops there.
    int m_s = 0;
    for (int d = sdp.n; d < sdp.q(); ++d) {
      if (in_mixed[static_cast<size_t>(d - sdp.n)] &&
          sdp.isProcessorDim(sdp.delta[static_cast<size_t>(d)])) {
        ++m_s;
      }
    }
    throw Error(algo + ": every storage dimension is in a mixed GSH; on a non-separable SDP " +
                "(section 4.4) the n-port sequences exchange with a storage dimension v outside " +
                "them (Algorithm A1's E(v, d)); give K a storage dimension more. Section 4.4 " +
                "counts m'_s = " + std::to_string(m_s) +
                " sequences here that would need no extra storage (\"The number of exchange "
                "sequences that can be run concurrently without any extra storage requirement "
                "(extra virtual dimensions) is m'_s\") but gives no construction of them (which "
                "data each carries, how they share the storage dimensions they pivot on), so "
                "they are not built");
  }
  const int v = sdp.n + v_bit;
  const u64 parts = seqs.size();
  const size_t len = seqs.empty() ? 0 : seqs.front().size();
  // swaps[p][t]: the storage dimensions part p exchanges with v after routing cycle t.
  std::vector<std::vector<std::vector<int>>> swaps(parts, std::vector<std::vector<int>>(len));
  size_t most = 0;
  for (u64 p = 0; p < parts; ++p) {
    std::map<int, size_t> last;  // GSH -> its last occurrence in the sequence
    for (size_t t = 0; t < len; ++t) {
      if (seqs[p][t] >= 0) last[gsh_of.at(seqs[p][t])] = t;
    }
    for (size_t t = 0; t < len; ++t) {
      if (seqs[p][t] < 0 || last.at(gsh_of.at(seqs[p][t])) == t) continue;
      swaps[p][t] = after[seqs[p][t]];
      most = std::max(most, swaps[p][t].size());
    }
  }
  const u64 slots = u64{1} << sdp.k;
  std::vector<u64> part_of(slots << sdp.n);
  for (u64 e = 0; e < part_of.size(); ++e) {
    const u64 slot = e % slots;
    u64 m = 0;
    int w = 0;
    for (int b = 0; b < sdp.k; ++b) {
      if (b == v_bit || in_mixed[static_cast<size_t>(b)]) continue;
      m |= static_cast<u64>(bitOf(slot, b)) << w++;
    }
    part_of[e] = parts == 0 ? 0 : m % parts;
  }
  SdpRouter r(sdp, false, false, lanes, algo);
  const u32 v_mask = u32{1} << v_bit;
  for (size_t t = 0; t < len; ++t) {
    r.linkRound(
        [&seqs, &part_of, t, v_bit, v_mask](u64 e, u64 node, u32 slot) {
          const int d = seqs[part_of[e]][t];
          if (d < 0 || bitOf(node, d) == bitOf(slot, v_bit)) return SdpRouter::Step{-1, slot};
          return SdpRouter::Step{d, slot ^ v_mask};
        },
        packet);
    for (size_t layer = 0; layer < most; ++layer) {
      std::set<int> dims;
      for (u64 p = 0; p < parts; ++p) {
        if (swaps[p][t].size() > layer) dims.insert(swaps[p][t][layer]);
      }
      for (const int x : dims) {
        r.localSwap(v, x, [&swaps, &part_of, t, layer, x](u64 e) {
          const std::vector<int>& l = swaps[part_of[e]][t];
          return l.size() > layer && l[layer] == x;
        });
      }
    }
  }
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) r.pivotCycle(g, packet);
  }
  return r.finish();
}

SdpSchedule sdpA4Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo) {
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

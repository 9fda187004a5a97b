// hcube: Algorithm A5's sequences (Ho & Johnsson 1988 §4.3.3, Lemma 8, Table 2; see sdp_a5.h).
#include "algorithms/sdp/sdp_a5.h"

#include <algorithm>

#include "base/error.h"

namespace hcube {
namespace {

std::vector<const Gsh*> realGshs(const std::vector<Gsh>& gshs) {
  std::vector<const Gsh*> out;
  for (const Gsh& g : gshs) {
    if (g.kind == Gsh::Kind::kReal) out.push_back(&g);
  }
  return out;
}

/// J_i padded with phi to mu_i * gamma entries.
std::vector<int> padded(const Gsh& g, int gamma) {
  std::vector<int> j = g.dims;
  while (j.size() % static_cast<size_t>(gamma) != 0) j.push_back(kSdpDummy);
  return j;
}

std::vector<int> rotateLeft(std::vector<int> v, size_t by) {
  if (!v.empty()) std::rotate(v.begin(), v.begin() + static_cast<long>(by % v.size()), v.end());
  return v;
}

}  // namespace

int a5Mu(const std::vector<Gsh>& gshs, int gamma) {
  int mu = 0;
  for (const Gsh* g : realGshs(gshs)) mu += (g->sigma() + gamma - 1) / gamma;
  return mu;
}

int a5Startups(const std::vector<Gsh>& gshs, int gamma) { return (gamma + 1) * a5Mu(gshs, gamma); }

std::vector<std::vector<std::vector<int>>> a5Blocks(const std::vector<Gsh>& gshs, int gamma) {
  std::vector<std::vector<std::vector<int>>> blocks;
  for (const Gsh* g : realGshs(gshs)) {
    const std::vector<int> j = padded(*g, gamma);
    std::vector<std::vector<int>> b;
    for (size_t s = 0; s < j.size(); s += static_cast<size_t>(gamma)) {
      b.emplace_back(j.begin() + static_cast<long>(s), j.begin() + static_cast<long>(s) + gamma);
    }
    blocks.push_back(std::move(b));
  }
  return blocks;
}

std::vector<std::vector<int>> a5Sequences(const std::vector<Gsh>& gshs, int gamma) {
  int sigma_max = 0;
  for (const Gsh* g : realGshs(gshs)) sigma_max = std::max(sigma_max, g->sigma());
  if (gamma < 2 || gamma > sigma_max) {
    throw Error("--gamma " + std::to_string(gamma) + ": Algorithm A5 splits the GSHs into GSHs " +
                "of order gamma, 2 <= gamma <= sigma_max = " + std::to_string(sigma_max));
  }
  const int mu = a5Mu(gshs, gamma);
  std::vector<std::vector<int>> seqs;
  for (int l = 0; l < gamma; ++l) {
    // S_k(l), 0 <= k <= gamma, from each J_i rotated left by l.
    std::vector<std::vector<int>> s(static_cast<size_t>(gamma) + 1);
    for (const Gsh* g : realGshs(gshs)) {
      const std::vector<int> j = rotateLeft(padded(*g, gamma), static_cast<size_t>(l));
      const int mu_i = static_cast<int>(j.size()) / gamma;
      for (int k = 0; k < gamma; ++k) {
        for (int b = 0; b < mu_i; ++b) s[k].push_back(j[b * gamma + k]);
      }
      for (int b = 1; b < mu_i; ++b) s[gamma].push_back(j[b * gamma]);
      s[gamma].push_back(j[0]);
    }
    for (int jj = 0; jj < mu; ++jj) {
      std::vector<int> seq;
      for (const auto& part : s) {
        const std::vector<int> r = rotateLeft(part, static_cast<size_t>(jj));
        seq.insert(seq.end(), r.begin(), r.end());
      }
      seqs.push_back(std::move(seq));
    }
  }
  return seqs;
}

std::vector<std::vector<A5Exchange>> a5Exchanges(const std::vector<Gsh>& gshs, int gamma) {
  a5Sequences(gshs, gamma);  // gamma range check, one message
  const int mu = a5Mu(gshs, gamma);
  std::vector<std::vector<A5Exchange>> seqs;
  for (int l = 0; l < gamma; ++l) {
    std::vector<std::vector<A5Exchange>> s(static_cast<size_t>(gamma) + 1);
    int first_block = 0;  // global index of the GSH's first block
    for (const Gsh* g : realGshs(gshs)) {
      const std::vector<int> j = rotateLeft(padded(*g, gamma), static_cast<size_t>(l));
      const int mu_i = static_cast<int>(j.size()) / gamma;
      for (int k = 0; k < gamma; ++k) {
        for (int b = 0; b < mu_i; ++b) {
          const int d = j[static_cast<size_t>(b * gamma + k)];
          s[static_cast<size_t>(k)].push_back({d == kSdpDummy ? -1 : d, first_block + b});
        }
      }
      // Coupling: block b's pivot with the head of block b + 1 (its first real dimension when
      // the head is phi, see sdp_a5.h).
      for (int b = 0; b < mu_i; ++b) {
        const int next = (b + 1) % mu_i;
        int head = kSdpDummy;
        for (int k = 0; k < gamma && head == kSdpDummy; ++k) {
          head = j[static_cast<size_t>(next * gamma + k)];
        }
        s[static_cast<size_t>(gamma)].push_back({head, first_block + b});
      }
      first_block += mu_i;
    }
    for (int jj = 0; jj < mu; ++jj) {
      std::vector<A5Exchange> seq;
      for (const auto& part : s) {
        std::vector<A5Exchange> r = part;
        std::rotate(r.begin(), r.begin() + jj % static_cast<int>(r.size()), r.end());
        seq.insert(seq.end(), r.begin(), r.end());
      }
      seqs.push_back(std::move(seq));
    }
  }
  return seqs;
}

SdpSchedule sdpA5Schedule(const Sdp& sdp, const SdpClass& cls, int gamma, u64 packet, int lanes,
                          const std::string& algo) {
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kMixed) {
      // Section 4.4 (n-port, non-separable) says only "one can employ the same algorithm as if
      // there is no virtual dimension, for instance Algorithms A4, A5, or A6", with no
      // construction for A5: section 4.3.3 defines A5's Lemma 8 blocks, dummy dimensions and
      // coupling pivots for real GSHs only. A5's blocks with a mixed GSH's own storage
      // dimensions are not built here (A4, A6 and the n-port A1 are, sdp_a4.h, sdp_a6.h).
      throw Error("--method a5: the SDP is not separable (GSH " + std::to_string(g.dims.front()) +
                  ",... mixes processor and storage dimensions); Algorithm A5 is built for "
                  "separable SDPs only: section 4.3.3 constructs it for real GSHs, and section "
                  "4.4 only names it (\"one can employ the same algorithm as if there is no "
                  "virtual dimension, for instance Algorithms A4, A5, or A6\") without a "
                  "construction, so it is not built here; use --method a4 or a6 (n-port) or a1 "
                  "(one-port)");
    }
  }
  const auto seqs = a5Exchanges(cls.gshs, gamma);
  const int mu = a5Mu(cls.gshs, gamma);
  if (sdp.k < mu) {
    throw Error("--k " + std::to_string(u64{1} << sdp.k) + ": Algorithm A5 with gamma = " +
                std::to_string(gamma) + " holds mu = " + std::to_string(mu) +
                " blocks in flight, one pivot storage dimension each (section 4.3.3: a data set "
                "of at least 2^mu per processor); it needs K >= " +
                std::to_string(u64{1} << mu));
  }
  SdpRouter r(sdp, false, false, lanes, algo);
  const u64 parts = seqs.size();
  const size_t len = seqs.front().size();
  const unsigned shift = static_cast<unsigned>(mu);
  for (size_t round = 0; round < len; ++round) {
    r.linkRound(
        [&seqs, parts, round, shift](u64, u64 node, u32 slot) {
          const A5Exchange& e = seqs[(slot >> shift) % parts][round];
          if (e.dim < 0 || bitOf(node, e.dim) == bitOf(slot, e.pivot)) {
            return SdpRouter::Step{-1, slot};
          }
          return SdpRouter::Step{e.dim, slot ^ (u32{1} << e.pivot)};
        },
        packet);
  }
  // Pivot b now holds the bit of the pivot of the next block of its GSH: rotate each GSH's pivots
  // back by local swaps (the paper's "local shuffle").
  int first = 0;
  for (const auto& blocks : a5Blocks(cls.gshs, gamma)) {
    const int mu_i = static_cast<int>(blocks.size());
    for (int b = 1; b < mu_i; ++b) r.localSwap(sdp.n + first, sdp.n + first + b);
    first += mu_i;
  }
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) r.pivotCycle(g, packet);
  }
  return r.finish();
}

}  // namespace hcube

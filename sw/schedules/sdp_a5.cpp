// hcube: Algorithm A5's sequences (Ho & Johnsson 1988 §4.3.3, Lemma 8, Table 2; see sdp_a5.h).
#include "schedules/sdp_a5.h"

#include <algorithm>

#include "error.h"

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

}  // namespace hcube

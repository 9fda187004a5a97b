// hcube: Algorithm A6 and the n-port A1 by grouping (Ho & Johnsson 1988 §4.1, §4.3.3; see
// sdp_a6.h).
#include "algorithms/sdp/sdp_a6.h"

#include <algorithm>
#include <map>

#include "algorithms/sdp/sdp_a4.h"
#include "base/error.h"

namespace hcube {
namespace {

struct Best {
  int f = 0;
  std::vector<std::vector<int>> blocks;  ///< indices into the key's elements
};

/// f over the multiset `key` (sorted), with the partition reaching it.
const Best& solve(const std::vector<int>& key, std::map<std::vector<int>, Best>& memo) {
  const auto it = memo.find(key);
  if (it != memo.end()) return it->second;
  Best best;
  if (key.size() == 1) {
    best.f = key[0];
  } else {
    // Every set partition into >= 2 blocks, as restricted growth strings.
    const size_t n = key.size();
    std::vector<int> rg(n, 0);
    best.f = -1;
    while (true) {
      const int blocks = *std::max_element(rg.begin(), rg.end()) + 1;
      if (blocks >= 2) {
        std::vector<std::vector<int>> parts(static_cast<size_t>(blocks));
        for (size_t i = 0; i < n; ++i)
          parts[static_cast<size_t>(rg[i])].push_back(static_cast<int>(i));
        int worst = 0;
        for (const auto& p : parts) {
          std::vector<int> sub;
          for (const int i : p) sub.push_back(key[static_cast<size_t>(i)]);
          std::sort(sub.begin(), sub.end());
          worst = std::max(worst, solve(sub, memo).f);
        }
        if (best.f < 0 || blocks * worst < best.f) {
          best.f = blocks * worst;
          best.blocks = parts;
        }
      }
      // Next restricted growth string.
      size_t i = n - 1;
      while (i > 0) {
        int prefix_max = 0;
        for (size_t j = 0; j < i; ++j) prefix_max = std::max(prefix_max, rg[j]);
        if (rg[i] <= prefix_max) {
          ++rg[i];
          std::fill(rg.begin() + static_cast<long>(i) + 1, rg.end(), 0);
          break;
        }
        --i;
      }
      if (i == 0) break;
    }
  }
  return memo.emplace(key, std::move(best)).first->second;
}

/// The tree for the multiset of GSH indices `members` (values s[i]).
A6Group build(const std::vector<int>& members, const std::vector<int>& s,
              std::map<std::vector<int>, Best>& memo) {
  A6Group g;
  if (members.size() == 1) {
    g.gsh = members[0];
    g.cycles = s[static_cast<size_t>(members[0])];
    return g;
  }
  std::vector<int> order = members;
  std::stable_sort(order.begin(), order.end(), [&s](int a, int b) {
    return s[static_cast<size_t>(a)] < s[static_cast<size_t>(b)];
  });
  std::vector<int> key;
  for (const int m : order) key.push_back(s[static_cast<size_t>(m)]);
  const Best& best = solve(key, memo);
  int worst = 0;
  for (const auto& block : best.blocks) {
    std::vector<int> sub;
    for (const int i : block) sub.push_back(order[static_cast<size_t>(i)]);
    g.groups.push_back(build(sub, s, memo));
    worst = std::max(worst, g.groups.back().cycles);
  }
  g.cycles = static_cast<int>(g.groups.size()) * worst;
  return g;
}

std::vector<const Gsh*> realGshs(const SdpClass& cls) {
  std::vector<const Gsh*> real;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kReal) real.push_back(&g);
  }
  return real;
}

}  // namespace

int lemma11F(const std::vector<int>& s) {
  if (s.empty() || s.size() > 10) throw Error("Lemma 11: f(S) needs 1..10 elements");
  std::vector<int> key = s;
  std::sort(key.begin(), key.end());
  std::map<std::vector<int>, Best> memo;
  return solve(key, memo).f;
}

std::vector<int> lemma11PairingStep(const std::vector<int>& s, int i) {
  const int lo = 1 << i;
  const int hi = 1 << (i + 1);
  std::vector<int> in;
  std::vector<int> rest;
  for (const int x : s) (x >= lo && x < hi ? in : rest).push_back(x);
  std::sort(in.begin(), in.end());
  std::vector<int> out;
  for (size_t z = 0; z + 1 < in.size(); z += 2) out.push_back(2 * std::max(in[z], in[z + 1]));
  if (in.size() % 2 == 1) out.push_back(hi);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

A6Group a6Grouping(const SdpClass& cls, bool flat) {
  const std::vector<const Gsh*> real = realGshs(cls);
  std::vector<int> s;
  std::vector<int> members;
  for (size_t i = 0; i < real.size(); ++i) {
    s.push_back(real[i]->sigma() + 1);
    members.push_back(static_cast<int>(i));
  }
  if (real.empty()) return {};
  if (flat && real.size() > 1) {
    A6Group root;
    int worst = 0;
    for (const int m : members) {
      A6Group leaf;
      leaf.gsh = m;
      leaf.cycles = s[static_cast<size_t>(m)];
      worst = std::max(worst, leaf.cycles);
      root.groups.push_back(leaf);
    }
    root.cycles = static_cast<int>(root.groups.size()) * worst;
    return root;
  }
  if (real.size() > 10) throw Error("Algorithm A6: more than 10 GSHs to group");
  std::map<std::vector<int>, Best> memo;
  return build(members, s, memo);
}

std::vector<int> a6Sequence(const A6Group& g, const std::vector<const Gsh*>& real, u64 m) {
  if (g.gsh >= 0) {
    const Gsh& gsh = *real[static_cast<size_t>(g.gsh)];
    return a1NPortSequences(gsh)[m % static_cast<u64>(gsh.sigma())];
  }
  const u64 mu = g.groups.size();
  const u64 i = m % mu;
  int phase = 0;
  for (const A6Group& c : g.groups) phase = std::max(phase, c.cycles);
  std::vector<int> seq;
  for (u64 t = 0; t < mu; ++t) {
    std::vector<int> part = a6Sequence(g.groups[(i + t) % mu], real, m / mu);
    part.resize(static_cast<size_t>(phase), -1);
    seq.insert(seq.end(), part.begin(), part.end());
  }
  return seq;
}

SdpSchedule sdpA6Schedule(const Sdp& sdp, const SdpClass& cls, bool flat, u64 packet, int lanes,
                          const std::string& algo) {
  // Section 4.4: on a non-separable SDP the grouping and the sequences are those of its GSHs'
  // processor dimensions; sdpConcurrentSequences adds the mixed GSHs' local exchanges.
  const SdpClass real_cls = cls.separable ? cls : realifiedClass(sdp, cls);
  const A6Group root = a6Grouping(real_cls, flat);
  const std::vector<const Gsh*> real = realGshs(real_cls);
  const u64 pairs = sdp.k >= 1 ? u64{1} << (sdp.k - 1) : 0;
  std::vector<std::vector<int>> seqs;
  for (u64 m = 0; m < pairs; ++m) seqs.push_back(a6Sequence(root, real, m));
  return sdpConcurrentSequences(sdp, cls, seqs, packet, lanes, algo);
}

}  // namespace hcube

// hcube: Algorithm A2, one-port (Ho & Johnsson 1988 §4.3.2 and §4.6; see sdp_a2.h).
#include "schedules/sdp_a2.h"

#include <algorithm>

#include "error.h"

namespace hcube {

SdpSchedule sdpA2Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo) {
  const int n = sdp.n;
  std::vector<bool> in_j(static_cast<size_t>(sdp.q()), false);
  for (const Gsh& g : cls.gshs) {
    for (const int d : g.dims) in_j[static_cast<size_t>(d)] = true;
  }
  std::vector<int> free_storage;
  for (int d = n; d < sdp.q(); ++d) {
    if (!in_j[static_cast<size_t>(d)]) free_storage.push_back(d);
  }
  // The groups of GSHs whose AAPCs run together: all of them when sigma_p storage dimensions are
  // free, else one GSH after the other (§4.6, Table 5: the same complexity with K >= 2^sigma_max).
  std::vector<std::vector<const Gsh*>> groups(1);
  for (const Gsh& g : cls.gshs) groups[0].push_back(&g);
  if (free_storage.size() < static_cast<size_t>(cls.sigma_p)) {
    int most = 0;
    for (const Gsh& g : cls.gshs) most = std::max(most, g.sigma_p);
    if (free_storage.size() < static_cast<size_t>(most)) {
      throw Error(
          "--method a2: Algorithm A2 (section 4.3.2) exchanges each moved processor dimension of a "
          "GSH with its own storage dimension outside the permutation, the GSHs together "
          "(sigma_p = " +
          std::to_string(cls.sigma_p) + ") or one after the other (section 4.6: the largest GSH, " +
          std::to_string(most) + "), but only " + std::to_string(free_storage.size()) +
          " of the log2 K = " + std::to_string(sdp.k) +
          " storage dimensions are free; use K >= 2^" +
          std::to_string(static_cast<size_t>(most) +
                         (static_cast<size_t>(sdp.k) - free_storage.size())));
    }
    groups.assign(cls.gshs.size(), {});
    for (size_t i = 0; i < cls.gshs.size(); ++i) groups[i].push_back(&cls.gshs[i]);
  }
  // holder[p]: the dimension whose original content position p holds now.
  std::vector<int> holder(static_cast<size_t>(sdp.q()));
  for (int d = 0; d < sdp.q(); ++d) holder[static_cast<size_t>(d)] = d;
  auto swapHolders = [&holder](int a, int b) {
    std::swap(holder[static_cast<size_t>(a)], holder[static_cast<size_t>(b)]);
  };
  std::vector<int> from(static_cast<size_t>(sdp.q()));
  for (int d = 0; d < sdp.q(); ++d)
    from[static_cast<size_t>(sdp.delta[static_cast<size_t>(d)])] = d;
  SdpRouter r(sdp, false, true, lanes, algo);
  for (const auto& group : groups) {
    std::vector<bool> in_group(static_cast<size_t>(sdp.q()), false);
    std::vector<int> moved;  // the group's moved processor dimensions
    for (const Gsh* g : group) {
      for (const int d : g->dims) in_group[static_cast<size_t>(d)] = true;
    }
    for (int d = 0; d < n; ++d) {
      if (in_group[static_cast<size_t>(d)]) moved.push_back(d);
    }
    // First AAPC: every moved processor dimension out to its storage dimension.
    for (size_t i = 0; i < moved.size(); ++i) {
      r.exchange(free_storage[i], moved[i], packet);
      swapHolders(free_storage[i], moved[i]);
    }
    // Second AAPC: every moved processor dimension p receives the content delta sends to it.
    for (const int p : moved) {
      const int want = from[static_cast<size_t>(p)];
      const int at =
          static_cast<int>(std::find(holder.begin(), holder.end(), want) - holder.begin());
      if (at < n)
        throw Error("sdp: internal error in A2, a content wanted on the node field is there");
      r.exchange(at, p, packet);
      swapHolders(at, p);
    }
    // Local swaps restore the free storage dimensions and the group's own (selection by
    // transpositions); a later group's storage dimensions are not touched yet.
    for (int s = n; s < sdp.q(); ++s) {
      if (in_j[static_cast<size_t>(s)] && !in_group[static_cast<size_t>(s)]) continue;
      const int want = from[static_cast<size_t>(s)];
      if (holder[static_cast<size_t>(s)] == want) continue;
      const int at =
          static_cast<int>(std::find(holder.begin(), holder.end(), want) - holder.begin());
      r.localSwap(s, at);
      swapHolders(s, at);
    }
  }
  return r.finish();
}

}  // namespace hcube

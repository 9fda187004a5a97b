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

namespace {

/// One group of GSHs whose two AAPCs run together in the n-port A2: its moved processor
/// dimensions, the exchanges of the first and of the second AAPC (storage, processor), and the
/// local swaps that then restore the k_j and the group's own storage dimensions.
struct A2Group {
  std::vector<int> moved;
  std::vector<std::pair<int, int>> first;
  std::vector<std::pair<int, int>> second;
  std::vector<std::pair<int, int>> restore;
};

struct A2Plan {
  std::vector<A2Group> groups;
  std::vector<int> label_dims;  ///< storage dimensions read as the part label
  int most = 0;                 ///< the most moved processor dimensions of a group
  int free = 0;                 ///< storage dimensions outside J
};

A2Plan planA2NPort(const Sdp& sdp, const SdpClass& cls, bool rotated) {
  const int n = sdp.n;
  const size_t q = static_cast<size_t>(sdp.q());
  std::vector<bool> in_j(q, false);
  for (const Gsh& g : cls.gshs) {
    for (const int d : g.dims) in_j[static_cast<size_t>(d)] = true;
  }
  std::vector<int> free_storage;
  for (int d = n; d < sdp.q(); ++d) {
    if (!in_j[static_cast<size_t>(d)]) free_storage.push_back(d);
  }
  std::vector<std::vector<const Gsh*>> members;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) continue;
    if (rotated || members.empty()) members.emplace_back();
    members.back().push_back(&g);
  }
  std::vector<int> from(q);
  for (int d = 0; d < sdp.q(); ++d)
    from[static_cast<size_t>(sdp.delta[static_cast<size_t>(d)])] = d;
  A2Plan plan;
  plan.free = static_cast<int>(free_storage.size());
  for (const auto& group : members) {
    int moved = 0;
    for (const Gsh* g : group) moved += g->sigma_p;
    plan.most = std::max(plan.most, moved);
  }
  if (plan.most > plan.free) return plan;
  plan.label_dims.assign(free_storage.begin() + plan.most, free_storage.end());
  for (const auto& group : members) {
    A2Group out;
    std::vector<bool> in_group(q, false);
    for (const Gsh* g : group) {
      for (const int d : g->dims) in_group[static_cast<size_t>(d)] = true;
    }
    for (int d = 0; d < n; ++d) {
      if (in_group[static_cast<size_t>(d)]) out.moved.push_back(d);
    }
    std::vector<int> holder(q);
    for (size_t d = 0; d < q; ++d) holder[d] = static_cast<int>(d);
    auto where = [&holder](int content) {
      return static_cast<int>(std::find(holder.begin(), holder.end(), content) - holder.begin());
    };
    for (size_t i = 0; i < out.moved.size(); ++i) {
      out.first.push_back({free_storage[i], out.moved[i]});
      std::swap(holder[static_cast<size_t>(free_storage[i])],
                holder[static_cast<size_t>(out.moved[i])]);
    }
    for (const int p : out.moved) {
      const int at = where(from[static_cast<size_t>(p)]);
      if (at < n)
        throw Error("sdp: internal error in A2, a content wanted on the node field is there");
      out.second.push_back({at, p});
      std::swap(holder[static_cast<size_t>(at)], holder[static_cast<size_t>(p)]);
    }
    for (int s = n; s < sdp.q(); ++s) {
      if (in_j[static_cast<size_t>(s)] && !in_group[static_cast<size_t>(s)]) continue;
      const int want = in_group[static_cast<size_t>(s)] ? from[static_cast<size_t>(s)] : s;
      if (holder[static_cast<size_t>(s)] == want) continue;
      const int at = where(want);
      out.restore.push_back({s, at});
      std::swap(holder[static_cast<size_t>(s)], holder[static_cast<size_t>(at)]);
    }
    plan.groups.push_back(std::move(out));
  }
  return plan;
}

}  // namespace

int a2NPortLabelBits(const Sdp& sdp, const SdpClass& cls, bool rotated, int* sub_parts) {
  const A2Plan plan = planA2NPort(sdp, cls, rotated);
  if (sub_parts != nullptr) {
    *sub_parts = static_cast<int>(plan.groups.size()) * plan.most;
  }
  if (plan.most > plan.free) return -1;
  return static_cast<int>(plan.label_dims.size());
}

SdpSchedule sdpA2NPortSchedule(const Sdp& sdp, const SdpClass& cls, bool rotated, u64 packet,
                               int lanes, const std::string& algo, bool lockstep) {
  const A2Plan plan = planA2NPort(sdp, cls, rotated);
  const std::string method = rotated ? "--method a2r" : "--method a2 --ports all";
  if (plan.most > plan.free) {
    throw Error(method + ": Algorithm A2 (section 4.3.2" + (rotated ? ", rotated: 4.6" : "") +
                ") exchanges each moved processor dimension of " + (rotated ? "a GSH" : "the SDP") +
                " with its own storage dimension outside the "
                "permutation (" +
                std::to_string(plan.most) + " of them), but only " + std::to_string(plan.free) +
                " of the log2 K = " + std::to_string(sdp.k) +
                " storage dimensions are free; use K >= 2^" +
                std::to_string(plan.most + (sdp.k - plan.free)) +
                (rotated ? "" : " or --method a2r (the rotated form needs sigma_max)"));
  }
  const u64 slots = u64{1} << sdp.k;
  std::vector<int> label_bits;
  for (const int d : plan.label_dims) label_bits.push_back(sdp.position(d));
  // The label of every element: its first slot's label bits, in order.
  std::vector<u64> label(static_cast<size_t>(slots));
  for (u64 s = 0; s < slots; ++s) {
    u64 l = 0;
    for (size_t i = 0; i < label_bits.size(); ++i) l |= u64{bitOf(s, label_bits[i])} << i;
    label[static_cast<size_t>(s)] = l;
  }
  const u64 groups = plan.groups.size();
  SdpRouter r(sdp, false, false, lanes, algo);
  // Part p holds the labels l with l mod G = p; for a group of m moved dimensions its sub-part j
  // the ones with (l / G) mod m = j, w = (l / G) / m the label's place in it.
  const u64 labels = u64{1} << label_bits.size();
  std::vector<u64> count(groups);
  for (u64 p = 0; p < groups; ++p) count[p] = labels > p ? (labels - p + groups - 1) / groups : 0;
  for (u64 phase = 0; phase < groups; ++phase) {
    // Not in lockstep (section 4.6 rotates the parts through the GSHs; each runs at its own
    // pace): part p's routing cycle u moves its sub-parts' label w at time u W_p + w, W_p =
    // ceil(count_p / m), every label the same load on a link. The phase is cut into link rounds
    // at every part's cycle boundary u W_p, so a part whose group has fewer moved dimensions
    // sends larger sub-parts in fewer cycles while the others send theirs (the phase lasts
    // max_p 2 m_p W_p label times, not 2 sigma_max rounds of the largest sub-part). An
    // exchange's two elements share a label, so they cross in the same round.
    // In lockstep every part's cycle is as long as the largest sub-part of the phase.
    std::vector<u64> width(groups);
    for (u64 p = 0; p < groups; ++p) {
      const u64 m = plan.groups[(p + phase) % groups].moved.size();
      width[p] = (count[p] + m - 1) / m;
    }
    const u64 widest = *std::max_element(width.begin(), width.end());
    std::vector<u64> cuts{0};
    for (u64 p = 0; p < groups; ++p) {
      if (lockstep) width[p] = widest;
      const u64 m = plan.groups[(p + phase) % groups].moved.size();
      for (u64 u = 1; u <= 2 * m; ++u) cuts.push_back(u * width[p]);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t c = 0; c + 1 < cuts.size(); ++c) {
      const u64 t0 = cuts[c];
      const u64 t1 = cuts[c + 1];
      r.linkRound(
          [&plan, &label, &sdp, &width, groups, phase, slots, t0, t1](u64 e, u64 node, u32 slot) {
            const u64 l = label[static_cast<size_t>(e % slots)];
            const u64 p = l % groups;
            const A2Group& g = plan.groups[(p + phase) % groups];
            const u64 m = g.moved.size();
            const u64 u = t0 / width[p];
            const u64 at = u * width[p] + (l / groups) / m;
            if (u >= 2 * m || at < t0 || at >= t1) return SdpRouter::Step{-1, slot};
            const u64 j = (l / groups) % m;
            const auto& pairs = u < m ? g.first : g.second;
            const auto [storage, real] = pairs[(j + u % m) % m];
            const int v = sdp.position(storage);
            if (bitOf(node, real) == bitOf(slot, v)) return SdpRouter::Step{-1, slot};
            return SdpRouter::Step{real, slot ^ (u32{1} << v)};
          },
          packet);
    }
    // Each part restores the storage dimensions of the group it has just done.
    for (u64 part = 0; part < groups; ++part) {
      const A2Group& g = plan.groups[(part + phase) % groups];
      for (const auto& [a, b] : g.restore) {
        r.localSwap(a, b, [&label, groups, part, slots](u64 e) {
          return label[static_cast<size_t>(e % slots)] % groups == part;
        });
      }
    }
  }
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) r.pivotCycle(g, packet);
  }
  return r.finish();
}

}  // namespace hcube

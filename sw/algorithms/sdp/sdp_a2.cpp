// hcube: Algorithm A2 (Ho & Johnsson 1988 §4.3.2 and §4.6; see sdp_a2.h): two AAPCs by the
// project's AAPC schedules (sw/algorithms/aapc/aapc_family.h).
#include "algorithms/sdp/sdp_a2.h"

#include <algorithm>

#include "algorithms/aapc/aapc_family.h"
#include "base/error.h"

namespace hcube {

namespace {

/// Slot bit positions of the storage dimensions not in `used` (paper numbering), increasing.
std::vector<int> otherPositions(const Sdp& sdp, const std::vector<int>& used) {
  std::vector<bool> skip(static_cast<size_t>(sdp.k), false);
  for (const int d : used) skip[static_cast<size_t>(sdp.position(d))] = true;
  std::vector<int> out;
  for (int b = 0; b < sdp.k; ++b) {
    if (!skip[static_cast<size_t>(b)]) out.push_back(b);
  }
  return out;
}

/// The bits of `slot` at `positions`, packed in order.
u64 packBits(u32 slot, const std::vector<int>& positions) {
  u64 v = 0;
  for (size_t i = 0; i < positions.size(); ++i) v |= u64{bitOf(slot, positions[i])} << i;
  return v;
}

/// The storage dimensions of the pairs (storage, processor).
std::vector<int> storageOf(const std::vector<std::pair<int, int>>& pairs) {
  std::vector<int> out;
  for (const auto& pr : pairs) out.push_back(pr.first);
  return out;
}

/// One AAPC of A2 with m repetitions on the pairs, by the family's schedule `aapc`.
SlotSchedule a2Aapc(const std::string& aapc, size_t dims, u64 m, int lanes, u64 packet,
                    bool blocking) {
  AapcScheduleOptions options;
  options.lanes = lanes;
  options.packet = packet;
  options.blocking = blocking;
  return aapcSlotSchedule(aapc, static_cast<int>(dims), m << dims, options);
}

}  // namespace

bool a2OneAapcSuffices(const Sdp& sdp, const SdpClass& cls) {
  bool moves = false;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) continue;
    const size_t s = g.dims.size();
    for (size_t j = 0; j < s; ++j) {
      if (!sdp.isProcessorDim(g.dims[j])) continue;
      moves = true;
      // dims[j - 1] goes to dims[j]: the content processor dimension dims[j] receives.
      if (sdp.isProcessorDim(g.dims[(j + s - 1) % s])) return false;
    }
  }
  return moves;
}

SdpSchedule sdpA2Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo, const std::string& aapc) {
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
  // Every moved processor dimension receiving from a storage dimension (section 4.4's
  // all-to-all case): the second AAPC alone does it, with no k_j.
  const bool single = a2OneAapcSuffices(sdp, cls);
  if (!single && free_storage.size() < static_cast<size_t>(cls.sigma_p)) {
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
  if (!aapcScheduleIsOnePort(aapc)) {
    throw Error("--aapc " + aapc +
                ": that AAPC schedule sends on every port in every step; the one-port A2 runs its "
                "AAPCs by --aapc exchange (Johnsson & Ho 1987 section 3.2)");
  }
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
    // First AAPC: every moved processor dimension out to its storage dimension, E(k_j, j).
    std::vector<std::pair<int, int>> first;
    for (size_t i = 0; i < moved.size() && !single; ++i) {
      first.push_back({free_storage[i], moved[i]});
      swapHolders(free_storage[i], moved[i]);
    }
    // Second AAPC: every moved processor dimension p receives the content delta sends to it,
    // E(delta(j), k_j). The pairs are disjoint, so all are known before it runs.
    std::vector<std::pair<int, int>> second;
    for (const int p : moved) {
      const int want = from[static_cast<size_t>(p)];
      const int at =
          static_cast<int>(std::find(holder.begin(), holder.end(), want) - holder.begin());
      if (at < n)
        throw InternalError(
            "sdp: internal error in A2, a content wanted on the node field is there");
      second.push_back({at, p});
    }
    for (const auto& [at, p] : second) swapHolders(at, p);
    for (const auto* pairs : {&first, &second}) {
      if (pairs->empty()) continue;
      // All K elements of a node in one AAPC: the slot bits outside the pairs number the
      // repetitions.
      const std::vector<int> others = otherPositions(sdp, storageOf(*pairs));
      const SlotSchedule s =
          a2Aapc(aapc, pairs->size(), u64{1} << others.size(), lanes, packet, false);
      SdpRouter::AapcPart part;
      part.schedule = &s;
      part.pairs = *pairs;
      part.repetition = [&others](u64, u32 slot) {
        return static_cast<long long>(packBits(slot, others));
      };
      r.aapcPhase({part}, packet);
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
  // One AAPC suffices (section 4.4): no k_j.
  const bool single = a2OneAapcSuffices(sdp, cls);
  for (const auto& group : members) {
    int moved = 0;
    for (const Gsh* g : group) moved += g->sigma_p;
    if (!single) plan.most = std::max(plan.most, moved);
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
    for (size_t i = 0; i < out.moved.size() && !single; ++i) {
      out.first.push_back({free_storage[i], out.moved[i]});
      std::swap(holder[static_cast<size_t>(free_storage[i])],
                holder[static_cast<size_t>(out.moved[i])]);
    }
    for (const int p : out.moved) {
      const int at = where(from[static_cast<size_t>(p)]);
      if (at < n)
        throw InternalError(
            "sdp: internal error in A2, a content wanted on the node field is there");
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

int a2NPortLabelBits(const Sdp& sdp, const SdpClass& cls, bool rotated, int* parts) {
  const A2Plan plan = planA2NPort(sdp, cls, rotated);
  if (parts != nullptr) *parts = static_cast<int>(plan.groups.size());
  if (plan.most > plan.free) return -1;
  return static_cast<int>(plan.label_dims.size());
}

SdpSchedule sdpA2NPortSchedule(const Sdp& sdp, const SdpClass& cls, bool rotated, u64 packet,
                               int lanes, const std::string& algo, const std::string& aapc,
                               bool blocking, bool lockstep) {
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
  std::vector<int> label_bits;
  for (const int d : plan.label_dims) label_bits.push_back(sdp.position(d));
  const u64 groups = plan.groups.size();
  SdpRouter r(sdp, false, false, lanes, algo);
  // Part p holds the labels l with l mod G = p (G = beta rotated, 1 plain), count_p of them.
  const u64 labels = u64{1} << label_bits.size();
  std::vector<u64> count(groups);
  for (u64 p = 0; p < groups; ++p) count[p] = labels > p ? (labels - p + groups - 1) / groups : 0;
  // In lockstep every part's AAPC is built for the largest part's labels (its missing
  // repetitions empty), so parts whose GSHs have the same order share their block transfers.
  const u64 most_labels = *std::max_element(count.begin(), count.end());
  for (u64 phase = 0; phase < groups; ++phase) {
    for (const bool second : {false, true}) {
      // Part p runs the AAPC of group (p + phase) mod G on its own data: repetition h = its
      // label's place among the part's labels, then the slot bits outside the pairs and labels.
      std::vector<SlotSchedule> schedules;
      std::vector<std::vector<int>> others(groups);
      schedules.reserve(groups);
      std::vector<SdpRouter::AapcPart> parts;
      for (u64 p = 0; p < groups; ++p) {
        if (count[p] == 0) continue;
        const A2Group& g = plan.groups[(p + phase) % groups];
        const auto& pairs = second ? g.second : g.first;
        if (pairs.empty()) continue;
        std::vector<int> used = storageOf(pairs);
        used.insert(used.end(), plan.label_dims.begin(), plan.label_dims.end());
        others[p] = otherPositions(sdp, used);
        const u64 m = (lockstep ? most_labels : count[p]) << others[p].size();
        schedules.push_back(a2Aapc(aapc, pairs.size(), m, lanes, packet, blocking));
        SdpRouter::AapcPart part;
        part.schedule = &schedules.back();
        part.pairs = pairs;
        const std::vector<int>& rest = others[p];
        part.repetition = [&label_bits, &rest, groups, p](u64, u32 slot) -> long long {
          const u64 l = packBits(slot, label_bits);
          if (l % groups != p) return -1;
          return static_cast<long long>(((l / groups) << rest.size()) | packBits(slot, rest));
        };
        parts.push_back(std::move(part));
      }
      r.aapcPhase(parts, packet);
    }
    // Each part restores the storage dimensions of the group it has just done.
    for (u64 part = 0; part < groups; ++part) {
      const A2Group& g = plan.groups[(part + phase) % groups];
      for (const auto& [a, b] : g.restore) {
        r.localSwap(a, b, [&label_bits, groups, part, &r](u64 e) {
          return packBits(r.slots()[e], label_bits) % groups == part;
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

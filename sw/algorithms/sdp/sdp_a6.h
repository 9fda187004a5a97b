// hcube: Algorithm A6 of Ho & Johnsson 1988 §4.3.3 (n-port): recursive grouping of the GSHs
// (Lemma 11, Theorem 2, Figure 8). The data is split into mu equal parts, part i runs the groups
// SDP_i, SDP_(i+1), ..., SDP_(i-1) one after the other while the other parts run the others, each
// group recursively the same way on its share, and a single GSH by the n-port Algorithm A1
// (§4.2.1: its share split into sigma parts, part j along Seq_j = L^j(J), a_j). With
// S = {sigma_i + 1} the number of routing cycles (start-ups) is f(S) of Lemma 11: f({s}) = s,
// otherwise the least mu * max f(S_i) over the partitions of S into mu >= 2 sets.
//
// The n-port Algorithm A1 for an SDP (all GSHs concurrently on split data, beta (sigma_max + 1)
// start-ups, §4.1) is the flat grouping: one group per GSH.
//
// Running it: every pair of slots {2m, 2m+1} (slot bit 0 is A1's storage dimension v) is a part
// of its own; its exchange sequence follows the grouping tree by m mod mu at every level (m / mu
// below), padded with idle cycles where its group is done before the others of its phase.
//
// Non-separable SDPs (section 4.4: "one can employ the same algorithm as if there is no virtual
// dimension, for instance Algorithms A4, A5, or A6"): the grouping and the sequences are those of
// the GSHs' processor dimensions (realifiedClass, S = {sigma_p_i + 1}), and the mixed GSHs'
// storage dimensions are exchanged with v locally in between (sdpConcurrentSequences).
#pragma once

#include <string>
#include <vector>

#include "algorithms/sdp/sdp_rounds.h"
#include "spec/sdp.h"

namespace hcube {

/// Lemma 11's f(S) (exact, over every partition; |S| <= 10).
int lemma11F(const std::vector<int>& s);

/// One step of the proof of Lemma 11: the elements of S in [2^i, 2^(i+1)), sorted, paired, each
/// pair becoming 2 max, an unpaired one 2^(i+1); the pairs first, then the unpaired one, then the
/// other elements in their order.
std::vector<int> lemma11PairingStep(const std::vector<int>& s, int i);

/// A grouping tree: a leaf is one real GSH (index into the real GSHs), an inner node its groups.
struct A6Group {
  int gsh = -1;
  std::vector<A6Group> groups;
  int cycles = 0;  ///< routing cycles (start-ups): sigma + 1 for a leaf, mu * max for a node
};

/// The grouping minimising f(S), S = {sigma_i + 1} over the real GSHs of `cls` (A6), or the flat
/// one (the n-port A1).
A6Group a6Grouping(const SdpClass& cls, bool flat);

/// The exchange sequence of slot pair m (length root.cycles, -1 = idle).
std::vector<int> a6Sequence(const A6Group& root, const std::vector<const Gsh*>& real, u64 m);

/// The schedule (n-port), separable or not. Throws Error naming why it does not apply (K = 1,
/// every storage dimension in a mixed GSH).
SdpSchedule sdpA6Schedule(const Sdp& sdp, const SdpClass& cls, bool flat, u64 packet, int lanes,
                          const std::string& algo);

}  // namespace hcube

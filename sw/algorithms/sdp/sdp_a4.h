// hcube: Algorithm A4 of Ho & Johnsson 1988 §4.3.3 ("combining generalized shuffle
// permutations"), n-port, for a real SDP, and the machinery it shares with the n-port A1
// (§4.2.1, Seq_i = L^i(J), a_i): the data set is split into parts, part i runs Algorithm A1's
// exchanges E(v, d) along its own exchange sequence Seq_i, all parts at the same time, one
// routing cycle (one message of up to B elements per link, one start-up) per sequence entry.
//
// A4's sequences (Table 1): Seq_0 = J0, a00, J1, a10, ..., J(beta-1), a(beta-1)0 (A1's one-port
// order), and Seq_(k+1) is Seq_k rotated left by one with delta applied to the entry that wrapped
// around, for sigma_p + beta + sigma_min - 1 sequences. Lemma 7: no processor dimension is used by
// more than two sequences in any routing cycle, so a cycle carries at most 2 K/(2P) elements per
// link when the K elements of a node are split into P parts.
//
// Parts: v is the lowest storage dimension (slot bit 0); the K/2 slot pairs {2m, 2m+1} (which an
// exchange with v keeps together) are dealt to the parts round robin, pair m to part m mod P.
//
// Non-separable SDPs (mixed GSHs), section 4.4: "With n-port communication, one can employ the
// same algorithm as if there is no virtual dimension, for instance Algorithms A4, A5, or A6. The
// communication complexity is determined by the number of real dimensions". A4 does so here: the
// sequences are built over each GSH's processor dimensions (sigma_p + beta routing cycles, beta
// counting the real and the mixed GSHs), and a mixed GSH's storage dimensions are exchanged with
// v locally between them (sdp_a4.cpp). v is then the lowest storage dimension in no mixed GSH.
// Section 4.4 also counts m'_s, "the number of virtual dimensions that have a succeeding real
// dimension in the index set", as the number of sequences that "can be run concurrently without
// any extra storage requirement", but constructs none of them (which data each carries, how they
// share the storage dimensions they pivot on). They are not built: v is a storage dimension the
// data already has, so no memory is added, and with no such v (every storage dimension in a
// mixed GSH) A4, A6 and the n-port A1 are refused with m'_s in the message.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "algorithms/sdp/sdp_rounds.h"
#include "spec/sdp.h"

namespace hcube {

/// Table 1: A4's sigma_p + beta + sigma_min - 1 exchange sequences for the real GSHs of `cls`
/// (in their order), each sigma_p + beta processor dimensions long. A mixed GSH takes part by
/// its processor dimensions in cyclic order (section 4.4), the rotation's delta then being the
/// next processor dimension of its cycle.
std::vector<std::vector<int>> a4Sequences(const Sdp& sdp, const SdpClass& cls);

/// Per processor dimension of a real or mixed GSH: the next processor dimension of its cycle
/// (delta itself for a real GSH).
std::map<int, int> a4RealNext(const Sdp& sdp, const SdpClass& cls);

/// §4.2.1: the n-port A1 sequences of one GSH, Seq_i = L^i(J), a_i, 0 <= i < sigma.
std::vector<std::vector<int>> a1NPortSequences(const Gsh& g);

/// The most sequences using one dimension in one routing cycle (Lemma 7: 2 for A4).
int maxSequencesPerDimension(const std::vector<std::vector<int>>& seqs);

/// The SDP with each mixed GSH replaced by its processor dimensions in cyclic order, as a real
/// GSH (section 4.4: the n-port algorithms "as if there is no virtual dimension"); beta_real then
/// counts the real and mixed GSHs. Used to build the A6 / n-port A1 sequences of a mixed SDP.
SdpClass realifiedClass(const Sdp& sdp, const SdpClass& cls);

/// Runs the sequences concurrently (part i of the data along seqs[i]; all the same length, -1 =
/// idle), each routing cycle cut into messages of at most `packet` elements. Every sequence is
/// over processor dimensions only and visits each real or mixed GSH as Algorithm A1's chain
/// r_j, ..., r_j; a mixed GSH's storage dimensions are exchanged with v locally in between
/// (section 4.4, sdp_a4.cpp). Virtual GSHs follow as local swaps. Throws Error when K = 1 or every
/// storage dimension is in a mixed GSH (no v).
SdpSchedule sdpConcurrentSequences(const Sdp& sdp, const SdpClass& cls,
                                   const std::vector<std::vector<int>>& seqs, u64 packet, int lanes,
                                   const std::string& algo);

/// The A4 schedule (n-port), separable or not (section 4.4). Throws Error naming why when it does
/// not apply: K = 1, or no storage dimension outside the mixed GSHs (no v for A1's exchanges).
SdpSchedule sdpA4Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo);

/// Table 3's A4 complexity with t_c = 1: (sigma_p + beta) K / P element cycles and
/// (sigma_p + beta) ceil(K / (P B)) start-ups, P = sigma_p + beta + sigma_min - 1 (exact when
/// 2P divides K; rounded up otherwise).
struct SdpA4Formula {
  u64 parts = 0;
  double transfer_cycles = 0;
  u64 startups = 0;
};
SdpA4Formula sdpA4Formula(const Sdp& sdp, const SdpClass& cls, u64 packet);

}  // namespace hcube

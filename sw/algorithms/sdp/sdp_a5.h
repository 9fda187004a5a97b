// hcube: Algorithm A5 of Ho & Johnsson 1988 §4.3.3 (n-port): every GSH of order above gamma is
// split by Lemma 8 into GSHs of order gamma (padded with dummy dimensions phi) plus the coupling
// GSH of the blocks' first dimensions, and the gamma * mu exchange sequences
// Seq_(mu l + j) = L^j(S_0(l)), ..., L^j(S_gamma(l)) run concurrently (Table 2).
//
// The dummy dimensions (what we decided, and why). In the l = 0 sequences phi only ends the last
// block of a GSH, and skipping the exchange with phi is exactly Lemma 8 with a block of order
// gamma - (padding): the paper's worked example (J0 = 6, 7, phi) does that. After the l-step
// rotation phi can stand inside a block or head one (S_gamma(2) = 5, phi, 2, 10 in Table 2):
//  - inside a block (phi at position k > 0), skipping E(v, phi) leaves the element of the block's
//    previous dimension in the pivot and the next exchange moves it on, so the block realizes the
//    GSH with phi removed, which is the original GSH's order (alpha_(s-1) -> alpha_0 across the
//    padding);
//  - at a block's head, the block's first real exchange moves the pivot's own bit into the
//    block's first real dimension x1, the place the coupling GSH must fill; so the coupling
//    exchange E(v_prev, phi) is done as E(v_prev, x1): x1 receives the previous block's last
//    element and v_prev the pivot bit of this block, exactly what a real head would give.
// A real scratch dimension in place of phi would instead move its constant bit into alpha_0.
// So every sequence realizes the SDP (checked element by element on every run), each block's
// pivot v_b ends holding the bit of the next block's pivot (the storage rotation of the paper's
// example), the same in every sequence, and one local shuffle restores it. The cost of the
// substitution: in a coupling cycle x1 may also be used by another sequence, so that cycle can
// carry two parts on a link (Lemma 10's "no contention" is not claimed for a substituted
// coupling exchange).
//
// On the cube: each sequence needs mu pivots, the slot bits 0 .. mu-1 (pivot of block b: bit b,
// the same for every sequence); the K / 2^mu groups of slots that differ only there are dealt to
// the gamma mu sequences round robin (group m to sequence m mod gamma mu), so K >= 2^mu; below
// K = gamma mu 2^mu some sequences get no data and the others carry more per link, so Table 3's
// element time needs K >= gamma mu 2^mu.
#pragma once

#include <string>
#include <vector>

#include "algorithms/sdp/sdp_rounds.h"
#include "spec/sdp.h"

namespace hcube {

/// The dummy dimension phi in a sequence.
constexpr int kSdpDummy = -1;

/// Lemma 8 partition of each real GSH (in the order of `gshs`) into blocks of gamma dimensions,
/// the last padded with kSdpDummy: blocks[i][j] is J_(i,j).
std::vector<std::vector<std::vector<int>>> a5Blocks(const std::vector<Gsh>& gshs, int gamma);

/// Table 2: the gamma * mu sequences, each (gamma + 1) * mu dimensions (kSdpDummy for phi).
/// Throws Error if gamma is not in 2 .. sigma_max.
std::vector<std::vector<int>> a5Sequences(const std::vector<Gsh>& gshs, int gamma);

/// mu = sum over the real GSHs of ceil(sigma_i / gamma); start-ups (gamma + 1) mu with the
/// optimal packet (§4.3.3).
int a5Mu(const std::vector<Gsh>& gshs, int gamma);
int a5Startups(const std::vector<Gsh>& gshs, int gamma);

/// One routing cycle of one A5 sequence: E(pivot, dim), dim -1 when the entry is a skipped phi.
struct A5Exchange {
  int dim = -1;
  int pivot = 0;  ///< the block (0 .. mu-1, the order of a5Blocks) whose pivot is exchanged
  bool operator==(const A5Exchange&) const = default;
};

/// Table 2's sequences with the dummy dimensions resolved as the file comment says: phi in a
/// block cycle is skipped, phi heading a block in the coupling cycle is that block's first real
/// dimension. Same shape as a5Sequences.
std::vector<std::vector<A5Exchange>> a5Exchanges(const std::vector<Gsh>& gshs, int gamma);

/// The A5 schedule (n-port): the sequences concurrently on the data parts, then the local shuffle
/// restoring the pivots, then the virtual GSHs as local swaps. Throws Error naming why when it
/// does not apply: a mixed GSH (section 4.4 names A5 for non-separable SDPs without a construction;
/// not built here), gamma out of range, or K < 2^mu.
SdpSchedule sdpA5Schedule(const Sdp& sdp, const SdpClass& cls, int gamma, u64 packet, int lanes,
                          const std::string& algo);

}  // namespace hcube

// hcube: Algorithm A5 of Ho & Johnsson 1988 §4.3.3 (n-port): every GSH of order above gamma is
// split by Lemma 8 into GSHs of order gamma (padded with dummy dimensions phi) plus the coupling
// GSH of the blocks' first dimensions, and the gamma * mu exchange sequences
// Seq_(mu l + j) = L^j(S_0(l)), ..., L^j(S_gamma(l)) run concurrently (Table 2).
//
// What is here: the sequences and the start-up count (gamma + 1) mu, mu = sum ceil(sigma_i /
// gamma), as golden values. Not here (unfinished): running A5 on the cube. The paper's use of the
// dummy dimensions is not settled by the text: a phi that heads a block after the l-step
// rotation (S_gamma(2) = 5, phi, 2, 10 in Table 2) takes part in the coupling GSH, so phi cannot
// simply be skipped, and a real scratch dimension in its place permutes a constant into a
// processor dimension; we did not derive a schedule we could prove, so the catalogue refuses
// --method a5.
#pragma once

#include <vector>

#include "sdp.h"

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

}  // namespace hcube

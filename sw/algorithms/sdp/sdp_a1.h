// hcube: Algorithms A1 and A1' of Ho & Johnsson 1988 §4.2.1 (from Johnsson & Ho, "Shuffle
// Permutations on Boolean Cubes", RR-653, where they are A2 / A2'), one-port, for an SDP done
// GSH after GSH (Lemma 5, Corollary 3; §4.4 for the mixed GSHs).
//
// A1, real GSH (a0 a1 ... a(s-1)) (dimension a_j goes to a_(j+1)): exchanges E(v, a0),
// E(v, a1), ..., E(v, a(s-1)), E(v, a0) with one storage dimension v; each moves K/2 elements
// across one processor dimension, s + 1 start-ups (one per message of up to B elements).
//
// Mixed GSH (§4.4: "Algorithm A1 should be used for the mixed cycles"): the cycle is rotated to
// start at a storage dimension a0, which serves as v: E(a0, a1), ..., E(a0, a(s-1)) realise the
// cycle (a_(j+1) receives a_j's content, a0 the last one's). Exchanges with a processor
// dimension are communications (sigma_p of them); exchanges of two storage dimensions are local
// swaps (PERMUTE cycles, the local data movement the paper ignores). A virtual GSH is local only.
// Together: (sigma_p + beta') exchanges of K/2 elements, beta' the real GSHs, as §4.4 states.
//
// A1' (real GSH; the paper's v in Q_s - Gamma_s, a storage dimension holding no data): we give
// every node K scratch slots, slot bit k is v. Step j crosses a_j, every dimension once (all
// shortest paths), sigma steps. The paper leaves the slot bookkeeping to [9]; we derived it: an
// element that started at node x crosses a_j in step j iff x_(a_j) != x_(a_(j-1)) (a_(-1) =
// a_(s-1)), and flips v when it crosses, so v is the parity of its crossings so far, which is
// x_(a_j) xor x_(a_(s-1)) after step j — the missing bit x_(a_j) is recoverable (the slots never
// collide) and v is 0 again after the last step (the element is home in slot < K).
#pragma once

#include <string>

#include "algorithms/sdp/sdp_rounds.h"
#include "spec/sdp.h"

namespace hcube {

enum class SdpA1Variant { kA1, kA1Prime };

/// The one-port A1 or A1' schedule of `sdp`, GSH after GSH in the order of `cls.gshs` (real
/// GSHs first, then mixed, then virtual). Throws Error when the algorithm does not apply: A1
/// with a real GSH and no storage dimension (K = 1) to exchange with.
SdpSchedule sdpA1Schedule(const Sdp& sdp, const SdpClass& cls, SdpA1Variant variant, u64 packet,
                          int lanes, const std::string& algo);

/// Table 3 / §4.4, one-port, t_c = 1: A1 (sigma_p + beta')(K/2 + ceil(K/2B) tau); A1'
/// sigma_p(K + ceil(K/B) tau) for the real GSHs plus A1's cost for the mixed ones.
struct SdpFormula {
  u64 startups = 0;
  u64 transfer_cycles = 0;
  u64 cycles(u64 tau) const { return transfer_cycles + startups * tau; }
};
SdpFormula sdpA1Formula(const Sdp& sdp, const SdpClass& cls, SdpA1Variant variant, u64 packet);

/// The n-port Algorithm A1' (§4.2.1: Seq_i = L^i(J), no repeated first dimension; §4.1 and
/// Lemma 6 for the SDP). The real GSHs' data is split into beta' parts (slot s belongs to part
/// s mod beta'), and part i runs the GSHs J_i, J_(i+1), ..., J_(i-1) in that order, one phase
/// each, all parts at once; within a phase, the part's share for GSH J (sigma = |J|) is split
/// again, slot s to sub-part j = (s / beta') mod sigma, and sub-part j runs A1' along L^j(J): in
/// routing cycle u it crosses the dimension a_(j+u), so the sub-parts of one GSH use different
/// dimensions in every routing cycle and the GSHs' dimensions are disjoint. The parts do not
/// run in lockstep: part i's routing cycle u sends its sub-part element w at time u W_i + w
/// (W_i = its largest sub-part), and the phase is cut into link rounds at every part's cycle
/// boundary, so a phase lasts max_i sigma_i W_i element cycles: K / beta' when beta' sigma_i
/// divides K for every GSH, equal orders or not, and Table 3's K t_c + beta sigma_max tau then
/// holds with B = K / (beta sigma_max) (every cut is a multiple of B). Slot bit k is
/// A1''s v (memory 2K, Table 6). Only A1' flips v, so elements of different sub-parts never meet
/// in one slot (their slots differ below K). Virtual GSHs follow as local swaps. Throws Error for
/// a mixed GSH: §4.4, the paper's only passage on non-separable SDPs, gives the mixed cycles to A1
/// one-port ("Algorithm A1 should be used for the mixed cycles") and to A4, A5 or A6 n-port.
///
/// With `lockstep`, every part's routing cycle is as long as the phase's largest sub-part
/// (sigma_max rounds a phase): more element cycles when the orders differ, but fewer start-ups
/// when beta sigma_i does not divide K (the cuts of the parts then do not align). Section 4.1:
/// running each GSH independently is optimal "if either there is no start-up time, or all the
/// GSH's have the same real order"; `hcube run` builds both and runs the cheaper for its tau.
SdpSchedule sdpA1PrimeNPortSchedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                                    const std::string& algo, bool lockstep = false);

/// Table 3, n-port A1': K t_c + beta sigma_max ceil(K / (sigma_max beta B)) tau.
SdpFormula sdpA1PrimeNPortFormula(const Sdp& sdp, const SdpClass& cls, u64 packet);

}  // namespace hcube

// hcube: Algorithm A3 of Ho & Johnsson 1988 §4.3.2 (the SDP by recursive exchanges of dimension
// subsets, each exchange step a matrix transposition with two-dimensional partitioning, Johnsson &
// Ho 1987 §6.1), one-port with the Single Path Transpose (SPT, no pipelining) and n-port with the
// Dual Path Transpose pipelined in packets of B elements (the best n-port two-dimensional
// transpose the project has that applies to any set of disjoint dimension pairs).
//
// The recursion. A GSH (a_0 ... a_(s-1)) (a_j's content goes to a_(j+1)) is rotated by rotating
// its halves a_0..a_(h-1) and a_h..a_(s-1) (h = ceil(s/2)) concurrently, then swapping a_0 with
// a_h: the half rotations leave a_(h-1)'s content on a_0 and a_(s-1)'s on a_h, the swap puts each
// where the whole rotation wants it. T(s) = T(ceil(s/2)) + 1, T(1) = 0: ceil(log2 s) steps, each a
// set of disjoint dimension transpositions; all GSHs run their steps together, so an SDP takes
// ceil(log2 sigma_max) steps (sigma_max over the total orders of the GSHs; for a separable SDP the
// paper's sigma_max).
//
// A step's transpositions are realised by kind. Two processor dimensions (a, b): the nodes with
// x_a != x_b send all K elements two hops, a then b (SPT, one-port, scratch slots K..2K-1 at the
// intermediate node: Table 5's memory 2K), or half via a-b and half via b-a pipelined (n-port; the
// half is slot bit k-1). A processor and a storage dimension: the exchange E(v, p) of K/2 elements.
// Two storage dimensions: a local swap (PERMUTE cycles, local data movement the paper ignores).
//
// n-port, the m processor-dimension pairs of one step run at once: the data is split into m
// sub-parts (low slot bits mod m) and in stage s sub-part j transposes pair (j + s) mod m by the
// pipelined Dual Path Transpose, so in every round the sub-parts use different pairs and each
// element crosses every pair its node differs in, one stage after the other. A stage lasts
// L = max(P, 2) rounds (P packets of at most B elements per sub-part and path), the next stage's
// first hops overlapping the last second hops (a first hop leaves a node with x_a != x_c, a
// second hop one with x_a == x_c: no link is shared), so a step takes (m - 1) L + P + 1 rounds:
// K/2B + 1 when mB divides K/2 and P >= 2, Table 3's (K/2B + 1)(tau + B t_c) per step exactly.
//
// Against Table 3. One-port, a step costs at most what the paper charges it (sigma_p K t_c +
// sigma_p ceil(K/B) tau: two hops of K for each of sigma_p / 2 pairs), and exactly that when its
// transpositions pair up all sigma_p moved dimensions: the matrix transposition (every GSH of
// order 2), which the paper singles out. The recursion's later steps pair fewer dimensions (a GSH
// of order s needs s - 1 transpositions in all), so for longer GSHs the one-port schedule is
// cheaper than the formula. n-port, a step costs Table 3's (K/2B + 1)(tau + B t_c) when mB divides
// K/2 with P >= 2 (above); otherwise the rounds are counted as they are.
// sdpA3Count gives the schedule's exact cost, sdpA3Table3 the paper's.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "algorithms/sdp/sdp_a1.h"
#include "algorithms/sdp/sdp_rounds.h"
#include "spec/sdp.h"

namespace hcube {

/// The recursive steps: step t's dimension transpositions (pairs of paper dimensions), all
/// GSHs merged. ceil(log2 of the longest GSH) steps.
std::vector<std::vector<std::pair<int, int>>> sdpA3Steps(const SdpClass& cls);

/// The shape of one n-port step with `pairs` processor-dimension pairs at once: elements per path
/// and node (half = K/2), per sub-part (part = ceil(half / pairs)), its packets, the stage length
/// L = max(packets, 2) and the rounds (pairs - 1) L + packets + 1 (0 without pairs).
struct A3NPortStep {
  u64 half = 0;
  u64 part = 0;
  u64 packets = 0;
  u64 stage = 0;
  u64 rounds = 0;
};
A3NPortStep a3NPortStep(u64 slots, u64 packet, u64 pairs);

/// The A3 schedule, one-port (SPT) or n-port (pipelined DPT), packets of `packet` elements.
SdpSchedule sdpA3Schedule(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 packet, int lanes,
                          const std::string& algo);

/// The exact start-ups and element cycles of sdpA3Schedule (from sdpA3Steps, `lanes` elements per
/// link cycle).
SdpFormula sdpA3Count(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 packet, int lanes);

/// Table 3's A3 complexity, t_c = 1: one-port ceil(log2 sigma_max)(sigma_p K + sigma_p ceil(K/B)
/// tau); n-port ceil(log2 sigma_max)(K/2B + 1)(tau + B) (start-ups ceil(log2 sigma_max)
/// (ceil(K/2B) + 1)).
SdpFormula sdpA3Table3(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 packet);

}  // namespace hcube

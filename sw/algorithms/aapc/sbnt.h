// hcube: all-to-all personalized communication routed on spanning balanced n-trees (SBnT),
// Johnsson & Ho 1987, "Algorithms for Matrix Transposition on Boolean n-cube Configured Ensemble
// Architectures", §3.1-3.2 and the SBnT pseudo-code of §5.
//
// Routing: a message from node x to node y has relative address r = x ^ y. It leaves x on port
// base(r), the least number of right rotations of r that gives the smallest of its rotations
// (bit base(r) of r is then a one), and at every node it reaches over dimension j it goes on
// over the dimension of the nearest one bit of r to the left of bit j, cyclically, until every
// one bit of r is crossed. The trees rooted at different nodes are translations of each other,
// so the schedule is homogeneous: with the hardware's relative addressing the element keeps its
// relative slot (h << d) | r on every node it passes (store-and-forward in that slot; the
// neighbour's element with the same relative slot crosses the other way in the same cycle).
//
// Scheduling, two ways:
//  * rounds (the pseudo-code): "loop n times, send concurrently on all n output ports": in round
//    k every port sends, as one block transfer, every element whose k-th hop crosses it. Round k
//    lasts as long as its busiest port; the rounds are n block transfers (n start-ups).
//  * greedy: no rounds; in every cycle every port sends one element that is ready (arrived in an
//    earlier cycle), the one with the most hops left first (ties: lowest slot). Same routes.
// Rotated spanning binomial trees (§3.1, the alternative when K/N is a multiple of n) route the
// m = K/2^d elements for one destination on d binomial trees rotated against each other; with
// m a multiple of d every round is balanced and the rounds take exactly K/2 cycles.
// Each port carries K/2 elements in all (every r with bit p set crosses dimension p once), so
// K/2 transfer cycles is the bound (the paper's T_min = K/2 t_c + n τ).
#pragma once

#include <vector>

#include "schedule/schedule.h"

namespace hcube {

/// base(r) of the SBnT pseudo-code: the least number of right rotations of the d-bit r (r != 0)
/// that yields the minimum over all its rotations.
int sbntBase(u32 r, int d);

/// The dimensions a message with relative address r crosses, in order: base(r), then the one
/// bits of r cyclically to the left.
std::vector<int> sbntPath(u32 r, int d);

/// The alternative of §3.1: rotated spanning binomial trees. The data for each destination is
/// split into parts routed on spanning binomial trees rotated against each other: here the
/// element of repetition h (K = m * 2^d) crosses the one bits of r in the order h mod d,
/// h mod d + 1, ... cyclically. Balanced when m is a multiple of d (the paper's PQ/N mod n = 0).
std::vector<int> rotatedBinomialPath(u32 r, int rotation, int d);

enum class SbntScheduling { kRounds, kGreedy };
enum class SbntTree { kBalanced, kRotatedBinomial };

/// The schedule for an AAPC on d dimensions with K = `slots` = m * 2^d elements per node, routed
/// on spanning balanced n-trees or rotated spanning binomial trees. Rounds: a block transfer
/// starts with every round; greedy: only the first step starts one. Throws Error on d or K out
/// of range.
SlotSchedule sbntSchedule(int d, u64 slots, SbntScheduling scheduling,
                          SbntTree tree = SbntTree::kBalanced);

/// Rounds scheduling: the length of each of the d rounds (elements on the busiest port).
std::vector<u64> sbntRoundLengths(int d, u64 slots, SbntTree tree = SbntTree::kBalanced);

}  // namespace hcube

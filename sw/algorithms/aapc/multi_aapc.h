// hcube: several all-to-all personalized communications (AAPCs) on successive processor axes
// with one shared set of local memory dimensions — Johnsson & Ho 1992 §2.3 and §4.
//
// S. L. Johnsson and C.-T. Ho, "Optimal Communication Channel Utilization for Matrix
// Transposition and Related Permutations on Binary Cubes", Harvard TR-16-92, 1992.
//
// The permutation (§2.3). The n node bits hold s processor axes a_1 .. a_s of d bits each
// (axis t is node bits (t-1)d .. td-1; node bits above sd name independent subcubes) and the
// k >= d local bits hold the axis a_0 in their low d bits (the bits above are a repetition
// index h, untouched, as in §2.1 for K > 2^d). The sequence of axis exchanges
//   (a_s, .., a_2, a_1 | h, a_0) -> (a_s, .., a_2, a_0 | h, a_1) -> .. -> (a_(s-1), .., a_0 | h,
//   a_s)
// is one dimension permutation of the global address: axis u moves to axis u + 1 (u < s) and
// axis s to the local axis. Table 3 of the paper is the case s = 2, d = 2: (k, j | i) -> (j, i |
// k).
//
// Alignment (§2.3, Lemma 1). With X(x) the mod-2 sum of the s axes of node x (Table 3's
// "mod 2 add." row), phase 1 maps (x | h, a_0) to (x | h, a_0 ^ X(x)); this aligned local
// address m is then invariant: the t-th AAPC moves aligned slot m of node x across axis t to
// axis value m ^ (X(x) ^ axis_t(x)), i.e. it is an AAPC whose relative address is m ^ Y_t,
// where Y_t = X(x) ^ axis_t(x) is constant within each subcube of that AAPC. Every exchange is
// between equal aligned slots, and phase 3 equals phase 1.
//
// Pipelining (§2.3, §4.1, Corollary 2). Once a pair (m, ~m) of aligned slots has finished its
// exchanges on axis t it may start on axis t + 1, whose links are disjoint. Because the
// relative address of slot m differs between subcubes (m ^ Y_t), a schedule can be pipelined
// slot by slot only if it treats a complement pair without looking at which member holds which
// bits. Precisely (the "window" condition): an axis-(t+1) subcube meets one axis-t subcube for
// every value of Y_t, so slot m may start on axis t + 1 in any subcube only after it has finished
// axis t in every subcube; the set of steps slot m uses must be the same window in every
// subcube. With every slot inside a window of d steps and the same per-subcube schedules
// shifted by d per axis, s AAPCs take K/2 + (s - 1)d steps: Corollary 2.
//
// The blocks of d complement pairs of Algorithms 1 and 4 (§3.1, §3.5.3: pair u of a block is
// exchanged in dimension (u + r) mod d in step r; the member whose relative address has that bit
// moves) satisfy it (window d, one member moves per step); Algorithm 4's combined group and
// full necklaces (§3.5.1-3.5.2) do not (their steps depend on the bits of each address). Blocks
// alone need d | K/2: a pair that moves one element per step holds one of d lanes for d steps,
// so the lanes tile the steps in multiples of d. When r = (K/2) mod d > 0 the schedule here
// starts with a sliding group of M = d + r pairs in M steps, each slot with a window of d
// consecutive steps inside them, and within a window both members of a pair may move in one
// step. Which member holds which bits depends on the subcube, so each subcube offset Y gets its
// own schedule of the group (found by a depth-first search at build time for the 2^(d-1)
// offsets Y < 2^(d-1); offset ~Y swaps the members of every pair, so its schedule is Y's with
// the members swapped; the windows are the same for every Y). For d <= 7 the group's pairs and
// windows are the first that work of: the first M pairs or the pairs of the addresses of weight
// <= 1 (0 and the unit vectors, d + 1 pairs, filled up in list order), each with windows
// starting at 0 for the first half of the pairs and at r for the rest, or spread over 0 .. r.
// When K > 2^d and 2 <= r <= K/2^d, r copies of a group of d + 1 pairs (r = 1), one per
// repetition index, are tried first. For d = 9 (the only larger d the cube allows with s >= 2:
// n = 18, K = 512 or 1024) those picks put pairs close together, so that some offsets make
// several of them nearly all-zero relative addresses, which cannot move both members in one
// step, and the search does not finish in minutes; there the pairs are the first M words of a
// linear code of pairs at pair distance >= 3 (min(w, d - w) for the weight w of the XOR of
// their members), with halves windows: K = 512 (r = 4) one group of 13 pairs in 13 steps,
// 0.3 s; K = 1024 (r = 8) two copies of it, one per repetition. The rest of the pairs follow in
// blocks of d. This meets K/2 + (s - 1)d in every case tried (d = 3, 5, 6, 7 with K = 2^d ..
// 2^min(d+7, 16), d = 9 with K = 512 and 1024; d = 1, 2, 4, 8 need no group; the search takes
// up to about 2.7 s for d = 6, K = 256, where the copies fail first). If the search finds no
// group within its budget, the schedule falls back to blocks only: d*ceil(K/2d) + (s - 1)d
// steps, the paper's count for pipelined Algorithm 1 (§3.4). The d = 9 groups are checked
// directly (every offset, every move; tests/multi_aapc_test.cpp), and the whole n = 18 schedule
// by an element-level run that takes the steps one at a time (forEachPipelinedTransferStep;
// K = 512 in a long test, 2^27 elements, every one where the reference model says; K = 1024
// once by hand), not by the table executor, which needs about 50 GB for 2^27 elements. The paper
// states Corollary 2 without a proof ("follows from Theorem 1", i.e. from Algorithm 4's span d) and
// without a condition on d and K; Algorithm 4's span d is per relative address and does not by
// itself give the window condition, which is why a different leading group is used here. Why the
// per-slot view is forced: an element with relative address r on axis t has relative address r ^ Z
// on axis t + 1, Z the XOR of its node's axes t and t + 1 when the AAPC on axis t + 1 starts; Z
// takes every value within one subcube of that AAPC, so a schedule that times each relative address
// alike in every subcube cannot overlap two AAPCs at all. For s = 1 there is nothing to pipeline
// and Algorithm 4 itself (jhAlgorithm4, K/2 steps) is used.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "schedule/schedule.h"
#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {

/// The shape of s successive AAPCs: cube dimension n, local bits k (K = 2^k), d bits per axis.
struct MultiAapcShape {
  int n = 1;
  int k = 1;
  int d = 1;
  int s = 1;
  u64 slots() const { return u64{1} << k; }
  u64 nodes() const { return u64{1} << n; }
};

/// Throws Error naming --n, --axes, --d or --k when the shape is impossible: s >= 1, d >= 1,
/// s * d <= n <= 20, d <= k <= 24, nodes * K <= 2^28 words.
void checkMultiAapcShape(const MultiAapcShape& shape);

/// §2.3: the permutation (a_s, .., a_1 | h, a_0) -> (a_(s-1), .., a_0 | h, a_s) as a dimension
/// permutation of the n + k global address bits.
PermutationSpec successiveAapcPermutation(const MultiAapcShape& shape);

/// Table 3's "mod 2 add." value of node x: the XOR of its s axes (d bits each).
u32 axesXor(const MultiAapcShape& shape, u64 node);

/// How the alignment phases of §2.3 are carried out.
enum class MultiAapcAlignment {
  /// No local data motion: aligned slot m of node x is kept in physical slot m ^ X(x) (low d
  /// bits), so the first transfer reads the unaligned data and the last one writes the
  /// realigned data; phases 1 and 3 cost nothing.
  kSlots,
  /// Phases 1 and 3 as local permutations (PERMUTE cycles, docs/hardware/node.md §2.1): the memory
  /// passes through exactly the states of Table 3. Needs n * lanes >= 2 channels.
  kExplicit,
};

/// Corollary 2 (§4.1): K/2 + (s - 1)d transfer steps for s pipelined AAPCs.
u64 corollary2Steps(const MultiAapcShape& shape);

/// Transfer steps of jhPipelinedAapcs: K/2 for s = 1 (Algorithm 4); Corollary 2's
/// K/2 + (s - 1)d when d divides K/2 or the sliding group is found (runs its search);
/// otherwise d * ceil(K/2d) + (s - 1)d.
u64 pipelinedAapcSteps(const MultiAapcShape& shape);

/// Theorem 2 (§4.2): the bound for s AAPCs with multiple concurrent AAPCs allowed:
/// K/2 + (s-1)d if s <= 3 or K <= 8d; (s + 3)d if 8d <= K <= 2(s + 1)d; K/2 + 2d if
/// K >= 2(s + 1)d.
u64 theorem2Steps(const MultiAapcShape& shape);

/// The leading group of the pipelined schedule when d does not divide the K/2 complement pairs
/// (see the file comment): M = d + r pairs (r = (K/2) mod d, or r/c for c copies) in M steps,
/// every slot inside a window of d consecutive steps that is the same in every subcube.
struct SlidingGroup {
  /// The group is run this many times, copy c in steps c * steps .. (c + 1) * steps - 1 on the
  /// slots with c added to the repetition index (c << d); copies > 1 only for a group of slots
  /// of repetition 0.
  u64 copies = 1;
  u64 steps = 0;            ///< M
  std::vector<u32> slots;   ///< the 2M aligned slots: pair u is slots 2u and 2u + 1
  std::vector<int> starts;  ///< window start of each slot (steps start .. start + d - 1)
  /// moves[Y][step]: (dimension, index into slots) for the subcubes whose axes other than the
  /// current one XOR to Y (Y < 2^d): that slot's element crosses that dimension of the axis.
  std::vector<std::vector<std::vector<std::pair<int, u32>>>> moves;
};

/// The sliding group jhPipelinedAapcs uses for this shape (runs its search); false, and `group`
/// unspecified, when it uses none (s = 1, d divides K/2, or no group found: blocks only).
bool pipelinedSlidingGroup(const MultiAapcShape& shape, SlidingGroup& group);

/// The pipelined schedule of §4.1 (see the file comment) as a per-node move schedule; with
/// kExplicit, the local alignment steps come first and last. `lanes` is the channel width the
/// local permutations are packed for (n * lanes copies per PERMUTE cycle).
MoveSchedule jhPipelinedAapcs(const MultiAapcShape& shape, MultiAapcAlignment alignment,
                              int lanes = 1);

/// The transfer steps of jhPipelinedAapcs (without the local alignment steps of kExplicit), one
/// at a time: emit(step) is called with each step's moves, in order, and may take them. For
/// shapes whose whole move list would not fit in memory (d = 9: n = 18).
void forEachPipelinedTransferStep(const MultiAapcShape& shape, MultiAapcAlignment alignment,
                                  const std::function<void(std::vector<Move>&)>& emit);

// ---------------------------------------------------------------------------------------------
// Algorithm 5 (§4.2): multiple concurrent AAPCs
// ---------------------------------------------------------------------------------------------
//
// With k >= 2d local bits there is a second d-bit local axis v (local bits d .. 2d-1) besides
// the AAPC axis i (bits 0 .. d-1). The paper's observation: the exchange sequence
//   AAPC(q, v), AAPC(q+1, v), .., AAPC(s, v), local exchange i <-> v, AAPC(1, v), .., AAPC(q, v)
// (AAPC(p, f): processor axis p exchanged with local axis f) gives the same permutation as the
// pipelined AAPC(1, i), .., AAPC(s, i), with one AAPC more and one local reordering, but starts
// on axis q, whose links are idle while the pipeline fills. Algorithm 5 sends some data sets that
// way so they fill the pipeline's idle periods at the start of the high axes and the end of the
// low ones.
//
// Here a unit of work is a chain: two elements per node that go through one AAPC together
// because their relative addresses are complements in every node, so that in every step of the
// AAPC exactly one of the two crosses whichever dimension the chain is given, in every subcube
// alike (no per-subcube schedules, and nothing to check between subcubes). With the label of an
// element = the XOR of its node's s axes and both local axes (invariant under every AAPC and
// the local swap), and g = the local bits above 2d:
//  - a data set is one label L and one g: 2^d elements per node (one per value of i);
//  - a pipelined data set's chains pair the second-axis values v and ~v (2^(d-1) chains; the
//    AAPCs exchange the axis with i, whose relative addresses are then complements);
//  - an alternate data set's chains pair the values i and ~i before the local swap (its AAPCs
//    exchange the axis with v) and, keyed alike by the first local axis, after it: 2^(d-1)
//    chains each. Every chain after the swap holds elements of every chain before it (which
//    ones depends on the node), so the data set's chains after the swap wait for all of its
//    chains before it.
// A chain's AAPC on an axis takes d consecutive steps, one dimension a step; every axis has d
// lanes, and the AAPC in lane l uses dimension (l + step) mod d, so the d lanes of an axis use
// its d dimensions once each in every step. Unlike blocks of d chains in periods of d steps,
// a lane may take a new chain in any step, so nothing is lost when d does not divide the number
// of chains on an axis. A list scheduler places the chains step by step (a free lane takes the
// waiting chain with the longest remaining path: its remaining AAPCs, plus for a chain before
// the swap the AAPCs after it). The alternate data sets' starting axes are chosen by trying
// every multiset of at most s of them (fewer when that would be more than 1000 choices) and
// every run q = a, a + 1, .., b with each axis taken by m <= 4 data sets, keeping the fewest
// steps, then the fewest alternate data sets; if that is not below the pipeline's count
// (jhPipelinedAapcs), the pipeline is used. The local exchange costs no data motion during the
// run (slots follow the exchanges); the alternate data sets end with their two local axes
// exchanged, which one final local permutation (PERMUTE cycles) restores.
//
// Why one label per data set. An alternate data set does one AAPC more, on its starting axis q:
// its c chains add c chain AAPCs to axis q, and an axis carries at most T chain AAPCs in T steps
// (each needs every one of its d dimensions once, and a dimension carries one chain a step).
// Axis q already carries the K/2 chains of its own AAPC, so Theorem 2's K/2 + 2d leaves room for
// 2d chains: a data set of a label pair (2^d chains) fits only for d <= 2, and for d >= 3 no
// alternate data set at all would fit (so the bound is out of reach with them: the earlier
// version of this code, with label-pair data sets placed period by period, took 41 steps at
// d = 3, s = 4, K = 64 against 38). One label (2^(d-1) chains) fits for d <= 4.
// Every chain also does another AAPC after its one on axis 1 (which carries K/2 of them), so
// this construction needs at least K/2 + d steps for s >= 2.
//
// Measured (every element checked by the table executor; tests/multi_aapc_test.cpp), transfer
// steps against Theorem 2 and the pipeline's K/2 + (s-1)d:
//   d = 1: s = 4..6, K = 16: 9 (10; 11..13); s = 5, K = 32: 17 (18; 20); s = 8, K = 16: 9
//          (11; 15); s = 12, K = 32: 17 (18; 27)
//   d = 2: s = 3, K = 16: 10 (12; 12); s = 4..6, K = 32: 18 (20; 22..26)
//   d = 3: s = 3, K = 64: 36 (38; 38); s = 4..6, K = 64: 36 (38; 41..47); s = 4, K = 128: 69
//          (70; 73); s = 5, K = 128: 69 (70; 76); s = 4, K = 256: 132 (134; 137)
// Without a second local axis (k < 2d) the local exchange is not available, and an alternate
// (one chain: a complement pair of labels, which any AAPC keeps together) takes the route
// q, q+1, .., s, 1, 2, .., q, 1 instead: read as exchanges of a processor axis with the one
// local axis, this sequence gives the same permutation as 1, 2, .., s (two AAPCs more, on axes
// q and 1, and no local permutation; the shortest sequences other than 1, .., s are s + 2
// long, by parity). The same scheduler places these chains (no barrier). d = 3, K = 32:
// s = 5: 24 (Theorem 2: 24; pipeline 28), s = 6: 27 (27; 31).
// Not met: d = 3, s = 4, K = 32 (k = 5 < 2d): 24 against Theorem 2's 22 (pipeline 25), and no
// schedule of this kind does better. Exhaustive check, outside the build: an integer program
// (time-indexed counts of the chains of each route starting each AAPC in each step; at most d
// AAPCs at once per axis, each d consecutive steps; a chain's next AAPC after its previous one
// ends) over every mix of the 177 exchange sequences of length s, s + 2 and s + 4 (no axis twice
// in a row) that give the permutation, for the 16 chains, solved by CBC: infeasible in 23 steps
// (hence in 22), feasible in 24. The model leaves out chains whose AAPCs are spread over more than
// d steps and schedules that differ between subcubes, so this is no bound for the hardware as such.
// For d = 5, s >= 4 needs n >= 20 and k >= 10 (2^30 elements, the cube allows 2^28); for d = 6,
// s >= 4 needs n >= 24 > 20. With s <= 3 Theorem 2 is the pipeline's count, which the pipeline
// meets.

/// What jhConcurrentAapcs chose and what it costs.
struct ConcurrentAapcPlan {
  /// Starting axis q (2..s) of each alternate data set (of each alternate chain when k < 2d).
  std::vector<int> alternate_starts;
  u64 periods = 0;         ///< transfer steps / d, rounded up
  u64 transfer_steps = 0;  ///< transfer steps
  u64 local_steps = 0;     ///< local (PERMUTE) steps of the final reordering
};

/// Algorithm 5 (§4.2, Theorem 2) as a per-node move schedule (see above); when no alternate
/// helps (s = 1, or nothing found below the pipeline's count) it is jhPipelinedAapcs with
/// alignment by slot choice (Algorithm 4 itself for s = 1).
/// `lanes` is the channel width the final local permutation is packed for.
MoveSchedule jhConcurrentAapcs(const MultiAapcShape& shape, int lanes = 1,
                               ConcurrentAapcPlan* plan = nullptr);

/// Local steps (Move::kLocal) that apply, at every node, the slot permutation `to` (to[x][l] =
/// where the word in slot l of node x goes; nodes with an empty vector or the identity do
/// nothing), one step per PERMUTE cycle of at most `channels` copies per node, as
/// compileLocalPermutation (sw/algorithms/aapc/alignment.h) splits it. Throws Error if channels < 2
/// and a node needs a swap.
std::vector<std::vector<Move>> localPermutationSteps(const std::vector<std::vector<u32>>& to,
                                                     size_t channels);

/// Span (Definition 2) of a move schedule run from tagged memory: over every element that
/// crosses a link, last step it arrives minus first step it leaves plus one. Local copies move
/// elements but are not transfers. Also checks the schedule as it goes (throws Error if a move
/// reads an empty slot or two moves write one slot in a step).
u64 moveScheduleSpan(const MoveSchedule& schedule, u64 nodes, u64 words_per_node, u64 tagged_slots);

}  // namespace hcube

// hcube: dimension permutations by transposition — Johnsson & Ho 1987 ("Algorithms for Matrix
// Transposition on Boolean n-cube Configured Ensemble Architectures"), §3.2 Definitions 10-11
// (the standard and the general exchange algorithm) and §7 (bit-reversal by the general exchange
// algorithm; any dimension permutation of the processor bits by parallel swappings, Definitions
// 17-18 and Lemma 15; k-shuffles). Background: Ho & Johnsson 1988 ("Stable Dimension
// Permutations on Boolean Cubes") §2-3 for the definitions and the lower bound (Theorem 1).
//
// The global address of an element is (x | l): n node bits above k local bits, bit positions
// 0..k-1 local, k..k+n-1 node (node dimension j is position k + j). A dimension permutation
// delta sends the bit at position b to position delta[b] (PermutationSpec::dimension).
//
// The plan has three parts:
//  1. one round of the general exchange algorithm that swaps every node bit whose content leaves
//     the node field with a local bit whose content enters it (pairs chosen so that as many
//     contents as possible land on their final node position);
//  2. the permutation that is left on the node bits, decomposed into at most ceil(log2 n)
//     parallel swappings (Lemma 15); our cube has no direct exchange between two node
//     dimensions, so each swapped pair (a, b) goes through a local bit v as three exchange rounds
//     (a v)(b v)(a v), every pair of a parallel swapping with its own local bit;
//  3. a local permutation of the slots (PERMUTE cycles, docs/hardware/node.md §2.1).
// Part 2 has two alternatives (NodePermMethod): two parallel swappings always suffice (every
// permutation is a product of two involutions), and §7's other way, all moved node bits out to
// local bits, a local permutation and back (two exchange rounds whatever the permutation).
//
// One exchange round swaps node dimensions a_s with distinct local bits v_s (s < m): an
// all-to-all personalized communication within the m-subcubes of those dimensions, repeated over
// the other local bits. All-port hardware runs it with Edelman's optimal relative schedule
// (Edelman 1991 Theorem 3.2) in exactly K/2 cycles; one-port hardware runs the m exchanges one
// after the other (the exchange algorithm, Johnsson & Ho 1987 §3.2), m * K/2 cycles.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "schedule/schedule.h"
#include "spec/address.h"

namespace hcube {

/// Exchange of node dimension `node_dim` with local address bit `local_bit`: node x sends every
/// slot l with bit local_bit of l != bit node_dim of x across port node_dim, and the partner
/// stores it in slot l ^ (1 << local_bit) (exactly the slots the partner sends).
struct BitExchange {
  int node_dim = 0;
  int local_bit = 0;
  friend bool operator==(const BitExchange&, const BitExchange&) = default;
};

/// One phase of a plan: an exchange round (distinct node dimensions, distinct local bits, all
/// swapped at once) or a local permutation of the k slot bits (local bit b goes to bit
/// local_perm[b]).
struct DimPermPhase {
  enum class Kind { kExchange, kLocal };
  Kind kind = Kind::kExchange;
  std::vector<BitExchange> pairs;
  std::vector<int> local_perm;
  std::string what;  ///< which part of the plan, for reports and tests
};

/// How a dimension permutation is carried out (see the file comment).
struct DimPermPlan {
  int n = 0;
  int k = 0;
  std::vector<DimPermPhase> phases;
  /// The parallel swappings of Lemma 15 used for the node-bit part, each a list of node-dimension
  /// pairs; at most ceil(log2 n) of them.
  std::vector<std::vector<std::pair<int, int>>> swappings;

  /// Number of exchange rounds.
  int exchangeRounds() const;
  /// Transfer cycles the plan takes: K/2 per round all-port, m * K/2 per round of m pairs
  /// one-port (Johnsson & Ho 1987 §3.2, t_c = 1, tau = 0).
  u64 transferCycles(bool one_port) const;
};

/// Lemma 15: a permutation rho of {0..d-1} (the content of position i goes to position rho[i])
/// as a sequence of parallel swappings (Definition 18; each a set of disjoint transpositions of
/// positions) whose composition, applied in order, is rho. An involution takes one swapping;
/// otherwise the moved positions are split into two halves, the positions whose content must
/// cross are swapped pairwise (one swapping), and both halves recurse at the same time, so at
/// most ceil(log2 d) swappings are used.
std::vector<std::vector<std::pair<int, int>>> parallelSwappings(const std::vector<int>& rho);

/// Two parallel swappings whose composition (first, then second) is rho: every cycle
/// c0 -> c1 -> ... -> c(L-1) -> c0 as the reflection c[i] <-> c[-i] followed by c[j] <-> c[1-j]
/// (indices mod L). Empty swappings are dropped (an involution takes one, the identity none).
std::vector<std::vector<std::pair<int, int>>> twoReflections(const std::vector<int>& rho);

/// How part 2 permutes the node bits among themselves.
enum class NodePermMethod {
  kParallelSwappings,  ///< Lemma 15: <= ceil(log2 n) parallel swappings, 3 exchange rounds each
  /// §7's "all-to-all personalized communication twice": the moved node bits out to local bits
  /// (one round), a local permutation, and back (one round): 2 rounds whatever the permutation;
  /// needs a local bit for every moved node bit.
  kExchangeTwice,
  /// Every permutation is the product of two involutions (each cycle of two reflections), so
  /// two parallel swappings always suffice — fewer than Lemma 15's ceil(log2 n) for n > 4.
  kTwoReflections,
};

/// Plans the dimension permutation delta of the n + k address bits. Throws Error if delta is
/// not a permutation of 0..n+k-1, or if node bits must be permuted among themselves while there
/// are not enough local bits to go through (none for swappings; one per moved node bit for
/// exchange-twice).
DimPermPlan planDimensionPermutation(int n, int k, const std::vector<int>& delta,
                                     NodePermMethod method = NodePermMethod::kParallelSwappings);

/// Applies the plan's phases to bit positions: result[b] is where the content of position b
/// ends. Equal to delta for a correct plan (checked by planDimensionPermutation and the tests).
std::vector<int> planEffect(const DimPermPlan& plan);

/// Lowers a plan to a move schedule on the n-cube with 2^k slots: exchange rounds as link moves
/// (Edelman's relative schedule all-port, sequential exchanges one-port), local permutations as
/// steps of at most `copies_per_cycle` (n * b) local copies each, every step one PERMUTE. With
/// copies_per_cycle = 1 a cycle of slots needs the scratch slot K (see localScratchSlots).
MoveSchedule dimensionPermutationSchedule(const DimPermPlan& plan, bool one_port,
                                          int copies_per_cycle, const std::string& algo);

/// Scratch slots the schedule of dimensionPermutationSchedule needs: 1 if a local permutation
/// must be done one copy per cycle, else 0.
u64 localScratchSlots(const DimPermPlan& plan, int copies_per_cycle);

/// PERMUTE cycles a local permutation of the slots takes with `copies_per_cycle` copies per
/// cycle: each cycle of slots is rotated in pieces (a piece of c copies settles c - 1 slots,
/// the last piece of a cycle settles all it touches), pieces packed greedily into cycles.
u64 localPermuteCycles(int k, const std::vector<int>& local_perm, int copies_per_cycle);

}  // namespace hcube

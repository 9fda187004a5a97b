// hcube: one-to-all and all-to-one personalized communication, and their generalisations
// some-to-all / all-to-some — Johnsson & Ho 1987 ("Algorithms for Matrix Transposition on
// Boolean n-cube Configured Ensemble Architectures") §3.1 (spanning binomial tree SBT, spanning
// balanced n-tree SBnT, rotated SBTs; Definitions 8-9), §3.3 (Theorem 1, Table 3) and the SBnT
// routing of the §5 pseudo-code.
//
// The communication is PermutationSpec::personalized: an AAPC (j | h, i) -> (i | h, j) on
// K = m * 2^n slots restricted to the 2^l source nodes (scatter) that share node bits l..n-1
// with `root`. A scatter with l = n - k sources runs in two phases, splitting first as Theorem 1
// says:
//  1. splitting: within each k-subcube of node dimensions l..n-1, the source sends every
//     element to the node of that subcube that shares the destination's bits l..n-1 (a
//     one-to-all personalized communication of m * 2^l elements per node), along a spanning
//     tree: one-port the SBT, dimension after dimension (Sum m 2^l 2^d cycles = m 2^l (2^k - 1));
//     all-port the SBT, the SBnT or k rotated SBTs, each element along its tree path, scheduled
//     greedily per link with the farthest-going element first (reverse breadth-first order);
//  2. an AAPC within the l-subcubes of dimensions 0..l-1 on the m * 2^l elements each node now
//     holds: Edelman's schedule all-port (m 2^(l-1) cycles), the exchange algorithm one-port
//     (l m 2^(l-1) cycles).
// A gather (all-to-one, all-to-some) is the same schedule run backwards: AAPC first, then
// accumulation towards the root, every move reversed — accumulation last, as Theorem 1 says.
//
// Slots: an element bound for node i travels in slot (h, i) (h * 2^n + i) and the last hop of
// phase 1 stores it in slot (h, root's bits l..n-1, i's bits 0..l-1), where phase 2 expects it
// (for l = 0 that is its final slot (h, root)). Transit slots of a node never collide with the
// slots its own data end in, so nothing that takes part is overwritten.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.h"
#include "spec/address.h"

namespace hcube {

/// The spanning trees of §3.1 for the splitting phase.
enum class SpanningTree {
  kSbt,   ///< spanning binomial tree: a node's bits from the highest to the lowest
  kSbnt,  ///< spanning balanced n-tree: from bit base(r), cyclically upwards (§5 pseudo-code)
  /// k rotated SBTs (Definition 8): part h of the data on the tree rotated by h mod k (m >= k)
  /// or by h * k / m (m < k: rotations spread evenly, §3.1)
  kRsbt,
};

/// Parses "sbt", "sbnt" or "rsbt"; throws Error naming the text otherwise.
SpanningTree parseSpanningTree(const std::string& text);
std::string spanningTreeName(SpanningTree tree);

/// base(r) of the §5 SBnT pseudo-code: the smallest number of right rotations of the d-bit r
/// that gives the smallest value among all rotations of r (r != 0).
int sbntBase(u64 r, int d);

/// The dimensions (0..d-1) an element crosses, in order, from the root of a d-dimensional tree
/// to the node at relative address r, on `tree` (for kRsbt: rotated by `rotation`).
std::vector<int> treePath(SpanningTree tree, u64 r, int d, int rotation);

struct PersonalizedOptions {
  int n = 1;
  u64 m = 1;     ///< K = m * 2^n
  int l = 0;     ///< dimension of the source (destination) subcube; k = n - l splitting dims
  u64 root = 0;  ///< the subcube is the nodes sharing bits l..n-1 with root
  bool gather = false;
  bool one_port = false;
  SpanningTree tree = SpanningTree::kSbt;  ///< all-port splitting; one-port always the SBT
  /// Theorem 1's order (splitting first for a scatter, so accumulation last for a gather); false:
  /// the AAPC among the sources on all their data first, then splitting (slower, for comparison).
  bool theorem1_order = true;
};

/// The move schedule of a scatter (or, reversed, a gather) as described above.
MoveSchedule personalizedSchedule(const PersonalizedOptions& options, const std::string& algo);

/// Table 3 (Johnsson & Ho 1987 §3.3) with t_c = 1, tau = 0, PQ = 2^l * K elements, k = n - l:
/// one-port l PQ/2^(k+l+1) + Sum_i PQ/2^(k+l-i) = l m 2^(l-1) + m 2^l (2^k - 1);
/// n-port PQ/2^(k+l+1) + (1/k) Sum_i PQ/2^(k+l-i) = m 2^(l-1) + m 2^l (2^k - 1) / k, rounded up.
u64 table3Cycles(int n, u64 m, int l, bool one_port);

}  // namespace hcube

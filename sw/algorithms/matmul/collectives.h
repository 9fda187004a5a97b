// hcube: the all-to-all collectives of Johnsson & Ho 1988 (TR-623) §2 as per-node tables:
// all-to-all broadcasting on N translated spanning binomial trees (SBT, one-port) or on N
// translations of n rotated SBTs (nRSBT, n-port), and all-to-all reduction, their reverse, whose
// receives combine (ADD, docs/hardware/arithmetic.md §1). Node x's data are K = m * 2^n slots in
// blocks of m (block b = slots b*m .. b*m+m-1); the specs are PermutationSpec::collective(n, m,
// reduce).
//
// Broadcast (TR-623 §2.1, lc_brd1): in step t = 0 .. n-1 every node exchanges along dimension
// d(t) the blocks it has gathered so far (those of its subcube of the dimensions used before), so
// step t moves 2^t m words per node: (N - 1) m in all (Table 2). Reduction (la_red1): in step
// t = 1 .. n along dimension d(t) every node sends the half of its remaining blocks that the
// neighbour keeps and adds the half it keeps into its own, 2^(n-t) m words: (N - 1) m in all,
// (N - 1) M / N for M = N m elements per node (Table 3). One-port: one tree, d(t) = t for the
// broadcast and n - t for the reduction. n-port (nRSBT): the block is split into n parts (word i
// in part i mod n), part u going along the rotated order (u + d(t)) mod n, so the n parts use the
// n ports at once and each step takes ceil(m / n) / m of the one-port cycles (1/n when n | m).
// Every step starts with WAIT tau (a start-up): n start-ups.
//
// Gray code encoding (TR-623 §1 Table 1 and §2.1, "For Gray code encoding, alpha is replaced by
// alpha-hat"): block b of the partitioned data lives in node G(b) instead of node b. The trees,
// the exchanges and so the element transfers and start-ups of Tables 2 and 3 are unchanged — the
// paper's tables do not distinguish the encodings; what changes is the local order of the gathered
// blocks ("order the N blocks by G(pid)"): the block that comes from node y lands in block
// G^-1(y), and the reduction keeps and sends the blocks by their home G(b). The rooted forms
// move one node's m words, which no encoding reorders; there the encoding only names the root.
#pragma once

#include "tables/table.h"

namespace hcube {

struct CollectiveOptions {
  int n = 1;
  u64 m = 1;            ///< words per block
  bool n_port = false;  ///< nRSBT (all ports at once) rather than one SBT (one-port)
  u32 tau = 0;          ///< start-up cycles (a WAIT before every step)
  bool gray = false;    ///< all-to-all forms: block b in node G(b) (TR-623 Table 1)
};

/// All-to-all broadcast tables (spec broadcast-all n m).
TableSet broadcastAllTables(const CollectiveOptions& o);

/// All-to-all reduction tables (spec reduce-all n m), combining receives.
TableSet reduceAllTables(const CollectiveOptions& o);

/// One-to-all broadcast of node root's m words (spec broadcast-one n m root) on the SBT rooted
/// at `root` (one-port) or n rotated SBTs (n-port, word i along the tree rotated by i mod n).
TableSet broadcastOneTables(const CollectiveOptions& o, u64 root);

/// All-to-one reduction into `root` (spec reduce-one n m root): the broadcast's trees reversed,
/// the inner nodes adding what their children send (ADD).
TableSet reduceOneTables(const CollectiveOptions& o, u64 root);

/// The element transfers in sequence (per port) of the two: (N - 1) m one-port, (N - 1) ceil(m/n)
/// n-port — TR-623 Tables 2 and 3 ((N - 1) M and (N - 1) M / n with M = m for the broadcast and
/// M = N m, M / N = m for the reduction), exact when n divides m; start-ups n.
u64 collectiveElementTransfers(const CollectiveOptions& o);

}  // namespace hcube

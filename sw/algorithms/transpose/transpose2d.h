// hcube: two-dimensional matrix transposition with communication between distinct pairs of
// nodes — Johnsson & Ho 1987, "Algorithms for Matrix Transposition on Boolean n-cube Configured
// Ensemble Architectures", §6.1: the Single Path (SPT, §6.1.1), Dual Paths (DPT, §6.1.2) and
// Multiple Paths (MPT, §6.1.3) transposes, with packets of B elements, a start-up cost τ per
// packet transfer and t_c = 1 cycle per element and lane.
//
// A node address is x = (x_r || x_c): the n/2 high bits are the row part, the n/2 low bits the
// column part (n even). The transpose sends every element of x to tr(x) = (x_c || x_r);
// H(x) = Hamming(x_r, x_c) and Hamming(x, tr(x)) = 2H(x). Row dimension i + n/2 pairs with
// column dimension i.
//
// Virtual elements (Definition 2; §5: "Virtual elements need not be communicated, and the
// complexity of the transposition is reduced accordingly, but the basic algorithms apply"): the
// plan takes only the real elements of each node into its packets, so node x sends R_x <= K
// elements in ceil(R_x/B) packets on the same paths and with the same launch pattern. Nodes then
// differ, and the time is that of the busiest path: the §6.1 formulas with PQ/N replaced by R_x
// and the path length n by x's own, maximised over the nodes (transpose2dRealCycles). With
// --virtual needed the extension only adds node index bits, so every node is all real or all
// virtual (R_x = K or 0); the time then equals the extended matrix's unless both indices are
// short of n/2 bits (no real node at distance n). With --virtual square nodes hold both kinds and
// the time falls with R_x (2 x 64 as 64 x 64 on 16 nodes, B = 1: SPT 35 cycles; packets timed
// for the extended matrix took 245).
//
// Time model (one packet step = WAIT τ, then ceil(B/b) element cycles): in store-and-forward
// mode a packet crosses one edge per step and waits in a scratch slot of every intermediate
// node; in cut-through mode (SPT and DPT) it pays τ once at its source and every intermediate
// node forwards each element one cycle after it arrives (docs/hardware/node.md, FWD / PASS).
#pragma once

#include <string>
#include <vector>

#include "spec/address.h"
#include "spec/permutation.h"
#include "tables/table.h"

namespace hcube {

// ---------------------------------------------------------------------------------------------
// Geometry of §6.1
// ---------------------------------------------------------------------------------------------

/// tr(x) = (x_c || x_r) on an n-cube, n even.
u64 transposeNode(int n, u64 x);
/// H(x) = Hamming(x_r, x_c).
int transposeHalfDistance(int n, u64 x);

/// The 2H(x) paths of the MPT algorithm (§6.1.3) from x to tr(x), each as its sequence of
/// dimensions. With alpha_{H-1} > ... > alpha_0 the row dimensions and beta_{H-1} > ... > beta_0
/// the column dimensions in which x and tr(x) differ, path p < H routes alpha_{(p+H-1) mod H},
/// beta_{(p+H-1) mod H}, alpha_{(p+H-2) mod H}, ... down to alpha_p, beta_p; path H + j routes
/// the same pairs as path j with beta before alpha. Path 0 is the SPT path, paths 0 and H the
/// DPT paths. Empty for H(x) = 0.
std::vector<std::vector<int>> mptPaths(int n, u64 x);

/// The nodes a path visits after x, in order (the last one is the destination).
std::vector<u64> pathNodes(u64 x, const std::vector<int>& dims);

/// Definition 12: x' ~ad x'' iff x'_r + x'_c = x''_r + x''_c (the same anti-diagonal).
bool sameAntiDiagonal(int n, u64 a, u64 b);
/// Definition 15: x' ~s x'' iff x' ~ad x'' and x' XOR tr(x') = x'' XOR tr(x'').
bool sameTransposeClass(int n, u64 a, u64 b);

/// What checkMptDisjointness found on an n-cube (n even, 2..).
struct MptDisjointness {
  u64 classes = 0;                 ///< ~s classes of nodes with H(x) > 0
  u64 shared_within_node = 0;      ///< edges two paths of one node share (Lemma 9: 0)
  u64 shared_between_classes = 0;  ///< edges used by paths of two ~s classes (Lemma 13: 0)
  u64 timing_conflicts = 0;        ///< (edge, step) pairs used twice (Lemma 14: 0)
  u64 edge_steps = 0;              ///< (edge, step) uses examined
  u64 paths_lengths_wrong = 0;     ///< paths not of length 2H(x) or not ending at tr(x)
};

/// Checks Lemmas 9, 13 and 14 by enumeration: every node x with H(x) > 0 launches one
/// unit-time packet on each of its 2H(x) paths in steps i*2H(x) and i*2H(x)+1 for
/// i < `rounds` (Definition 16, (2, 2H(x))-disjointness), and no directed edge may carry two
/// packets in one step.
MptDisjointness checkMptDisjointness(int n, int rounds);

// ---------------------------------------------------------------------------------------------
// Packet schedules and their lowering into tables
// ---------------------------------------------------------------------------------------------

enum class Transpose2dAlgo { kSpt, kDpt, kMpt };

struct Transpose2dOptions {
  Transpose2dAlgo algo = Transpose2dAlgo::kSpt;
  u64 packet = 1;            ///< B, elements per packet
  u64 tau = 0;               ///< τ, start-up cycles per packet transfer (WAIT)
  int lanes = 1;             ///< b: a packet takes ceil(B/b) element cycles
  bool synchronous = false;  ///< SPT/DPT: every node routes the full dimension order (§6.1.1)
  bool cut_through = false;  ///< SPT/DPT: intermediate nodes forward (FWD) instead of storing
  /// MPT: the anti-diagonal class (H(x) = n/2) uses packets of B; every other ~s class picks
  /// its own packet count and step length (its paths share no edge with other classes, Lemma
  /// 13), as §6.1.3 splits node x's data into 4kH(x) packets. false: every class uses B.
  bool per_class_packets = true;
};

/// One packet: its elements (source slots, in the order they are sent) and its route — hop e
/// crosses dimension dims[e] in packet step steps[e] (store-and-forward; cut-through uses only
/// steps[0] and crosses hop e e cycles after hop 0).
struct PacketRoute {
  u64 source = 0;
  u64 step_cycles = 1;  ///< length of this packet's steps: τ + ceil(B_x/b) for its size B_x
  std::vector<u32> slots;
  std::vector<int> dims;
  std::vector<u64> steps;
};

/// The abstract schedule of a §6.1 transpose: every packet of every node.
struct Transpose2dPlan {
  std::string algo;
  int n = 2;
  u64 slots = 1;  ///< K = PQ / N
  Transpose2dOptions options;
  std::vector<PacketRoute> packets;
  u64 steps = 0;          ///< packet steps until the last packet arrives (1 + the last step used)
  u64 virtual_slots = 0;  ///< virtual elements of the sending nodes left out of the packets
};

/// Builds the packet schedule of `options.algo` for `perm`, which must send every element of
/// node x to tr(x) (a two-dimensional partitioning with n/2 row and n/2 column node bits and the
/// same assignment and encoding before and after). Only real elements (perm.participates) go
/// into packets: node x sends ceil(R_x/B) packets (MPT: B of its H(x) class, sized for the
/// largest R_x of that H). Within a node the elements are ordered so that an arriving element
/// usually finds its destination slot already sent away. Throws Error naming the option (--n,
/// --packet, --forward, --route) or the permutation when it does not fit.
Transpose2dPlan planTranspose2d(const PermutationSpec& perm, const Transpose2dOptions& options);

/// The packets node x of an n-cube sends to tr(x) under `o` (o.packet and o.algo; SPT, DPT or
/// MPT, as planTranspose2d routes them), `count` elements in packets of `size`: packet j carries
/// positions j size .. (j+1) size - 1 (r.slots holds the positions, not slots) and starts its
/// route in the step the algorithm launches it. Empty for H(x) = 0. planTranspose2d maps the
/// positions to the node's sending order; the matrix multiplications of TR-623 §3.2 move whole
/// blocks with it (sw/algorithms/matmul/transpose_phases.cpp).
std::vector<PacketRoute> transpose2dNodeRoutes(int n, u64 x, u64 count, u64 size,
                                               const Transpose2dOptions& o);

/// Tables of a plan and what lowering them needed.
struct Transpose2dTables {
  TableSet tables;
  u64 step_cycles = 0;   ///< τ + ceil(B/b)
  u64 transfer_end = 0;  ///< 1 + the last cycle in which a word crosses a link
  u64 buffered = 0;      ///< elements received into scratch because their slot was still full
  u64 local_copies = 0;  ///< PERMUTE copies (diagonal nodes' local transpose, buffered ones)
  u64 local_tail = 0;    ///< cycles of local copies after transfer_end
  u64 scratch = 0;       ///< scratch slots per node
};

/// Lowers a plan into one table per node: WAIT τ before each packet step's element cycles (idle
/// stretches become WAITs), MEM sends and receives through scratch slots or FWD/PASS, and the
/// local copies (the diagonal nodes' share of the transpose, and elements that had to wait in
/// scratch) as PERMUTEs in cycles where the node's ports are idle. Throws Error if two packets
/// would use one channel in one cycle.
Transpose2dTables lowerTranspose2d(const Transpose2dPlan& plan, const PermutationSpec& perm);

// ---------------------------------------------------------------------------------------------
// The paper's formulas, in cycles (t_c = 1 per element; with b lanes a packet of B elements
// takes ceil(B/b) cycles)
// ---------------------------------------------------------------------------------------------

/// §6.1.1: (ceil(PQ/(BN)) + n - 1)(B t_c + τ), K = PQ/N.
u64 sptFormulaCycles(int n, u64 slots, u64 packet, u64 tau, int lanes = 1);
/// §6.1.2: (ceil(PQ/(2BN)) + n - 1)(B t_c + τ).
u64 dptFormulaCycles(int n, u64 slots, u64 packet, u64 tau, int lanes = 1);
/// Cut-through variant of SPT/DPT (not in the paper): the last packet leaves its source in
/// packet step ceil(K/B) - 1 (DPT: ceil(K/2B) - 1) and takes n - 1 cycles more to arrive.
u64 cutThroughFormulaCycles(bool dual, int n, u64 slots, u64 packet, u64 tau, int lanes = 1);
/// §6.1.3 schedule with one packet size B for every node: node x with m = ceil(K/B) packets
/// launches 2H(x) of them in each of steps 2H(x)*i and 2H(x)*i + 1, so it needs
/// 2H(x)*(r-1) + 2H(x) (+1 if the last round uses its second launch step) steps, r =
/// ceil(m / 4H(x)); the time is the maximum over H = 1..n/2 times (τ + ceil(B/b)). For
/// B = K/(2n) and n = 2, 4 this is Theorem 2's first case, (n+1)τ + (n+1)/(2n) PQ/N t_c.
u64 mptScheduleCycles(int n, u64 slots, u64 packet, u64 tau, int lanes = 1);
/// The packet size the MPT schedule gives the ~s classes with H(x) = h < n/2 when every class
/// sizes its own packets: the one minimising mptStepsForHalfDistance(h, ceil(K/B)) times
/// (τ + ceil(B/b)), the smallest such B.
u64 mptClassPacket(int h, u64 slots, u64 tau, int lanes = 1);
/// The MPT time with per-class packets: the anti-diagonal class with B, the others with
/// mptClassPacket; the maximum over H = 1..n/2.
u64 mptPerClassCycles(int n, u64 slots, u64 packet, u64 tau, int lanes = 1);
/// Steps node classes with H(x) = h need in the MPT schedule with m packets per node.
u64 mptStepsForHalfDistance(int h, u64 packets);

/// R_x for every node x: the real elements (Definition 2) node x sends to tr(x), i.e. those of
/// its K slots `perm` marks as taking part; 0 for the diagonal nodes (H(x) = 0), which keep
/// their block. Without virtual elements K for every off-diagonal node. Throws Error (as
/// planTranspose2d) unless `perm` sends node x to tr(x).
std::vector<u64> realElementsSent(const PermutationSpec& perm);

/// The time of the plan of `o` when node x sends real[x] = R_x elements (planTranspose2d with
/// virtual elements), the busiest path's, with S = τ + ceil(B/b) and over the nodes with R_x > 0:
///   SPT store:  max_x (ceil(R_x/B)  + d_x - 1) S          (§6.1.1 with PQ/N -> R_x, n -> d_x)
///   DPT store:  max_x (ceil(R_x/2B) + d_x - 1) S          (§6.1.2)
///   cut-through: max_x ceil(R_x/B) S + d_x - 1 (DPT: ceil(R_x/2B))
/// where d_x = 2H(x) with greedy routing and n - 2 i_0(x) with --route sync (the full order ends
/// with x's lowest differing pair i_0); MPT: max over H = 1..n/2 with nodes of that H of
///   mptStepsForHalfDistance(H, ceil(R_H/B_H)) (τ + ceil(B_H/b)),
/// R_H = max R_x over H(x) = H, B_H = B for H = n/2 (every H with uniform sizing), otherwise
/// mptClassPacket(H, R_H). With R_x = K for every off-diagonal node this is exactly
/// sptFormulaCycles, dptFormulaCycles, cutThroughFormulaCycles, mptPerClassCycles or
/// mptScheduleCycles. Like those it counts full packet steps (a short last packet ends early).
u64 transpose2dRealCycles(int n, const std::vector<u64>& real, const Transpose2dOptions& o);
/// The packet size MPT gives the nodes with H(x) = h when the largest of them sends `real`
/// elements: B for h = n/2 or uniform sizing, otherwise mptClassPacket(h, real, τ, b).
u64 mptPacketForHalfDistance(int n, int h, u64 real, const Transpose2dOptions& o);

/// Theorem 2 (as printed; "approximately"), the MPT time for the optimal packet size.
double mptTheorem2(int n, u64 slots, u64 tau);
/// Packet sizes the paper gives as optimal: §6.1.1, §6.1.2 and Theorem 2.
double sptOptimalPacket(int n, u64 slots, u64 tau);
double dptOptimalPacket(int n, u64 slots, u64 tau);
double mptOptimalPacket(int n, u64 slots, u64 tau);
/// Theorem 3: at least max(n τ, PQ/(2N) t_c) cycles (PQ/(2N) rounded up, divided by b lanes).
/// The n τ term charges a start-up on every one of the n hops (store-and-forward, the paper's
/// model). With cut-through forwarding an element pays τ once, at its source, and then one cycle
/// per hop, so the term becomes τ + n.
u64 transposeLowerBound(int n, u64 slots, u64 tau, int lanes = 1, bool cut_through = false);

/// Theorem 3's argument counted over the real elements (Definition 2): at least
/// max(d τ, ceil(R_q / (b N/2)), ceil(R_max / (b n))) cycles, d the longest distance 2H(x) of a
/// node with R_x > 0, R_q the real elements of the busier of the two off-diagonal quadrants (row
/// and column high node bits 0 and 1, or 1 and 0), whose N/4 nodes reach the rest of the cube by
/// N/2 links and whose every element goes to the other quadrant, and R_max the most real
/// elements one node sends through its n links. Without virtual elements the third term is at
/// most the second and this is transposeLowerBound. With cut-through forwarding the first term
/// is τ + d (one start-up at the source, one cycle per hop).
struct RealLowerBound {
  u64 cycles = 0;
  int distance = 0;  ///< d
  u64 quadrant = 0;  ///< R_q
  u64 busiest = 0;   ///< R_max
};
RealLowerBound transposeRealLowerBound(const PermutationSpec& perm, u64 tau, int lanes = 1,
                                       bool cut_through = false);

}  // namespace hcube

// hcube: permutation specifications — what a communication must achieve, nothing about how.
//
// Two families:
//  * AAPC, all-to-all personalized communication (Edelman 1991 §1; Johnsson & Ho 1992 §2.1):
//    on N = 2^n nodes with K = m * 2^n slots, slot l = (h, i) with h = l / 2^n, i = l mod 2^n,
//    and the element at (j | h, i) moves to (i | h, j) — the AAPC repeated m times.
//  * Dimension permutations (Johnsson & Ho 1987 §7, Ho & Johnsson 1988 §2): the global address
//    (x | l) with n node bits above k local bits is a string of n + k bits, and bit b of the source
//    address becomes bit delta[b] of the destination address.
//  * Linear permutations over GF(2) of the same n + k address bits (Johnsson & Ho 1992 §2.2.2
//    (j|i) -> (f(i)|g(j)) with Gray codes; the binary/Gray re-encodings of Johnsson & Ho 1987
//    §2 and §6.3): destination bit b is the parity of (source address AND rows[b]). Every
//    dimension permutation is a linear one whose rows are single bits.
//  * Personalized communication from or to a subcube (Johnsson & Ho 1987 §3.1, §3.3): the AAPC
//    above restricted to the elements that take part. Scatter (one-to-all for l = 0, some-to-all
//    for l > 0): only the elements of the 2^l source nodes that agree with `root` on node bits
//    l..n-1; gather (all-to-one, all-to-some): only the elements bound for those nodes. The other
//    elements are no part of the communication: they may be overwritten and are not checked.
//  * Collectives of Johnsson & Ho 1988 (TR-623) §2, with K = m * 2^n slots in blocks of m
//    (block b = slots b*m .. b*m+m-1). All-to-all broadcast ("broadcast-all"): node x starts
//    with its own block in block x (the other slots take no part) and every node ends with every
//    node's block b in its block b. All-to-all reduction ("reduce-all"): every slot takes part;
//    node x ends with the sum over all nodes y of y's block x in its block x (W-bit wrap-around;
//    the other slots are not checked). One-to-all broadcast ("broadcast-one", K = m): node root's
//    slots end in every node; all-to-one reduction ("reduce-one"): node root ends with the sum
//    of every node's slots. These are not permutations: dest() is not defined for
//    them; the reference model (sw/spec/reference.h) states what every slot must hold. With the
//    Gray encoding of TR-623 §1 (Table 1; "enc=gray"), block b lives in node G(b) rather than node
//    b: broadcast-all starts with block b in node G(b) and ends with it in block b everywhere;
//    reduce-all ends with block b's sum in node G(b). The rooted forms keep their root as given.
//  * Matrix multiplication A += C x D of Johnsson & Ho 1988 (TR-623) §3 ("matmul"): node x
//    holds blocks of C, D and A in its data slots (sw/spec/matmul_layout.h); A's block ends as its
//    initial words plus the product, every other slot is not checked.
//  * Virtual elements (Johnsson & Ho 1987 Definition 2): a linear permutation may carry parity
//    checks c_0, c_1, ... over the source address; the element that starts at address g is
//    virtual when some parity(g AND c_i) is 1 and real when every one is 0. A matrix squared up
//    with virtual elements (sw/algorithms/transpose/layout.h) is permuted as a whole, but only its
//    real elements take part: virtual ones are never sent and never checked.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spec/address.h"

namespace hcube {

class PermutationSpec {
 public:
  enum class Kind {
    kAapc,
    kDimension,
    kLinear,
    kPersonalized,
    kBroadcastAll,
    kReduceAll,
    kBroadcastOne,
    kReduceOne,
    kMatmul
  };

  /// AAPC (j | h, i) -> (i | h, j) on 2^n nodes with K = m * 2^n slots.
  static PermutationSpec aapc(int n, u64 m);
  /// Dimension permutation of the n + k global address bits; delta[b] is where bit b goes.
  static PermutationSpec dimension(int n, int k, std::vector<int> delta);
  /// Invertible GF(2)-linear map of the n + k global address bits: destination bit b is the
  /// parity of (source & rows[b]). Throws Error if the map is not a bijection.
  static PermutationSpec linear(int n, int k, std::vector<u64> rows);
  /// The linear permutation with virtual elements: those whose source address g has an odd
  /// parity(g & c) for some c in `virtual_checks`. Each check must be non-zero, within the
  /// n + k address bits and independent of the others. Throws Error naming the check otherwise.
  static PermutationSpec linear(int n, int k, std::vector<u64> rows,
                                std::vector<u64> virtual_checks);
  /// Personalized communication (j | h, i) -> (i | h, j), K = m * 2^n, restricted to the sources
  /// (scatter) or destinations (gather) that agree with `root` on node bits l..n-1.
  static PermutationSpec personalized(int n, u64 m, bool gather, int l, u64 root);
  /// TR-623 §2 all-to-all broadcast (or, with reduce, all-to-all reduction) of blocks of m words
  /// on 2^n nodes, K = m * 2^n.
  /// With `gray`, block b's home is node G(b) (TR-623 Table 1, Gray code encoding).
  static PermutationSpec collective(int n, u64 m, bool reduce, bool gray = false);
  /// One-to-all broadcast of node root's m words (slots 0..m-1) to every node, or (reduce) the
  /// all-to-one reduction of every node's m words into node root; K = m.
  static PermutationSpec rooted(int n, u64 m, bool reduce, u64 root);
  /// Matrix multiplication of Johnsson & Ho 1988 (TR-623) §3 on a grid of 2^n1 x 2^(n - n1)
  /// processors (1 x N: one-dimensional column partitioning): A += C x D, C P x Q, D Q x R,
  /// in the paper's initial allocation (sw/spec/matmul_layout.h). Throws Error naming the dimension
  /// that does not divide over the grid.
  static PermutationSpec matmul(int n, u64 p, u64 q, u64 r, int n1);
  /// Parses the form written by str(), e.g. "aapc n=3 m=1", "dim n=2 k=2 delta=2,3,0,1" or
  /// "linear n=1 k=1 rows=2,3" (rows in decimal), with virtual elements
  /// "linear n=1 k=2 rows=1,2,4 virtual=4" (the parity checks in decimal).
  static PermutationSpec parse(std::string_view text);

  std::string str() const;
  Kind kind() const { return kind_; }
  int n() const { return n_; }
  u64 nodes() const { return u64{1} << n_; }
  /// K, the number of data slots per node.
  u64 slots() const { return slots_; }
  u64 elements() const { return nodes() * slots_; }
  u64 repetitions() const { return m_; }
  const std::vector<int>& delta() const { return delta_; }
  /// Local address bits k of a dimension or linear permutation (0 for an AAPC).
  int localBits() const { return k_; }
  const std::vector<u64>& rows() const { return rows_; }

  /// Personalized communication: gather (all-to-some) rather than scatter (some-to-all).
  bool gather() const { return gather_; }
  /// Personalized communication: dimensions l of the source (scatter) or destination (gather)
  /// subcube, and the node whose bits l..n-1 the subcube shares.
  int subcubeDims() const { return l_; }
  u64 root() const { return root_; }
  /// A collective (broadcast-all, reduce-all): not a permutation, no dest().
  bool collective() const {
    return kind_ == Kind::kBroadcastAll || kind_ == Kind::kReduceAll ||
           kind_ == Kind::kBroadcastOne || kind_ == Kind::kReduceOne || kind_ == Kind::kMatmul;
  }
  /// Matrix multiplication (TR-623 §3): the shape P x Q x R and the grid's row dimensions n1.
  u64 matP() const { return mm_[0]; }
  u64 matQ() const { return mm_[1]; }
  u64 matR() const { return mm_[2]; }
  int gridRowDims() const { return l_; }
  /// Broadcast-all / reduce-all: the Gray code encoding of the blocks (TR-623 Table 1).
  bool grayBlocks() const { return gray_; }
  /// Broadcast-all / reduce-all: the node block b belongs to (b binary, G(b) Gray).
  u64 blockHome(u64 block) const { return gray_ ? grayEncode(block) : block; }
  /// A reduction (reduce-all, reduce-one): the checked slots hold sums.
  bool reduction() const { return kind_ == Kind::kReduceAll || kind_ == Kind::kReduceOne; }
  /// Collectives: whether slot `slot` of node `node` is checked at the end.
  bool checkedAtEnd(u64 node, u64 slot) const {
    if (kind_ == Kind::kReduceAll) return blockHome(slot / m_) == node;
    if (kind_ == Kind::kReduceOne) return node == root_;
    if (kind_ == Kind::kMatmul) return slot >= mm_[3];  // the A block
    return true;
  }
  /// Whether the element that starts at address a takes part in the communication (always,
  /// except for personalized communication and the virtual elements of a linear permutation).
  bool participates(GlobalAddress a) const;
  /// Linear permutations: the parity checks that mark virtual elements (empty: none).
  const std::vector<u64>& virtualChecks() const { return checks_; }
  bool hasVirtual() const { return !checks_.empty(); }
  /// The elements that take part (every element, the real ones of a linear permutation with
  /// virtual elements, or those inside the subcube of a personalized communication).
  u64 participating() const;
  /// The elements that take part, per source node (entry x: those that start in node x).
  std::vector<u64> participatingPerNode() const;
  /// Sum over the elements that take part of the Hamming distance from their source node to
  /// their destination node: the fewest words any schedule puts on the links.
  u64 participatingDistance() const;

  /// Where the element that starts at address a must end.
  GlobalAddress dest(GlobalAddress a) const;

 private:
  Kind kind_ = Kind::kAapc;
  int n_ = 0;
  u64 m_ = 1;
  u64 slots_ = 1;
  int k_ = 0;
  std::vector<int> delta_;
  std::vector<u64> rows_;
  bool gather_ = false;
  int l_ = 0;
  u64 root_ = 0;
  bool gray_ = false;  ///< broadcast-all / reduce-all: block b in node G(b)
  std::vector<u64> checks_;
  u64 mm_[4] = {0, 0, 0, 0};  ///< matmul: P, Q, R, and the first slot of the A block
};

}  // namespace hcube

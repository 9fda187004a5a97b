// hcube: matrix layouts on the cube — how the elements of a P x Q = 2^p x 2^q matrix are
// assigned to the 2^n nodes and their local slots (Johnsson & Ho 1987, §2 "Preliminaries",
// Tables 1 and 2), and the permutation a matrix transposition between two layouts performs
// (Definition 1).
//
// The address of element a(u, v) is w = (u || v): the p bits of the row index above the q bits
// of the column index, m = p + q bits in all. A layout takes n of those bits as the *real
// processor* field (the node address; the paper's rp dimensions) and leaves the other m - n as
// *virtual processor* dimensions (vp), which become the local slot address in their original
// order, most significant first. The processor field is one or more index fields, each a run of
// consecutive row or column index bits; the first field gives the most significant node bits.
// Each field is encoded in binary or in binary-reflected Gray code on its own (Table 2 writes
// G(u_{p-1}..u_{p-s}) G(u_{n-s-1}..u_0) for a split field).
//
//   one-dimensional consecutive rows   node = (u_{p-1} .. u_{p-n})        Table 1
//   one-dimensional cyclic rows        node = (u_{n-1} .. u_0)            Table 1
//   (columns alike with v and q)
//   two-dimensional consecutive        node = (u_{p-1}..u_{p-nr} || v_{q-1}..v_{q-nc})    §2
//   two-dimensional cyclic             node = (u_{nr-1}..u_0 || v_{nc-1}..v_0)           §2
//   combined                           any fields, e.g. (u_{p-i}..u_{p-i-n+1}) or
//                                      (u_{p-1}..u_{p-s} u_{n-s-1}..u_0)             Table 2
//
// The global address of an element is (node | slot) with k = m - n slot bits, exactly the
// (x | l) of sw/spec/address.h, so every layout is a bijection of the PQ matrix elements onto the
// N * K = 2^n * 2^(m-n) cube positions, and it is linear over GF(2) (Gray codes included).
//
// String forms (the CLI options and the one-token table header description):
//   --matrix PxQ            e.g. 128x128, 256x64 (powers of two)
//   --partition NAME        row-consecutive, row-cyclic, col-consecutive, col-cyclic,
//                           2d-consecutive, 2d-cyclic (rows get ceil(n/2) node bits, columns
//                           floor(n/2)), 2d-consecutive-cyclic (consecutive rows, cyclic
//                           columns), 2d-cyclic-consecutive, or a combined assignment written
//                           as its fields: "u7-5,v1-0" (row bits 7..5 then column bits 1..0;
//                           a one-bit field is "u3")
//   --encoding NAME         binary, gray (every field in Gray code), gray-rows (row fields Gray,
//                           column fields binary), gray-cols
//   a layout as one token   PxQ/partition/encoding, e.g. 128x128/col-cyclic/binary
//
// Virtual elements (Johnsson & Ho 1987 Definition 2, §3.3, §5): a layout that needs more row
// (or column) index bits for its node fields than the matrix has would leave nodes empty. Such a
// matrix is extended with virtual elements in the high-order dimensions of the short index:
// P x Q = 2^p x 2^q becomes P' x Q' = 2^p' x 2^q' (p' >= p, q' >= q) and the real elements are
// those with u < P and v < Q; all the others are virtual. By default (--virtual needed) the
// index gets only the bits the layouts before and after need, so the real elements sit where a
// plain reading of the partitioning puts them (8 rows row-consecutive on 64 nodes: row i on node
// i); --virtual square extends to the square S x S, S = max(P', Q'), as Definition 2 states it.
// Every layout of the extended matrix is then a bijection onto N * K positions as before, with
// K = P'Q' / N, and the transposition is the permutation of the extended matrix. Its
// PermutationSpec carries parity checks that mark the virtual elements (one per added index
// bit), so the reference model, the verifier and the report skip them, and the schedules drop
// every move of a virtual element (sw/schedule/virtual_elements.h): virtual elements are never
// sent. The one-token form of an extended layout names both shapes:
// 8x1024(64x1024)/row-cyclic/binary. An algorithm accepts virtual elements by asking for them
// (LayoutDefaults::allow_virtual): the transposes that build move schedules
// (sw/algorithms/transpose/cases.cpp) and SPT / DPT / MPT, which never put a virtual element into a
// packet (planTranspose2d, sw/algorithms/transpose/transpose2d.h). Without it, a layout that leaves
// nodes empty is an Error naming the option and the algorithm.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/algorithms.h"
#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {

/// Bits hi..lo (hi >= lo) of the row index u (row == true) or of the column index v.
struct IndexField {
  bool row = true;
  int hi = 0;
  int lo = 0;
  int width() const { return hi - lo + 1; }
  friend bool operator==(const IndexField&, const IndexField&) = default;
};

enum class FieldEncoding { kBinary, kGray, kGrayRows, kGrayCols };

class MatrixLayout {
 public:
  /// A named or combined partitioning (see the header comment) of a 2^p x 2^q matrix on 2^n
  /// nodes. Throws Error naming `partition_option` / `encoding_option` (e.g. "--partition")
  /// when the name is unknown or the partitioning cannot use n node dimensions.
  static MatrixLayout make(int p, int q, int n, std::string_view partition,
                           std::string_view encoding,
                           const std::string& partition_option = "--partition",
                           const std::string& encoding_option = "--encoding");
  /// make() for the 2^p x 2^q extension of a 2^real_p x 2^real_q matrix with virtual elements
  /// (Definition 2): real_p <= p, real_q <= q; the added index bits are the high-order ones.
  static MatrixLayout makeExtended(int real_p, int real_q, int p, int q, int n,
                                   std::string_view partition, std::string_view encoding,
                                   const std::string& partition_option = "--partition",
                                   const std::string& encoding_option = "--encoding");
  /// Parses the one-token form PxQ/partition/encoding (or PxQ(P'xQ')/... for an extended
  /// matrix) for an n-cube.
  static MatrixLayout parse(std::string_view text, int n);
  /// Row and column index bits the partitioning needs for its node fields on 2^n nodes (n for
  /// the rows of row-consecutive, ceil(n/2) and floor(n/2) for 2d-*, the highest named bit + 1
  /// for index fields); (0, 0) for a name make() would reject.
  static std::pair<int, int> indexBitsNeeded(std::string_view partition, int n);

  int p() const { return p_; }
  int q() const { return q_; }
  int n() const { return n_; }
  /// Local address bits k = p + q - n; K = 2^k slots per node.
  int k() const { return p_ + q_ - n_; }
  u64 rows() const { return u64{1} << p_; }
  u64 cols() const { return u64{1} << q_; }
  u64 slots() const { return u64{1} << k(); }
  /// Index bits of the real matrix (equal to p() and q() unless the matrix was extended with
  /// virtual elements).
  int realP() const { return real_p_; }
  int realQ() const { return real_q_; }
  bool hasVirtual() const { return real_p_ != p_ || real_q_ != q_; }
  /// Whether element (u, v) of the (extended) matrix is real: u < 2^realP and v < 2^realQ.
  bool isReal(u64 u, u64 v) const { return (u >> real_p_) == 0 && (v >> real_q_) == 0; }
  /// One parity check over the packed global address (node << k | slot) per added index bit:
  /// the element stored there is virtual iff some parity(address & check) is 1.
  std::vector<u64> virtualChecks() const;
  const std::vector<IndexField>& fields() const { return fields_; }
  /// Whether field f is Gray-coded.
  bool gray(size_t f) const { return gray_[f]; }
  const std::string& partitionName() const { return partition_; }
  const std::string& encodingName() const { return encoding_; }
  /// "PxQ/partition/encoding".
  std::string str() const;

  /// The matrix address bits (of w = (u || v), bit i of v is bit i of w, bit i of u is bit
  /// q + i) that form the real processor field: the paper's set R.
  u64 realDims() const;
  /// Node address bits taken by the row fields and by the column fields (n_r and n_c).
  int rowNodeBits() const;
  int colNodeBits() const;

  /// Where element (u, v) is stored.
  GlobalAddress place(u64 u, u64 v) const;
  /// Which element (u, v) the position holds (the inverse of place).
  std::pair<u64, u64> element(GlobalAddress a) const;
  /// place() as a GF(2) matrix: bit b of the packed global address (node << k | slot) is the
  /// parity of (w & rows[b]), w = (u << q) | v.
  std::vector<u64> placeRows() const;

 private:
  int p_ = 0;
  int q_ = 0;
  int n_ = 0;
  int real_p_ = 0;
  int real_q_ = 0;
  std::vector<IndexField> fields_;
  std::vector<bool> gray_;
  std::string partition_;
  std::string encoding_;
  std::vector<u64> place_rows_;    ///< placeRows(), computed once
  std::vector<u64> element_rows_;  ///< its inverse
  std::vector<u64> computePlaceRows() const;
};

/// Parses "PxQ" into (p, q); throws Error naming `option` unless P and Q are powers of two.
std::pair<int, int> parseMatrixShape(std::string_view text, const std::string& option);

/// The permutation of the cube's global addresses that transposes a matrix (Johnsson & Ho 1987
/// Definition 1): element a(u, v), stored at before.place(u, v), is element a^T(v, u) of the
/// Q x P transpose and goes to after.place(v, u). `after` describes the transpose, so
/// after.p() == before.q() and after.q() == before.p(). Linear over GF(2); throws Error if the
/// shapes or n do not match. With virtual elements (the real shapes must match too) the spec
/// carries before's virtual checks.
PermutationSpec transposePermutation(const MatrixLayout& before, const MatrixLayout& after);

/// The permutation that changes the storage of one matrix from `from` to `to` without
/// transposing it (element (u, v) from from.place(u, v) to to.place(u, v)): the conversions
/// between consecutive and cyclic storage (Corollaries 6 and 7) and between encodings.
PermutationSpec relayoutPermutation(const MatrixLayout& from, const MatrixLayout& to);

/// A transpose case: the layout of A before and of A^T after.
struct TransposeLayouts {
  MatrixLayout before;
  MatrixLayout after;
  /// One token for the table header: before.str() + ">" + after.str().
  std::string str() const;
};

/// Reads the matrix options of a transpose from a case (the one parser every transpose
/// algorithm shares): --matrix PxQ (default: the squarest 2^p x 2^q with PQ = N * K, K = --k or
/// 2^n), --partition (default `default_partition`), --encoding (default binary),
/// --to-partition and --to-encoding (default: the same as before, applied to the transpose).
/// Checks --k against PQ / N. Takes no virtual elements (LayoutDefaults::allow_virtual false):
/// a layout that would leave nodes empty is an Error naming the option and the algorithm.
TransposeLayouts transposeLayoutsFromParams(CaseParams& params, const CaseSpec& spec,
                                            const std::string& default_partition);

/// Defaults of the matrix options for one algorithm (layoutsFromParams).
struct LayoutDefaults {
  std::string partition = "row-consecutive";
  std::string encoding = "binary";
  std::string to_partition;  ///< empty: the same as --partition
  std::string to_encoding;   ///< empty: the same as --encoding
  /// true: `after` stores the transpose A^T (Q x P); false: `after` stores A itself in another
  /// storage form (the conversions of Corollaries 6-7).
  bool transpose = true;
  /// Whether the algorithm accepts virtual elements (it builds a move schedule whose virtual
  /// moves sw/schedule/virtual_elements.h can drop); reads --virtual needed|square. false: a layout
  /// that leaves nodes empty is an Error naming the option.
  bool allow_virtual = false;
  /// Without --matrix: true gives the column vector (N K) x 1 (whose consecutive and cyclic row
  /// storage forms have disjoint real fields, Corollary 7), false the squarest 2^p x 2^q.
  bool tall = false;
};

/// transposeLayoutsFromParams with every default chosen by the algorithm. With allow_virtual,
/// a layout before or after that needs more row or column index bits than the matrix has
/// extends it (makeExtended) to p' = max(p, rows needed before, columns of A^T needed after)
/// and likewise q' (--virtual needed), or to the square of max(p', q') (--virtual square); --k
/// then counts the slots of the extended matrix.
TransposeLayouts layoutsFromParams(CaseParams& params, const CaseSpec& spec,
                                   const LayoutDefaults& defaults);

/// GF(2) helpers over bit-vector rows: y bit i = parity(x & rows[i]).
u64 gf2Apply(const std::vector<u64>& rows, u64 x);
/// Inverse of an invertible square GF(2) matrix of `bits` rows; throws Error if singular.
std::vector<u64> gf2Inverse(const std::vector<u64>& rows, int bits);

}  // namespace hcube

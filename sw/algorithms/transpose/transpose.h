// hcube: matrix transposition schedules of Johnsson & Ho 1987 that move whole address fields —
// one-dimensional transposition (§5: as an AAPC, and the standard exchange algorithm of the
// pseudo-code with local shuffles), conversions between storage forms (Corollaries 6-7), the
// transposition with change of assignment scheme (§6.2, algorithms 1-3) and the transposition
// combined with binary <-> Gray code conversion (§6.3).
//
// Every schedule is built on an ElementTracker: it knows which element every slot of every node
// holds, appends the moves of each step to a MoveSchedule (link moves, and local copies that the
// compiler lowers into PERMUTE cycles, docs/hardware/node.md §2.1), and at the end derives the last
// local reordering from the reference permutation, so what a schedule achieves is checked by
// construction and again by the verifier and the executors.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "schedule/schedule.h"
#include "spec/permutation.h"

namespace hcube {

/// What a transposition schedule consists of, for the report and the tests.
struct TransposeSchedule {
  MoveSchedule moves;
  u64 scratch = 0;         ///< scratch slots per node the schedule uses
  u64 routing_steps = 0;   ///< the paper's communication (routing) steps
  u64 exchanges = 0;       ///< exchange steps (node dimension <-> local dimension)
  u64 transfer_steps = 0;  ///< steps with link moves (= transfer cycles of the tables)
  u64 local_steps = 0;     ///< steps of local copies (= PERMUTE cycles)
  u64 local_phases = 0;    ///< local reorderings (shuffles, local transposes, final fix-up)
};

/// Follows every element of a cube of 2^n nodes x (K + scratch) slots while a schedule is built.
/// Elements are named by their initial packed address x * K + l (the tags of the executors).
class ElementTracker {
 public:
  static constexpr u64 kEmpty = ~u64{0};

  ElementTracker(std::string algo, int n, u64 slots, u64 scratch, int copy_channels);

  int n() const { return n_; }
  u64 slots() const { return k_; }
  u64 nodes() const { return u64{1} << n_; }
  /// Element in `slot` of `node` (kEmpty if none, or if that copy is stale).
  u64 at(u64 node, u64 slot) const;
  /// Where an element's live copy is.
  GlobalAddress where(u64 element) const;

  /// One step of link moves (all read the state at the start of the step).
  void linkStep(const std::vector<Move>& moves);
  /// Exchange of node dimension `node_bit` with local dimension `slot_bit` (the standard
  /// exchange, Johnsson & Ho 1987 §3.2, Definition 10): every element at (x | l) with
  /// x_{node_bit} != l_{slot_bit} crosses dimension node_bit into slot l ^ (1 << slot_bit), K/2
  /// per node, `lanes` per link and step, as swaps. Returns the steps it took.
  u64 exchange(int node_bit, int slot_bit, int lanes);
  /// A local reordering: on every node, the element in data slot l moves to slot f(node, l) (f
  /// a permutation of 0..K-1 for each node). Lowered into steps of at most copy_channels copies
  /// per node (one PERMUTE cycle each). Returns the steps (0 if f is the identity).
  u64 local(const std::function<u64(u64 node, u64 slot)>& f);
  /// The final local reordering: every element must already be on the node `spec` sends it to;
  /// moves it into its destination slot (from a data or scratch slot). Throws Error naming an
  /// element that is on the wrong node.
  u64 finish(const PermutationSpec& spec);

  TransposeSchedule& result() { return result_; }

 private:
  /// Lowers local copies (from -> to, both < K + scratch, every `to` distinct, a copy only into a
  /// slot that is free or read by this reordering) into copy rounds of node x.
  std::vector<std::vector<Move>> localRounds(u64 node,
                                             const std::vector<std::pair<u64, u64>>& copies) const;
  u64 appendLocalRounds(const std::vector<std::vector<std::vector<Move>>>& per_node);

  int n_;
  u64 k_;
  u64 words_;
  int channels_;
  std::vector<u64> content_;   ///< node * words + slot -> element or kEmpty
  std::vector<u64> loc_;       ///< element -> node * words + slot of its live copy
  std::vector<char> leaving_;  ///< scratch flags of linkStep: element moves in this step
  TransposeSchedule result_;
};

/// §5, one-dimensional transposition as an all-to-all personalized communication: a local
/// reordering puts the element for node i into slot (h << n) | i, the AAPC schedule `aapc`
/// (Edelman 1991, Johnsson & Ho 1992, relative addresses) performs (j | h, i) -> (i | h, j),
/// and a local reordering puts every element into its slot. `spec` must send all elements of
/// local address l to one node D(l) that does not depend on the source node (I is empty) and
/// K >= N. Throws Error naming the option otherwise.
TransposeSchedule transposeViaAapc(const std::string& algo, const PermutationSpec& spec,
                                   const RelativeSchedule& aapc);

/// §5, the transposition by the standard exchange algorithm (the pseudo-code): after a local
/// reordering into N blocks (block i holds the elements for node i, block index in the high
/// local bits), for j = n-1 downto 0 exchange half of the blocks with the neighbour in
/// dimension j, then shuffle the blocked array (a left rotation of the block index, a local
/// reordering); with shuffle == false the exchange addresses block bit j directly and no
/// shuffle is needed. n exchanges of K/2 elements, one port at a time. Same conditions as
/// transposeViaAapc.
TransposeSchedule transposeByExchange(const std::string& algo, const PermutationSpec& spec,
                                      int lanes, bool shuffle);

/// §6.3: transposition of a two-dimensionally partitioned matrix (n_r = n_c = n/2, every node's
/// block goes to one node) combined with the binary <-> Gray conversion the layouts ask for, in
/// n/2 iterations of two routing steps: in iteration j (j = n/2-1 downto 0) every 2 x 2 group of
/// nodes in dimensions (j + n/2, j) sets those two node bits to the destination's, which is a
/// transpose, a clockwise or counterclockwise rotation, or an anti-transpose of the group's
/// blocks (Figures 6-7). Distance-2 blocks wait in scratch slots of the relay node for the
/// second step. Then a local reordering (the local transpose of the block). Pipelined ("pipelining
/// can be applied", §6.3), a relay forwards each word in the step after it arrived (two steps'
/// worth of scratch slots), so an iteration takes ceil(K/b) + 1 steps instead of 2 ceil(K/b).
TransposeSchedule transposeWithGrayConversion(const std::string& algo, const PermutationSpec& spec,
                                              int lanes, bool pipelined = false);

/// A step of the §6.2 algorithms: exchange node dimension a with local dimension b, a swap of two
/// node dimensions (the global transpose's distance-2 routing, via scratch slots), or a local
/// reordering.
struct AddressStep {
  /// kConditionalSwap: the nodes whose bit b is 1 swap their blocks across dimension a (one
  /// routing step of a binary <-> Gray conversion, §6.3).
  enum class Kind { kExchange, kNodeSwap, kLocal, kConditionalSwap };
  Kind kind = Kind::kExchange;
  int a = 0;
  int b = 0;
  std::function<u64(u64 node, u64 slot)> local;
};

/// Runs a list of address steps (the exchange-row / exchange-column sequences of §6.2) and the
/// final local reordering to `spec`.
TransposeSchedule runAddressSteps(const std::string& algo, const PermutationSpec& spec,
                                  const std::vector<AddressStep>& steps, int lanes, u64 scratch);

class MatrixLayout;

/// §6.3, the separate way the combined algorithm improves on: convert the encoding of the column
/// node field within every column subcube (n/2 - 1 routing steps), then of the row node field
/// within every row subcube (n/2 - 1 steps), then transpose the blocks by swapping the node
/// fields pair by pair (n steps): 2n - 2 routing steps of K elements when both fields change
/// encoding. Needs two-dimensional layouts with n/2 row and n/2 column node dimensions whose
/// fields hold the same index bits before and after (I = R). Throws Error naming the option.
std::vector<AddressStep> grayConversionThenTransposeSteps(const std::string& algo,
                                                          const MatrixLayout& before,
                                                          const MatrixLayout& after);

/// §6.2, transposition with change of assignment scheme (two-dimensional partitionings with
/// n_r = n_c = n/2, binary encoding, real fields before and after disjoint), as address steps:
///  1: exchange-row and exchange-column convert the assignment (the row node field takes the
///     column node field's dimensions of the transpose and vice versa), then the global
///     transpose swaps the two node fields (distance 2, two routing steps per pair) — 2n
///     routing steps;
///  2: a local transpose of the local matrix, then exchange-row and exchange-column straight
///     into the final real fields — n routing steps;
///  3: exchange-row and exchange-column straight into the final real fields (no local
///     transpose first) — n routing steps;
/// each followed by the final local reordering. `scratch` receives the scratch slots needed.
/// Throws Error naming the option when the layouts do not fit the algorithm.
std::vector<AddressStep> changeOfAssignmentSteps(const std::string& algo,
                                                 const MatrixLayout& before,
                                                 const MatrixLayout& after, int algorithm,
                                                 u64& scratch);

}  // namespace hcube

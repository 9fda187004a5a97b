// hcube: the reference functional model and the check of final memories against it.
//
// Test data is self-describing (docs/architecture.md §2): before a run, slot l of node x holds its
// own global address x * K + l (its tag). The reference model says, for a permutation spec, which
// tag must be in every slot afterwards. It knows nothing of schedules.
#pragma once

#include <string>
#include <vector>

#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {

/// Memory of all nodes: node x's word at slot l is at [x * words_per_node + l].
struct CubeMemory {
  u64 nodes = 0;
  u64 words_per_node = 0;
  std::vector<u32> words;

  u32 at(u64 node, u64 slot) const { return words[node * words_per_node + slot]; }
  u32& at(u64 node, u64 slot) { return words[node * words_per_node + slot]; }
};

/// Largest cube memory (nodes x words) the executors and the verifier will hold: 2^28 words.
constexpr u64 kMaxSimulatedWords = u64{1} << 28;

/// Throws Error naming `what` if nodes x words_per_node exceeds kMaxSimulatedWords.
void requireSimulatable(u64 nodes, u64 words_per_node, const std::string& what);

/// Initial memory: tags in slots 0..K-1, zero in the words_per_node - K scratch words.
CubeMemory taggedMemory(const PermutationSpec& spec, u64 words_per_node);
/// The same for the `nodes` nodes from `first_node` on only (node first_node + i as node i):
/// a rank's own part of the cube (sw/exec_partitioned.h).
CubeMemory taggedMemory(const PermutationSpec& spec, u64 words_per_node, u64 first_node, u64 nodes);

/// Expected final contents of the K data slots of every node (words_per_node = K).
CubeMemory expectedMemory(const PermutationSpec& spec);

/// Matrix multiplication (TR-623 §3): the A blocks of every node after A += C x D from the
/// words of `initial` (which may be tags or seeded values); K words per node.
CubeMemory matmulExpected(const PermutationSpec& spec, const CubeMemory& initial);

struct Mismatch {
  u64 node = 0;
  u64 slot = 0;
  u32 found = 0;
  u32 expected = 0;
};

struct CheckResult {
  u64 elements = 0;             ///< elements checked (N * K, or those taking part)
  u64 correct = 0;              ///< elements where the reference says
  u64 mismatches = 0;           ///< elements not where the reference says
  std::vector<Mismatch> first;  ///< the first few mismatches, in address order
};

/// Compares the data slots of a final memory with the reference model (for a personalized
/// communication only the slots whose expected element takes part).
CheckResult checkAgainstReference(const PermutationSpec& spec, const CubeMemory& final_memory,
                                  size_t keep_first = 8);

/// One line naming a mismatch: where the element is, where it came from, what belongs there.
std::string describe(const Mismatch& m, u64 slots_per_node);

}  // namespace hcube

// hcube: explicit local alignment phases for the all-to-all personalized communication (AAPC),
// Johnsson & Ho 1992 §2.2 (Optimal Communication Channel Utilization for Matrix Transposition
// and Related Permutations on Binary Cubes).
//
// A relative-address AAPC schedule lets node x send, in a step, the element in slot w ^ x: the
// hardware's relative flag does the indirect addressing. The paper instead organises the AAPC in
// three phases so that every node uses the same (direct) address in every exchange step:
//
//   phase 1, pre-alignment (local):  (j|i) -> (j|j XOR i)           slot r now holds the element
//                                                                    with relative address r;
//   phase 2, exchange (links):       (j|r) -> (j XOR r|r)            absolute slots, same for all;
//   phase 3, re-alignment (local):   identical to phase 1.
//
// With K = m * 2^d slots, slot l = (h, i) and the XOR touches only the low d bits i (§2.1: the
// AAPC repeated m times). The generalisation of §2.2.2, (j|i) -> (f(i)|g(j)) with bijections f, g,
// costs no extra data motion: f is folded into phase 1, (j|i) -> (j|j XOR f(i)), and g into
// phase 3, (y|r) -> (y|g(y XOR r)). The worked case is the binary-reflected Gray code,
// f = g = G, G(v) = v XOR (v >> 1): the permutation (j|h,i) -> (G(i)|h,G(j)).
//
// The local phases run on the hardware's PERMUTE instruction (docs/hardware/node.md §2.1): at most
// n*b slot copies per cycle, every copy reading the memory as it was at the start of the cycle.
// How a local permutation becomes PERMUTE cycles: see compileLocalPermutation.
//
// Measured cost (table executor, all-port, b = 1, K = 2^d, so d copies per PERMUTE), PERMUTE
// cycles for d = 1..8:
//
//   one binary phase (K/2 swaps s <-> s ^ x):  3, 2, 3, 4, 7, 11, 20, 32
//   the bound ceil(K/d) per phase:             2, 2, 3, 4, 7, 11, 19, 32
//   both Gray-code phases together:            6, 6, 8, 10, 16, 24, 42, 68
//
// For even d the binary phase meets ceil(K/d). For odd d a PERMUTE holds (d-1)/2 swaps and the
// odd copy runs a swap through the scratch slot (3 copies); with every swap either closed in one
// PERMUTE (2 copies) or through a scratch slot (3 copies), 20 cycles are the fewest for d = 7.
// d = 1 has one copy per cycle: the swap takes 3 cycles through the scratch slot.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithms.h"
#include "tables/table.h"

namespace hcube {

/// One local copy: the word in slot `from` is written into slot `to`.
struct LocalCopy {
  u32 from = 0;
  u32 to = 0;
  friend bool operator==(const LocalCopy&, const LocalCopy&) = default;
};

/// The copies of one PERMUTE cycle.
using CopyCycle = std::vector<LocalCopy>;

/// Compiles the local permutation `dest` of one node (the word in slot s must end in slot
/// dest[s]) into PERMUTE cycles of at most `copies_per_cycle` copies each, in place.
///
/// The permutation is split into its cycles (fixed points cost nothing). Because every copy of a
/// PERMUTE reads the state at the start of the cycle, a permutation cycle of length L <= the free
/// copies of a PERMUTE is one closed rotation (L copies). A longer one is worked off by partial
/// rotations: rotating q consecutive elements a_0..a_{q-1} of the cycle puts q - 1 of them in
/// place and leaves a cycle of length L - q + 1 for a later PERMUTE (one extra copy per partial
/// rotation). With `scratch_slot` >= 0, one cycle at a time may instead go through that scratch
/// slot as a chain (t <- a_{L-1}, a_{L-1} <- a_{L-2}, ..., a_1 <- a_0, a_0 <- t: L + 1 copies that
/// may be spread over any PERMUTEs in this order), which uses copies a PERMUTE would otherwise
/// leave idle, e.g. the odd copy when swaps (2-cycles) fill a PERMUTE of 3 copies: four swaps
/// then take 3 PERMUTEs instead of 4. Each PERMUTE is filled greedily: closed rotations of the
/// longest cycles that fit, then the running chain, then a chain start or a partial rotation of
/// the longest remaining cycle. The result is checked by applying it.
/// Throws Error if copies_per_cycle is 0, or 1 without a scratch slot (no swap is possible).
std::vector<CopyCycle> compileLocalPermutation(const std::vector<u32>& dest,
                                               size_t copies_per_cycle, long long scratch_slot);

/// A compiled local phase of every node.
struct LocalPhase {
  std::vector<std::vector<CopyCycle>> nodes;  ///< per node, its PERMUTE cycles
  u64 cycles = 0;                             ///< the longest node's PERMUTE cycles
  bool uses_scratch = false;                  ///< some node uses the scratch slot
};

/// Compiles one local permutation per node (dests[x][s] as for compileLocalPermutation). Per
/// node, the scratch slot (slot `scratch_slot`, if >= 0) is used only if that takes fewer cycles.
LocalPhase compileLocalPhase(const std::vector<std::vector<u32>>& dests, size_t copies_per_cycle,
                             long long scratch_slot);

/// The address code of the AAPC's node and local addresses (Johnsson & Ho 1992 §2.2.2).
enum class AddressCode { kBinary, kGray };

/// The permutation (j|h,i) -> (G(i)|h,G(j)) on 2^d nodes with K = m * 2^d slots (m a power of
/// two), as a GF(2)-linear permutation spec.
PermutationSpec grayAapc(int d, u64 slots);

/// What the alignment transform measured on the tables it made.
struct AlignmentCost {
  u64 pre_cycles = 0;   ///< PERMUTE cycles of phase 1
  u64 post_cycles = 0;  ///< PERMUTE cycles of phase 3
  u64 exchange_instructions = 0;
  bool uses_scratch = false;
};

/// Turns a relative-address AAPC case (one shared table of XFERs whose MEM fields all carry the
/// relative flag, as compileRelative makes it) into the three phases of Johnsson & Ho 1992 §2.2:
/// per-node PERMUTE pre-alignment, the same exchange with absolute slots, PERMUTE re-alignment;
/// with `code` = kGray the permutation becomes grayAapc and f = g = G is folded into the
/// alignments (§2.2.2). Every node gets its own table (the alignments depend on the node address
/// in a way the relative flag cannot express). Throws Error if the case is not such a relative
/// AAPC, or for the Gray code if K is not a power of two.
BuiltCase explicitAlignment(const BuiltCase& relative, AddressCode code,
                            AlignmentCost* cost = nullptr);

/// True if `c` is a relative-address AAPC case that explicitAlignment accepts; otherwise false
/// and *why says what is different.
bool isRelativeAapcCase(const BuiltCase& c, std::string* why = nullptr);

}  // namespace hcube

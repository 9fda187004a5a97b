// hcube: the initial memory of a run and the check of its final memory.
//
// By default data slot l of node x holds its tag x K + l (sw/spec/reference.h), which the reference
// model of every permutation follows. The arithmetic cases — the collectives of TR-623 §2 and
// the matrix multiplications of §3 — can instead start from seeded values (sw/spec/seeded_words.h,
// `--seed S`); their reference is then computed from those values: broadcast copies, sums of
// the reduction (W = 32-bit wrap-around), A + C x D, and every checked slot compared.
#pragma once

#include <optional>

#include "spec/reference.h"

namespace hcube {

/// Seeded initial memory: data slot l < K of node x holds seededWord(seed, x, l, K), the
/// words_per_node - K scratch words 0. Throws Error if the run would not fit (as taggedMemory).
CubeMemory seededMemory(const PermutationSpec& spec, u64 words_per_node, u64 seed);

/// The initial memory of a run: seeded when `seed` is given, else tags. A seed is only for the
/// arithmetic cases (spec.collective()): Error naming --seed otherwise.
CubeMemory initialMemory(const PermutationSpec& spec, u64 words_per_node, std::optional<u64> seed);

/// Expected final words of the K data slots from `initial` (collectives and matmul only):
/// all-to-all broadcast, node b's block b everywhere; all-to-all reduction, block x of node x
/// the sum over every node of that slot; one-to-all broadcast, the root's words everywhere;
/// all-to-one reduction, the sums in the root; matmul, A + C x D. Unchecked slots hold 0.
CubeMemory expectedFromInitial(const PermutationSpec& spec, const CubeMemory& initial);

/// Compares the checked slots of `final_memory` with expectedFromInitial(spec, initial).
CheckResult checkFromInitial(const PermutationSpec& spec, const CubeMemory& initial,
                             const CubeMemory& final_memory, size_t keep_first = 8);

/// The check of a run: checkFromInitial when `initial` is given (a seeded run), else the tag
/// check checkAgainstReference.
CheckResult checkRun(const PermutationSpec& spec, const CubeMemory* initial,
                     const CubeMemory& final_memory);

}  // namespace hcube

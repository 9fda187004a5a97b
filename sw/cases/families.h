// hcube: the algorithm families of the catalogue (sw/algorithms.h). One function per family;
// each returns its entries in listing order.
#pragma once

#include <vector>

#include "algorithms.h"

namespace hcube {

/// Edelman 1991 and Johnsson & Ho 1992 Algorithms 1-4: relative-address AAPC schedules.
std::vector<AlgorithmEntry> aapcAlgorithms();

/// Johnsson & Ho 1987 §6.1: SPT, DPT and MPT two-dimensional transposes.
std::vector<AlgorithmEntry> transpose2dAlgorithms();

/// Johnsson & Ho 1987 §7: bit-reversal, k-shuffles and any dimension permutation by transposition.
std::vector<AlgorithmEntry> permutationAlgorithms();

/// Johnsson & Ho 1992 §2.3, §4: s AAPCs on successive axes (pipelined, Corollary 2; Algorithm 5).
std::vector<AlgorithmEntry> multiAapcAlgorithms();

/// Johnsson & Ho 1987 §5, §6.2, §6.3: transposes that move whole address fields (1D as AAPC or
/// by exchange, storage conversions, change of assignment, combined with Gray conversion).
std::vector<AlgorithmEntry> transposeAlgorithms();

/// Ho & Johnsson 1988 (TR-617) sections 2-4: stable dimension permutations (--method a1|a1p|a4).
std::vector<AlgorithmEntry> sdpAlgorithms();

/// Johnsson & Ho 1988 (TR-623) §2: all-to-all broadcast and reduction (SBT, nRSBT).
std::vector<AlgorithmEntry> collectiveAlgorithms();

/// Johnsson & Ho 1988 (TR-623) §3: matrix multiplication (rotation A(.,1,1), Cannon A(.,2,1)).
std::vector<AlgorithmEntry> matmulAlgorithms();

}  // namespace hcube

// hcube: the algorithm families of the catalogue (sw/algorithms/algorithms.h). One function per
// family; each returns its entries in listing order.
#pragma once

#include <vector>

#include "algorithms/algorithms.h"

namespace hcube {

/// The option that decides a case's size, as the user gave it: --NAME VALUE for the algorithm
/// parameter `param` if given (nullptr: none), else --k K if given, else --n N.
std::string sizeOption(const CaseSpec& spec, const char* param = nullptr);

/// The size of a case (resource_limits.h) from its parameters: K data slots per node, one
/// shared table or one per node, at most `instructions` per table (a double, so that a formula
/// on huge parameters saturates instead of wrapping). Checked with requireBuildable before the
/// family builds anything; the family keeps it in BuiltCase::size.
CaseSize checkedSize(const CaseSpec& spec, const std::string& option, double slots, bool shared,
                     double instructions);

/// checkedSize for a case with one table per node that makes at most `passes` passes over its K
/// = `slots` data slots (a pass sends every slot once: ceil(K / lanes) XFERs), twice as many
/// instructions when `startups` (a WAIT before every message, at worst one per word), plus
/// `extra` instructions and 8n + 16 for the phases' boundaries, local copies and the END.
CaseSize perNodeSize(const CaseSpec& spec, const std::string& option, double slots, double passes,
                     bool startups, double extra = 0);

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

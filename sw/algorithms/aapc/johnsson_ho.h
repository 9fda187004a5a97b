// hcube: Johnsson & Ho's all-to-all personalized communication, Algorithms 1-4.
//
// S. L. Johnsson and C.-T. Ho, "Optimal Communication Channel Utilization for Matrix
// Transposition and Related Permutations on Binary Cubes", Harvard TR-16-92, 1992.
//
// §2.2: an AAPC (j|i) -> (i|j) is done as phase 1, local alignment (j|i) -> (j|j^i); phase 2,
// interprocessor exchange (j|i) -> (j^i|i), in which every node sends, in a given step and
// dimension, the element at the same aligned local address a; phase 3, realignment (= phase 1).
// Aligned address a of node y is natural slot a ^ y, so a phase-2 schedule written in aligned
// addresses is a homogeneous relative-address schedule (RelativeSchedule): the hardware's
// relative-addressing flag performs the pre- and post-alignment. The functions below build
// phase 2 of each algorithm as a RelativeSchedule (steps x d, entry = aligned address sent
// across that dimension in that step, kIdle for an idle link) and expose the combinatorial
// pieces the paper builds it from (complement pairs, necklaces, cyclic addresses, the
// generating table, line drawings).
//
// Every aligned address a must cross exactly the dimensions of its one bits, once each; an
// element waiting between two of its exchanges simply stays in its relative slot, so every
// routing of §3 is expressible in the relative scheme.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "schedule/schedule.h"
#include "spec/address.h"

namespace hcube {

/// Largest cube dimension the Johnsson & Ho builders accept.
constexpr int kJhMaxDims = 20;

// ---------------------------------------------------------------------------------------------
// Addresses (§2.1, §2.2.1)
// ---------------------------------------------------------------------------------------------

/// Phase 1 / phase 3 alignment of §2.2.1: local address i of node j goes to aligned
/// (relative) address j ^ i. The map is an involution.
inline u32 alignedAddress(u64 node, u32 local) { return static_cast<u32>(node) ^ local; }

/// Which element (its global address before phase 1, the papers' (p|i)) sits at aligned address
/// `aligned` of `node` after the first `steps_done` steps of the phase-2 schedule `s`: the
/// content of Table 1 (steps_done = 0) and of Table 4 (Algorithm 1, after each step).
GlobalAddress alignedSlotContent(const RelativeSchedule& s, u64 steps_done, u64 node, u32 aligned);

/// The complement pairs (i, ~i) of §2.2.1 for a d-cube, i = 0 .. 2^(d-1) - 1 in this order
/// (the row order of Table 2).
std::vector<std::pair<u32, u32>> complementPairs(int d);

/// Rotates the d-bit string a left by r positions (cyclically).
u32 rotateLeft(u32 a, int r, int d);

/// §2.1: the period of the d-bit string a, the least r > 0 with rotateLeft(a, r) == a.
int addressPeriod(u32 a, int d);

/// §2.1: a is cyclic when its necklace is degenerate (period < d), noncyclic otherwise.
inline bool isCyclicAddress(u32 a, int d) { return addressPeriod(a, d) < d; }

/// §2.1: the distinguished address of a's necklace (its smallest member).
u32 distinguishedAddress(u32 a, int d);

/// §2.1, §3.5.1: the necklace of a, member r = a's distinguished address rotated left r times,
/// r = 0 .. period - 1 (for the 3-necklace of 0111: 0111, 1110, 1101, 1011).
std::vector<u32> necklaceMembers(u32 a, int d);

/// §3.5.2: the complement pairs (x, ~x), x < ~x, of cyclic addresses, by increasing x.
std::vector<std::pair<u32, u32>> cyclicComplementPairs(int d);

/// §3.5.2: c = p mod d, where p is the number of complement pairs of cyclic addresses.
int jhCyclicRemainder(int d);

/// §3.5.3: the d x d generating table; row 0 is 0, 1, .., d-1 and each further row is the
/// previous one rotated left by one, so entry [row][column] = (row + column) mod d. Columns are
/// exchange steps, entries dimensions.
std::vector<std::vector<int>> generatingTable(int d);

// ---------------------------------------------------------------------------------------------
// Exchange tables: the paper's "address: exchange dimension per step" tables
// ---------------------------------------------------------------------------------------------

/// One row of an exchange table (Table 5, the necklace schedule of §3.5.1, the d = 3 cyclic
/// schedule of §3.5.2, Table 7): an address, or a complement pair (address, ~address), and per
/// step the dimension it is exchanged in (kNoExchange for none). For a pair, the member with
/// that dimension's bit set is the one that moves.
struct ExchangeRow {
  static constexpr int kNoExchange = -1;
  u32 address = 0;  ///< for a pair, its member with the smaller value
  bool pair = false;
  std::vector<int> dims;
};

/// An exchange table for a d-cube; all rows have the same number of steps.
struct ExchangeTable {
  int d = 1;
  std::vector<ExchangeRow> rows;
  u64 steps() const { return rows.empty() ? 0 : rows.front().dims.size(); }
};

/// Prints a row as in the paper: "0111: 0 1 2", "(000,111): 2 0 1", '-' for no exchange.
std::string formatExchangeRow(const ExchangeRow& row, int d);

/// §3.5.1, Lemma 2: the schedule of a full q-necklace in q steps. With i_0 < .. < i_(q-1) the
/// one bits of the distinguished address, member r (rotated left r times) is exchanged in
/// dimension (i_k + r) mod d in step k. Throws Error if a's necklace is not full.
ExchangeTable necklaceSchedule(u32 a, int d);

/// Table 5 (§3.2, Algorithm 2): complement pair u (row u, u = 0 .. 2^(d-1) - 1) is exchanged
/// in dimension r in step (u + r) mod 2^(d-1). Dense (2^(2d-2) entries): d <= 12.
ExchangeTable algorithm2Table(int d);

/// How the d - c lines of the generating table are drawn (§3.5.3, Figure 3).
enum class JhLineDrawing {
  /// Figure 3 left / Table 7 first schedule: line i is row i, starting on the diagonal and
  /// running right cyclically; entry j of line i is dimension (2i + j) mod d in step
  /// (i + j) mod d. For d even and c < d/2 lines i >= d/2 are skewed by two columns relative to
  /// their predecessor (entry j in step (i + j + 1) mod d, dimension (2i + j + 1) mod d). The
  /// necklace is the one of the bits of entry 0 of every line, not in general 0^c 1^(d-c).
  kDiagonal,
  /// Figure 3 right / Table 7 second schedule: line i runs down column i through rows
  /// 0 .. d-c-1-i, right along that row through c columns, then down column i + c to row
  /// d-c-1. Entry j of line i is dimension (i + j) mod d: the necklace is 0^c 1^(d-c).
  kGreedy,
};

/// §3.5.2-3.5.3: the group of Algorithm 4 that schedules the c remaining complement pairs of
/// cyclic addresses together with a full (d - c)-necklace in d steps (1 <= c < d): rows 0..d-1
/// are the necklace members j = 0 .. d-1 (member j = member 0 rotated left j times), then the c
/// pairs on the last c rows of the generating table. `pairs` are the c complement pairs (their
/// smaller members); with an empty list the c pairs are labelled by their table row only
/// (address 0). Throws Error if the drawing does not give a valid schedule for this d and c
/// (the diagonal drawing for d even and c = d/2 >= 2 gives cyclic addresses).
ExchangeTable combinedGroupTable(int d, int c, JhLineDrawing drawing,
                                 const std::vector<u32>& pairs = {});

/// Writes an exchange table into steps first_step .. first_step + steps() - 1 of `s`; throws
/// Error if a link or an address would be used twice in one step, or an address would cross a
/// dimension its bit does not name.
void placeExchangeTable(const ExchangeTable& t, u64 first_step, RelativeSchedule& s);

// ---------------------------------------------------------------------------------------------
// Phase-2 schedules, 1 <= d <= 20
// ---------------------------------------------------------------------------------------------

/// §3.1, Algorithm 1, Table 4, Figure 2: complement pairs in blocks of d; pair u of a block is
/// exchanged in dimension (u + r) mod d in step r of the block. The 2^(d-1) mod d remaining
/// pairs form a last block of d steps with idle links. d * ceil(2^(d-1) / d) steps, span d.
/// (For K = m * 2^d the compiler repeats this schedule m times: m * d * ceil(2^(d-1) / d)
/// steps, not the paper's d * ceil(K / 2d), which would pack pairs across repetitions.)
RelativeSchedule jhAlgorithm1(int d);

/// §3.2, Algorithm 2, Table 5: pair u in dimension r in step (u + r) mod 2^(d-1).
/// 2^(d-1) steps (optimal), span 2^(d-1).
RelativeSchedule jhAlgorithm2(int d);

/// §3.3, Algorithm 3: Algorithm 2 on the first M = d + (2^(d-1) mod d) complement pairs
/// (steps 0 .. M-1, pair u in dimension r in step (u + r) mod M), then Algorithm 1 on the
/// remaining pairs in blocks of d. 2^(d-1) steps (optimal), span at most M (Table 6).
RelativeSchedule jhAlgorithm3(int d);

/// §3.5, Algorithm 4, Theorem 1: first the c = p mod d leftover complement pairs of cyclic
/// addresses with a full (d - c)-necklace (combinedGroupTable, d steps; none if c = 0), then
/// the other cyclic pairs in blocks of d (pair u of a block in dimension (u + r) mod d in step
/// r, i.e. generating-table row u), then every other full q-necklace by Lemma 2 (q steps),
/// by increasing distinguished address. 2^(d-1) steps (optimal), span d.
RelativeSchedule jhAlgorithm4(int d, JhLineDrawing drawing = JhLineDrawing::kGreedy);

/// Checks a phase-2 schedule of an AAPC: no address is sent twice in one step, every aligned
/// address a crosses exactly the dimensions of its one bits, each once. One message per
/// violation.
std::vector<std::string> checkAapcRelativeSchedule(const RelativeSchedule& s);

}  // namespace hcube

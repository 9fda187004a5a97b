// hcube: the blocking procedure and wide channels of Johnsson & Ho 1992 ("Optimal Communication
// Channel Utilization for Matrix Transposition and Related Permutations on Binary Cubes"), §5
// and §6.
//
// §5: the aligned addresses of an AAPC schedule are partitioned into subsets K_1 .. K_alpha that
// are scheduled independently of each other (here: the classes of addresses that share a step
// of the schedule; address 0, which never moves, joins the class of address 1..1, as in the
// paper's C(11111)). Subset K_s needs T_s steps. A table with T_max = max T_s rows is filled
// column by column, top to bottom, wrapping into the next column (so no subset appears twice in
// a row and every subset appears in exactly T_s rows); row r is block transfer r. The result
// has the minimal number of block transfers, T_max, with the minimal maximum block size
// ceil(T_sum / T_max). Subsets are placed in schedule order, except that a subset whose
// complement addresses form another subset with T_s + T_s' = T_max is placed together with it
// (the paper's groups: "the necklaces in a column form d complement pairs"), and a subset whose
// complement class was already placed goes to the end; this reproduces Table 8. The steps of a
// subset may run in any order (every address still crosses each of its dimensions once).
//
// §6: with channels of b words, the table entries are labelled with time steps row by row and,
// within a row, from right to left, b entries per time step (Table 9). An entry whose addresses
// already move in the current time step starts a new time step instead (Lemma 5's condition
// b <= floor(K/2d) rules this out for Algorithm 4), so no element moves twice in one cycle.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.h"

namespace hcube {

/// One subset K_s of the blocking procedure.
struct BlockSubset {
  std::vector<u64> steps;  ///< the steps of the one-lane schedule that move it, increasing
  std::vector<u32> slots;  ///< its relative slots (h << d) | a, increasing
  u64 time() const { return steps.size(); }  ///< T_s
};

/// A table entry: one step of one subset.
struct BlockEntry {
  size_t subset = 0;
  u64 step = 0;
};

/// The blocking table of §5 (Table 8).
struct BlockingTable {
  int d = 1;
  std::vector<BlockSubset> subsets;              ///< in placement order
  std::vector<std::vector<BlockEntry>> columns;  ///< column-major, each filled from row 0
  u64 rows = 0;                                  ///< T_max: the number of block transfers

  /// Entries of row r, by column (absent cells skipped).
  std::vector<BlockEntry> row(u64 r) const;
  /// The largest number of entries in a row: the maximum block size (in schedule steps).
  u64 maxBlockSize() const;
};

/// The blocking procedure of §5 applied to the one-lane schedule `s` (all K slots; for K = m * 2^d
/// complements are taken within a repetition: (h << d) | ~a). Throws Error if s has lanes > 1.
BlockingTable blockingTable(const SlotSchedule& s);

/// A subset as the paper writes it: "{C(11111), R(01111)}" — C(x) a complement pair {~x, x}
/// named by its larger member, R(x) a full necklace named by its distinguished address, other
/// addresses in binary; a slot of repetition h > 0 is prefixed "h:".
std::string formatBlockSubset(const BlockSubset& subset, int d);

/// §6 labelling: the time step of every entry, indexed [column][row], for b = `lanes`.
std::vector<std::vector<u64>> wideTimeSteps(const BlockingTable& t, const SlotSchedule& s,
                                            int lanes);

/// The schedule that runs the blocking table: time steps of wideTimeSteps (b = lanes; for
/// b = 1 one entry per step, row by row, right to left), entry k of a time step on lane k. With
/// `blocked`, a block transfer starts at the time step holding the first entry of every row
/// (T_max start-ups); otherwise every step is its own block transfer.
SlotSchedule blockedSchedule(const SlotSchedule& s, const BlockingTable& t, int lanes,
                             bool blocked);

}  // namespace hcube

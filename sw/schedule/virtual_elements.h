// hcube: virtual elements are never sent (Johnsson & Ho 1987 Definition 2, §3.3 "Virtual
// elements need not be communicated", §5 "the complexity of the transposition is reduced
// accordingly, but the basic algorithms apply").
//
// A transposition of a matrix extended with virtual elements (sw/algorithms/transpose/layout.h) is
// scheduled by the ordinary algorithms on the whole extended matrix. dropVirtualMoves then follows
// every element through the move schedule on tagged memory (the element in a slot at the start of a
// step is the one a move of that step carries), removes every move, link or local, that carries a
// virtual element, and packs what is left into as few steps as the hardware allows: each group
// of moves of one step that touch a common slot (a swap, a chain of copies) goes as a whole into
// the earliest step that respects the order of every slot's reads and writes in the schedule
// (a read after the write it reads, a write after the earlier reads and writes of its slot) and
// the hardware limits — b words per link, n * b local copies per node in a PERMUTE step, no step
// mixing transfers and copies, one send and one receive port per node on one-port hardware. Real
// elements take exactly the paths they took before, so the result is the same permutation of the
// real elements, and the number of transfer cycles falls with the virtual traffic removed.
#pragma once

#include "schedule/schedule.h"
#include "spec/permutation.h"

namespace hcube {

/// What dropVirtualMoves did, for the report and the tests.
struct VirtualDrop {
  MoveSchedule moves;     ///< the schedule without virtual elements, packed
  u64 dropped_moves = 0;  ///< moves (link and local) that carried a virtual element
  u64 dropped_words = 0;  ///< of those, link moves: words a virtual element would have sent
  u64 steps_before = 0;   ///< steps of the schedule given
  u64 steps_after = 0;    ///< steps of the packed schedule
};

/// Drops the moves of the elements `perm` marks as not taking part (perm.participates false) from
/// `schedule` and packs the rest (see above). Elements are named by their starting address; data
/// slots 0..K-1 start full, slots K..words_per_node-1 (scratch) empty. `lanes` and `one_port`
/// are the hardware limits the packed steps keep. Throws Error if a move names a node, dimension
/// or slot outside the cube or memory.
VirtualDrop dropVirtualMoves(const MoveSchedule& schedule, const PermutationSpec& perm,
                             u64 words_per_node, int lanes, bool one_port);

}  // namespace hcube

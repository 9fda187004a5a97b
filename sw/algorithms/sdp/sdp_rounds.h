// hcube: the building blocks every stable-dimension-permutation algorithm of Ho & Johnsson 1988
// (§4) is made of — rounds of dimension exchanges, each one message (or ceil(M/B) messages of
// at most B elements) per link, with a start-up of tau cycles per message — and their lowering
// to tables with WAIT tau before every message (the start-ups made real, docs/architecture.md §6).
//
// SdpRouter follows every element (its node and slot) through the rounds, so a round's moves
// are exactly the elements that cross, a round's length is the largest number of elements any
// link carries in it, and at the end every element is checked against the reference model
// before anything is compiled. Dimensions are in the paper's numbering (sw/spec/sdp.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "schedule/schedule.h"
#include "spec/permutation.h"
#include "spec/sdp.h"
#include "tables/compiler.h"
#include "tables/table.h"

namespace hcube {

/// A lowered SDP schedule and what it costs, counted from the schedule itself.
struct SdpSchedule {
  MoveSchedule moves;
  std::vector<bool> message_start;  ///< per step of `moves`: a message (start-up) begins here
  u64 startups = 0;                 ///< start-ups in sequence (each tau cycles)
  u64 transfer_cycles = 0;          ///< element cycles of the link rounds (t_c = 1)
  u64 local_cycles = 0;             ///< PERMUTE cycles (local data movement)
  u64 element_transfers = 0;        ///< element-link crossings, all links
  u64 scratch = 0;                  ///< scratch slots per node the schedule needs
};

class SdpRouter {
 public:
  /// `scratch_bit`: slots K .. 2K-1 (slot bit k) are available as a virtual dimension not used
  /// by the data (Algorithm A1', §4.2.1).
  SdpRouter(const Sdp& sdp, bool scratch_bit, bool one_port, int lanes, std::string algo);
  /// The same on the cube of `sdp` (its n, k and numbering) towards another `target`: only the
  /// elements `target` has take part (PermutationSpec::participates; the others are neither
  /// moved nor checked, their slots may be overwritten), and finish() checks them against it.
  SdpRouter(const Sdp& sdp, PermutationSpec target, bool scratch_bit, bool one_port, int lanes,
            std::string algo);

  /// Where an element goes in a round: the processor dimension it crosses (-1: stays) and its
  /// new slot. Called with the element's id (its initial project global address), current node
  /// and slot.
  struct Step {
    int dim = -1;
    u32 slot = 0;
  };
  using Rule = std::function<Step(u64 element, u64 node, u32 slot)>;

  /// One round of concurrent exchanges: every element crosses at most one link. Its length is
  /// the largest number of elements on one directed link; it is cut into messages of at most
  /// `packet` elements, one start-up each.
  void linkRound(const Rule& rule, u64 packet);
  /// Exchange of processor dimension `real` with storage dimension `storage` (E(v, a) of §4.2):
  /// every element whose node bit differs from its slot bit crosses and flips the slot bit.
  void exchange(int storage, int real, u64 packet);
  /// One part of an AAPC phase (aapcPhase): the slot schedule of one of the project's AAPCs
  /// (sw/algorithms/aapc/aapc_family.h) on d = pairs.size() dimensions; AAPC dimension i is
  /// processor dimension pairs[i].second, and the aligned address bit i of an element is its node
  /// bit there XOR its slot bit at storage dimension pairs[i].first (paper numbering). `repetition`
  /// gives an element's repetition h (from its element id and slot at the start of the phase; bits
  /// outside the pairs' storage dimensions only), or -1 when the element is not in this part.
  struct AapcPart {
    const SlotSchedule* schedule = nullptr;
    std::vector<std::pair<int, int>> pairs;  ///< (storage, processor) per AAPC dimension
    std::function<long long(u64 element, u32 slot)> repetition;
  };
  /// AAPCs run concurrently, step by step, on disjoint processor dimensions: in step t every
  /// element whose relative slot (h << d) | a part p's schedule sends on port i crosses processor
  /// dimension pairs[i].second and flips its slot bit at pairs[i].first, so it keeps its relative
  /// slot (the schedules' homogeneity, Johnsson & Ho 1992 §2.1) and at the end every pair's node
  /// and slot bits are exchanged: E(storage, processor) for every pair. Every step is one cycle;
  /// a message (start-up) begins where any part's schedule starts a block transfer, and again
  /// every `packet` elements within one.
  void aapcPhase(const std::vector<AapcPart>& parts, u64 packet);
  /// Exchange of two storage dimensions: a local swap of slot bits (PERMUTE cycles). With
  /// `only`, just the elements it accepts (by element id) swap; it must accept both elements of
  /// every swapped pair or neither (an internal error otherwise).
  void localSwap(int storage_a, int storage_b,
                 const std::function<bool(u64 element)>& only = nullptr);
  /// A mixed or virtual GSH by Algorithm A1 with a storage pivot (§4.4): the cycle rotated to
  /// start at a storage dimension a0, then E(a0, a1), ..., E(a0, a(s-1)) — exchanges with
  /// processor dimensions communicate, the others are local swaps.
  void pivotCycle(const Gsh& g, u64 packet);

  /// Node of every element now (index: element id).
  const std::vector<u64>& nodes() const { return node_; }
  const std::vector<u32>& slots() const { return slot_; }
  const Sdp& sdp() const { return sdp_; }

  /// Checks every element is where the reference model says (Error naming the first that is
  /// not: an internal error of the algorithm) and returns the schedule.
  SdpSchedule finish();

 private:
  /// Sorts every link's moves by destination slot and checks that no slot is written before
  /// its element leaves; returns the most moves on one link.
  size_t orderLinkMoves(std::vector<std::vector<Move>>& per_link) const;
  Sdp sdp_;
  PermutationSpec perm_;
  int channels_;
  bool one_port_;
  int lanes_;
  u64 scratch_ = 0;
  std::vector<bool> live_;  ///< per element: takes part (see the second constructor)
  std::vector<u64> node_;
  std::vector<u32> slot_;
  SdpSchedule out_;
};

/// Compiles an SDP schedule: compileMoves, then WAIT tau before the XFER of every step that
/// starts a message (every node waits at the same time; the start-up is on the critical path).
TableSet compileSdp(const SdpSchedule& s, const PermutationSpec& perm, bool one_port, int lanes,
                    u64 tau);

}  // namespace hcube

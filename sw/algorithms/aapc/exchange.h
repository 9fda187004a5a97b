// hcube: the standard exchange algorithm for all-to-all personalized communication on a one-port
// Boolean cube (Johnsson & Ho 1987, "Algorithms for Matrix Transposition on Boolean n-cube
// Configured Ensemble Architectures", §3.2 and the pseudo-code of §5).
//
// The pseudo-code scans the dimensions j = d-1 down to 0; in exchange j every node swaps half of
// its blocked array (the blocks whose destination differs from the node in bit j) with its
// neighbour across dimension j, then shuffles the array locally. With the hardware's relative
// addressing no shuffle is needed: the element in relative slot (h << d) | a (aligned address a,
// Johnsson & Ho 1992 §2.2) must cross exactly the dimensions of the one bits of a and keeps its
// relative slot on every node it passes, so exchange j sends every relative slot whose aligned
// address has bit j set across port j and receives the neighbour's word into the same slot.
// One port per cycle: d exchanges of K/2 elements, d * K/2 element transfers in sequence, and
// with packets of at most B elements d * ceil(K / 2B) start-ups (T = d(K/2 t_c + ceil(K/2B) τ)).
#pragma once

#include "schedule/schedule.h"

namespace hcube {

/// The exchange algorithm for an AAPC on d dimensions with K = `slots` = m * 2^d elements per
/// node, `lanes` words per port and cycle (b elements of the same exchange share a cycle), and
/// block transfers of at most `packet` elements (a new block starts at the step that holds the
/// first element of each packet of an exchange; packet >= K/2: one block per exchange). Every
/// step uses one port. Throws Error on d, K, lanes or packet out of range.
SlotSchedule exchangeSchedule(int d, u64 slots, int lanes, u64 packet);

/// Steps of exchangeSchedule: d * ceil(K / 2b).
u64 exchangeSteps(int d, u64 slots, int lanes);

}  // namespace hcube

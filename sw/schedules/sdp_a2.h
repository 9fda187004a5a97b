// hcube: Algorithm A2 of Ho & Johnsson 1988 §4.3.2, one-port: the SDP as two all-to-all
// personalized communications in the sigma_p-subcubes of the moved processor dimensions —
// E(k_j, j) for every moved processor dimension j (its content out to a storage dimension k_j),
// then E(p, k) for every moved processor dimension p with the storage dimension k now holding the
// content p must receive — each AAPC done the one-port way, one exchange after the other
// (Johnsson & Ho 1987 §3.2's exchange algorithm, as the paper's [13], [10]). The storage
// dimensions then hold their contents permuted; local swaps (PERMUTE cycles, local data movement
// the paper ignores) restore them. Table 3: sigma_p K + 2 sigma_p ceil(K/2B) tau.
//
// The k_j are the lowest storage dimensions outside the index set J (a storage dimension of a
// mixed GSH keeps its content until its own turn), so A2 needs sigma_p of them. With fewer, the
// GSHs go one after the other, each by its own two AAPCs (§4.6, Table 5: the same complexity,
// the minimum K down from 2^sigma_p to 2^sigma_max); the n-port rotated form of §4.6 (the data
// in beta parts, each through the GSHs' subcubes in a rotated order) is not implemented, A2 runs
// one-port only.
#pragma once

#include <string>

#include "schedules/sdp_rounds.h"
#include "sdp.h"

namespace hcube {

/// The one-port A2 schedule. Throws Error naming the shortage when fewer storage dimensions lie
/// outside J than the largest GSH has processor dimensions.
SdpSchedule sdpA2Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo);

}  // namespace hcube

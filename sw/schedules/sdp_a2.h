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
// the minimum K down from 2^sigma_p to 2^sigma_max). The n-port A2 and its rotated form of §4.6
// are below.
#pragma once

#include <string>

#include "schedules/sdp_rounds.h"
#include "sdp.h"

namespace hcube {

/// The one-port A2 schedule. Throws Error naming the shortage when fewer storage dimensions lie
/// outside J than the largest GSH has processor dimensions.
SdpSchedule sdpA2Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo);

/// The n-port A2 (§4.3.2; Table 3: K t_c + 2 sigma_p ceil(K / (2 sigma_p B)) tau) and, with
/// `rotated`, its rotated form (§4.6: the data in beta parts, part i through the subcubes of
/// J_i, J_(i+1), ..., J_(i-1) in turn, all parts at once; the same complexity, Table 6's minimum
/// K down to beta 2^sigma_max).
///
/// Each AAPC is sigma exchanges E(k, p) that commute (disjoint pairs), so it runs n-port by
/// rotation: the part's data is split into sigma sub-parts and sub-part j does pair j + u in
/// routing cycle u — sigma routing cycles of K/(2 sigma) elements per link instead of sigma of
/// K/2. Parts and sub-parts are read from the storage dimensions that neither lie in J nor serve
/// as a k_j (the label bits: their value, part = label mod G, sub-part = (label / G) mod sigma,
/// G the number of groups), so elements of different sub-parts never meet in a slot; with fewer
/// label bits than sub-parts some sub-parts are empty and the time grows (measured, not
/// assumed). The rotated form's parts are not in lockstep: part p's routing cycle u moves its
/// sub-parts' label w at time u W_p + w (W_p its largest sub-part) and a phase is cut into link
/// rounds at every part's cycle boundary, so GSHs of unequal orders do not wait for the longest
/// (the phase lasts max_p 2 m_p W_p label times; Table 3's K + 2 sigma_p tau when the labels
/// divide evenly among every GSH's sub-parts). After each phase the k_j are restored by local
/// swaps, part by part (each part has just done a different GSH), PERMUTE cycles the paper ignores.
/// Mixed GSHs take part as in the one-port A2 (a storage dimension in J hands its content to its
/// processor dimension in the second AAPC); virtual GSHs follow as local swaps. Throws Error naming
/// the shortage when fewer storage dimensions lie outside J than a group has processor dimensions.
/// With `lockstep`, every part's routing cycle lasts as long as the phase's largest sub-part (as
/// the n-port A1', sdp_a1.h: fewer start-ups when the parts' cuts do not align).
SdpSchedule sdpA2NPortSchedule(const Sdp& sdp, const SdpClass& cls, bool rotated, u64 packet,
                               int lanes, const std::string& algo, bool lockstep = false);

/// The number of label bits the n-port A2 has (storage dimensions outside J and not a k_j), or
/// -1 when it does not apply; `sub_parts` gets the parts times sub-parts it wants for full
/// concurrency (sigma_p, or beta sigma_max rotated).
int a2NPortLabelBits(const Sdp& sdp, const SdpClass& cls, bool rotated, int* sub_parts);

}  // namespace hcube

// hcube: Algorithm A2 of Ho & Johnsson 1988 §4.3.2: the SDP as two all-to-all personalized
// communications (AAPCs) in the sigma_p-subcubes of the moved processor dimensions — E(k_j, j)
// for every moved processor dimension j (its content out to a storage dimension k_j), then
// E(delta(j), k_j): E(p, k) for every moved processor dimension p with the storage dimension k
// now holding the content p must receive. Each AAPC is one of the project's AAPC schedules
// (sw/algorithms/aapc/aapc_family.h, what `hcube run --algo exchange|edelman|jh1..jh4|sbnt` runs)
// on the pairs (k_j, j): AAPC dimension i is processor dimension j_i, the aligned address bit i of
// an element is its node bit j_i XOR its slot bit k_i, and the other slot bits number the
// repetitions (K = m 2^sigma). So an improvement to the AAPC schedules improves A2.
//
// One-port (--aapc exchange, the only one-port AAPC of the family: Johnsson & Ho 1987 §3.2, the
// paper's [13], [10]): sigma exchanges of K/2 per AAPC, Table 3's sigma_p K + 2 sigma_p
// ceil(K/2B) tau exactly. The storage dimensions then hold their contents permuted; local swaps
// (PERMUTE cycles, local data movement the paper ignores) restore them.
//
// The k_j are the lowest storage dimensions outside the index set J (a storage dimension of a
// mixed GSH keeps its content until its own turn), so A2 needs sigma_p of them. With fewer, the
// GSHs go one after the other, each by its own two AAPCs (§4.6, Table 5: the same complexity,
// the minimum K down from 2^sigma_p to 2^sigma_max). The n-port A2 and its rotated form of §4.6
// are below.
#pragma once

#include <string>

#include "algorithms/sdp/sdp_rounds.h"
#include "spec/sdp.h"

namespace hcube {

/// Whether one AAPC does A2's work (§4.4: a non-separable SDP with R^b and R^a disjoint is an
/// all-to-all personalized communication, and Table 3's A2 entry "should be halved"; §4.6: "for
/// an SDP containing all mixed GSH's of order 2, one such communication may suffice"): every
/// moved processor dimension p receives its content from a storage dimension s = delta^-1(p).
/// Then the second AAPC alone, E(s, p) for every p, brings every processor dimension its
/// content (sending p's to s's place) and local swaps put the storage dimensions right; no k_j
/// is needed. Both A2 forms do so whenever it holds.
bool a2OneAapcSuffices(const Sdp& sdp, const SdpClass& cls);

/// The one-port A2 schedule, its AAPCs by the schedule `aapc` (one-port: "exchange"; packets of
/// at most `packet` elements). Throws Error naming the shortage when fewer storage dimensions lie
/// outside J than the largest GSH has processor dimensions, or naming `aapc` when it is not
/// one-port.
SdpSchedule sdpA2Schedule(const Sdp& sdp, const SdpClass& cls, u64 packet, int lanes,
                          const std::string& algo, const std::string& aapc = "exchange");

/// The n-port AAPC schedule A2 runs by default: Johnsson & Ho 1992 Algorithm 4 with §5's
/// blocking, K/2 steps in sigma block transfers per AAPC (Lemma 4), so the two AAPCs take Table
/// 3's K + 2 sigma_p ceil(K/(2 sigma_p B)) tau at B = K/(2 sigma_p).
inline constexpr const char* kA2NPortAapc = "jh4";

/// The n-port A2 (§4.3.2; Table 3: K t_c + 2 sigma_p ceil(K / (2 sigma_p B)) tau) and, with
/// `rotated`, its rotated form (§4.6: the data in beta parts, part i through the subcubes of
/// J_i, J_(i+1), ..., J_(i-1) in turn, all parts at once; the same complexity, Table 6's minimum
/// K down to beta 2^sigma_max).
///
/// Each AAPC is the n-port AAPC schedule `aapc` (with §5's blocking when `blocking`; the edelman
/// and jh schedules), so the plain form needs no more than sigma_p free storage dimensions
/// (Table 6: 2^sigma_p). The rotated form's parts are read from the storage dimensions that
/// neither lie in J nor serve as a k_j (the label bits: part = label mod beta); part p runs, in
/// phase t, the two AAPCs of GSH (p + t) mod beta on its own data (m_p = its labels times the
/// other slot bits' values), all parts' AAPCs at once on their disjoint processor dimensions,
/// step by step. An n-port AAPC takes K_p/2 steps whatever its dimension (the paper's "the
/// complexity of all-to-all personalized communication is independent of size of a cube"), so
/// parts with GSHs of unequal orders keep pace; a step starts a message where any part starts a
/// block transfer. With fewer label bits than parts some parts are empty and the time grows
/// (measured, not assumed). After each phase every part restores its k_j by local swaps (PERMUTE
/// cycles the paper ignores). Mixed GSHs take part as in the one-port A2 (a storage dimension in
/// J hands its content to its processor dimension in the second AAPC); virtual GSHs follow as
/// local swaps. Throws Error naming the shortage when fewer storage dimensions lie outside J than
/// a group has processor dimensions. With `lockstep`, every part's AAPC is built for as many
/// repetitions as the largest part's (the rest empty): the same element cycles (a phase lasts as
/// long as its largest part either way) and, where the parts' GSHs have the same order, the same
/// block transfers for all parts, so fewer start-ups when the labels do not split evenly.
SdpSchedule sdpA2NPortSchedule(const Sdp& sdp, const SdpClass& cls, bool rotated, u64 packet,
                               int lanes, const std::string& algo,
                               const std::string& aapc = kA2NPortAapc, bool blocking = true,
                               bool lockstep = false);

/// The number of label bits the n-port A2 has (storage dimensions outside J and not a k_j), or
/// -1 when it does not apply; `parts` gets the number of parts the data is dealt to (1, or beta
/// rotated).
int a2NPortLabelBits(const Sdp& sdp, const SdpClass& cls, bool rotated, int* parts);

}  // namespace hcube

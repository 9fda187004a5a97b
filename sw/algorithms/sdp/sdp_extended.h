// hcube: the extended-cube scheme of Ho & Johnsson 1988 §4.5 — an SDP whose data occupies only
// the subcube of the m_p low processor dimensions (m_p < n, Definition 6) run in three phases:
// subcube expansion, a full-cube permutation on the whole cube with the data volume reduced by
// 2^(n - m_p), and subcube compression (the expansion reversed).
//
// Expansion. With e = n - m_p, e storage dimensions S_0 .. S_(e-1) outside the permutation (the
// highest free ones) are exchanged with the idle processor dimensions m_p .. n-1: E(S_i, m_p + i)
// sends the half of a node's data with storage bit S_i = 1 across dimension m_p + i, so after
// the e exchanges every node of the cube holds K' = K / 2^e elements, all with S bits 0 — the
// one-to-all personalized communication from each active node to its (n - m_p)-subcube ([3]).
// One-port the exchanges go one after the other: K/2 + K/4 + ... = K(1 - 2^-e) element cycles,
// e start-ups, the paper's one-port complexity of the phase. n-port the data is split into e
// parts (by the value of the slot bits outside S, mod e) and part j does E(S_(j+u), m_p + j + u)
// in routing cycle u (indices mod e): every routing cycle uses e different dimensions and
// carries K/(e 2^(u+1)) elements per link, (K/e)(1 - 2^-e) element cycles and e start-ups, the
// paper's n-port complexity.
//
// Full-cube permutation. The data now fills slots whose S bits are 0 on every node; numbering
// those K' slots by their other bits gives the SDP delta' (delta without S) on an n-cube with
// K' elements per node, a full-cube permutation of the same real order, run by any FCP method
// (its own schedule, checked element by element there). Its moves are lifted back: a data slot
// gets zeros at the S bits, a scratch slot K' + t becomes K + t. Since delta fixes S and the
// processor dimensions m_p .. n-1, the exchanges commute with it and compression — the same
// exchanges in reverse order — brings every element home: T delta' T = delta.
#pragma once

#include <string>
#include <vector>

#include "algorithms/sdp/sdp_rounds.h"
#include "spec/sdp.h"

namespace hcube {

/// The storage dimensions the expansion uses (S_i is exchanged with processor dimension
/// m_p + i): the n - m_p highest storage dimensions outside J. Throws Error naming the shortage
/// when fewer are free.
std::vector<int> extendedSpreadDims(const Sdp& sdp, const SdpClass& cls);

/// The full-cube SDP of the second phase: delta without the spread dimensions, on the n-cube
/// with K / 2^(n - m_p) elements per node (storage dimensions renumbered in order).
Sdp extendedInnerSdp(const Sdp& sdp, const std::vector<int>& spread);

/// The expansion (or, with `compress`, the compression) phase alone, on the cube of `sdp`.
SdpSchedule extendedSpreadPhase(const Sdp& sdp, const std::vector<int>& spread, bool compress,
                                bool one_port, u64 packet, int lanes, const std::string& algo);

/// The whole scheme: expansion, `inner` (the schedule of extendedInnerSdp's SDP, lifted), and
/// compression, as one schedule (counts summed).
SdpSchedule extendedSchedule(const Sdp& sdp, const std::vector<int>& spread,
                             const SdpSchedule& inner, bool one_port, u64 packet, int lanes,
                             const std::string& algo);

/// §4.5's complexity of one expansion (or compression) phase with t_c = 1: K(1 - 2^-e) + e tau
/// one-port, (K/e)(1 - 2^-e) + e tau n-port (element cycles as a double, start-ups).
struct SpreadFormula {
  double transfer_cycles = 0;
  u64 startups = 0;
};
SpreadFormula extendedSpreadFormula(const Sdp& sdp, bool one_port);

}  // namespace hcube

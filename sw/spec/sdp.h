// hcube: stable dimension permutations (SDPs) as Ho & Johnsson 1988 ("Stable Dimension
// Permutations on Boolean Cubes", YALEU/DCS/TR-617) classify them — §2.2 (Definitions 4-10: the
// GSH cycles, real / virtual / mixed, separable, sigma_p, sigma_s, beta, full vs extended cube)
// and §3 (sigma_max, sigma_min, oJ and the lower bounds of Lemmas 3-4, Theorem 1, Corollary 4).
//
// Numbering. The paper's machine dimensions: 0 .. n-1 are the processor (real) dimensions and
// n .. n+k-1 the local storage (virtual) dimensions, and dimension i goes to dimension delta(i)
// (Corollary 1: address a receives the element of address (a_delta(q-1) ... a_delta(0))). Every
// SDP function here, `hcube sdp` and `hcube run --algo sdp` use the paper's numbering, so the
// tables of the paper read as printed (Table 1's J0 = 0,1,2,3 are processor dimensions). The
// project's global address puts the k local bits low (node dimension j is bit position k + j,
// sw/spec/permutation.h); toPermutationSpec converts, and PermutationSpec::dimension stays the one
// reference model.
//
// Times are in cycles with t_c = 1 cycle per element and tau cycles per start-up.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {

/// Largest cube dimension an SDP may name: 18, the processor dimensions of Table 4's third
/// example ({2, 5, 11}, sigma_p = 18). Whether a run of that size fits the machine is decided by
/// the executors' resource estimates (sw/tables/resource_limits.h), not here.
constexpr int kSdpMaxDim = 18;

/// A stable dimension permutation on an n-cube with K = 2^k elements per node, in the paper's
/// numbering (see the file comment). Data occupies the subcube of the m_p low processor
/// dimensions (m_p = n: a full-cube permutation, Definition 6).
struct Sdp {
  int n = 0;
  int k = 0;
  int mp = 0;              ///< processor dimensions holding data (Gamma_p = 0 .. mp-1)
  std::vector<int> delta;  ///< delta[i]: where dimension i goes, i in 0 .. n+k-1

  /// From delta (paper numbering). Throws Error naming the entry if delta is not a permutation
  /// of 0 .. n+k-1, or if it moves a processor dimension >= mp (not stable on the subcube).
  static Sdp fromDelta(int n, int k, std::vector<int> delta, int mp = -1);
  /// From GSH cycles, e.g. "0,1,2,3/4,5,6/7,8": within a cycle each dimension goes to the next
  /// and the last to the first; dimensions named in no cycle stay. Throws Error naming the
  /// cycle and entry if a dimension is out of range or named twice.
  static Sdp fromCycles(int n, int k, const std::string& cycles, int mp = -1);
  /// Parses "d0,d1,..." (--delta) into a permutation of 0 .. n+k-1 (Error naming the entry).
  static Sdp parseDelta(int n, int k, const std::string& text, int mp = -1);

  int q() const { return n + k; }
  bool isProcessorDim(int d) const { return d < n; }
  /// The reference model of this SDP (project bit positions; sw/spec/permutation.h). On an extended
  /// cube (mp < n) a linear permutation whose elements outside the data's subcube are virtual.
  PermutationSpec toPermutationSpec() const;
  /// Project bit position of paper dimension d.
  int position(int d) const { return d < n ? k + d : d - n; }
};

/// One GSH (Definition 7): dims[j] goes to dims[j + 1], the last to dims[0].
struct Gsh {
  enum class Kind { kReal, kVirtual, kMixed };
  std::vector<int> dims;
  Kind kind = Kind::kReal;
  int sigma() const { return static_cast<int>(dims.size()); }
  int sigma_p = 0;  ///< real order (Definition 10 on this cycle)
};

const char* gshKindName(Gsh::Kind kind);

/// §2.2 and §3 classification of an SDP.
struct SdpClass {
  std::vector<Gsh> gshs;  ///< non-trivial cycles; from delta: each starts at its lowest dim
  int beta = 0;           ///< number of GSHs that are real or mixed (§3: the ones communicating)
  int beta_real = 0;      ///< beta' of §4.4: real GSHs
  int sigma = 0;          ///< order, |J|
  int sigma_p = 0;        ///< real order
  int sigma_s = 0;        ///< virtual order
  int sigma_max = 0;      ///< max real order over the real and mixed GSHs
  int sigma_min = 0;      ///< min real order over the real and mixed GSHs
  int oJ = 0;             ///< real GSHs of odd order
  bool separable = true;  ///< no mixed GSH (Definition 9)
  bool full_cube = true;  ///< m_p = n (Definition 6)
};

/// The cycles of delta (starting at their lowest dimension) or, for fromCycles, in the order
/// given. Real / virtual / mixed per Definition 8.
SdpClass classify(const Sdp& sdp, const std::vector<std::vector<int>>& cycle_order = {});

/// Lower bounds in cycles (t_c = 1) for K elements per allocated node, start-up tau.
struct SdpBounds {
  double transfer_one_port = 0;  ///< Theorem 1 / Corollary 4 t_c terms, one-port
  double transfer_n_port = 0;    ///< the same, n-port
  u64 startups = 0;              ///< sigma_p - oJ (Theorem 1)
  double one_port = 0;           ///< the bound (max of the terms), one-port
  double n_port = 0;             ///< the bound, n-port
  std::string source;            ///< "Theorem 1" or "Corollary 4"
};

/// Theorem 1 (full cube) or Corollary 4 (extended cube, m_p < n) for this SDP.
SdpBounds sdpLowerBounds(const Sdp& sdp, const SdpClass& c, u64 tau);

/// Lemma 3 (real GSH) or Lemma 4 (mixed GSH): the bound for one GSH alone, on a full cube.
double gshLowerBound(const Gsh& g, u64 slots, u64 tau, bool one_port);

/// What `hcube sdp --describe` prints: the classification, every bound, as text and as JSON.
struct SdpDescription {
  Sdp sdp;
  SdpClass cls;
  SdpBounds bounds;
  u64 tau = 0;
  std::string text;
  std::string json;
};

SdpDescription describeSdp(const Sdp& sdp, const std::vector<std::vector<int>>& cycle_order,
                           u64 tau);

/// `hcube sdp --describe`: the SDP on the n-cube with K slots (0: K = 2^n) given by exactly one
/// of --delta and --cycles, data on --mp processor dimensions (-1: all), start-up tau. Throws
/// Error naming the bad option.
SdpDescription describeSdpOptions(int n, long long slots, const std::optional<std::string>& delta,
                                  const std::optional<std::string>& cycles, int mp, long long tau);

/// Parses "0,1,2,3/4,5,6/7,8" into cycles (no range checks; see Sdp::fromCycles).
std::vector<std::vector<int>> parseCycles(const std::string& text);

}  // namespace hcube

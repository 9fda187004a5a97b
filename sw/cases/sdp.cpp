// hcube: stable dimension permutations, Ho & Johnsson 1988 (TR-617), as the catalogue entry
// `sdp`: --method picks the paper's algorithm, --delta or --cycles the SDP (paper numbering:
// processor dimensions 0..n-1, storage dimensions n..n+log2 K-1; sw/sdp.h), --tau the start-up
// cycles per message, --packet B the elements per message. The report's bound is Theorem 1's
// (Corollary 4's) t_c term; the bound source holds the whole bound with its start-up term, the
// algorithm's Table 3 formula term by term, and the start-ups and element cycles counted in the
// schedule, so the measured cycles can be held against both.
#include "sdp.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "error.h"
#include "families.h"
#include "schedules/sdp_a1.h"
#include "schedules/sdp_a2.h"
#include "schedules/sdp_a3.h"
#include "schedules/sdp_a4.h"
#include "schedules/sdp_a5.h"
#include "schedules/sdp_a6.h"
#include "schedules/sdp_rounds.h"

namespace hcube {
namespace {

constexpr int kMaxLocalBits = 24;

/// The default SDP of a catalogue run: two real GSHs splitting the processor dimensions
/// (0..h-1 / h..n-1, h = ceil(n/2)) for n >= 4, one real GSH (0..n-1) for n = 2, 3.
std::string defaultCycles(int n) {
  if (n < 2) return "";
  std::string s;
  const int h = n >= 4 ? (n + 1) / 2 : n;
  for (int d = 0; d < n; ++d) s += (d == 0 ? "" : d == h ? "/" : ",") + std::to_string(d);
  return s;
}

struct SdpInput {
  Sdp sdp;
  std::vector<std::vector<int>> cycles;
};

SdpInput readSdp(const CaseSpec& spec, CaseParams& params, int k) {
  const auto delta = params.text("delta");
  const auto cycles = params.text("cycles");
  if (delta && cycles) throw Error("--delta and --cycles: give the SDP one way, not both");
  SdpInput in;
  if (delta) {
    in.sdp = Sdp::parseDelta(spec.n, k, *delta);
    return in;
  }
  const std::string text = cycles ? *cycles : defaultCycles(spec.n);
  if (text.empty()) {
    throw Error("--n " + std::to_string(spec.n) +
                ": 'sdp' needs --delta or --cycles (no default SDP on a 1-cube)");
  }
  in.sdp = Sdp::fromCycles(spec.n, k, text);
  in.cycles = parseCycles(text);
  return in;
}

/// A3's default packet: B = K one-port (Table 3's B_opt); n-port Table 3's sqrt(K tau / 2), at
/// least 1 and at most K/2.
u64 a3Packet(u64 slots, bool one_port, u64 tau) {
  if (one_port) return slots;
  return std::clamp<u64>(static_cast<u64>(std::sqrt(static_cast<double>(slots * tau) / 2.0)), 1,
                         std::max<u64>(slots / 2, 1));
}

/// ceil(log2 x) for x >= 1.
int ceilLog2(int x) {
  int l = 0;
  while ((1 << l) < x) ++l;
  return l;
}

/// Table 3's time (t_c = 1) of the implemented methods that apply, each with its optimal
/// packet (A3 and A5 with the packet they run with by default); `--method best` takes the least
/// (ties: the first listed). A5 is costed for every gamma in 2 .. sigma_max its K allows
/// (K >= 2^mu) and `gamma` is set to the best one.
std::string bestMethod(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 tau, int& gamma,
                       std::string& why) {
  const double kk = static_cast<double>(u64{1} << sdp.k);
  const double t = static_cast<double>(tau);
  const double sp = cls.sigma_p;
  const double b = cls.beta;
  std::vector<std::pair<std::string, double>> cost;
  bool free_storage = true;
  {
    int in_j_storage = 0;
    for (const Gsh& g : cls.gshs) in_j_storage += g.sigma() - g.sigma_p;
    // A2 runs the GSHs together with sigma_p free storage dimensions, else one after the other
    // (section 4.6), which needs as many as the largest GSH has processor dimensions.
    int most = 0;
    for (const Gsh& g : cls.gshs) most = std::max(most, g.sigma_p);
    free_storage = sdp.k - in_j_storage >= most;
  }
  if (one_port) {
    const double bp = cls.sigma_p + cls.beta_real;
    if (sdp.k >= 1 || cls.beta_real == 0) cost.push_back({"a1", bp * kk / 2 + bp * t});
    double a1p = 0;
    for (const Gsh& g : cls.gshs) {
      if (g.kind == Gsh::Kind::kReal) a1p += g.sigma() * (kk + t);
      if (g.kind == Gsh::Kind::kMixed) a1p += g.sigma_p * (kk / 2 + t);
    }
    cost.push_back({"a1p", a1p});
    if (free_storage && sdp.k >= 1) cost.push_back({"a2", sp * kk + 2 * sp * t});
    // A3 (section 4.3.2), B = K: ceil(log2 sigma_max)(sigma_p K + sigma_p tau); Table 3 states it
    // for separable SDPs, so a non-separable one is costed by the schedule's exact count.
    if (cls.separable) {
      cost.push_back({"a3", ceilLog2(cls.sigma_max) * sp * (kk + t)});
    } else {
      cost.push_back(
          {"a3", static_cast<double>(sdpA3Count(sdp, cls, true, u64{1} << sdp.k, 1).cycles(tau))});
    }
  } else if (cls.separable && sdp.k >= 1) {
    const double p = sp + b + cls.sigma_min - 1;
    cost.push_back({"a4", (sp + b) * kk / p + (sp + b) * t});
    int s_min = 0;
    for (const Gsh& g : cls.gshs) {
      if (g.kind == Gsh::Kind::kReal) {
        s_min = s_min == 0 ? g.sigma() + 1 : std::min(s_min, g.sigma() + 1);
      }
    }
    cost.push_back({"a6", s_min * kk / (2.0 * (s_min - 1)) + a6Grouping(cls, false).cycles * t});
    double a1 = 0;
    for (const Gsh& g : cls.gshs) {
      if (g.kind != Gsh::Kind::kReal) continue;
      const double s = g.sigma();
      a1 = std::max(a1, (s + 1) * kk / (2 * s * b) + (s + 1) * t);
    }
    cost.push_back({"a1", b * a1});
    // A5 (section 4.3.3) with B = K/(2 gamma): (gamma+1)K/(2 gamma) + (gamma+1) mu tau.
    double a5_best = -1;
    for (int g = 2; g <= cls.sigma_max; ++g) {
      const int mu = a5Mu(cls.gshs, g);
      if (mu > sdp.k) continue;
      const double c = (g + 1) * kk / (2.0 * g) + (g + 1) * mu * t;
      if (a5_best < 0 || c < a5_best) {
        a5_best = c;
        gamma = g;
      }
    }
    if (a5_best >= 0) cost.push_back({"a5 --gamma " + std::to_string(gamma), a5_best});
  }
  if (!one_port) {
    // A3 n-port: Table 3's ceil(log2 sigma_max)(ceil(K/2B) + 1)(tau + B) assumes a step's pairs
    // run concurrently; ours run them one after the other (sw/schedules/sdp_a3.h), so it is
    // costed by its own exact count, not by a formula it does not meet.
    {
      const u64 a3b = a3Packet(u64{1} << sdp.k, false, tau);
      cost.push_back({"a3", static_cast<double>(sdpA3Count(sdp, cls, false, a3b, 1).cycles(tau))});
    }
  }
  if (cost.empty()) {
    throw Error("--method best: no implemented method applies to this SDP");
  }
  const auto best = std::min_element(
      cost.begin(), cost.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
  std::ostringstream o;
  o << "--method best chose " << best->first << " by Table 3 / Theorem 2 (tau = " << tau << "):";
  for (const auto& [m, c] : cost) o << " " << m << " " << c;
  why = o.str();
  return best->first.substr(0, best->first.find(' '));
}

BuiltCase buildSdp(const CaseSpec& spec) {
  CaseParams params(spec);
  if (spec.n < 1 || spec.n > 16) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1..16");
  }
  const u64 slots = spec.slots == 0 ? u64{1} << spec.n : spec.slots;
  if (!isPowerOfTwo(slots) || slots > (u64{1} << kMaxLocalBits)) {
    throw Error("--k " + std::to_string(slots) + ": an SDP needs K = 2^k elements per node " +
                "(a power of two, at most 2^" + std::to_string(kMaxLocalBits) + ")");
  }
  const int k = log2Exact(slots);
  const std::string asked = params.text("method").value_or("a1");
  const SdpInput in = readSdp(spec, params, k);
  const u64 tau = static_cast<u64>(params.integer("tau", 0, 0, 1000000));
  const SdpClass cls = classify(in.sdp, in.cycles);
  std::string chosen_by;
  int best_gamma = 0;
  const std::string method =
      asked == "best" ? bestMethod(in.sdp, cls, spec.one_port, tau, best_gamma, chosen_by) : asked;
  // --gamma is A5's block order (section 4.3.3); other methods (and best, which picks gamma) leave
  // it unread, so params.finish() names a stray --gamma.
  const int gamma = asked == "best" ? best_gamma
                    : method == "a5"
                        ? static_cast<int>(params.integer("gamma", 2, -1000000, 1000000))
                        : 0;
  if (method != "a1" && method != "a1p" && method != "a2" && method != "a3" && method != "a4" &&
      method != "a5" && method != "a6") {
    throw Error("--method '" + method +
                "': implemented are a1 (Algorithm A1: one-port, or n-port with --ports all), a1p "
                "(A1', one-port), a2 (one-port), a3 (one-port or n-port), a4, a5 (--gamma G) and "
                "a6 (n-port), and best (the least Table 3 time of those that apply); extended is "
                "not implemented yet");
  }
  const bool n_port = method == "a4" || method == "a5" || method == "a6" ||
                      ((method == "a1" || method == "a3") && !spec.one_port);
  // Table 3's optimal packet: K/2 for A1, K for A1', K/P for A4 (here 2 ceil(K/2P), what one
  // routing cycle carries on a link when two sequences share a dimension, Lemma 7); A6 and the
  // n-port A1: one message per routing cycle (B = K).
  const u64 parts = static_cast<u64>(std::max(cls.sigma_p + cls.beta + cls.sigma_min - 1, 1));
  const u64 a3_packet = a3Packet(slots, spec.one_port, tau);
  const u64 default_packet =
      method == "a3"   ? a3_packet
      : method == "a4" ? std::max<u64>(2 * ((slots + 2 * parts - 1) / (2 * parts)), 1)
      : (method == "a1" && !n_port) || method == "a2" ? std::max<u64>(slots / 2, 1)
                                                      : slots;
  const u64 packet = static_cast<u64>(
      params.integer("packet", static_cast<long long>(default_packet), 1, 1LL << 30));
  params.finish();
  if (!n_port && !spec.one_port) {
    throw Error("--ports all: '" + method + "' is implemented one-port only; use --ports one");
  }
  if (n_port && spec.one_port && method != "a1" && method != "a3") {
    throw Error("--ports one: '" + method + "' is an n-port algorithm (section 4.3.3: its " +
                "sequences use several dimensions in every routing cycle); use --ports all");
  }
  if (cls.sigma_p == 0) {
    throw Error(
        "'sdp': the SDP moves no processor dimension (sigma_p = 0), there is nothing to "
        "communicate; give --delta or --cycles with a processor dimension 0.." +
        std::to_string(spec.n - 1));
  }
  const std::string name = "sdp-" + method;
  SdpSchedule s;
  std::ostringstream formula;
  if (method == "a3") {
    s = sdpA3Schedule(in.sdp, cls, spec.one_port, packet, spec.lanes, name);
    const SdpFormula f = sdpA3Table3(in.sdp, cls, spec.one_port, packet);
    const SdpFormula count = sdpA3Count(in.sdp, cls, spec.one_port, packet, spec.lanes);
    formula << (spec.one_port ? "A3 one-port (SPT), Table 3: ceil(log2 sigma_max)(sigma_p K + "
                                "sigma_p ceil(K/B) tau)"
                              : "A3 n-port (pipelined DPT), Table 3: ceil(log2 sigma_max)(K/2B + "
                                "1)(tau + B)")
            << " = " << f.transfer_cycles << " + " << f.startups << " tau = " << f.cycles(tau)
            << "; the schedule's " << sdpA3Steps(cls).size() << " recursive steps count "
            << count.transfer_cycles << " + " << count.startups << " tau";
  } else if (method == "a5") {
    s = sdpA5Schedule(in.sdp, cls, gamma, packet, spec.lanes, name);
    const int mu = a5Mu(cls.gshs, gamma);
    const u64 a5_parts = static_cast<u64>(gamma * mu);
    const u64 per_link = std::max<u64>((slots + 2 * a5_parts - 1) / (2 * a5_parts), 1);
    formula << "A5 n-port, Table 3: (gamma+1)K/(2 gamma) + (gamma+1) mu ceil(K/(2 gamma mu B)) "
               "tau, gamma = "
            << gamma << ", mu = " << mu << ": "
            << static_cast<double>((gamma + 1) * slots) / (2.0 * gamma) << " + "
            << static_cast<u64>((gamma + 1) * mu) * ((per_link + packet - 1) / packet) << " tau";
  } else if (method == "a4") {
    s = sdpA4Schedule(in.sdp, cls, packet, spec.lanes, name);
    const SdpA4Formula f = sdpA4Formula(in.sdp, cls, packet);
    formula << "A4 n-port, Table 3: (sigma_p+beta)K/P + (sigma_p+beta)ceil(K/(P B)) tau, P = "
            << f.parts << ": " << f.transfer_cycles << " + " << f.startups << " tau";
  } else if (n_port) {
    const bool flat = method == "a1";
    s = sdpA6Schedule(in.sdp, cls, flat, packet, spec.lanes, name);
    const A6Group root = a6Grouping(cls, flat);
    int s_min = 0;
    for (const Gsh& g : cls.gshs) {
      if (g.kind == Gsh::Kind::kReal)
        s_min = s_min == 0 ? g.sigma() + 1 : std::min(s_min, g.sigma() + 1);
    }
    const double transfer = static_cast<double>(s_min) * static_cast<double>(slots) /
                            (2.0 * static_cast<double>(s_min - 1));
    if (flat) {
      formula
          << "A1 n-port (section 4.1, all GSHs concurrently on split data): beta (sigma_max+1) = "
          << root.cycles << " start-ups";
    } else {
      formula << "A6 n-port, Theorem 2: min(S)K/(2(min(S)-1)) + f(S) tau, S = {sigma_i+1}: "
              << transfer << " + " << root.cycles << " tau";
    }
  } else if (method == "a2") {
    s = sdpA2Schedule(in.sdp, cls, packet, spec.lanes, name);
    const u64 half = slots / 2;
    const u64 sp = static_cast<u64>(cls.sigma_p);
    const u64 starts = 2 * sp * ((half + packet - 1) / packet);
    formula << "A2 one-port, Table 3: sigma_p K + 2 sigma_p ceil(K/2B) tau = " << sp * slots
            << " + " << starts << " tau = " << sp * slots + starts * tau;
  } else {
    const SdpA1Variant variant = method == "a1" ? SdpA1Variant::kA1 : SdpA1Variant::kA1Prime;
    s = sdpA1Schedule(in.sdp, cls, variant, packet, spec.lanes, name);
    const SdpFormula f = sdpA1Formula(in.sdp, cls, variant, packet);
    formula << (variant == SdpA1Variant::kA1
                    ? "A1 one-port, Table 3 / section 4.4: "
                      "(sigma_p+beta')K/2 + (sigma_p+beta')ceil(K/2B) tau"
                    : "A1' one-port, Table 3: sigma_p K + sigma_p ceil(K/B) tau")
            << " = " << f.transfer_cycles << " + " << f.startups << " tau = " << f.cycles(tau);
  }
  BuiltCase c;
  c.perm = in.sdp.toPermutationSpec();
  c.tables = compileSdp(s, c.perm, spec.one_port, spec.lanes, tau);
  const SdpBounds lb = sdpLowerBounds(in.sdp, cls, tau);
  const double lb_transfer = spec.one_port ? lb.transfer_one_port : lb.transfer_n_port;
  c.lower_bound = static_cast<u64>(std::ceil(lb_transfer));
  std::ostringstream src;
  src << (spec.one_port ? "sigma_p*K/2, " : "K/2, ") << lb.source << ": max(" << lb_transfer << ", "
      << lb.startups << " tau) = " << (spec.one_port ? lb.one_port : lb.n_port)
      << " cycles with tau = " << tau << "; sigma_p = " << cls.sigma_p << ", beta = " << cls.beta
      << " (real " << cls.beta_real << "), oJ = " << cls.oJ << "; " << formula.str()
      << " (B = " << packet << "); schedule: " << s.startups << " start-ups, " << s.transfer_cycles
      << " element cycles, " << s.local_cycles << " PERMUTE cycles, " << s.element_transfers
      << " element transfers";
  if (!chosen_by.empty()) src << "; " << chosen_by;
  c.bound_source = src.str();
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> sdpAlgorithms() {
  return {
      {{"sdp",
        "stable dimension permutation --delta or --cycles (paper numbering) by --method a1 "
        "(one-port or "
        "n-port), a1p, a2 (one-port), a3 (one-port or n-port), a4, a5 --gamma G, a6 (n-port) or "
        "best, --tau start-up cycles "
        "per message "
        "of --packet "
        "B elements",
        "Ho & Johnsson 1988 (TR-617), sections 2-4"},
       buildSdp},
  };
}

}  // namespace hcube

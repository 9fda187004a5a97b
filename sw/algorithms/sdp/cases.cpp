// hcube: stable dimension permutations, Ho & Johnsson 1988 (TR-617), as the catalogue entry
// `sdp`: --method picks the paper's algorithm, --delta or --cycles the SDP (paper numbering:
// processor dimensions 0..n-1, storage dimensions n..n+log2 K-1; sw/spec/sdp.h), --tau the start-up
// cycles per message, --packet B the elements per message. The report's bound is Theorem 1's
// (Corollary 4's) t_c term; the bound source holds the whole bound with its start-up term, the
// algorithm's Table 3 formula term by term, and the start-ups and element cycles counted in the
// schedule, so the measured cycles can be held against both.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "algorithms/aapc/aapc_family.h"
#include "algorithms/families.h"
#include "algorithms/sdp/sdp_a1.h"
#include "algorithms/sdp/sdp_a2.h"
#include "algorithms/sdp/sdp_a3.h"
#include "algorithms/sdp/sdp_a4.h"
#include "algorithms/sdp/sdp_a5.h"
#include "algorithms/sdp/sdp_a6.h"
#include "algorithms/sdp/sdp_extended.h"
#include "algorithms/sdp/sdp_rounds.h"
#include "base/error.h"
#include "spec/sdp.h"

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

SdpInput readSdp(const CaseSpec& spec, CaseParams& params, int k, int mp) {
  const auto delta = params.text("delta");
  const auto cycles = params.text("cycles");
  if (delta && cycles) throw Error("--delta and --cycles: give the SDP one way, not both");
  SdpInput in;
  if (delta) {
    in.sdp = Sdp::parseDelta(spec.n, k, *delta, mp);
    return in;
  }
  const std::string text = cycles ? *cycles : defaultCycles(mp);
  if (text.empty()) {
    throw Error("--n " + std::to_string(spec.n) +
                ": 'sdp' needs --delta or --cycles (no default SDP on a 1-cube or --mp 1)");
  }
  in.sdp = Sdp::fromCycles(spec.n, k, text, mp);
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

/// Storage dimensions in mixed GSHs.
int mixedStorageDims(const SdpClass& cls) {
  int count = 0;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kMixed) count += g.sigma() - g.sigma_p;
  }
  return count;
}

/// ceil(log2 x) for x >= 1.
int ceilLog2(int x) {
  int l = 0;
  while ((1 << l) < x) ++l;
  return l;
}

/// What `--method best` chose on one cube: the method, its cost by the paper's formulas, A5's
/// gamma, and every cost it weighed.
struct BestChoice {
  std::string method;
  std::string label;  ///< the method with its parameters ("a5 --gamma 3")
  double cost = 0;
  int gamma = 0;
  std::string costs;  ///< " a1 384 a1p 576 ..."
};

/// Table 3's time (t_c = 1) of the implemented methods that apply, each with its optimal
/// packet (A3 and A5 with the packet they run with by default); `--method best` takes the least
/// (ties: the first listed). A5 is costed for every gamma in 2 .. sigma_max its K allows
/// (K >= 2^mu) and `gamma` is set to the best one.
BestChoice bestMethod(const Sdp& sdp, const SdpClass& cls, bool one_port, u64 tau) {
  int gamma = 0;
  const double kk = static_cast<double>(u64{1} << sdp.k);
  const double t = static_cast<double>(tau);
  const double sp = cls.sigma_p;
  const double b = cls.beta;
  std::vector<std::pair<std::string, double>> cost;
  const bool a2_single = sdp.k >= 1 && a2OneAapcSuffices(sdp, cls);
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
    // A2: Table 3, halved where one AAPC suffices (section 4.4; it needs no free storage then).
    if (a2_single) {
      cost.push_back({"a2", sp * kk / 2 + sp * t});
    } else if (free_storage && sdp.k >= 1) {
      cost.push_back({"a2", sp * kk + 2 * sp * t});
    }
    // A3 (section 4.3.2), B = K: ceil(log2 sigma_max)(sigma_p K + sigma_p tau); Table 3 states it
    // for separable SDPs, so a non-separable one is costed by the schedule's exact count.
    if (cls.separable) {
      cost.push_back({"a3", ceilLog2(cls.sigma_max) * sp * (kk + t)});
    } else {
      cost.push_back(
          {"a3", static_cast<double>(sdpA3Count(sdp, cls, true, u64{1} << sdp.k, 1).cycles(tau))});
    }
  } else if (sdp.k >= 1 && (cls.separable || mixedStorageDims(cls) < sdp.k)) {
    // Section 4.4: A4, A6 and the n-port A1 run a non-separable SDP as if its mixed GSHs were
    // their processor dimensions (with a storage dimension outside them for v).
    const SdpClass rc = cls.separable ? cls : realifiedClass(sdp, cls);
    const double p = sp + b + cls.sigma_min - 1;
    cost.push_back({"a4", (sp + b) * kk / p + (sp + b) * t});
    int s_min = 0;
    for (const Gsh& g : rc.gshs) {
      if (g.kind == Gsh::Kind::kReal) {
        s_min = s_min == 0 ? g.sigma() + 1 : std::min(s_min, g.sigma() + 1);
      }
    }
    cost.push_back({"a6", s_min * kk / (2.0 * (s_min - 1)) + a6Grouping(rc, false).cycles * t});
    double a1 = 0;
    for (const Gsh& g : rc.gshs) {
      if (g.kind != Gsh::Kind::kReal) continue;
      const double s = g.sigma();
      a1 = std::max(a1, (s + 1) * kk / (2 * s * b) + (s + 1) * t);
    }
    cost.push_back({"a1", b * a1});
    // A5 (section 4.3.3) with B = K/(2 gamma): (gamma+1)K/(2 gamma) + (gamma+1) mu tau; built
    // for separable SDPs only.
    double a5_best = -1;
    for (int g = 2; cls.separable && g <= cls.sigma_max; ++g) {
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
  // The n-port A1' meets Table 3 when beta sigma_i divides K for every GSH (sdp_a1.h; its parts
  // are not in lockstep); the rotated A2 meets Table 3's start-ups only when every GSH has the
  // same real order (sdp_a2.h: with unequal orders a part's path needs more messages of B_opt).
  // Otherwise they are left out (their time is longer than the formula).
  bool equal_orders = true;
  const u64 k_slots = u64{1} << sdp.k;
  bool a1p_even = cls.beta_real > 0;
  for (const Gsh& g : cls.gshs) {
    if (g.kind == Gsh::Kind::kVirtual) continue;
    equal_orders = equal_orders && g.sigma_p == cls.sigma_max;
    a1p_even = a1p_even && k_slots % static_cast<u64>(cls.beta_real * g.sigma_p) == 0;
  }
  if (!one_port && cls.separable && a1p_even) {
    // n-port A1' (section 4.2.1), B = K/(sigma_max beta): K + beta sigma_max tau.
    cost.push_back({"a1p", kk + cls.beta_real * cls.sigma_max * t});
  }
  if (!one_port) {
    // n-port A2 and its rotated form (sections 4.3.2, 4.6), B = K/(2 sigma_p): K + 2 sigma_p tau.
    // Its AAPCs are Algorithm 4 blocked (sw/algorithms/sdp/sdp_a2.h), K_p/2 steps in sigma block
    // transfers each: the plain form takes it whenever sigma_p storage dimensions are free, the
    // rotated one where every GSH has the same order and the labels split evenly into beta parts.
    for (const bool rotated : {false, true}) {
      int parts = 0;
      const int bits = a2NPortLabelBits(sdp, cls, rotated, &parts);
      if (bits < 0) continue;
      if (rotated && (!equal_orders || bits >= 30 || parts == 0 || (1 << bits) % parts != 0)) {
        continue;
      }
      cost.push_back({rotated ? "a2r" : "a2", a2_single ? kk / 2 + sp * t : kk + 2 * sp * t});
    }
  }
  if (!one_port) {
    // A3 n-port: Table 3's ceil(log2 sigma_max)(ceil(K/2B) + 1)(tau + B) holds when m B divides
    // K/2 in every step (sw/algorithms/sdp/sdp_a3.h); it is costed by its own exact count, which is
    // the formula there and what the schedule takes elsewhere.
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
  BestChoice out;
  out.method = best->first.substr(0, best->first.find(' '));
  out.label = best->first;
  out.cost = best->second;
  out.gamma = out.method == "a5" ? gamma : 0;
  std::ostringstream o;
  for (const auto& [m, c] : cost) o << " " << m << " " << c;
  out.costs = o.str();
  return out;
}

bool isMethod(const std::string& m) {
  return m == "a1" || m == "a1p" || m == "a2" || m == "a2r" || m == "a3" || m == "a4" ||
         m == "a5" || m == "a6";
}

/// Whether `method` runs n-port: a2r, a4, a5, a6 always, a1, a1p, a2, a3 with --ports all.
bool isNPort(const std::string& method, bool one_port) {
  return method == "a4" || method == "a5" || method == "a6" || method == "a2r" || !one_port;
}

/// Table 3's optimal packet: K/2 for A1, K for A1', K/P for A4 (here 2 ceil(K/2P), what one
/// routing cycle carries on a link when two sequences share a dimension, Lemma 7; with mixed GSHs
/// the same for the coarser labels the parts are dealt by), n-port A1'
/// K/(sigma_max beta'), n-port A2 K/(2 sigma_p) (rounded up); A6 and the n-port A1: one message
/// per routing cycle (B = K).
u64 defaultPacket(const std::string& method, bool one_port, bool n_port, u64 slots,
                  const SdpClass& cls, u64 tau) {
  const u64 parts = static_cast<u64>(std::max(cls.sigma_p + cls.beta + cls.sigma_min - 1, 1));
  const u64 a1p_parts = static_cast<u64>(std::max(cls.sigma_max * cls.beta_real, 1));
  const u64 a2_parts = static_cast<u64>(2 * std::max(cls.sigma_p, 1));
  if (method == "a3") return a3Packet(slots, one_port, tau);
  if (method == "a4") {
    // The parts are dealt by labels of 2^(f+1) slots (f storage dimensions in mixed GSHs, and v;
    // f = 0 for a separable SDP): two parts on a link carry 2 ceil(labels / P) 2^f per cycle.
    const int f = mixedStorageDims(cls);
    if (f + 1 > log2Exact(slots)) return slots;
    const u64 labels = slots >> (f + 1);
    return std::max<u64>(2 * ((labels + parts - 1) / parts) << f, 1);
  }
  if (method == "a1p" && n_port) return std::max<u64>((slots + a1p_parts - 1) / a1p_parts, 1);
  if ((method == "a2" || method == "a2r") && n_port) {
    return std::max<u64>((slots + a2_parts - 1) / a2_parts, 1);
  }
  if ((method == "a1" && !n_port) || method == "a2") return std::max<u64>(slots / 2, 1);
  return slots;
}

/// The cheaper for `tau` of a schedule whose parts run at their own pace and the same in lockstep
/// (on a tie the first, or with `fewer_startups_on_tie` the one with fewer start-ups), noted in
/// `note`.
SdpSchedule cheaper(SdpSchedule own_pace, SdpSchedule lockstep, u64 tau, std::ostringstream& note,
                    bool fewer_startups_on_tie = false) {
  const auto cost = [tau](const SdpSchedule& x) {
    return x.transfer_cycles + x.local_cycles + x.startups * tau;
  };
  const bool tie_won = fewer_startups_on_tie && cost(lockstep) == cost(own_pace) &&
                       lockstep.startups < own_pace.startups;
  if (cost(lockstep) < cost(own_pace) || tie_won) {
    note << "parts in lockstep (fewer start-ups for tau = " << tau << "); ";
    return lockstep;
  }
  return own_pace;
}

struct MethodRun {
  SdpSchedule s;
  std::string formula;  ///< the paper's formula for it, with the schedule's own count
};

/// The schedule of one full-cube method (or the direct run on an extended cube's subcube).
MethodRun runMethod(const std::string& method, const Sdp& sdp, const SdpClass& cls, bool one_port,
                    bool n_port, u64 packet, int gamma, int lanes, u64 tau, const std::string& name,
                    const std::string& aapc) {
  const u64 slots = u64{1} << sdp.k;
  MethodRun out;
  SdpSchedule& s = out.s;
  std::ostringstream formula;
  if (method == "a3") {
    s = sdpA3Schedule(sdp, cls, one_port, packet, lanes, name);
    const SdpFormula f = sdpA3Table3(sdp, cls, one_port, packet);
    const SdpFormula count = sdpA3Count(sdp, cls, one_port, packet, lanes);
    formula << (one_port ? "A3 one-port (SPT), Table 3: ceil(log2 sigma_max)(sigma_p K + "
                           "sigma_p ceil(K/B) tau)"
                         : "A3 n-port (pipelined DPT), Table 3: ceil(log2 sigma_max)(K/2B + "
                           "1)(tau + B)")
            << " = " << f.transfer_cycles << " + " << f.startups << " tau = " << f.cycles(tau)
            << "; the schedule's " << sdpA3Steps(cls).size() << " recursive steps count "
            << count.transfer_cycles << " + " << count.startups << " tau";
  } else if (method == "a5") {
    s = sdpA5Schedule(sdp, cls, gamma, packet, lanes, name);
    const int mu = a5Mu(cls.gshs, gamma);
    const u64 a5_parts = static_cast<u64>(gamma * mu);
    const u64 per_link = std::max<u64>((slots + 2 * a5_parts - 1) / (2 * a5_parts), 1);
    formula << "A5 n-port, Table 3: (gamma+1)K/(2 gamma) + (gamma+1) mu ceil(K/(2 gamma mu B)) "
               "tau, gamma = "
            << gamma << ", mu = " << mu << ": "
            << static_cast<double>((gamma + 1) * slots) / (2.0 * gamma) << " + "
            << static_cast<u64>((gamma + 1) * mu) * ((per_link + packet - 1) / packet) << " tau";
  } else if (method == "a1p" && n_port) {
    s = cheaper(sdpA1PrimeNPortSchedule(sdp, cls, packet, lanes, name),
                sdpA1PrimeNPortSchedule(sdp, cls, packet, lanes, name, true), tau, formula);
    const SdpFormula f = sdpA1PrimeNPortFormula(sdp, cls, packet);
    formula << "A1' n-port (section 4.2.1, Seq_i = L^i(J), beta' parts rotated through the GSHs), "
               "Table 3: K + beta sigma_max ceil(K/(sigma_max beta B)) tau = "
            << f.transfer_cycles << " + " << f.startups << " tau = " << f.cycles(tau);
  } else if ((method == "a2" || method == "a2r") && n_port) {
    const bool rotated = method == "a2r";
    s = cheaper(sdpA2NPortSchedule(sdp, cls, rotated, packet, lanes, name, aapc, true),
                sdpA2NPortSchedule(sdp, cls, rotated, packet, lanes, name, aapc, true, true), tau,
                formula, true);
    const u64 sp = static_cast<u64>(cls.sigma_p);
    int parts = 0;
    const int bits = a2NPortLabelBits(sdp, cls, rotated, &parts);
    formula << (rotated ? "A2 rotated n-port (section 4.6)" : "A2 n-port (section 4.3.2)");
    if (a2OneAapcSuffices(sdp, cls)) {
      // Section 4.4: an all-to-all SDP, one AAPC; Table 3's entry halved.
      const u64 starts = sp * ((slots + 2 * sp * packet - 1) / (2 * sp * packet));
      formula << ", one AAPC (section 4.4: Table 3 halved): K/2 + sigma_p ceil(K/(2 sigma_p B)) "
                 "tau = "
              << slots / 2 << " + " << starts << " tau = " << slots / 2 + starts * tau;
    } else {
      const u64 starts = 2 * sp * ((slots + 2 * sp * packet - 1) / (2 * sp * packet));
      formula << ", Table 3: K + 2 sigma_p ceil(K/(2 sigma_p B)) tau = " << slots << " + " << starts
              << " tau = " << slots + starts * tau;
    }
    formula << "; AAPCs by " << aapc << " with section 5 blocking";
    if (rotated) formula << " (" << (u64{1} << bits) << " labels for " << parts << " parts)";
  } else if (method == "a4") {
    s = sdpA4Schedule(sdp, cls, packet, lanes, name);
    const SdpA4Formula f = sdpA4Formula(sdp, cls, packet);
    formula << "A4 n-port, Table 3: (sigma_p+beta)K/P + (sigma_p+beta)ceil(K/(P B)) tau, P = "
            << f.parts << ": " << f.transfer_cycles << " + " << f.startups << " tau";
  } else if (n_port) {
    const bool flat = method == "a1";
    s = sdpA6Schedule(sdp, cls, flat, packet, lanes, name);
    // Section 4.4: a mixed GSH counts by its processor dimensions.
    const SdpClass rc = cls.separable ? cls : realifiedClass(sdp, cls);
    const A6Group root = a6Grouping(rc, flat);
    int s_min = 0;
    for (const Gsh& g : rc.gshs) {
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
    s = sdpA2Schedule(sdp, cls, packet, lanes, name, aapc);
    const u64 half = slots / 2;
    const u64 sp = static_cast<u64>(cls.sigma_p);
    if (a2OneAapcSuffices(sdp, cls)) {
      const u64 starts = sp * ((half + packet - 1) / packet);
      formula << "A2 one-port, one AAPC (section 4.4: Table 3 halved): sigma_p K/2 + sigma_p "
                 "ceil(K/2B) tau = "
              << sp * half << " + " << starts << " tau = " << sp * half + starts * tau;
    } else {
      const u64 starts = 2 * sp * ((half + packet - 1) / packet);
      formula << "A2 one-port, Table 3: sigma_p K + 2 sigma_p ceil(K/2B) tau = " << sp * slots
              << " + " << starts << " tau = " << sp * slots + starts * tau;
    }
    formula << "; AAPCs by " << aapc;
  } else {
    const SdpA1Variant variant = method == "a1" ? SdpA1Variant::kA1 : SdpA1Variant::kA1Prime;
    s = sdpA1Schedule(sdp, cls, variant, packet, lanes, name);
    const SdpFormula f = sdpA1Formula(sdp, cls, variant, packet);
    formula << (variant == SdpA1Variant::kA1
                    ? "A1 one-port, Table 3 / section 4.4: "
                      "(sigma_p+beta')K/2 + (sigma_p+beta')ceil(K/2B) tau"
                    : "A1' one-port, Table 3: sigma_p K + sigma_p ceil(K/B) tau")
            << " = " << f.transfer_cycles << " + " << f.startups << " tau = " << f.cycles(tau);
  }
  out.formula = formula.str();
  return out;
}

BuiltCase buildSdp(const CaseSpec& spec) {
  CaseParams params(spec);
  if (spec.n < 1 || spec.n > kSdpMaxDim) {
    throw Error("--n " + std::to_string(spec.n) + ": the cube dimension must be 1.." +
                std::to_string(kSdpMaxDim));
  }
  const u64 slots = spec.slots == 0 ? u64{1} << spec.n : spec.slots;
  if (!isPowerOfTwo(slots) || slots > (u64{1} << kMaxLocalBits)) {
    throw Error("--k " + std::to_string(slots) + ": an SDP needs K = 2^k elements per node " +
                "(a power of two, at most 2^" + std::to_string(kMaxLocalBits) + ")");
  }
  const int k = log2Exact(slots);
  const std::string asked = params.text("method").value_or("a1");
  // --mp: the data on the subcube of processor dimensions 0..mp-1 (Definition 6).
  const int mp = static_cast<int>(params.integer("mp", spec.n, 1, spec.n));
  const SdpInput in = readSdp(spec, params, k, mp);
  const u64 tau = static_cast<u64>(params.integer("tau", 0, 0, 1000000));
  const SdpClass cls = classify(in.sdp, in.cycles);
  bool extended = asked == "extended";
  // --inner: the full-cube method of the extended scheme's second phase (section 4.5).
  std::string inner = extended ? params.text("inner").value_or("a1") : "";
  if (extended && !isMethod(inner)) {
    throw Error("--inner '" + inner +
                "': the extended scheme's full-cube phase runs one of a1, a1p, a2, a2r, a3, a4, "
                "a5, a6");
  }
  if (extended && mp == spec.n) {
    throw Error("--method extended: the data fills the whole cube (--mp " + std::to_string(mp) +
                " = n); the extended-cube scheme (section 4.5) is for data on a subcube, --mp < "
                "n");
  }
  std::string chosen_by;
  int best_gamma = 0;
  std::string method = extended ? inner : asked;
  bool best_extended = false;  // --method best chose the extended scheme
  std::string best_inner;
  if (asked == "best") {
    const BestChoice direct = bestMethod(in.sdp, cls, spec.one_port, tau);
    method = direct.method;
    best_gamma = direct.gamma;
    std::string best_label = direct.label;
    std::ostringstream o;
    o << "--method best chose %s by Table 3 / Theorem 2 (tau = " << tau << "):" << direct.costs;
    if (mp < spec.n) {
      // Section 4.5 on an extended cube: expansion and compression (its formula) around the best
      // full-cube method on K' = K / 2^e, weighed against the direct run on the data's subcube.
      try {
        const std::vector<int> sd = extendedSpreadDims(in.sdp, cls);
        const Sdp inner_sdp = extendedInnerSdp(in.sdp, sd);
        const BestChoice in_best = bestMethod(inner_sdp, classify(inner_sdp), spec.one_port, tau);
        const SpreadFormula f = extendedSpreadFormula(in.sdp, spec.one_port);
        const double spread_cost = f.transfer_cycles + static_cast<double>(f.startups * tau);
        const double total = 2 * spread_cost + in_best.cost;
        o << " extended (section 4.5: 2 x " << spread_cost << " + inner " << in_best.label << " "
          << in_best.cost << " on K' = " << (u64{1} << inner_sdp.k) << ") " << total;
        if (total < direct.cost) {
          best_extended = true;
          best_inner = in_best.method;
          best_gamma = in_best.gamma;
          best_label = "extended --inner " + in_best.label;
        }
      } catch (const Error& e) {
        o << " extended: does not apply (" << e.what() << ")";
      }
    }
    chosen_by = o.str();
    chosen_by.replace(chosen_by.find("%s"), 2, best_label);
    if (best_extended) method = best_inner;
  }
  // --gamma is A5's block order (section 4.3.3); other methods (and best, which picks gamma) leave
  // it unread, so params.finish() names a stray --gamma.
  const int gamma = asked == "best" ? best_gamma
                    : method == "a5"
                        ? static_cast<int>(params.integer("gamma", 2, -1000000, 1000000))
                        : 0;
  if (!isMethod(method)) {
    throw Error("--method '" + method +
                "': implemented are a1, a1p, a2, a3 (Algorithms A1, A1', A2, A3: one-port, or "
                "n-port with --ports all), a2r (A2's rotated form, n-port), a4, a5 (--gamma G) "
                "and a6 (n-port), best (the least Table 3 time of those that apply) and extended "
                "(section 4.5, --mp M < n, --inner METHOD)");
  }
  const bool n_port = isNPort(method, spec.one_port);
  if (n_port && spec.one_port) {
    throw Error("--ports one: '" + method + "' is an n-port algorithm (section 4.3.3: its " +
                "sequences use several dimensions in every routing cycle); use --ports all");
  }
  if (cls.sigma_p == 0) {
    throw Error(
        "'sdp': the SDP moves no processor dimension (sigma_p = 0), there is nothing to "
        "communicate; give --delta or --cycles with a processor dimension 0.." +
        std::to_string(mp - 1));
  }
  const std::string name = "sdp-" + (extended || best_extended ? asked : method);
  // The extended scheme: the inner method on the reduced full-cube SDP.
  std::vector<int> spread;
  Sdp run_sdp = in.sdp;
  SdpClass run_cls = cls;
  if (best_extended) {
    extended = true;
    inner = best_inner;
  }
  if (extended) {
    spread = extendedSpreadDims(in.sdp, cls);
    run_sdp = extendedInnerSdp(in.sdp, spread);
    // The same GSHs in the same order, renumbered.
    std::vector<std::vector<int>> order;
    for (const Gsh& g : cls.gshs) {
      std::vector<int> c;
      for (const int d : g.dims) {
        int shift = 0;
        for (const int sd : spread) shift += sd < d ? 1 : 0;
        c.push_back(d - shift);
      }
      order.push_back(std::move(c));
    }
    run_cls = classify(run_sdp, order);
  }
  const u64 run_slots = u64{1} << run_sdp.k;
  const long long given = params.integer("packet", 0, 0, 1LL << 30);
  const u64 packet = given > 0
                         ? static_cast<u64>(given)
                         : defaultPacket(method, spec.one_port, n_port, run_slots, run_cls, tau);
  // --aapc: the AAPC schedule of A2's two AAPCs (sw/algorithms/aapc/aapc_family.h); other methods
  // leave it unread, so params.finish() names a stray --aapc.
  std::string aapc;
  if (method == "a2" || method == "a2r") {
    aapc = params.text("aapc").value_or(n_port ? kA2NPortAapc : "exchange");
    const auto& names = aapcScheduleNames();
    if (std::find(names.begin(), names.end(), aapc) == names.end()) {
      std::string known;
      for (const std::string& a : names) known += (known.empty() ? "" : ", ") + a;
      throw Error("--aapc '" + aapc + "': unknown AAPC schedule (known: " + known + ")");
    }
  }
  params.finish();
  // Measured with hcube tables at n = 4, 6, 8 and K = 256, 1024: one-port at most 1.5 sigma_p K
  // instructions (a3 at n = 8: 12 K), n-port at most 1.38 K (a2); twice with start-ups, and the
  // extended scheme's expansion and compression at most K each.
  const double sigma = cls.sigma_p;
  const CaseSize size =
      perNodeSize(spec, sizeOption(spec), static_cast<double>(slots),
                  (spec.one_port ? 2 * sigma + 2 : sigma / 4 + 2) + (extended ? 2 : 0), tau > 0);
  MethodRun m;
  try {
    m = runMethod(method, run_sdp, run_cls, spec.one_port, n_port, packet, gamma, spec.lanes, tau,
                  name, aapc);
  } catch (const Error& e) {
    if (!extended) throw;
    // The inner method's refusal speaks of its own K' (e.g. "--k 1"): say where K' comes from.
    throw Error("--method extended --inner " + inner +
                ": the full-cube phase runs on K' = K / 2^e = " + std::to_string(slots) + " / 2^" +
                std::to_string(in.sdp.n - in.sdp.mp) + " = " + std::to_string(run_slots) +
                " elements per node (section 4.5), and there: " + e.what());
  }
  std::string formula = m.formula;
  if (extended) {
    // The spread phases' messages: --packet, or one per routing cycle.
    const u64 spread_packet = given > 0 ? static_cast<u64>(given) : slots;
    m.s = extendedSchedule(in.sdp, spread, m.s, spec.one_port, spread_packet, spec.lanes, name);
    const SpreadFormula f = extendedSpreadFormula(in.sdp, spec.one_port);
    std::ostringstream o;
    o << "extended cube (section 4.5): expansion and compression "
      << (spec.one_port ? "K(1-2^-e) + e tau" : "(K/e)(1-2^-e) + e tau")
      << " each, e = " << in.sdp.n - in.sdp.mp << ": 2 x (" << f.transfer_cycles << " + "
      << f.startups << " tau), plus the full-cube " << inner << " on K' = " << run_slots << ": "
      << m.formula;
    formula = o.str();
  }
  const SdpSchedule& s = m.s;
  BuiltCase c;
  c.size = size;
  c.perm = in.sdp.toPermutationSpec();
  c.tables = compileSdp(s, c.perm, spec.one_port, spec.lanes, tau);
  const SdpBounds lb = sdpLowerBounds(in.sdp, cls, tau);
  const double lb_transfer = spec.one_port ? lb.transfer_one_port : lb.transfer_n_port;
  c.lower_bound = static_cast<u64>(std::ceil(lb_transfer));
  std::ostringstream src;
  src << (spec.one_port ? "sigma_p*K/2, " : "K/2, ") << lb.source << ": max(" << lb_transfer << ", "
      << lb.startups << " tau) = " << (spec.one_port ? lb.one_port : lb.n_port)
      << " cycles with tau = " << tau << "; sigma_p = " << cls.sigma_p << ", beta = " << cls.beta
      << " (real " << cls.beta_real << "), oJ = " << cls.oJ << "; " << formula << " (B = " << packet
      << "); schedule: " << s.startups << " start-ups, " << s.transfer_cycles << " element cycles, "
      << s.local_cycles << " PERMUTE cycles, " << s.element_transfers << " element transfers";
  if (!chosen_by.empty()) src << "; " << chosen_by;
  c.bound_source = src.str();
  return c;
}

}  // namespace

std::vector<AlgorithmEntry> sdpAlgorithms() {
  return {
      {{"sdp",
        "stable dimension permutation --delta or --cycles (paper numbering) by --method a1, "
        "a1p, a2, a3 (one-port or n-port), a2r, a4, a5 --gamma G, a6 (n-port), best, or "
        "extended --mp M --inner METHOD (section 4.5), --tau start-up cycles per message of "
        "--packet B elements",
        "Ho & Johnsson 1988 (TR-617), sections 2-4"},
       buildSdp},
  };
}

}  // namespace hcube

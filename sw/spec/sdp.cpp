// hcube: SDP classification and lower bounds, Ho & Johnsson 1988 §2.2 and §3 (see sdp.h).
#include "spec/sdp.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/error.h"

namespace hcube {
namespace {

int parseDim(const std::string& item, const std::string& what) {
  try {
    size_t used = 0;
    const int v = std::stoi(item, &used);
    if (used != item.size()) throw std::invalid_argument("trailing");
    return v;
  } catch (const std::exception&) {
    throw Error(what + ": entry '" + item + "' is not a dimension number");
  }
}

std::string dimRange(int n, int k) {
  return "dimensions 0.." + std::to_string(n + k - 1) + " (processor 0.." + std::to_string(n - 1) +
         (k > 0 ? ", storage " + std::to_string(n) + ".." + std::to_string(n + k - 1) : "") + ")";
}

void checkCube(int n, int k, int& mp) {
  if (n < 1 || n > kSdpMaxDim) {
    throw Error("--n " + std::to_string(n) + ": must be 1.." + std::to_string(kSdpMaxDim));
  }
  if (k < 0 || k > 24) throw Error("--k: log2 K = " + std::to_string(k) + " must be 0..24");
  if (mp < 0) mp = n;
  if (mp < 1 || mp > n) {
    throw Error("--mp " + std::to_string(mp) + ": the data's processor dimensions must be 1.." +
                std::to_string(n));
  }
}

std::string fmt(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

}  // namespace

const char* gshKindName(Gsh::Kind kind) {
  switch (kind) {
    case Gsh::Kind::kReal:
      return "real";
    case Gsh::Kind::kVirtual:
      return "virtual";
    case Gsh::Kind::kMixed:
      return "mixed";
  }
  return "?";
}

Sdp Sdp::fromDelta(int n, int k, std::vector<int> delta, int mp) {
  checkCube(n, k, mp);
  const int q = n + k;
  const std::string what = "--delta";
  if (static_cast<int>(delta.size()) != q) {
    throw Error(what + ": " + std::to_string(delta.size()) + " entries, but the " +
                std::to_string(n) + "-cube with K = 2^" + std::to_string(k) + " has " +
                std::to_string(q) + " " + dimRange(n, k));
  }
  std::vector<int> from(q, -1);
  for (int i = 0; i < q; ++i) {
    if (delta[i] < 0 || delta[i] >= q) {
      throw Error(what + ": entry " + std::to_string(i) + " = " + std::to_string(delta[i]) +
                  " is not one of the " + dimRange(n, k));
    }
    if (from[delta[i]] >= 0) {
      throw Error(what + ": not a permutation, dimensions " + std::to_string(from[delta[i]]) +
                  " and " + std::to_string(i) + " both go to dimension " +
                  std::to_string(delta[i]));
    }
    from[delta[i]] = i;
  }
  for (int i = mp; i < n; ++i) {
    if (delta[i] != i) {
      throw Error(what + ": processor dimension " + std::to_string(i) + " holds no data (--mp " +
                  std::to_string(mp) + "), so a stable dimension permutation cannot move it");
    }
  }
  Sdp s;
  s.n = n;
  s.k = k;
  s.mp = mp;
  s.delta = std::move(delta);
  return s;
}

Sdp Sdp::parseDelta(int n, int k, const std::string& text, int mp) {
  std::vector<int> delta;
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) delta.push_back(parseDim(item, "--delta '" + text + "'"));
  return fromDelta(n, k, std::move(delta), mp);
}

std::vector<std::vector<int>> parseCycles(const std::string& text) {
  std::vector<std::vector<int>> cycles;
  std::istringstream groups(text);
  std::string group;
  while (std::getline(groups, group, '/')) {
    std::vector<int> cycle;
    std::istringstream items(group);
    std::string item;
    while (std::getline(items, item, ',')) {
      cycle.push_back(parseDim(item, "--cycles '" + text + "'"));
    }
    if (cycle.empty()) throw Error("--cycles '" + text + "': an empty cycle");
    cycles.push_back(std::move(cycle));
  }
  if (cycles.empty()) throw Error("--cycles '" + text + "': no cycle given");
  return cycles;
}

Sdp Sdp::fromCycles(int n, int k, const std::string& text, int mp) {
  checkCube(n, k, mp);
  const int q = n + k;
  std::vector<int> delta(q);
  for (int i = 0; i < q; ++i) delta[i] = i;
  std::vector<int> seen(q, -1);
  const auto cycles = parseCycles(text);
  for (size_t c = 0; c < cycles.size(); ++c) {
    for (const int d : cycles[c]) {
      if (d < 0 || d >= q) {
        throw Error("--cycles '" + text + "': " + std::to_string(d) + " in cycle " +
                    std::to_string(c) + " is not one of the " + dimRange(n, k));
      }
      if (seen[d] >= 0) {
        throw Error("--cycles '" + text + "': dimension " + std::to_string(d) +
                    " is named twice (cycles " + std::to_string(seen[d]) + " and " +
                    std::to_string(c) + "); the cycles of a permutation are disjoint");
      }
      seen[d] = static_cast<int>(c);
    }
    const auto& cy = cycles[c];
    for (size_t j = 0; j < cy.size(); ++j) delta[cy[j]] = cy[(j + 1) % cy.size()];
  }
  return fromDelta(n, k, std::move(delta), mp);
}

PermutationSpec Sdp::toPermutationSpec() const {
  std::vector<int> d(q());
  for (int i = 0; i < q(); ++i) d[position(i)] = position(delta[i]);
  if (mp == n) return PermutationSpec::dimension(n, k, std::move(d));
  // Extended cube: the same map as a linear one whose elements outside the data's subcube
  // (a processor bit mp..n-1 set) are virtual — no part of the permutation, never checked.
  std::vector<u64> rows(static_cast<size_t>(q()), 0);
  for (int b = 0; b < q(); ++b) rows[static_cast<size_t>(d[static_cast<size_t>(b)])] = u64{1} << b;
  std::vector<u64> checks;
  for (int i = mp; i < n; ++i) checks.push_back(u64{1} << position(i));
  return PermutationSpec::linear(n, k, std::move(rows), std::move(checks));
}

SdpClass classify(const Sdp& sdp, const std::vector<std::vector<int>>& cycle_order) {
  SdpClass c;
  c.full_cube = sdp.mp == sdp.n;
  std::vector<std::vector<int>> cycles;
  for (const auto& cy : cycle_order) {
    if (cy.size() >= 2) cycles.push_back(cy);
  }
  if (cycle_order.empty()) {
    std::vector<bool> done(sdp.q(), false);
    for (int i = 0; i < sdp.q(); ++i) {
      if (done[i] || sdp.delta[i] == i) continue;
      std::vector<int> cy;
      for (int d = i; !done[d]; d = sdp.delta[d]) {
        done[d] = true;
        cy.push_back(d);
      }
      cycles.push_back(std::move(cy));
    }
  }
  for (auto& cy : cycles) {
    Gsh g;
    g.dims = std::move(cy);
    for (const int d : g.dims) g.sigma_p += sdp.isProcessorDim(d) ? 1 : 0;
    g.kind = g.sigma_p == g.sigma() ? Gsh::Kind::kReal
             : g.sigma_p == 0       ? Gsh::Kind::kVirtual
                                    : Gsh::Kind::kMixed;
    c.sigma += g.sigma();
    c.sigma_p += g.sigma_p;
    c.sigma_s += g.sigma() - g.sigma_p;
    if (g.kind != Gsh::Kind::kVirtual) {
      ++c.beta;
      c.sigma_max = std::max(c.sigma_max, g.sigma_p);
      c.sigma_min = c.beta == 1 ? g.sigma_p : std::min(c.sigma_min, g.sigma_p);
    }
    if (g.kind == Gsh::Kind::kReal) {
      ++c.beta_real;
      if (g.sigma() % 2 == 1) ++c.oJ;
    }
    if (g.kind == Gsh::Kind::kMixed) c.separable = false;
    c.gshs.push_back(std::move(g));
  }
  return c;
}

double gshLowerBound(const Gsh& g, u64 slots, u64 tau, bool one_port) {
  const double k = static_cast<double>(slots);
  const int sp = g.sigma_p;
  if (sp == 0) return 0;
  const double transfer = one_port ? sp * k / 2 : k / 2;
  // Lemma 3 (real): sigma_p start-ups if even, sigma_p - 1 if odd; Lemma 4 (mixed): sigma_p.
  const int starts = g.kind == Gsh::Kind::kReal && sp % 2 == 1 ? sp - 1 : sp;
  return std::max(transfer, static_cast<double>(starts) * static_cast<double>(tau));
}

SdpBounds sdpLowerBounds(const Sdp& sdp, const SdpClass& c, u64 tau) {
  SdpBounds b;
  const double k = static_cast<double>(u64{1} << sdp.k);
  const int sp = c.sigma_p;
  b.startups = static_cast<u64>(sp - c.oJ);
  const double st = static_cast<double>(b.startups) * static_cast<double>(tau);
  if (sp == 0) {
    b.source = "no processor dimension moves: no communication";
    return b;
  }
  if (c.full_cube) {
    // Theorem 1.
    b.transfer_one_port = sp * k / 2;
    b.transfer_n_port = k / 2;
    b.source = "Ho & Johnsson 1988 Theorem 1";
    b.one_port = std::max(b.transfer_one_port, st);
    b.n_port = std::max(b.transfer_n_port, st);
    return b;
  }
  // Corollary 4 (m_p < n): the first term is the time for a node to send out its K elements
  // plus the propagation of the last one, the second the bisection-style bandwidth term.
  const int extra = sdp.n - sdp.mp;
  const double spread = std::ldexp(1.0, extra + 1);
  const double prop = static_cast<double>(sp - c.oJ - 1);
  b.transfer_one_port = std::max(k + prop, sp * k / spread);
  b.transfer_n_port = std::max(k / (extra + sp) + prop, k / spread);
  b.source = "Ho & Johnsson 1988 Corollary 4 (extended cube)";
  b.one_port = std::max(b.transfer_one_port, st);
  b.n_port = std::max(b.transfer_n_port, st);
  return b;
}

SdpDescription describeSdp(const Sdp& sdp, const std::vector<std::vector<int>>& cycle_order,
                           u64 tau) {
  SdpDescription d;
  d.sdp = sdp;
  d.cls = classify(sdp, cycle_order);
  d.bounds = sdpLowerBounds(sdp, d.cls, tau);
  d.tau = tau;
  const SdpClass& c = d.cls;
  const u64 slots = u64{1} << sdp.k;
  std::ostringstream t;
  std::ostringstream j;
  t << "stable dimension permutation on a " << sdp.n << "-cube, K = " << slots
    << " (Ho & Johnsson 1988; paper numbering: processor dimensions 0.." << sdp.n - 1;
  if (sdp.k > 0) t << ", storage " << sdp.n << ".." << sdp.q() - 1;
  t << ")\n  delta           ";
  j << "{\"n\":" << sdp.n << ",\"K\":" << slots << ",\"mp\":" << sdp.mp << ",\"delta\":[";
  for (int i = 0; i < sdp.q(); ++i) {
    t << (i ? "," : "") << sdp.delta[i];
    j << (i ? "," : "") << sdp.delta[i];
  }
  t << "\n  GSHs (Def. 7-8) ";
  j << "],\"gshs\":[";
  if (c.gshs.empty()) t << "none (identity)";
  for (size_t g = 0; g < c.gshs.size(); ++g) {
    const Gsh& h = c.gshs[g];
    t << (g ? " / " : "") << "(";
    j << (g ? "," : "") << "{\"dims\":[";
    for (size_t i = 0; i < h.dims.size(); ++i) {
      t << (i ? "," : "") << h.dims[i];
      j << (i ? "," : "") << h.dims[i];
    }
    t << ") " << gshKindName(h.kind) << " sigma=" << h.sigma() << " sigma_p=" << h.sigma_p;
    j << "],\"kind\":\"" << gshKindName(h.kind) << "\",\"sigma\":" << h.sigma()
      << ",\"sigma_p\":" << h.sigma_p
      << ",\"lb_one_port\":" << fmt(gshLowerBound(h, slots, tau, true))
      << ",\"lb_n_port\":" << fmt(gshLowerBound(h, slots, tau, false)) << "}";
  }
  t << "\n  separable       " << (c.separable ? "yes" : "no (mixed GSH)") << "\n  cube            "
    << (c.full_cube ? "full cube (m_p = n)"
                    : "extended cube (m_p = " + std::to_string(sdp.mp) + " < n)")
    << "\n  sigma=" << c.sigma << " sigma_p=" << c.sigma_p << " sigma_s=" << c.sigma_s
    << " beta=" << c.beta << " (real " << c.beta_real << ") sigma_max=" << c.sigma_max
    << " sigma_min=" << c.sigma_min << " oJ=" << c.oJ << "\n";
  j << "],\"separable\":" << (c.separable ? "true" : "false")
    << ",\"full_cube\":" << (c.full_cube ? "true" : "false") << ",\"sigma\":" << c.sigma
    << ",\"sigma_p\":" << c.sigma_p << ",\"sigma_s\":" << c.sigma_s << ",\"beta\":" << c.beta
    << ",\"beta_real\":" << c.beta_real << ",\"sigma_max\":" << c.sigma_max
    << ",\"sigma_min\":" << c.sigma_min << ",\"oJ\":" << c.oJ << ",\"tau\":" << tau;
  for (const Gsh& h : c.gshs) {
    t << "  GSH (" << h.dims.front() << ",...) alone, "
      << (h.kind == Gsh::Kind::kMixed ? "Lemma 4" : "Lemma 3") << ": one-port "
      << fmt(gshLowerBound(h, slots, tau, true)) << ", n-port "
      << fmt(gshLowerBound(h, slots, tau, false)) << " cycles\n";
  }
  const SdpBounds& b = d.bounds;
  t << "  lower bound (" << b.source << ", t_c = 1, tau = " << tau << ")\n"
    << "    one-port      max(" << fmt(b.transfer_one_port) << ", " << b.startups
    << " tau) = " << fmt(b.one_port) << " cycles\n"
    << "    n-port        max(" << fmt(b.transfer_n_port) << ", " << b.startups
    << " tau) = " << fmt(b.n_port) << " cycles\n";
  j << ",\"bounds\":{\"source\":\"" << b.source << "\",\"startups\":" << b.startups
    << ",\"transfer_one_port\":" << fmt(b.transfer_one_port)
    << ",\"transfer_n_port\":" << fmt(b.transfer_n_port) << ",\"one_port\":" << fmt(b.one_port)
    << ",\"n_port\":" << fmt(b.n_port) << "}}";
  d.text = t.str();
  d.json = j.str();
  return d;
}

SdpDescription describeSdpOptions(int n, long long slots, const std::optional<std::string>& delta,
                                  const std::optional<std::string>& cycles, int mp, long long tau) {
  if (n < 1 || n > kSdpMaxDim) {
    throw Error("--n " + std::to_string(n) + ": must be 1.." + std::to_string(kSdpMaxDim));
  }
  const long long k_slots = slots == 0 ? (1LL << n) : slots;
  if (k_slots < 1 || (k_slots & (k_slots - 1)) != 0 || k_slots > (1LL << 24)) {
    throw Error("--k " + std::to_string(k_slots) +
                ": an SDP needs K = 2^k elements per node (a power of two, at most 2^24)");
  }
  if (tau < 0) throw Error("--tau " + std::to_string(tau) + ": must be >= 0");
  if (delta.has_value() == cycles.has_value()) {
    throw Error(
        "hcube sdp: give the SDP by exactly one of --delta d0,d1,... (where each "
        "dimension goes) and --cycles a,b,c/d,e (its GSH cycles)");
  }
  const int k = log2Exact(static_cast<u64>(k_slots));
  if (delta) return describeSdp(Sdp::parseDelta(n, k, *delta, mp), {}, static_cast<u64>(tau));
  return describeSdp(Sdp::fromCycles(n, k, *cycles, mp), parseCycles(*cycles),
                     static_cast<u64>(tau));
}

}  // namespace hcube

// Ho & Johnsson 1988 (TR-617): every method of `--algo sdp` on random SDPs — one-port A1, A1',
// A2, A3 and best; n-port A1, A1', A2, A2 rotated, A3, A4, A5 (every gamma from 2 to sigma_max),
// A6 and best; the extended-cube scheme of section 4.5 around every inner method. Each run on the
// table executor: every element where the reference model says, the measured cycles exactly the
// schedule's own count (start-ups x tau + element cycles + PERMUTE cycles, the start-ups made
// real as WAITs, section 3's cost model), and never below Theorem 1 (full cube) or Corollary 4
// (extended cube) for its port model. A method that does not apply must be refused with one of
// the reasons the paper gives (Error, never a crash or a wrong run). CI sweeps n <= 6; the
// *Long* sweep n <= 8.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "base/error.h"
#include "spec/sdp.h"
#include "test_util.h"

namespace hcube {
namespace {

/// The schedule's own count, as the case states it in its bound source ("schedule: S
/// start-ups, E element cycles, P PERMUTE cycles").
struct Count {
  u64 startups = 0;
  u64 element_cycles = 0;
  u64 permute_cycles = 0;
};

Count countOf(const BuiltCase& c) {
  const std::string key = "schedule: ";
  const size_t at = c.bound_source.find(key);
  Count k;
  unsigned long long s = 0, e = 0, p = 0;
  EXPECT_NE(at, std::string::npos) << c.bound_source;
  if (at == std::string::npos) return k;
  const int got =
      std::sscanf(c.bound_source.c_str() + at + key.size(),
                  "%llu start-ups, %llu element cycles, %llu PERMUTE cycles", &s, &e, &p);
  EXPECT_EQ(got, 3) << c.bound_source;
  k.startups = s;
  k.element_cycles = e;
  k.permute_cycles = p;
  return k;
}

/// The reasons a method may refuse an SDP (each names the paper's limit in the message).
bool documentedRefusal(const std::string& w) {
  for (const char* reason : {
           "storage dimensions are free",                // A2 / rotated A2: Table 5's K
           "not separable",                              // A1' n-port, A5: separable only
           "every storage dimension is in a mixed GSH",  // A4 / A6 / n-port A1: no v
           "needs a storage dimension",                  // A1: a virtual dimension
           "it needs K >= 2",                            // A4 / A6: a virtual dimension
           "Algorithm A5 with gamma",                    // A5: K >= 2^mu
           "sigma_max",                                  // A5: gamma out of 2..sigma_max
           "no implemented method applies",              // best
           "of the log2 K",                              // extended: e free storage dims
       }) {
    if (w.find(reason) != std::string::npos) return true;
  }
  return false;
}

struct Method {
  std::string method;
  bool one_port;
  std::map<std::string, std::string> extra;
};

/// Every method for an SDP of real order sigma_max (A5 with each gamma 2 .. sigma_max).
std::vector<Method> everyMethod(int sigma_max) {
  std::vector<Method> out;
  for (const char* m : {"a1", "a1p", "a2", "a3", "best"}) out.push_back({m, true, {}});
  for (const char* m : {"a1", "a1p", "a2", "a2r", "a3", "a4", "a6", "best"}) {
    out.push_back({m, false, {}});
  }
  for (int g = 2; g <= sigma_max; ++g) out.push_back({"a5", false, {{"gamma", std::to_string(g)}}});
  return out;
}

/// Inner methods of the extended scheme, per port model.
std::vector<Method> everyInner() {
  std::vector<Method> out;
  for (const char* m : {"a1", "a1p", "a2", "a3"}) {
    out.push_back({"extended", true, {{"inner", m}}});
  }
  for (const char* m : {"a1", "a1p", "a2", "a2r", "a3", "a4", "a5", "a6"}) {
    out.push_back({"extended", false, {{"inner", m}}});
  }
  return out;
}

struct SweepTally {
  int runs = 0;
  int refusals = 0;
  std::map<std::string, int> runs_by_method;
};

/// One method on one SDP: built (or refused with a documented reason), run, checked.
void runOne(const Sdp& sdp, const std::string& delta_text, const Method& m, u64 tau, u64 packet,
            SweepTally& tally) {
  CaseSpec s;
  s.algo = "sdp";
  s.n = sdp.n;
  s.slots = u64{1} << sdp.k;
  s.one_port = m.one_port;
  s.params["method"] = m.method;
  s.params["delta"] = delta_text;
  s.params["tau"] = std::to_string(tau);
  if (packet > 0) s.params["packet"] = std::to_string(packet);
  if (sdp.mp < sdp.n) s.params["mp"] = std::to_string(sdp.mp);
  for (const auto& [key, value] : m.extra) s.params[key] = value;
  std::string what = m.method + (m.one_port ? " one-port" : " n-port");
  for (const auto& [key, value] : m.extra) what += " --" + key + " " + value;
  what += " n=" + std::to_string(sdp.n) + " K=" + std::to_string(s.slots) +
          " mp=" + std::to_string(sdp.mp) + " tau=" + std::to_string(tau) +
          " B=" + std::to_string(packet) + " delta " + delta_text;
  BuiltCase c;
  try {
    c = buildCase(s);
  } catch (const Error& e) {
    EXPECT_TRUE(documentedRefusal(e.what())) << what << ": " << e.what();
    if (getenv("SWEEP_DEBUG")) std::fprintf(stderr, "REFUSED %s: %s\n", what.c_str(), e.what());
    ++tally.refusals;
    return;
  }
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, c.perm.participating(), what);
  const Count k = countOf(c);
  EXPECT_EQ(r.run.cycles, k.startups * tau + k.element_cycles + k.permute_cycles)
      << what << ": " << c.bound_source;
  const SdpBounds lb = sdpLowerBounds(sdp, classify(sdp), tau);
  EXPECT_GE(static_cast<double>(r.run.cycles), m.one_port ? lb.one_port : lb.n_port)
      << what << ": " << c.bound_source;
  ++tally.runs;
  ++tally.runs_by_method[m.method + (m.one_port ? "/1" : "/n") +
                         (m.extra.count("inner") ? "/" + m.extra.at("inner") : "")];
}

/// A random SDP on the data's subcube 0..mp-1 and the first `moved_storage` storage dimensions
/// (processor dimensions mp..n-1 and the other storage dimensions fixed, so that A2 and the
/// extended scheme find free storage dimensions); separable (processor and storage dimensions
/// permuted among themselves) or mixing them.
std::vector<int> randomDelta(std::mt19937& rng, int n, int k, int mp, int moved_storage,
                             bool separable) {
  std::vector<int> moved;
  for (int d = 0; d < mp; ++d) moved.push_back(d);
  for (int d = n; d < n + moved_storage; ++d) moved.push_back(d);
  std::vector<int> image = moved;
  if (separable) {
    std::shuffle(image.begin(), image.begin() + mp, rng);
    std::shuffle(image.begin() + mp, image.end(), rng);
  } else {
    std::shuffle(image.begin(), image.end(), rng);
  }
  std::vector<int> delta(static_cast<size_t>(n + k));
  for (int d = 0; d < n + k; ++d) delta[static_cast<size_t>(d)] = d;
  for (size_t i = 0; i < moved.size(); ++i) delta[static_cast<size_t>(moved[i])] = image[i];
  return delta;
}

SweepTally sweep(unsigned seed, int trials, int max_n, int max_k) {
  std::mt19937 rng(seed);
  SweepTally tally;
  for (int trial = 0; trial < trials; ++trial) {
    const int n = 2 + static_cast<int>(rng() % static_cast<unsigned>(max_n - 1));
    // A third of the trials on an extended cube (data on the mp-subcube, 2 <= mp < n), with
    // log2 K at least e + 1 so that the expansion finds its e free storage dimensions.
    const bool extended = n >= 3 && trial % 3 == 2;
    const int mp = extended ? 2 + static_cast<int>(rng() % static_cast<unsigned>(n - 2)) : n;
    const int k = std::min(max_k, n - mp + 1 + static_cast<int>(rng() % 3)) +
                  (extended ? 0 : static_cast<int>(rng() % static_cast<unsigned>(max_k)));
    // Storage dimensions in the SDP: none, a few, or (one trial in four) all of them.
    const int moved_storage = trial % 4 == 1 ? k : static_cast<int>(rng() % 3) % (k + 1);
    const std::vector<int> delta =
        randomDelta(rng, n, k, mp, extended ? std::min(moved_storage, k - (n - mp)) : moved_storage,
                    trial % 2 == 0);
    const Sdp sdp = Sdp::fromDelta(n, k, delta, mp);
    const SdpClass cls = classify(sdp);
    if (cls.sigma_p == 0) continue;
    std::string text;
    for (int i = 0; i < n + k; ++i) text += (i ? "," : "") + std::to_string(delta[i]);
    const std::vector<Method> methods = extended ? everyInner() : everyMethod(cls.sigma_max);
    for (const Method& m : methods) {
      const u64 tau = rng() % 12;
      // Half the runs with the default packet (Table 3's B_opt), half with a small one.
      const u64 packet = rng() % 2 == 0 ? 0 : 1 + rng() % 4;
      runOne(sdp, text, m, tau, packet, tally);
    }
  }
  return tally;
}

/// Every method family ran at least once (a family that silently stops building fails).
void expectEveryMethodRan(const SweepTally& t) {
  std::printf("%d runs checked, %d documented refusals\n", t.runs, t.refusals);
  for (const char* key :
       {"a1/1",           "a1p/1",         "a2/1",          "a3/1",          "best/1",
        "a1/n",           "a1p/n",         "a2/n",          "a2r/n",         "a3/n",
        "a4/n",           "a5/n",          "a6/n",          "best/n",        "extended/1/a1",
        "extended/1/a1p", "extended/1/a3", "extended/n/a4", "extended/n/a6", "extended/n/a1",
        "extended/n/a3"}) {
    EXPECT_GT(t.runs_by_method.count(key) ? t.runs_by_method.at(key) : 0, 0) << key;
  }
}

TEST(SdpSweep, EveryMethodIsCorrectExactAndNeverBelowTheBound) {
  const SweepTally t = sweep(14, 36, 6, 4);
  expectEveryMethodRan(t);
  EXPECT_GT(t.runs, 2 * t.refusals);  // refusals are the minority
}

TEST(SdpSweep, LongEveryMethodUpToEightCubes) {
  const SweepTally t = sweep(617, 90, 8, 5);
  expectEveryMethodRan(t);
  EXPECT_GT(t.runs, 2 * t.refusals);
}

}  // namespace
}  // namespace hcube

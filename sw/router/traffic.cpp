#include "router/traffic.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <sstream>

#include "base/error.h"

namespace hcube {

TrafficPattern parseTrafficPattern(std::string_view w) {
  if (w == "uniform") return TrafficPattern::kUniform;
  if (w == "transpose") return TrafficPattern::kTranspose;
  if (w == "bit-complement") return TrafficPattern::kBitComplement;
  if (w == "bit-reversal") return TrafficPattern::kBitReversal;
  if (w == "shuffle") return TrafficPattern::kShuffle;
  if (w == "hotspot") return TrafficPattern::kHotspot;
  throw Error("--pattern '" + std::string(w) +
              "': must be uniform, transpose, bit-complement, bit-reversal, shuffle or hotspot");
}

const char* trafficPatternName(TrafficPattern p) {
  switch (p) {
    case TrafficPattern::kUniform:
      return "uniform";
    case TrafficPattern::kTranspose:
      return "transpose";
    case TrafficPattern::kBitComplement:
      return "bit-complement";
    case TrafficPattern::kBitReversal:
      return "bit-reversal";
    case TrafficPattern::kShuffle:
      return "shuffle";
    case TrafficPattern::kHotspot:
      return "hotspot";
  }
  return "?";
}

u64 trafficDestination(TrafficPattern p, int n, u64 x, u64 draw, u64 draw2) {
  const u64 nodes = u64{1} << n;
  const u64 mask = nodes - 1;
  switch (p) {
    case TrafficPattern::kUniform: {
      const u64 d = draw % (nodes - 1);  // any node but x
      return d >= x ? d + 1 : d;
    }
    case TrafficPattern::kTranspose: {
      const int h = n / 2;
      const u64 low = x & ((u64{1} << h) - 1);
      const u64 high = (x >> h) & ((u64{1} << h) - 1);
      return (x & ~((u64{1} << (2 * h)) - 1)) | (low << h) | high;
    }
    case TrafficPattern::kBitComplement:
      return ~x & mask;
    case TrafficPattern::kBitReversal: {
      u64 r = 0;
      for (int b = 0; b < n; ++b) r |= ((x >> b) & 1U) << (n - 1 - b);
      return r;
    }
    case TrafficPattern::kShuffle:
      return ((x << 1) | (x >> (n - 1))) & mask;
    case TrafficPattern::kHotspot:
      if (draw2 % 4 == 0) return 0;
      return trafficDestination(TrafficPattern::kUniform, n, x, draw, 0);
  }
  return x;
}

void checkTrafficSpec(const TrafficSpec& spec) {
  if (spec.n < 1 || spec.n > 20) throw Error("--n " + std::to_string(spec.n) + ": must be 1..20");
  if (!(spec.rate > 0 && spec.rate <= 1)) {
    throw Error("--rate " + std::to_string(spec.rate) + ": must be in (0, 1]");
  }
  if (spec.cycles < 1) throw Error("--cycles must be at least 1");
  if (spec.warmup >= spec.cycles) {
    throw Error("--warmup " + std::to_string(spec.warmup) + ": must be below --cycles " +
                std::to_string(spec.cycles));
  }
  const double expected =
      spec.rate * static_cast<double>(spec.cycles) * static_cast<double>(u64{1} << spec.n);
  if (expected > 5e7) {
    throw Error("traffic of about " + std::to_string(static_cast<u64>(expected)) +
                " packets is more than this tool holds (5e7): lower --rate, --cycles or --n");
  }
}

MessageList trafficMessages(const TrafficSpec& spec) {
  checkTrafficSpec(spec);
  MessageList list;
  list.n = spec.n;
  list.slots = static_cast<u64>(spec.n);
  list.route = RouteKind::kEcube;
  list.per_node.resize(list.nodes());
  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  for (u64 t = 0; t < spec.cycles; ++t) {
    for (u64 x = 0; x < list.nodes(); ++x) {
      if (coin(rng) >= spec.rate) continue;
      const u64 a = rng();
      const u64 b = rng();
      const u64 y = trafficDestination(spec.pattern, spec.n, x, a, b);
      if (y == x) continue;
      const int last = 63 - std::countl_zero(x ^ y);  // e-cube's last dimension
      list.per_node[x].push_back(
          {0, y, static_cast<u32>(list.slots + static_cast<u64>(last)), t, {}});
    }
  }
  return list;
}

TrafficResult measureTraffic(const TrafficSpec& spec, const MessageList& list,
                             const RoutedRun& run) {
  TrafficResult r;
  const RouterStats& s = run.stats;
  if (s.delivered_at.size() != list.messages()) {
    throw Error("traffic run: the delivery cycles were not recorded");
  }
  r.generated = list.messages();
  r.cycles = run.run.cycles;
  r.complete = s.delivered == s.messages && !s.deadlock && !run.run.timeout && s.errors.empty();
  const u64 window = spec.cycles - spec.warmup;
  const double node_cycles = static_cast<double>(list.nodes()) * static_cast<double>(window);
  std::vector<u64> latencies;
  std::vector<u64> crossing(static_cast<size_t>(list.n), 0);
  u64 accepted = 0;
  size_t id = 0;
  for (u64 x = 0; x < list.nodes(); ++x) {
    for (const Message& m : list.per_node[x]) {
      const u64 at = s.delivered_at[id++];
      for (u64 d = x ^ m.dst; d != 0; d &= d - 1)
        ++crossing[static_cast<size_t>(std::countr_zero(d))];
      if (at != ~u64{0} && at >= spec.warmup && at < spec.cycles) ++accepted;
      if (m.release < spec.warmup) continue;
      ++r.measured;
      if (at != ~u64{0}) latencies.push_back(at + 1 - m.release);
    }
  }
  r.offered = static_cast<double>(r.measured) / node_cycles;
  r.accepted = static_cast<double>(accepted) / node_cycles;
  if (!latencies.empty()) {
    std::sort(latencies.begin(), latencies.end());
    double sum = 0;
    for (u64 l : latencies) sum += static_cast<double>(l);
    r.latency_mean = sum / static_cast<double>(latencies.size());
    r.latency_p99 = latencies[(latencies.size() * 99 + 99) / 100 - 1];
    r.latency_max = latencies.back();
  }
  const u64 most = *std::max_element(crossing.begin(), crossing.end());
  r.bisection_bound = most == 0 ? 0 : static_cast<double>(r.generated) / static_cast<double>(most);
  return r;
}

namespace {

// A round tick step (1, 2 or 5 times a power of ten) giving at most five intervals up to `max`.
double niceStep(double max) {
  const double raw = max / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

// A tick label with as many decimals as the step needs.
std::string tickLabel(double v, double step) {
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(decimals);
  o << v;
  return o.str();
}

}  // namespace

std::string latencyLoadSvg(const std::string& title, const std::vector<PlotSeries>& series,
                           double saturation) {
  const double w = 640, h = 420, left = 84, right = 20, top = 40, bottom = 60;
  double xmax = 0, ymax = 0;
  for (const PlotSeries& s : series) {
    for (double v : s.x) xmax = std::max(xmax, v);
    for (double v : s.y) ymax = std::max(ymax, v);
  }
  xmax = std::max({xmax, saturation, 1e-9});
  ymax = std::max(ymax, 1e-9);
  // Axes end on the first round tick at or above the data.
  const double xstep = niceStep(xmax), ystep = niceStep(ymax);
  xmax = std::ceil(xmax / xstep - 1e-9) * xstep;
  ymax = std::ceil(ymax / ystep - 1e-9) * ystep;
  auto px = [&](double v) { return left + (w - left - right) * v / xmax; };
  auto py = [&](double v) { return h - bottom - (h - top - bottom) * v / ymax; };
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(2);
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << w / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" << title
    << "</text>\n";
  o << "<line x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w - right << "\" y2=\""
    << h - bottom << "\" stroke=\"black\"/>\n"
    << "<line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\"" << h - bottom
    << "\" stroke=\"black\"/>\n";
  for (double xv = 0; xv <= xmax + xstep / 2; xv += xstep) {
    o << "<text x=\"" << px(xv) << "\" y=\"" << h - bottom + 16 << "\" text-anchor=\"middle\">"
      << tickLabel(xv, xstep) << "</text>\n";
  }
  for (double yv = 0; yv <= ymax + ystep / 2; yv += ystep) {
    o << "<line x1=\"" << left << "\" y1=\"" << py(yv) << "\" x2=\"" << w - right << "\" y2=\""
      << py(yv) << "\" stroke=\"#e0e0e0\"/>\n"
      << "<text x=\"" << left - 6 << "\" y=\"" << py(yv) + 4 << "\" text-anchor=\"end\">"
      << tickLabel(yv, ystep) << "</text>\n";
  }
  o << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 18
    << "\" text-anchor=\"middle\">offered load (packets / node / cycle)</text>\n"
    << "<text x=\"16\" y=\"" << (top + h - bottom) / 2
    << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " << (top + h - bottom) / 2
    << ")\">mean latency (cycles)</text>\n";
  const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
  for (size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& s = series[k];
    o << "<polyline fill=\"none\" stroke=\"" << colours[k % 4] << "\" stroke-width=\"2\" points=\"";
    for (size_t i = 0; i < s.x.size(); ++i) o << px(s.x[i]) << "," << py(s.y[i]) << " ";
    o << "\"/>\n";
    for (size_t i = 0; i < s.x.size(); ++i) {
      o << "<circle cx=\"" << px(s.x[i]) << "\" cy=\"" << py(s.y[i]) << "\" r=\"3\" fill=\""
        << colours[k % 4] << "\"/>\n";
    }
    o << "<text x=\"" << w - right - 10 << "\" y=\"" << top + 16 * (k + 1)
      << "\" text-anchor=\"end\" fill=\"" << colours[k % 4] << "\">" << s.name << "</text>\n";
  }
  if (saturation > 0) {
    o << "<line x1=\"" << px(saturation) << "\" y1=\"" << top << "\" x2=\"" << px(saturation)
      << "\" y2=\"" << h - bottom << "\" stroke=\"gray\" stroke-dasharray=\"4 4\"/>\n"
      << "<text x=\"" << px(saturation) + 4 << "\" y=\"" << top + 12
      << "\" fill=\"gray\">saturation " << saturation << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace hcube

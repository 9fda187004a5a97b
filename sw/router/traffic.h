// hcube: synthetic traffic for routed mode, what BookSim and Noxim users
// expect of a router model: every node injects single-word packets by a Bernoulli process at a
// rate (packets per node and cycle) to destinations given by a pattern, through the e-cube
// routers of docs/hardware/router.md. A run has a warm-up phase (packets released before `warmup`
// are not measured), a measurement phase (released in [warmup, cycles)) and a drain phase (the
// run continues until every packet is delivered). Latency counts from release, source queueing
// included.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "router/router_engine.h"

namespace hcube {

enum class TrafficPattern {
  kUniform,
  kTranspose,
  kBitComplement,
  kBitReversal,
  kShuffle,
  kHotspot
};

/// Parses uniform, transpose, bit-complement, bit-reversal, shuffle, hotspot; throws Error.
TrafficPattern parseTrafficPattern(std::string_view word);
const char* trafficPatternName(TrafficPattern p);

struct TrafficSpec {
  int n = 4;
  TrafficPattern pattern = TrafficPattern::kUniform;
  double rate = 0.1;  ///< offered packets per node and cycle, 0 < rate <= 1
  u64 cycles = 2000;  ///< injection runs in cycles [0, cycles)
  u64 warmup = 0;     ///< packets released before this cycle are not measured
  u64 seed = 1;
};

/// The destination of a packet from node x (uniform and hotspot draw from `draw`, a uniform
/// 64-bit value). Patterns (with b the n address bits): transpose swaps the two halves of the
/// address (n even; odd n: the lower floor(n/2) bits with the next ones, the top bit kept),
/// bit-complement flips every bit, bit-reversal reverses them, shuffle rotates them left by one,
/// hotspot sends a quarter of the packets to node 0 and the rest uniformly, uniform draws any
/// node other than x.
u64 trafficDestination(TrafficPattern p, int n, u64 x, u64 draw, u64 draw2);

/// The message list of a traffic run: per node, one message per Bernoulli success in
/// [0, cycles), release = its cycle, e-cube; packets whose destination is their source are not
/// generated. Slot 0 is the payload; a packet is delivered into slot K + d (K = n), d its last
/// dimension, so no two packets write one slot in one cycle.
MessageList trafficMessages(const TrafficSpec& spec);
/// Throws the Error trafficMessages(spec) would throw for a bad spec, without drawing anything:
/// the CLI checks every rate of a sweep before it prints a line.
void checkTrafficSpec(const TrafficSpec& spec);

struct TrafficResult {
  u64 generated = 0;    ///< packets in the list
  u64 measured = 0;     ///< released in the measurement phase
  double offered = 0;   ///< measured packets per node and measurement cycle
  double accepted = 0;  ///< packets delivered during the measurement phase per node and cycle
  double latency_mean = 0;
  u64 latency_p99 = 0;
  u64 latency_max = 0;
  u64 cycles = 0;              ///< until the last delivery (drain included)
  double bisection_bound = 0;  ///< the most packets per node and cycle the links can carry
  bool complete = false;       ///< every packet delivered, no deadlock, no timeout, no router error
};

/// The measurement of a run of trafficMessages(spec) (run with record_deliveries). The
/// bisection bound: a dimension-j cut has N directed links, so if a fraction f_j of the packets
/// cross dimension j, accepted <= 1 / max_j f_j.
TrafficResult measureTraffic(const TrafficSpec& spec, const MessageList& list,
                             const RoutedRun& run);

/// A latency-load plot (offered load on x, mean latency on y, one polyline per series, the
/// saturation point as a dashed line) as a standalone SVG document.
struct PlotSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
};
std::string latencyLoadSvg(const std::string& title, const std::vector<PlotSeries>& series,
                           double saturation);

}  // namespace hcube

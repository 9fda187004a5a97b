// Johnsson & Ho 1987, §6.1: SPT, DPT and MPT two-dimensional transposes, their packet
// schedules, and their lowering into per-node tables with τ, B, scratch slots or FWD.
#include "algorithms/transpose/transpose2d.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <unordered_map>

#include "base/error.h"

namespace hcube {

namespace {

constexpr int kMaxDims = 20;

void requireEvenDims(const std::string& what, int n) {
  if (n < 2 || n > kMaxDims || n % 2 != 0) {
    throw Error(what + ": n = " + std::to_string(n) + " must be even and 2.." +
                std::to_string(kMaxDims) +
                " (the two-dimensional transposes of Johnsson & Ho 1987 §6.1 give n/2 node "
                "dimensions to rows and n/2 to columns)");
  }
}

u64 halfMask(int n) { return (u64{1} << (n / 2)) - 1; }
u64 rowPart(int n, u64 x) { return x >> (n / 2); }
u64 colPart(int n, u64 x) { return x & halfMask(n); }
u64 ceilDiv(u64 a, u64 b) { return (a + b - 1) / b; }

/// The full routing order of §6.1.1 (row-first) or its pairwise swap (§6.1.2, column-first):
/// row n/2-1+h, column h-1, ..., row n/2, column 0, each with the pair index it belongs to.
std::vector<std::pair<int, int>> fullOrder(int n, bool column_first) {
  const int h = n / 2;
  std::vector<std::pair<int, int>> order;
  for (int i = h - 1; i >= 0; --i) {
    const int row = i + h;
    const int col = i;
    if (column_first) {
      order.push_back({col, i});
      order.push_back({row, i});
    } else {
      order.push_back({row, i});
      order.push_back({col, i});
    }
  }
  return order;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------------------

u64 transposeNode(int n, u64 x) { return (colPart(n, x) << (n / 2)) | rowPart(n, x); }

int transposeHalfDistance(int n, u64 x) { return popcount(rowPart(n, x) ^ colPart(n, x)); }

std::vector<std::vector<int>> mptPaths(int n, u64 x) {
  requireEvenDims("mptPaths", n);
  const int h = n / 2;
  const u64 diff = rowPart(n, x) ^ colPart(n, x);
  std::vector<int> alpha;  // alpha_0 < alpha_1 < ... (row dimensions)
  std::vector<int> beta;   // the paired column dimensions
  for (int i = 0; i < h; ++i) {
    if (bitOf(diff, i)) {
      alpha.push_back(i + h);
      beta.push_back(i);
    }
  }
  const int hx = static_cast<int>(alpha.size());
  std::vector<std::vector<int>> paths;
  for (int p = 0; p < 2 * hx; ++p) {
    const bool column_first = p >= hx;
    const int base = column_first ? p - hx : p;
    std::vector<int> dims;
    for (int t = hx - 1; t >= 0; --t) {
      const int k = (base + t) % hx;
      if (column_first) {
        dims.push_back(beta[k]);
        dims.push_back(alpha[k]);
      } else {
        dims.push_back(alpha[k]);
        dims.push_back(beta[k]);
      }
    }
    paths.push_back(std::move(dims));
  }
  return paths;
}

std::vector<u64> pathNodes(u64 x, const std::vector<int>& dims) {
  std::vector<u64> nodes;
  for (int d : dims) {
    x = neighbour(x, d);
    nodes.push_back(x);
  }
  return nodes;
}

bool sameAntiDiagonal(int n, u64 a, u64 b) {
  return rowPart(n, a) + colPart(n, a) == rowPart(n, b) + colPart(n, b);
}

bool sameTransposeClass(int n, u64 a, u64 b) {
  return sameAntiDiagonal(n, a, b) && (a ^ transposeNode(n, a)) == (b ^ transposeNode(n, b));
}

MptDisjointness checkMptDisjointness(int n, int rounds) {
  requireEvenDims("checkMptDisjointness", n);
  if (rounds < 1)
    throw Error("checkMptDisjointness: rounds = " + std::to_string(rounds) + " must be >= 1");
  MptDisjointness r;
  const u64 nodes = u64{1} << n;
  // A ~s class is named by (x_r + x_c, x XOR tr(x)); Definition 15.
  std::map<std::pair<u64, u64>, u64> class_ids;
  std::unordered_map<u64, u64> edge_class;  // directed edge (node * n + dim) -> class id
  std::unordered_map<u64, int> edge_step;   // (edge, step) -> uses
  // Steps stay below (rounds + 1) * n: a packet launched in round i ends by (i + 1) * 2H(x).
  const u64 stride = (static_cast<u64>(rounds) + 1) * static_cast<u64>(n);
  for (u64 x = 0; x < nodes; ++x) {
    const int hx = transposeHalfDistance(n, x);
    if (hx == 0) continue;
    const auto key = std::make_pair(rowPart(n, x) + colPart(n, x), x ^ transposeNode(n, x));
    const u64 cls = class_ids.emplace(key, class_ids.size()).first->second;
    const auto paths = mptPaths(n, x);
    std::unordered_map<u64, int> own_edges;
    for (const auto& path : paths) {
      const auto visited = pathNodes(x, path);
      if (static_cast<int>(path.size()) != 2 * hx || visited.back() != transposeNode(n, x)) {
        ++r.paths_lengths_wrong;
      }
      u64 at = x;
      for (size_t e = 0; e < path.size(); ++e) {
        const u64 edge = at * static_cast<u64>(n) + static_cast<u64>(path[e]);
        if (own_edges[edge]++ > 0) ++r.shared_within_node;
        const auto [it, fresh] = edge_class.emplace(edge, cls);
        if (!fresh && it->second != cls) ++r.shared_between_classes;
        for (int i = 0; i < rounds; ++i) {
          for (u64 phase = 0; phase < 2; ++phase) {
            const u64 step = static_cast<u64>(i) * 2 * static_cast<u64>(hx) + phase + e;
            ++r.edge_steps;
            if (edge_step[edge * stride + step]++ > 0) ++r.timing_conflicts;
          }
        }
        at = neighbour(at, path[e]);
      }
    }
  }
  r.classes = class_ids.size();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Formulas
// ---------------------------------------------------------------------------------------------

namespace {
u64 packetCycles(u64 packet, int lanes) { return ceilDiv(packet, static_cast<u64>(lanes)); }
}  // namespace

u64 sptFormulaCycles(int n, u64 slots, u64 packet, u64 tau, int lanes) {
  return (ceilDiv(slots, packet) + static_cast<u64>(n) - 1) * (packetCycles(packet, lanes) + tau);
}

u64 dptFormulaCycles(int n, u64 slots, u64 packet, u64 tau, int lanes) {
  return (ceilDiv(slots, 2 * packet) + static_cast<u64>(n) - 1) *
         (packetCycles(packet, lanes) + tau);
}

u64 cutThroughFormulaCycles(bool dual, int n, u64 slots, u64 packet, u64 tau, int lanes) {
  const u64 packets = ceilDiv(slots, dual ? 2 * packet : packet);
  return packets * (packetCycles(packet, lanes) + tau) + static_cast<u64>(n) - 1;
}

u64 mptStepsForHalfDistance(int h, u64 packets) {
  const u64 per_round = 4 * static_cast<u64>(h);
  const u64 rounds = ceilDiv(packets, per_round);
  const u64 last = packets - per_round * (rounds - 1);
  return 2 * static_cast<u64>(h) * (rounds - 1) + 2 * static_cast<u64>(h) +
         (last > 2 * static_cast<u64>(h) ? 1 : 0);
}

u64 mptScheduleCycles(int n, u64 slots, u64 packet, u64 tau, int lanes) {
  const u64 packets = ceilDiv(slots, packet);
  u64 steps = 0;
  for (int h = 1; h <= n / 2; ++h) steps = std::max(steps, mptStepsForHalfDistance(h, packets));
  return steps * (packetCycles(packet, lanes) + tau);
}

namespace {
u64 mptClassCycles(int h, u64 slots, u64 packet, u64 tau, int lanes) {
  return mptStepsForHalfDistance(h, ceilDiv(slots, packet)) * (packetCycles(packet, lanes) + tau);
}
}  // namespace

u64 mptClassPacket(int h, u64 slots, u64 tau, int lanes) {
  u64 best = 1;
  u64 best_cycles = mptClassCycles(h, slots, 1, tau, lanes);
  for (u64 b = 2; b <= slots; ++b) {
    const u64 c = mptClassCycles(h, slots, b, tau, lanes);
    if (c < best_cycles) {
      best = b;
      best_cycles = c;
    }
  }
  return best;
}

u64 mptPerClassCycles(int n, u64 slots, u64 packet, u64 tau, int lanes) {
  if (n < 2) return 0;  // a cube of one dimension has no half-distance class h >= 1
  u64 cycles = mptClassCycles(n / 2, slots, packet, tau, lanes);
  for (int h = 1; h < n / 2; ++h) {
    cycles = std::max(cycles,
                      mptClassCycles(h, slots, mptClassPacket(h, slots, tau, lanes), tau, lanes));
  }
  return cycles;
}

double mptTheorem2(int n, u64 slots, u64 tau) {
  const double dn = n;
  const double k = static_cast<double>(slots);  // PQ/N
  const double t = static_cast<double>(tau);
  if (tau == 0) return k / 2.0;  // the last case with τ = 0
  const double r1 = std::sqrt(k / t);
  const double r2 = std::sqrt(k / (2.0 * t));
  if (dn >= r1) return (dn + 1) * t + (dn + 1) / (2 * dn) * k;
  if (dn > r2) {
    if ((n / 2) % 2 == 0) return (dn / 2 + 3) * t + (dn + 6) / (2 * dn + 8) * k;
    return (dn / 2 + 2) * t + (dn + 4) / (2 * dn + 4) * k;
  }
  const double root = std::sqrt(t) + std::sqrt(k / 2.0);
  return root * root;
}

double sptOptimalPacket(int n, u64 slots, u64 tau) {
  if (n <= 1) return 1;
  return std::sqrt(static_cast<double>(slots) * static_cast<double>(tau) / (n - 1.0));
}

double dptOptimalPacket(int n, u64 slots, u64 tau) {
  if (n <= 1) return 1;
  return std::sqrt(static_cast<double>(slots) * static_cast<double>(tau) / (2.0 * (n - 1.0)));
}

double mptOptimalPacket(int n, u64 slots, u64 tau) {
  const double k = static_cast<double>(slots);
  const double t = static_cast<double>(tau);
  // τ = 0 falls in the last case (n <= sqrt(PQ t_c / 2N τ) = infinity): B_opt = 0, i.e. 1.
  if (tau == 0 || n <= std::sqrt(k / (2.0 * t))) return std::sqrt(k * t / 2.0);
  if ((n / 2) % 2 == 0) return std::ceil(k / (n + 4.0));
  return std::ceil(k / (n + 2.0));
}

u64 transposeLowerBound(int n, u64 slots, u64 tau, int lanes, bool cut_through) {
  const u64 hops = static_cast<u64>(n);
  return std::max(cut_through ? tau + hops : hops * tau,
                  ceilDiv(ceilDiv(slots, 2), static_cast<u64>(lanes)));
}

// ---------------------------------------------------------------------------------------------
// Packet schedules
// ---------------------------------------------------------------------------------------------

namespace {

/// Destination slot of every element of node x; throws Error unless all go to tr(x).
std::vector<u32> localMap(const PermutationSpec& perm, u64 x) {
  const int n = perm.n();
  std::vector<u32> sigma(perm.slots());
  for (u64 l = 0; l < perm.slots(); ++l) {
    const GlobalAddress d = perm.dest({x, l});
    if (d.node != transposeNode(n, x)) {
      throw Error("the permutation '" + perm.str() + "' sends element (" + std::to_string(x) +
                  " | " + std::to_string(l) + ") to node " + std::to_string(d.node) +
                  ", not to tr(x) = " + std::to_string(transposeNode(n, x)) +
                  ": SPT, DPT and MPT (Johnsson & Ho 1987 §6.1) need a two-dimensional "
                  "partitioning with n/2 row and n/2 column node bits and the same assignment "
                  "and encoding before and after the transpose");
    }
    sigma[l] = static_cast<u32>(d.slot);
  }
  return sigma;
}

/// Sending order of a node's slots: the cycles of its local map, longest first, each in reverse
/// (sigma^{m-1}(l), ..., sigma(l), l), so that with the partner node sending in the same order
/// every element but one per cycle lands on a slot sent one position earlier.
std::vector<u32> sendingOrder(const std::vector<u32>& sigma) {
  std::vector<std::vector<u32>> cycles;
  std::vector<bool> seen(sigma.size());
  for (u32 l = 0; l < sigma.size(); ++l) {
    if (seen[l]) continue;
    std::vector<u32> cycle;
    for (u32 a = l; !seen[a]; a = sigma[a]) {
      seen[a] = true;
      cycle.push_back(a);
    }
    std::reverse(cycle.begin(), cycle.end());
    cycles.push_back(std::move(cycle));
  }
  std::stable_sort(cycles.begin(), cycles.end(),
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  std::vector<u32> order;
  for (const auto& c : cycles) order.insert(order.end(), c.begin(), c.end());
  return order;
}

/// Hops of a path routed either greedily (one hop per step from `launch`) or synchronously (the
/// full dimension order, idling in the pairs x does not need).
void setRoute(PacketRoute& r, int n, u64 launch, bool column_first, bool synchronous,
              const std::vector<int>& greedy_dims) {
  if (!synchronous) {
    r.dims = greedy_dims;
    for (size_t e = 0; e < greedy_dims.size(); ++e) r.steps.push_back(launch + e);
    return;
  }
  const u64 diff = rowPart(n, r.source) ^ colPart(n, r.source);
  const auto order = fullOrder(n, column_first);
  for (size_t k = 0; k < order.size(); ++k) {
    if (!bitOf(diff, order[k].second)) continue;
    r.dims.push_back(order[k].first);
    r.steps.push_back(launch + k);
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Virtual elements (Definition 2): the formulas over the real elements each node sends
// ---------------------------------------------------------------------------------------------

namespace {

/// The lowest pair index in which x_r and x_c differ (x off the diagonal).
int lowestDifferingPair(int n, u64 x) {
  const u64 diff = rowPart(n, x) ^ colPart(n, x);
  int i = 0;
  while (!bitOf(diff, i)) ++i;
  return i;
}
}  // namespace

std::vector<u64> realElementsSent(const PermutationSpec& perm) {
  const int n = perm.n();
  requireEvenDims("--n", n);
  std::vector<u64> real = perm.participatingPerNode();
  for (u64 x = 0; x < perm.nodes(); ++x) {
    localMap(perm, x);  // every element of x must go to tr(x)
    if (transposeHalfDistance(n, x) == 0) real[x] = 0;
  }
  return real;
}

u64 mptPacketForHalfDistance(int n, int h, u64 real, const Transpose2dOptions& o) {
  if (o.algo != Transpose2dAlgo::kMpt || !o.per_class_packets || h == n / 2 || real == 0) {
    return o.packet;
  }
  return mptClassPacket(h, real, o.tau, o.lanes);
}

u64 transpose2dRealCycles(int n, const std::vector<u64>& real, const Transpose2dOptions& o) {
  requireEvenDims("--n", n);
  if (real.size() != (u64{1} << n)) {
    throw Error("transpose2dRealCycles: " + std::to_string(real.size()) +
                " real-element counts for the " + std::to_string(u64{1} << n) + " nodes of an " +
                std::to_string(n) + "-cube");
  }
  if (o.packet < 1) throw Error("--packet " + std::to_string(o.packet) + ": must be >= 1");
  if (o.lanes < 1) throw Error("--width " + std::to_string(o.lanes) + ": must be >= 1");
  u64 cycles = 0;
  if (o.algo == Transpose2dAlgo::kMpt) {
    // The launch pattern of a class depends only on H; its slowest node has the most packets.
    std::vector<u64> most(static_cast<size_t>(n / 2 + 1), 0);
    for (u64 x = 0; x < real.size(); ++x) {
      const auto h = static_cast<size_t>(transposeHalfDistance(n, x));
      if (h > 0) most[h] = std::max(most[h], real[x]);
    }
    for (int h = 1; h <= n / 2; ++h) {
      const u64 r = most[static_cast<size_t>(h)];
      if (r == 0) continue;
      const u64 size = mptPacketForHalfDistance(n, h, r, o);
      cycles = std::max(cycles, mptStepsForHalfDistance(h, ceilDiv(r, size)) *
                                    (o.tau + packetCycles(size, o.lanes)));
    }
    return cycles;
  }
  const u64 step = o.tau + packetCycles(o.packet, o.lanes);
  const u64 per_launch = o.algo == Transpose2dAlgo::kDpt ? 2 * o.packet : o.packet;
  for (u64 x = 0; x < real.size(); ++x) {
    const int h = transposeHalfDistance(n, x);
    if (h == 0 || real[x] == 0) continue;
    const u64 launches = ceilDiv(real[x], per_launch);
    const u64 d = static_cast<u64>(o.synchronous ? n - 2 * lowestDifferingPair(n, x) : 2 * h);
    cycles = std::max(cycles, o.cut_through ? launches * step + d - 1 : (launches + d - 1) * step);
  }
  return cycles;
}

RealLowerBound transposeRealLowerBound(const PermutationSpec& perm, u64 tau, int lanes,
                                       bool cut_through) {
  const int n = perm.n();
  if (lanes < 1) throw Error("--width " + std::to_string(lanes) + ": must be >= 1");
  const std::vector<u64> real = realElementsSent(perm);
  const int top = n / 2 - 1;  // the high row and column node bits name the quadrants
  u64 quadrant[2] = {0, 0};
  RealLowerBound b;
  for (u64 x = 0; x < real.size(); ++x) {
    if (real[x] == 0) continue;
    b.distance = std::max(b.distance, 2 * transposeHalfDistance(n, x));
    b.busiest = std::max(b.busiest, real[x]);
    const bool row_high = bitOf(rowPart(n, x), top);
    if (row_high != bitOf(colPart(n, x), top)) quadrant[row_high ? 1 : 0] += real[x];
  }
  b.quadrant = std::max(quadrant[0], quadrant[1]);
  const u64 links = perm.nodes() / 2 * static_cast<u64>(lanes);
  const u64 hops = static_cast<u64>(b.distance);
  b.cycles = std::max({cut_through ? tau + hops : hops * tau, ceilDiv(b.quadrant, links),
                       ceilDiv(b.busiest, static_cast<u64>(n) * static_cast<u64>(lanes))});
  return b;
}

Transpose2dPlan planTranspose2d(const PermutationSpec& perm, const Transpose2dOptions& o) {
  const int n = perm.n();
  requireEvenDims("--n", n);
  if (o.packet < 1) throw Error("--packet " + std::to_string(o.packet) + ": must be >= 1");
  if (o.lanes < 1) throw Error("--width " + std::to_string(o.lanes) + ": must be >= 1");
  if (o.cut_through && o.algo == Transpose2dAlgo::kMpt) {
    throw Error(
        "--forward cut: the MPT algorithm's (2, 2H(x))-disjoint timing (Johnsson & Ho 1987 "
        "Lemma 14) holds for packets that advance one edge per packet step; use --forward store");
  }
  if (o.cut_through && o.synchronous) {
    throw Error(
        "--route sync with --forward cut: a cut-through packet cannot idle in an "
        "intermediate node; synchronous routing needs --forward store");
  }
  if (o.synchronous && o.algo == Transpose2dAlgo::kMpt) {
    throw Error(
        "--route sync: the MPT algorithm has its own launch timing (§6.1.3); --route "
        "applies to spt and dpt");
  }
  Transpose2dPlan plan;
  plan.algo = o.algo == Transpose2dAlgo::kSpt   ? "spt"
              : o.algo == Transpose2dAlgo::kDpt ? "dpt"
                                                : "mpt";
  plan.n = n;
  plan.slots = perm.slots();
  plan.options = o;
  // Only real elements are planned (Definition 2): node x sends R_x of its K elements.
  const std::vector<u64> real = realElementsSent(perm);
  // Packet size per H(x): B, or for MPT's classes off the anti-diagonal their own optimum for
  // the most real elements a node of that H sends.
  std::vector<u64> most(static_cast<size_t>(n / 2 + 1), 0);
  for (u64 x = 0; x < perm.nodes(); ++x) {
    const auto h = static_cast<size_t>(transposeHalfDistance(n, x));
    most[h] = std::max(most[h], real[x]);
  }
  std::vector<u64> size_for(static_cast<size_t>(n / 2 + 1), o.packet);
  for (int h = 1; h <= n / 2; ++h) {
    size_for[static_cast<size_t>(h)] =
        mptPacketForHalfDistance(n, h, most[static_cast<size_t>(h)], o);
  }
  for (u64 x = 0; x < perm.nodes(); ++x) {
    const int hx = transposeHalfDistance(n, x);
    if (hx == 0) continue;
    std::vector<u32> order = sendingOrder(localMap(perm, x));
    std::erase_if(order, [&](u32 l) { return !perm.participates({x, l}); });
    plan.virtual_slots += perm.slots() - order.size();
    for (PacketRoute& r :
         transpose2dNodeRoutes(n, x, order.size(), size_for[static_cast<size_t>(hx)], o)) {
      for (u32& slot : r.slots) slot = order[slot];
      plan.steps = std::max(plan.steps, r.steps.back() + 1);
      plan.packets.push_back(std::move(r));
    }
  }
  return plan;
}

std::vector<PacketRoute> transpose2dNodeRoutes(int n, u64 x, u64 count, u64 size,
                                               const Transpose2dOptions& o) {
  std::vector<PacketRoute> out;
  const int hx = transposeHalfDistance(n, x);
  if (hx == 0 || count == 0) return out;
  const auto paths = mptPaths(n, x);
  const u64 packets = ceilDiv(count, size);
  for (u64 j = 0; j < packets; ++j) {
    PacketRoute r;
    r.source = x;
    r.step_cycles = o.tau + packetCycles(size, o.lanes);
    for (u64 i = j * size; i < std::min(count, (j + 1) * size); ++i) {
      r.slots.push_back(static_cast<u32>(i));
    }
    switch (o.algo) {
      case Transpose2dAlgo::kSpt:
        setRoute(r, n, j, false, o.synchronous, paths[0]);
        break;
      case Transpose2dAlgo::kDpt: {
        const bool second = j % 2 == 1;
        setRoute(r, n, j / 2, second, o.synchronous, paths[second ? hx : 0]);
        break;
      }
      case Transpose2dAlgo::kMpt: {
        const u64 two_h = 2 * static_cast<u64>(hx);
        const u64 round = j / (2 * two_h);
        const u64 within = j % (2 * two_h);
        const u64 phase = within / two_h;
        setRoute(r, n, round * two_h + phase, false, false, paths[within % two_h]);
        break;
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Lowering
// ---------------------------------------------------------------------------------------------

namespace {

/// One word's crossing of one edge.
struct Crossing {
  u64 from = 0;
  int dim = 0;
  int lane = 0;
  u64 cycle = 0;
  OutField out;
  InField in;
  size_t hold_out = SIZE_MAX;  ///< the scratch hold this crossing reads (its slot is patched in)
  size_t hold_in = SIZE_MAX;   ///< the scratch hold this crossing writes
};

/// An element waiting in a scratch slot of `node` from the end of cycle `write` until it is
/// read at the start of cycle `read`.
struct Hold {
  u64 node = 0;
  u64 write = 0;
  u64 read = 0;
  u32 slot = 0;
};

/// An element a node still has to copy locally into its final slot.
struct Pending {
  u32 cur = 0;
  u32 dst = 0;
  u64 ready = 0;  ///< first cycle in which it may be read
};

constexpr u32 kNone = 0xFFFFFFFFU;

/// Schedules one node's local copies (PERMUTE, docs/hardware/node.md §2.1) into the cycles in which
/// its ports are idle. `depart[l]` is the cycle in which data slot l's original element is sent
/// (-1: nothing leaves it); `final_slot[l]` marks slots already holding their final element.
/// Eviction slots for breaking cycles are taken from `next_scratch` upward.
std::map<u64, Instruction> scheduleLocalCopies(std::vector<Pending> pending,
                                               const std::vector<long long>& depart,
                                               std::vector<bool> final_slot,
                                               const std::map<u64, Instruction>& busy,
                                               size_t channels, u64 words, u32& next_scratch,
                                               u64& copies, u64 node) {
  std::map<u64, Instruction> out;
  std::vector<u32> holder(words, kNone);  // slot -> pending index
  for (u32 i = 0; i < pending.size(); ++i) holder[pending[i].cur] = i;
  std::vector<bool> done(pending.size());
  size_t remaining = pending.size();
  const u64 k = depart.size();
  auto freeAt = [&](u32 slot, u64 c) {
    if (holder[slot] != kNone || (slot < k && final_slot[slot])) return false;
    return slot >= k || depart[slot] < static_cast<long long>(c);
  };
  const u64 limit = (busy.empty() ? 0 : busy.rbegin()->first + 1) + 4 * words + 16;
  for (u64 c = 0; remaining > 0; ++c) {
    if (c > limit) {
      throw InternalError("transpose lowering: node " + std::to_string(node) +
                          " cannot finish its local copies (internal error)");
    }
    if (busy.count(c)) continue;
    std::vector<std::pair<u32, u32>> copies_now;  // (pending index, to slot)
    std::vector<bool> chosen(pending.size());
    std::vector<bool> claimed(words);
    auto ready = [&](u32 i) { return !done[i] && !chosen[i] && pending[i].ready <= c; };
    auto choose = [&](u32 i, u32 to) {
      chosen[i] = true;
      claimed[to] = true;
      copies_now.push_back({i, to});
    };
    // Whole cycles that fit: a rotation in one PERMUTE needs no scratch.
    for (u32 i = 0; i < pending.size() && copies_now.size() < channels; ++i) {
      if (!ready(i)) continue;
      std::vector<u32> cyc{i};
      u32 j = holder[pending[i].dst];
      while (j != kNone && j != i && ready(j) && cyc.size() <= channels) {
        cyc.push_back(j);
        j = holder[pending[j].dst];
      }
      if (j == i && cyc.size() <= channels - copies_now.size()) {
        for (u32 m : cyc) choose(m, pending[m].dst);
      }
    }
    for (u32 i = 0; i < pending.size() && copies_now.size() < channels; ++i) {
      if (ready(i) && !claimed[pending[i].dst] && freeAt(pending[i].dst, c)) {
        choose(i, pending[i].dst);
      }
    }
    if (copies_now.empty()) {
      // Every ready element waits for a slot another pending element holds: move one aside.
      for (u32 i = 0; i < pending.size(); ++i) {
        if (ready(i) && holder[pending[i].dst] != kNone) {
          choose(i, next_scratch++);
          break;
        }
      }
    }
    // Chains: an element may move into a slot whose holder moves out in this cycle.
    for (bool grew = true; grew && copies_now.size() < channels;) {
      grew = false;
      for (u32 i = 0; i < pending.size() && copies_now.size() < channels; ++i) {
        const u32 h = ready(i) ? holder[pending[i].dst] : kNone;
        if (h != kNone && chosen[h] && !claimed[pending[i].dst]) {
          choose(i, pending[i].dst);
          grew = true;
        }
      }
    }
    if (copies_now.empty()) continue;
    Instruction ins = Instruction::permute(channels);
    for (size_t ch = 0; ch < copies_now.size(); ++ch) {
      const auto [i, to] = copies_now[ch];
      ins.channels[ch].out = {OutOp::kMem, false, pending[i].cur};
      ins.channels[ch].in = {InOp::kMem, false, to};
    }
    for (const auto& [i, to] : copies_now) {
      if (holder[pending[i].cur] == i) holder[pending[i].cur] = kNone;
    }
    for (const auto& [i, to] : copies_now) {
      ++copies;
      if (to == pending[i].dst) {
        done[i] = true;
        --remaining;
        if (to < k) final_slot[to] = true;
      } else {
        pending[i].cur = to;
        holder[to] = i;
      }
    }
    out.emplace(c, std::move(ins));
  }
  return out;
}

}  // namespace

Transpose2dTables lowerTranspose2d(const Transpose2dPlan& plan, const PermutationSpec& perm) {
  const Transpose2dOptions& o = plan.options;
  const int n = plan.n;
  const int b = o.lanes;
  const u64 k = plan.slots;
  const u64 nodes = u64{1} << n;
  const size_t channels = static_cast<size_t>(n) * static_cast<size_t>(b);
  Transpose2dTables result;
  result.step_cycles = o.tau + packetCycles(o.packet, b);
  auto cycleOf = [&](const PacketRoute& r, size_t e, size_t j) {
    const u64 base = (o.cut_through ? r.steps[0] : r.steps[e]) * r.step_cycles + o.tau + j / b;
    return o.cut_through ? base + e : base;
  };

  // When each data slot's element leaves (every element of an off-diagonal node leaves).
  std::vector<long long> depart(nodes * k, -1);
  for (const PacketRoute& r : plan.packets) {
    for (size_t j = 0; j < r.slots.size(); ++j) {
      depart[r.source * k + r.slots[j]] = static_cast<long long>(cycleOf(r, 0, j));
    }
  }

  // Every crossing; intermediate stops become holds (store-and-forward) or PASS/FWD.
  std::vector<Crossing> crossings;
  std::vector<Hold> holds;
  std::vector<std::vector<Pending>> pending(nodes);
  std::vector<std::vector<bool>> final_slot(nodes, std::vector<bool>(k));
  std::vector<u32> buffered(nodes, 0);
  std::vector<std::pair<size_t, u32>> buffered_in;  // crossing -> node-local buffer index
  for (const PacketRoute& r : plan.packets) {
    const u64 dest = transposeNode(n, r.source);
    for (size_t j = 0; j < r.slots.size(); ++j) {
      const int lane = static_cast<int>(j % static_cast<size_t>(b));
      u64 at = r.source;
      size_t prev_hold = SIZE_MAX;
      for (size_t e = 0; e < r.dims.size(); ++e) {
        Crossing x;
        x.from = at;
        x.dim = r.dims[e];
        x.lane = lane;
        x.cycle = cycleOf(r, e, j);
        const u32 prev_channel = e == 0 ? 0 : static_cast<u32>(r.dims[e - 1] * b + lane);
        if (e == 0) {
          x.out = {OutOp::kMem, false, r.slots[j]};
        } else if (o.cut_through) {
          x.out = {OutOp::kFwd, false, prev_channel};
        } else {
          x.out = {OutOp::kMem, false, 0};
          x.hold_out = prev_hold;
          holds[prev_hold].read = x.cycle;
        }
        const u64 to = neighbour(at, x.dim);
        if (e + 1 < r.dims.size()) {
          if (o.cut_through) {
            x.in = {InOp::kPass, false, 0};
          } else {
            x.in = {InOp::kMem, false, 0};
            x.hold_in = holds.size();
            prev_hold = holds.size();
            holds.push_back({to, x.cycle, 0, 0});
          }
        } else {
          const u32 dst = static_cast<u32>(perm.dest({r.source, r.slots[j]}).slot);
          if (depart[dest * k + dst] <= static_cast<long long>(x.cycle)) {
            x.in = {InOp::kMem, false, dst};
            final_slot[dest][dst] = true;
          } else {
            x.in = {InOp::kMem, false, 0};
            buffered_in.push_back({crossings.size(), buffered[dest]});
            pending[dest].push_back({buffered[dest]++, dst, x.cycle + 1});
            ++result.buffered;
          }
        }
        crossings.push_back(x);
        at = to;
      }
    }
  }

  // Scratch slots for the holds: interval colouring per node, earliest write first.
  std::vector<size_t> by_write(holds.size());
  for (size_t i = 0; i < holds.size(); ++i) by_write[i] = i;
  std::stable_sort(by_write.begin(), by_write.end(), [&](size_t a, size_t c) {
    return holds[a].node != holds[c].node ? holds[a].node < holds[c].node
                                          : holds[a].write < holds[c].write;
  });
  u64 pool = 0;
  {
    using Free = std::pair<u64, u32>;  // (free from cycle, slot)
    std::priority_queue<Free, std::vector<Free>, std::greater<>> free_slots;
    u64 current = nodes;
    u32 used = 0;
    for (size_t i : by_write) {
      Hold& h = holds[i];
      if (h.node != current) {
        current = h.node;
        free_slots = {};
        used = 0;
      }
      if (!free_slots.empty() && free_slots.top().first <= h.write) {
        h.slot = free_slots.top().second;
        free_slots.pop();
      } else {
        h.slot = static_cast<u32>(k) + used++;
        pool = std::max<u64>(pool, used);
      }
      free_slots.push({h.read, h.slot});
    }
  }
  const u32 buffer_base = static_cast<u32>(k + pool);
  u64 buffer_max = 0;
  for (u64 y = 0; y < nodes; ++y) {
    buffer_max = std::max<u64>(buffer_max, buffered[y]);
    for (Pending& p : pending[y]) p.cur += buffer_base;
  }
  for (const auto& [ci, index] : buffered_in) crossings[ci].in.slot = buffer_base + index;
  for (Crossing& x : crossings) {
    if (x.hold_out != SIZE_MAX) x.out.idx = holds[x.hold_out].slot;
    if (x.hold_in != SIZE_MAX) x.in.slot = holds[x.hold_in].slot;
  }

  // Per node and cycle: the XFERs.
  std::vector<std::map<u64, Instruction>> xfers(nodes);
  auto at = [&](u64 node, u64 cycle) -> Instruction& {
    auto [it, fresh] = xfers[node].try_emplace(cycle);
    if (fresh) it->second = Instruction::xfer(channels);
    return it->second;
  };
  for (const Crossing& x : crossings) {
    const size_t c = static_cast<size_t>(x.dim * b + x.lane);
    const u64 to = neighbour(x.from, x.dim);
    Channel& out = at(x.from, x.cycle).channels[c];
    Channel& in = at(to, x.cycle).channels[c];
    if (out.out.op != OutOp::kIdle || in.in.op != InOp::kIdle) {
      throw Error(plan.algo + " schedule conflict: node " + std::to_string(x.from) + " port " +
                  std::to_string(x.dim) + " lane " + std::to_string(x.lane) + " in cycle " +
                  std::to_string(x.cycle) + " carries two words");
    }
    out.out = x.out;
    in.in = x.in;
    result.transfer_end = std::max(result.transfer_end, x.cycle + 1);
  }

  // Diagonal nodes transpose their own block locally.
  for (u64 y = 0; y < nodes; ++y) {
    if (transposeHalfDistance(n, y) != 0) continue;
    for (u64 l = 0; l < k; ++l) {
      const u32 d = static_cast<u32>(perm.dest({y, l}).slot);
      if (perm.dest({y, l}).node != y) {
        throw Error("the permutation '" + perm.str() + "' moves element (" + std::to_string(y) +
                    " | " + std::to_string(l) + ") of a diagonal node away");
      }
      if (!perm.participates({y, l})) continue;  // a virtual element stays and is not copied
      if (d == l) {
        final_slot[y][l] = true;
      } else {
        pending[y].push_back({static_cast<u32>(l), d, 0});
      }
    }
  }

  // Local copies into idle cycles; then every node's table, idle stretches as WAITs.
  const u32 evict_base = static_cast<u32>(buffer_base + buffer_max);
  u32 scratch_end = evict_base;
  std::vector<std::map<u64, Instruction>> locals(nodes);
  for (u64 y = 0; y < nodes; ++y) {
    if (pending[y].empty()) continue;
    u32 next = evict_base;
    std::vector<long long> dep(depart.begin() + static_cast<long long>(y * k),
                               depart.begin() + static_cast<long long>((y + 1) * k));
    locals[y] = scheduleLocalCopies(pending[y], dep, final_slot[y], xfers[y], channels,
                                    k + pool + buffer_max + k, next, result.local_copies, y);
    scratch_end = std::max(scratch_end, next);
  }
  result.scratch = scratch_end - k;

  TableSet& set = result.tables;
  set.header.algo = plan.algo;
  set.header.perm = perm;
  set.header.n = n;
  set.header.slots = k;
  set.header.scratch = result.scratch;
  set.header.lanes = b;
  set.header.one_port = false;
  set.shared = false;
  set.tables.assign(nodes, Table{});
  u64 last_local = 0;
  for (u64 y = 0; y < nodes; ++y) {
    std::map<u64, Instruction> all = std::move(xfers[y]);
    for (auto& [c, ins] : locals[y]) {
      last_local = std::max(last_local, c + 1);
      all.emplace(c, std::move(ins));
    }
    Table& table = set.tables[y];
    u64 next_cycle = 0;
    for (auto& [c, ins] : all) {
      if (c - next_cycle > 0xFFFFFFFFULL) {
        throw Error(plan.algo + ": node " + std::to_string(y) + " idles for " +
                    std::to_string(c - next_cycle) + " cycles, more than one WAIT can hold");
      }
      if (c > next_cycle) table.push_back(Instruction::waitFor(static_cast<u32>(c - next_cycle)));
      table.push_back(std::move(ins));
      next_cycle = c + 1;
    }
    table.push_back(Instruction::end());
  }
  result.local_tail = last_local > result.transfer_end ? last_local - result.transfer_end : 0;
  return result;
}

}  // namespace hcube

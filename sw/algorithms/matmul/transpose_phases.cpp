// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §2: the transpose of an N1 x N2 partitioned matrix ("combine the one-dimensional matrix
// transposition algorithm with the algorithm for the transposition of a two-dimensionally
// square-partitioned matrix"), as phases of a Builder: the exchange within the |n1 - n2| extra
// dimensions and the square part, the latter either §2.2's SBT transpose or, on all-port hardware,
// the Single, Dual or Multiple Paths transposes of Johnsson & Ho 1987, "Algorithms for Matrix
// Transposition on Boolean n-cube Configured Ensemble Architectures", §6.1, in packets (what TR-623
// Table 11 assumes).
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"
#include "algorithms/transpose/transpose2d.h"
#include "base/error.h"

namespace hcube::matmul_detail {

namespace {

/// TR-623 §2: "For the transposition of a matrix partitioned into N1 x N2 blocks, one can combine
/// the one-dimensional matrix transposition algorithm with the algorithm for the transposition of
/// a two-dimensionally square-partitioned matrix." A matrix X (`cols` columns) whose block on
/// processor (a1, a2) is X's block (a1, a2) of the N1 x N2 partition (`words` long, row-major at
/// `home`) moves to the transposed allocation: processor (b1, b2) ends with X's rows b2 X_r/N2 ..
/// and columns b1 X_c/N1 .., as r = 2^e pieces (e = |n1 - n2|, h = min(n1, n2)) at `home`:
///  * N1 < N2: piece t is rows t X_r/N2 .. of the block (X_r/N2 x X_c/N2, dense): an exchange
///    (subcubeExchange) within the low e bits of the column field sends each piece to the member
///    it belongs to, then a square transpose swaps the row field with the high h bits of the
///    column field. At (b1, b2), piece t holds the source column block gridPieceSource() names.
///  * N1 > N2: piece t is columns t X_c/N1 .. (X_r/N1 x X_c/N1, rows X_c/N2 apart), exchanged
///    within the low e bits of the row field; then the high h bits of the row field are swapped
///    with the column field. At (b1, b2), piece t holds the source row block gridPieceSource()
///    names.
///  * N1 = N2: the square transpose alone.
/// One-port: e M/2 + 2h M element transfers (M = `words`; Table 4's exchange and §2.2's square
/// transpose), e + 2h = n start-ups. gridExchange is node x's part of the exchange (its
/// messages); gridTransposePhases (below) runs both parts.
u64 gridExchange(Stream& st, u64 x, const MatmulLayout& l, u64 cols, u64 words, u64 home,
                 bool n_port, u32 tau, u64 packet) {
  const int e = std::abs(l.n1 - l.n2);
  const u64 r = u64{1} << e;
  const u64 piece = words / r;
  if (l.n1 < l.n2) {
    const u64 a1 = l.gridRow(x);
    return subcubeExchange(
        st, x, dimRange(0, e), piece, n_port, tau, packet,
        [&](u64 i) { return home + fiberSlot(a1, i & (r - 1), r) * piece; }, nullptr);
  }
  if (l.n1 > l.n2) {
    const u64 a2 = l.gridCol(x);
    const u64 width = cols >> l.n1;  // X_c/N1
    return subcubeExchange(
        st, x, dimRange(l.n2, e), piece, n_port, tau, packet,
        [&](u64 i) { return home + fiberSlot(a2, (i >> l.n2) & (r - 1), r) * width; }, nullptr,
        width, cols >> l.n2);
  }
  return 0;
}

/// How the square part of a transpose moves blocks (MatmulOptions::transpose).
enum class SquareKind { kSbt, kSpt, kDpt, kMpt };

SquareKind squareKind(const MatmulOptions& o) {
  if (o.transpose == "sbt" || (o.transpose.empty() && o.one_port)) return SquareKind::kSbt;
  if (o.transpose == "dpt") return SquareKind::kDpt;
  if (o.transpose == "mpt") return SquareKind::kMpt;
  return SquareKind::kSpt;
}

/// The time Johnsson & Ho 1987 §6.1 gives a packet transpose of `words` words per node over 2h
/// dimensions in packets of `packet` (every packet step τ + B cycles).
u64 packetTransposeCycles(SquareKind k, int h, u64 words, u64 packet, u32 tau) {
  switch (k) {
    case SquareKind::kDpt:
      return dptFormulaCycles(2 * h, words, packet, tau);
    case SquareKind::kMpt:
      return mptScheduleCycles(2 * h, words, packet, tau);
    default:
      return sptFormulaCycles(2 * h, words, packet, tau);
  }
}

/// The packet size of a packet transpose of `words` words over 2h dimensions: --packet (at most
/// `words`), or
/// without it the smallest B that minimises packetTransposeCycles (TR-623 Table 11 assumes the
/// optimum packet size; for the SPT, B = sqrt(M τ / (n - 1)) when that is a divisor of M).
u64 squarePacket(const MatmulOptions& o, SquareKind k, int h, u64 words) {
  if (o.packet != 0) return std::min(o.packet, words);  // a packet no longer than the block
  u64 best = 1;
  u64 best_cycles = packetTransposeCycles(k, h, words, 1, o.tau);
  for (u64 size = 2; size <= words; ++size) {
    const u64 c = packetTransposeCycles(k, h, words, size, o.tau);
    if (c < best_cycles) {
      best = size;
      best_cycles = c;
    }
  }
  return best;
}

/// Johnsson & Ho 1987 §6.1 (the transposes TR-623 Table 11 assumes for A(n,2,2) .. A(n,2,5)) on
/// the 2h dimensions hi .. hi + h - 1 (the sub-cube's row part) and lo .. lo + h - 1 (its column
/// part): the `words`-word block at `home` of every node x moves to the node with those two bit
/// fields swapped, as packets of B words (squarePacket) on the routes transpose2dNodeRoutes
/// gives: SPT one path, DPT two, MPT 2H(x) paths per node, store-and-forward, every packet step
/// τ idle cycles (its start-up) and B element cycles, every port of a node in use at once.
/// Packets wait at intermediate nodes in scratch buffers of B words allocated from `scratch`
/// (the first free one that is empty by then); a packet that has arrived is stored at `home` of
/// its destination (every position of a block arrives after it has left: the source of x's
/// block, tr(x), has the same H and launch pattern, and a path takes 2H(x) >= 2 steps), or added
/// into `land` when given. Every node uses the same B, so the phase is a sequence of packet steps;
/// its start-ups are their number, ceil(M/B) + 2h - 1 for the SPT (§6.1.1). Returns the scratch
/// words the buffers took.
u64 packetSquareTranspose(Builder& b, const MatmulOptions& o, const MatmulLayout& l, int h, int hi,
                          int lo, u64 words, u64 home, std::optional<u64> land, u64 scratch) {
  if (h == 0 || words == 0) return 0;
  const SquareKind kind = squareKind(o);
  Transpose2dOptions to;
  to.algo = kind == SquareKind::kDpt   ? Transpose2dAlgo::kDpt
            : kind == SquareKind::kMpt ? Transpose2dAlgo::kMpt
                                       : Transpose2dAlgo::kSpt;
  to.packet = squarePacket(o, kind, h, words);
  to.tau = o.tau;
  to.per_class_packets = false;
  const u64 nodes = u64{1} << l.n;
  const u64 mask = (u64{1} << h) - 1;
  const int sub_n = 2 * h;
  auto subNode = [&](u64 x) { return (((x >> hi) & mask) << h) | ((x >> lo) & mask); };
  auto realDim = [&](int d) { return d < h ? lo + d : hi + (d - h); };
  struct Route {
    PacketRoute r;
    std::vector<u64> nodes;  // nodes[e]: the sender of hop e; nodes.back() the destination
    std::vector<u64> held;   // held[e]: the buffer at nodes[e + 1] after hop e (intermediates)
  };
  std::vector<Route> routes;
  u64 steps = 0;
  for (u64 x = 0; x < nodes; ++x) {
    for (PacketRoute& r : transpose2dNodeRoutes(sub_n, subNode(x), words, to.packet, to)) {
      Route route;
      route.nodes.push_back(x);
      for (int d : r.dims) route.nodes.push_back(route.nodes.back() ^ (u64{1} << realDim(d)));
      route.held.assign(r.dims.size(), 0);
      steps = std::max(steps, r.steps.back() + 1);
      route.r = std::move(r);
      routes.push_back(std::move(route));
    }
  }
  // Intermediate buffers, allocated in order of arrival: a packet occupies its buffer from the
  // cycle its first word arrives to the cycle its last word leaves.
  struct Hold {
    u64 from, until, node;
    size_t route, hop;
  };
  std::vector<Hold> holds;
  for (size_t i = 0; i < routes.size(); ++i) {
    const PacketRoute& r = routes[i].r;
    for (size_t e = 0; e + 1 < r.dims.size(); ++e) {
      holds.push_back({r.steps[e] * r.step_cycles + o.tau,
                       r.steps[e + 1] * r.step_cycles + o.tau + r.slots.size() - 1,
                       routes[i].nodes[e + 1], i, e});
    }
  }
  std::sort(holds.begin(), holds.end(),
            [](const Hold& a, const Hold& c) { return a.from < c.from; });
  std::vector<std::vector<u64>> busy_until(nodes);  // per node and buffer
  u64 buffers = 0;
  for (const Hold& hd : holds) {
    std::vector<u64>& bu = busy_until[hd.node];
    size_t k = 0;
    while (k < bu.size() && bu[k] >= hd.from) ++k;
    if (k == bu.size()) bu.push_back(0);
    bu[k] = hd.until;
    buffers = std::max<u64>(buffers, bu.size());
    routes[hd.route].held[hd.hop] = scratch + k * to.packet;
  }
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(1));
  for (const Route& route : routes) {
    const PacketRoute& r = route.r;
    const size_t last = r.dims.size() - 1;
    for (size_t e = 0; e <= last; ++e) {
      const int dim = realDim(r.dims[e]);
      for (size_t k = 0; k < r.slots.size(); ++k) {
        const size_t cycle = static_cast<size_t>(r.steps[e] * r.step_cycles + o.tau + k);
        const u64 out = e == 0 ? home + r.slots[k] : route.held[e - 1] + k;
        const bool lands = e == last && land.has_value();
        const u64 in = e < last ? route.held[e] + k : (lands ? *land : home) + r.slots[k];
        put(streams[route.nodes[e]][0], cycle, {dim, static_cast<u32>(out), Cell::kNone});
        put(streams[route.nodes[e + 1]][0], cycle, {dim, Cell::kNone, static_cast<u32>(in), lands});
      }
    }
  }
  // Lemma 14 of §6.1.3 (and the SPT and DPT timing) promise one packet per directed edge and
  // step; a second word on a channel would be a planning error.
  for (u64 x = 0; x < nodes; ++x) {
    for (const auto& cycle : streams[x][0]) {
      u64 outs = 0, ins = 0;
      for (const Cell& c : cycle) {
        const u64 bit = u64{1} << c.port;
        if (c.out != Cell::kNone) {
          if (outs & bit) throw Error("packet transpose: two words on one output channel");
          outs |= bit;
        }
        if (c.in != Cell::kNone) {
          if (ins & bit) throw Error("packet transpose: two words on one input channel");
          ins |= bit;
        }
      }
    }
  }
  b.emit(streams, {steps});
  return buffers * to.packet;
}

}  // namespace

/// After the transpose of gridTransposePhases: which source block piece t at processor (b1, b2)
/// came from, its column block (N1 < N2) or row block (N1 > N2) in the N1 x N2 partition; b1 (N1 =
/// N2).
u64 gridPieceSource(const MatmulLayout& l, u64 b1, u64 b2, u64 t) {
  const int e = std::abs(l.n1 - l.n2);
  const u64 r = u64{1} << e;
  if (l.n1 <= l.n2) {
    const u64 sigma = grayCode((b2 >> e) * r + t) & (r - 1);
    return grayInverse((grayCode(b1) << e) | sigma);
  }
  const u64 sigma = grayCode((b1 >> e) * r + t) & (r - 1);
  return grayInverse((grayCode(b2) << e) | sigma);
}

/// The square part of a transpose (h bit pairs hi + k <-> lo + k) of the `words`-word block at
/// `home`, as one phase: §2.2's SBT transpose (squareTranspose, relaying through `visit`) or a
/// packet transpose (packetSquareTranspose, buffers from `scratch` on). A block that arrives
/// home is added into `land` when given. Returns the scratch words the buffers took.
u64 squarePhase(Builder& b, const MatmulOptions& o, const MatmulLayout& l, int h, int hi, int lo,
                u64 words, u64 home, u64 visit, std::optional<u64> land, u64 scratch) {
  if (squareKind(o) != SquareKind::kSbt) {
    return packetSquareTranspose(b, o, l, h, hi, lo, words, home, land, scratch);
  }
  b.phase([&](u64 x, Stream& st) {
    return squareTranspose(st, x, h, words, home, visit, land, o.tau, o.packet, hi, lo);
  });
  return 0;
}

/// TR-623 §2's transpose of an N1 x N2 partitioned matrix (`cols` columns, block of `words` at
/// `home`), as the exchange phase (gridExchange) and the square phase (squarePhase). Returns the
/// scratch words the packet buffers took.
u64 gridTransposePhases(Builder& b, const MatmulOptions& o, const MatmulLayout& l, u64 cols,
                        u64 words, u64 home, u64 visit, u64 scratch) {
  const int e = std::abs(l.n1 - l.n2);
  const int h = std::min(l.n1, l.n2);
  if (e > 0) {
    b.phase([&](u64 x, Stream& st) {
      return gridExchange(st, x, l, cols, words, home, !o.one_port, o.tau, o.packet);
    });
  }
  const int hi = l.n1 < l.n2 ? l.n2 : l.n2 + e;
  const int lo = l.n1 < l.n2 ? e : 0;
  return squarePhase(b, o, l, h, hi, lo, words, home, visit, std::nullopt, scratch);
}

}  // namespace hcube::matmul_detail

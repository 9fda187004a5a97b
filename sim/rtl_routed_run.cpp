// hcube: routed mode on the RTL (docs/hardware/router.md; sim/rtl_backend.h): the routed image
// of a message list, the model it needs, the run and its result.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include "base/error.h"
#include "exec/progress.h"
#include "process.h"
#include "router/routed_result.h"
#include "rtl_backend.h"
#include "rtl_backend_parts.h"
#include "tables/resource_limits.h"
#include "tables/table_image.h"

namespace fs = std::filesystem;

namespace hcube {

// ---- Routed mode (docs/hardware/router.md) ----

namespace {

int bitsFor(u64 n) {
  int b = 0;
  while ((u64{1} << b) < n) ++b;
  return b < 1 ? 1 : b;
}

/// The widths of rtl/hc_pkg.sv for a model (Lanes = 1).
struct RoutedLayout {
  int n = 1;
  int slot_bits = 1;
  int port_bits = 1;
  int route_max = 4;
  int len_bits = 1;
  int msg_width = 0;
  int load_width = 0;

  explicit RoutedLayout(const RtlModelConfig& m) : n(m.dim) {
    slot_bits = bitsFor(m.num_slots);
    port_bits = bitsFor(static_cast<u64>(n));
    route_max = 2 * n + 2;
    len_bits = bitsFor(static_cast<u64>(route_max + 1));
    msg_width = 2 * slot_bits + n + len_bits + route_max * port_bits + 32 + 1;  // + start flag
    const int idx_bits = std::max(slot_bits, port_bits + bitsFor(static_cast<u64>(m.lanes)));
    const int table_width = std::max(34, 2 + n * m.lanes * (6 + idx_bits + slot_bits));
    load_width = std::max(table_width, msg_width);
  }
};

/// A bit vector written as hex, most significant digit first.
class Bits {
 public:
  explicit Bits(int width) : width_(width), w_(static_cast<size_t>((width + 31) / 32), 0) {}
  void put(int lsb, int width, u64 value) {
    for (int b = 0; b < width; ++b) {
      if ((value >> b) & 1U) w_[static_cast<size_t>((lsb + b) / 32)] |= 1U << ((lsb + b) % 32);
    }
  }
  std::string hex() const {
    std::string s;
    for (int d = (width_ + 3) / 4 - 1; d >= 0; --d) {
      const u32 v = (w_[static_cast<size_t>(d * 4 / 32)] >> (d * 4 % 32)) & 0xF;
      s += "0123456789abcdef"[v];
    }
    return s;
  }

 private:
  int width_;
  std::vector<u32> w_;
};

}  // namespace

void checkRtlRouterOptions(const MessageList& list, const RouterOptions& ropt) {
  validateMessages(list);
  if (ropt.vcs < 1 || ropt.vcs > kMaxVcs) {
    throw Error("--vcs " + std::to_string(ropt.vcs) + ": the RTL router has 1.." +
                std::to_string(kMaxVcs) + " virtual channels per link (hc_router NumVcs)");
  }
  if (ropt.fifo_depth < 1 || ropt.fifo_depth > 4) {
    throw Error("--fifo-depth " + std::to_string(ropt.fifo_depth) +
                ": the RTL router's FIFOs hold 1..4 packets (hc_pkg::FifoDepthDefault)");
  }
  if (ropt.tau > kMaxRoutedTau) {
    throw Error("--tau " + std::to_string(ropt.tau) + ": routed mode's start-up must be 0.." +
                std::to_string(kMaxRoutedTau) + " cycles (the RTL configuration word's field)");
  }
  if (ropt.deadlock_cycles < 1 || ropt.deadlock_cycles > 65535) {
    throw Error("--deadlock-cycles " + std::to_string(ropt.deadlock_cycles) +
                ": the RTL detector counts 1..65535 cycles");
  }
  const int route_max = 2 * list.n + 2;
  u64 first = ~u64{0};
  u64 last = 0;
  std::pair<u64, size_t> latest{0, 0};
  for (u64 x = 0; x < list.nodes(); ++x) {
    for (size_t i = 0; i < list.per_node[x].size(); ++i) {
      const Message& m = list.per_node[x][i];
      if (m.route.size() > static_cast<size_t>(route_max)) {
        throw Error(list.where(x, i) + ": node " + std::to_string(x) + ": a source route of " +
                    std::to_string(m.route.size()) + " hops; the RTL router carries at most " +
                    std::to_string(route_max) + " (2n + 2)");
      }
      if (m.release > 0xFFFFFFFFULL) {
        throw Error(list.where(x, i) + ": node " + std::to_string(x) + ": release cycle " +
                    std::to_string(m.release) + " does not fit the RTL's 32 bits");
      }
      first = std::min(first, m.release);
      if (m.release > last) {
        last = m.release;
        latest = {x, i};
      }
    }
  }
  if (last > 0) {
    try {
      requireWithinLimits(rtlRoutedRunEstimate(list.nodes(), first, last));
    } catch (const Error& e) {
      throw Error(list.where(latest.first, latest.second) + ": " + e.what() +
                  " (the table and TLM backends skip idle cycles)");
    }
  }
}

namespace {

/// Node x's messages (list indices) in its injection queues Q_0 .. Q_{n-1} by first hop, then
/// Q_L, each in list order: the order the routed image stores them (docs/hardware/router.md §11;
/// with Duato, V >= 2, the first hop is the e-cube dimension, docs/hardware/router.md §13).
std::vector<std::vector<u64>> nodeQueues(const MessageList& list, u64 x, int vcs) {
  std::vector<std::vector<u64>> queues(static_cast<size_t>(list.n + 1));
  const std::vector<Message>& msgs = list.per_node[x];
  for (u64 i = 0; i < msgs.size(); ++i) {
    const int hop = firstHop(list.route, x, msgs[i], vcs);
    queues[static_cast<size_t>(hop < 0 ? list.n : hop)].push_back(i);
  }
  return queues;
}

}  // namespace

RtlModelConfig rtlModelForMessages(const MessageList& list, int vcs) {
  u64 most = 0;
  for (const auto& msgs : list.per_node) most = std::max<u64>(most, msgs.size());
  RtlModelConfig c;
  c.dim = list.n;
  c.num_slots = std::max<u64>(2, pow2Ceil(list.memoryWords()));
  c.lanes = 1;
  c.table_depth = std::max<u64>(16, pow2Ceil(most));
  c.router = true;
  c.vcs = vcs;
  requireRtlDimension(c.dim);
  return c;
}

void writeRoutedImageFile(const std::string& path, const MessageList& list,
                          const CubeMemory& initial, const RouterOptions& ropt,
                          const RtlModelConfig& model) {
  checkRtlRouterOptions(list, ropt);
  if (initial.nodes != list.nodes() || initial.words_per_node != list.memoryWords()) {
    throw Error("routed run: the memory does not match the message list (2K words per node)");
  }
  const RoutedLayout L(model);
  const int n = list.n;
  std::ofstream out(path);
  if (!out) throw Error(path + ": cannot write the routed image");
  out << "hcube-routed-image 1\n"
      << "dim " << n << "\nslots " << list.slots << "\nmemory " << list.memoryWords() << "\ntagged "
      << ropt.tagged_elements << "\nmsg-width " << L.msg_width << "\nfifo-depth " << ropt.fifo_depth
      << "\ndeadlock " << ropt.deadlock_cycles << "\n";
  // Virtual channels (docs/hardware/router.md §13): only with V > 1, so that a V = 1 image is that
  // of docs/hardware/router.md §11.
  if (ropt.vcs > 1) out << "vcs " << ropt.vcs << "\n";
  if (ropt.record_deliveries) out << "deliveries 1\n";
  for (u64 x = 0; x < list.nodes(); ++x) {
    const std::vector<Message>& msgs = list.per_node[x];
    const std::vector<std::vector<u64>> queues = nodeQueues(list, x, ropt.vcs);
    out << "node " << x << "\nheader";
    Bits cfg(L.load_width);
    const RouterConfigLayout& c = kRouterConfig;
    cfg.put(c.routed_at, 1, 1);
    // The routing function's bit (router/messages.h, HCUBE_ROUTE_KINDS); e-cube sets none.
    if (const int bit = routeKindInfo(list.route).rtl_config_bit; bit != 0) cfg.put(bit, 1, 1);
    cfg.put(c.depth_at, c.depth_bits, ropt.fifo_depth);
    cfg.put(c.deadlock_at, c.deadlock_bits, ropt.deadlock_cycles);
    cfg.put(c.tau_at, 10, ropt.tau);
    out << ' ' << cfg.hex();
    u64 at = 0;
    for (int q = 0; q <= n + 1; ++q) {
      Bits b(L.load_width);
      b.put(0, 32, at);
      out << ' ' << b.hex();
      if (q <= n) at += queues[static_cast<size_t>(q)].size();
    }
    out << '\n';
    // checkRtlRouterOptions (above) refused routes longer than 2n + 2 and releases beyond 32 bits.
    for (int q = 0; q <= n; ++q) {
      for (const u64 i : queues[static_cast<size_t>(q)]) {
        const Message* m = &msgs[i];
        Bits w(L.msg_width);
        int lsb = 0;
        w.put(lsb, L.slot_bits, m->src_slot);
        lsb += L.slot_bits;
        w.put(lsb, n, m->dst);
        lsb += n;
        w.put(lsb, L.slot_bits, m->dst_slot);
        lsb += L.slot_bits;
        if (list.route == RouteKind::kSource) w.put(lsb, L.len_bits, m->route.size());
        lsb += L.len_bits;
        for (size_t h = 0; h < m->route.size(); ++h) {
          w.put(lsb + static_cast<int>(h) * L.port_bits, L.port_bits, m->route[h]);
        }
        lsb += L.route_max * L.port_bits;
        w.put(lsb, 32, m->release);
        lsb += 32;
        // The start flag: the first word of a message that pays tau (never a local copy).
        w.put(lsb, 1, !m->cont && ropt.tau > 0 && q < n ? 1 : 0);
        out << "message " << w.hex() << '\n';
      }
    }
    out << "data";
    char buf[16];
    for (u64 l = 0; l < list.memoryWords(); ++l) {
      std::snprintf(buf, sizeof buf, " %08x", static_cast<unsigned>(initial.at(x, l)));
      out << buf;
    }
    out << '\n';
  }
  out << "end\n";
  if (!out) throw Error(path + ": error writing the routed image");
}

namespace {

/// Per node, the list index of each message in the order the routed image stores them (queue by
/// queue), and the first list index of each node (messages numbered node by node).
struct QueueOrder {
  std::vector<std::vector<u64>> list_index;
  std::vector<u64> first;
};

QueueOrder queueOrder(const MessageList& list, int vcs) {
  QueueOrder q;
  u64 next = 0;
  for (u64 x = 0; x < list.nodes(); ++x) {
    q.first.push_back(next);
    std::vector<u64> order;
    for (const auto& queue : nodeQueues(list, x, vcs)) {
      order.insert(order.end(), queue.begin(), queue.end());
    }
    q.list_index.push_back(std::move(order));
    next += list.per_node[x].size();
  }
  return q;
}

}  // namespace

RoutedRun runRoutedOnRtl(const MessageList& list, const CubeMemory& initial,
                         const RouterOptions& ropt, const RtlOptions& options) {
  checkRtlRouterOptions(list, ropt);
  RtlModelConfig config = rtlModelForMessages(list, ropt.vcs);
  const int threads = requireRtlThreads(options.threads);
  config.trace = !options.trace.empty();
  config.array = !config.trace && !options.flat;
  config.threads = config.array ? 1 : threads;
  const RtlModel model = ensureRtlModel(config, options);
  const RunDirectory run_dir;
  const fs::path& work = run_dir.path;
  const fs::path image = work / "routed.hex";
  const fs::path result = work / "result.json";
  writeRoutedImageFile(image.string(), list, initial, ropt, model.config);
  std::vector<std::string> argv = {model.runner, "--image", image.string(), "--out",
                                   result.string()};
  if (config.array && threads > 1) argv.insert(argv.end(), {"--threads", std::to_string(threads)});
  if (ropt.max_cycles != 0) {
    argv.insert(argv.end(), {"--max-cycles", std::to_string(ropt.max_cycles)});
  }
  const std::string fst = addTraceArgs(options, work, argv);
  const ProcessResult p = runProcess(argv, [](const std::string&) {});
  if (p.status != 0) {
    throw Error("the RTL runner failed (status " + std::to_string(p.status) + "):\n" +
                tail(p.output, 15));
  }
  std::ifstream in(result);
  if (!in) throw Error(result.string() + ": the RTL runner wrote no result");
  // Deliveries name a message by its place in the node's message memory (queue by queue).
  std::vector<std::vector<u64>> delivery_index;
  if (ropt.record_deliveries) {
    const QueueOrder order = queueOrder(list, ropt.vcs);
    delivery_index = order.list_index;
    for (u64 x = 0; x < delivery_index.size(); ++x) {
      for (u64& i : delivery_index[x]) i += order.first[x];
    }
  }
  RoutedResultShape shape;
  shape.cube = {list.nodes(), static_cast<u64>(list.n), list.memoryWords()};
  shape.vcs = ropt.vcs;
  shape.delivery_index = ropt.record_deliveries ? &delivery_index : nullptr;
  shape.list_messages = list.messages();
  RoutedRun r = readRoutedResult(in, result.string(), shape);
  r.stats.tau = ropt.tau;
  // wall_seconds: the runner's simulation proper (loading and read-back left out).
  finishTrace(options, fst);
  return r;
}

}  // namespace hcube

#include "router/router_engine.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <sstream>

#include "base/error.h"
#include "exec/traffic_monitor.h"

namespace hcube {

u64 routerCycleLimit(const RouterOptions& opt, const MessageList& list) {
  if (opt.max_cycles != 0) return opt.max_cycles;
  u64 last = 0;
  for (const std::vector<Message>& node : list.per_node) {
    for (const Message& m : node) last = std::max(last, m.release);
  }
  return last + (u64{1} << 32);
}

namespace {

constexpr u32 kNone = 0xFFFFFFFFU;

/// The routers of every node in flat arrays: FIFOs and credits by (node, port, virtual channel),
/// queues by (node, queue), round-robin pointers by (node, output port); one cycle is a decide
/// sweep over the nodes on the state at the start of the cycle and an apply step
/// (docs/hardware/router.md §4, with virtual channels docs/hardware/router.md §13).
class RouterEngine {
 public:
  RouterEngine(const MessageList& list, const CubeMemory& initial, const RouterOptions& opt)
      : list_(list),
        opt_(opt),
        max_cycles_(routerCycleLimit(opt, list)),
        n_(list.n),
        nodes_(list.nodes()),
        vcs_(opt.vcs),
        requesters_(n_ * vcs_ + 1),
        depth_(opt.fifo_depth),
        words_(initial.words_per_node),
        mem_(initial.words),
        fifo_(nodes_ * n_ * static_cast<u64>(vcs_) * depth_, kNone),
        fifo_head_(nodes_ * n_ * static_cast<u64>(vcs_), 0),
        fifo_count_(nodes_ * n_ * static_cast<u64>(vcs_), 0),
        credit_(nodes_ * n_ * static_cast<u64>(vcs_), depth_),
        rr_(nodes_ * n_, 0),
        max_fifo_(nodes_ * n_ * static_cast<u64>(vcs_), 0),
        deliveries_(nodes_ * (n_ + 1)),
        su_busy_(nodes_, 0),
        su_queue_(nodes_, 0),
        su_left_(nodes_, 0),
        started_(nodes_ * (n_ + 1), 0),
        monitor_(nodes_, n_, opt.tagged_elements) {
    // The queues: Q_0..Q_{n-1} by first hop, Q_L (index n) for local copies, each in list order.
    const u64 queues = nodes_ * (n_ + 1);
    q_begin_.assign(queues + 1, 0);
    for (u64 x = 0; x < nodes_; ++x) {
      for (const Message& m : list.per_node[x]) {
        const int hop = firstHop(list.route, x, m, opt.vcs);
        ++q_begin_[x * (n_ + 1) + (hop < 0 ? n_ : hop) + 1];
      }
    }
    for (u64 q = 0; q < queues; ++q) q_begin_[q + 1] += q_begin_[q];
    q_head_.assign(q_begin_.begin(), q_begin_.end() - 1);
    std::vector<u64> fill(q_head_);
    queue_.resize(q_begin_[queues]);
    for (u64 x = 0; x < nodes_; ++x) {
      for (const Message& m : list.per_node[x]) {
        const int hop = firstHop(list.route, x, m, opt.vcs);
        const u32 id = static_cast<u32>(msgs_.size());
        queue_[fill[x * (n_ + 1) + (hop < 0 ? n_ : hop)]++] = id;
        Msg g;
        g.src_slot = m.src_slot;
        g.dst = m.dst;
        g.dst_slot = m.dst_slot;
        g.release = m.release;
        g.route = static_cast<u32>(routes_.size());
        g.route_len = static_cast<u32>(m.route.size());
        g.start = !m.cont && opt.tau > 0 && hop >= 0;
        routes_.insert(routes_.end(), m.route.begin(), m.route.end());
        msgs_.push_back(g);
      }
    }
    r_.run.backend = "table";
    r_.stats.fifo_depth = depth_;
    r_.stats.vcs = vcs_;
    r_.stats.tau = opt.tau;
    r_.stats.messages = msgs_.size();
    if (opt.record_deliveries) r_.stats.delivered_at.assign(msgs_.size(), ~u64{0});
  }

  RoutedRun run() {
    const auto t0 = std::chrono::steady_clock::now();
    const u64 total = msgs_.size();
    u64 cycle = 0;
    u64 quiet = 0;  // consecutive cycles in which nothing moved with work waiting
    while (r_.stats.delivered + lost_ < total) {
      if (cycle >= max_cycles_) {
        r_.run.timeout = true;
        r_.run.cycles = cycle;
        break;
      }
      const Decision d = decide(cycle);
      if (!d.work) {
        // Nothing in a FIFO and no queue head released: run to the next release in one step.
        if (d.next_release == ~u64{0}) break;  // cannot happen: undelivered messages are queued
        cycle = std::min(d.next_release, max_cycles_);
        if (opt_.progress) opt_.progress(cycle);
        continue;
      }
      if (grants_.empty() && copies_.empty() && !startup_active_) {
        if (++quiet >= opt_.deadlock_cycles) {
          declareDeadlock(cycle);
          r_.run.cycles = cycle + 1;
          break;
        }
      } else {
        quiet = 0;
        apply(cycle);
      }
      ++cycle;
      if (opt_.progress) opt_.progress(cycle);
    }
    if (!r_.run.timeout && !r_.stats.deadlock) r_.run.cycles = last_delivery_;
    finish();
    r_.run.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::move(r_);
  }

 private:
  struct Msg {
    u32 src_slot = 0;
    u32 dst_slot = 0;
    u64 dst = 0;
    u64 release = 0;
    u32 route = 0;  ///< first dimension of its source route in routes_
    u32 route_len = 0;
    u32 hop = 0;         ///< hops made
    u32 word = 0;        ///< the word, read at injection
    bool start = false;  ///< the first word of a message that pays the start-up tau
                         ///< (docs/hardware/router.md §7)
  };
  struct Grant {
    u64 node;
    int output;
    int vc;     ///< the output's virtual channel (the receiver's FIFO)
    int input;  ///< requester: FIFO (port i, VC c) as i * V + c, or nV for the injection queue
    u32 id;
    bool last;
  };
  struct Delivery {
    u32 id = kNone;
    u32 word = 0;
  };
  struct Decision {
    bool work = false;
    u64 next_release = ~u64{0};
  };

  /// FIFO (and credit counter) of port i, virtual channel c at node v; requester r = i * V + c
  /// of node v is FIFO v * nV + r.
  u64 fifoIndex(u64 v, int i, int c = 0) const {
    return (v * static_cast<u64>(n_) + static_cast<u64>(i)) * static_cast<u64>(vcs_) +
           static_cast<u64>(c);
  }
  u32 fifoHeadAt(u64 f) const { return fifo_[f * depth_ + fifo_head_[f]]; }
  u64 outIndex(u64 v, int j) const { return v * static_cast<u64>(n_) + static_cast<u64>(j); }
  u64 queueIndex(u64 v, int q) const { return v * static_cast<u64>(n_ + 1) + static_cast<u64>(q); }
  /// The head of queue q of node v, or kNone when it is empty.
  u32 queueHead(u64 v, int q) const {
    const u64 k = queueIndex(v, q);
    return q_head_[k] < q_begin_[k + 1] ? queue_[q_head_[k]] : kNone;
  }

  /// The output port and virtual channel a FIFO head requests at node v (docs/hardware/router.md
  /// §3, docs/hardware/router.md §13); the choice reads the credits, so it is made on the state at
  /// the start of the cycle (before node v's arbitration).
  PortVc outputOf(const Msg& m, u64 v) const {
    const auto credit = [&](int j, int c) { return credit_[fifoIndex(v, j, c)]; };
    int port = 0;
    if (list_.route == RouteKind::kSource) {
      port = routes_[m.route + m.hop];
    } else if (list_.route == RouteKind::kAdaptive) {
      if (vcs_ >= 2) return duatoSelect(v, m.dst, vcs_, credit);
      port = pcubeSelect(v, m.dst, [&](int j) { return credit_[fifoIndex(v, j)]; });
    } else {
      port = std::countr_zero(m.dst ^ v);
    }
    return {port, vcSelect(port, 0, vcs_, credit)};
  }
  /// The virtual channel the head of injection queue Q_j of node v requests
  /// (docs/hardware/router.md §13).
  int injectionVcOf(u64 v, int j) const {
    return injectionVc(list_.route, j, vcs_,
                       [&](int p, int c) { return credit_[fifoIndex(v, p, c)]; });
  }
  /// Whether the packet moves to its destination when it crosses `output` from node v.
  bool lastHop(const Msg& m, u64 v, int output) const {
    if (list_.route == RouteKind::kSource) return m.hop + 1 == m.route_len;
    return (v ^ (u64{1} << output)) == m.dst;
  }

  /// Steps 1-3 of docs/hardware/router.md §4 for every node, on the state at the start of the
  /// cycle: the grants and copies of the cycle (words read from memory now, written in apply()).
  Decision decide(u64 cycle) {
    Decision d;
    grants_.clear();
    copies_.clear();
    startup_active_ = false;
    const int queue_req = requesters_ - 1;
    req_port_.assign(static_cast<size_t>(requesters_), -1);
    req_vc_.assign(static_cast<size_t>(requesters_), 0);
    req_count_.assign(static_cast<size_t>(n_), 0);
    queue_req_.assign(static_cast<size_t>(n_), 0);
    queue_vc_.assign(static_cast<size_t>(n_), 0);
    for (u64 v = 0; v < nodes_; ++v) {
      bool any = false;
      int waiting = -1;  // the lowest queue whose released head waits for its start-up
      const u64 f0 = fifoIndex(v, 0);
      for (int r = 0; r < queue_req; ++r) {
        if (fifo_count_[f0 + static_cast<u64>(r)] == 0) continue;
        const PortVc out = outputOf(msgs_[fifoHeadAt(f0 + static_cast<u64>(r))], v);
        req_port_[static_cast<size_t>(r)] = out.port;
        req_vc_[static_cast<size_t>(r)] = out.vc;
        ++req_count_[static_cast<size_t>(out.port)];
        any = true;
      }
      for (int j = 0; j <= n_; ++j) {
        const u32 id = queueHead(v, j);
        if (id == kNone) continue;
        if (msgs_[id].release > cycle) {
          d.next_release = std::min(d.next_release, msgs_[id].release);
          continue;
        }
        if (j == n_) {
          msgs_[id].word = mem_[v * words_ + msgs_[id].src_slot];
          copies_.push_back({v, n_, 0, n_, id, true});
          d.work = true;
        } else if (msgs_[id].start && started_[queueIndex(v, j)] == 0) {
          if (waiting < 0) waiting = j;
        } else {
          // Requester nV of output j: only Q_j's head asks for output j, so it needs no port.
          queue_vc_[static_cast<size_t>(j)] = injectionVcOf(v, j);
          queue_req_[static_cast<size_t>(j)] = 1;
          ++req_count_[static_cast<size_t>(j)];
          any = true;
        }
      }
      startup(v, waiting, d);
      if (!any) continue;
      d.work = true;
      for (int j = 0; j < n_; ++j) {
        if (req_count_[static_cast<size_t>(j)] == 0) continue;
        arbitrate(v, j);
        req_count_[static_cast<size_t>(j)] = 0;
        queue_req_[static_cast<size_t>(j)] = 0;
      }
      for (int r = 0; r < queue_req; ++r) req_port_[static_cast<size_t>(r)] = -1;
    }
    return d;
  }

  /// The start-up unit of node v (docs/hardware/router.md §7): busy for tau cycles with one message
  /// at a time; when idle it takes the lowest queue whose released head waits (`waiting`, -1:
  /// none). Its state is read only here, so the end-of-cycle update is made at once.
  void startup(u64 v, int waiting, Decision& d) {
    if (su_busy_[v] == 0) {
      if (waiting < 0) return;
      su_busy_[v] = 1;
      su_queue_[v] = static_cast<u32>(waiting);
      su_left_[v] = opt_.tau;
    }
    d.work = true;
    startup_active_ = true;
    if (--su_left_[v] == 0) {
      su_busy_[v] = 0;
      started_[queueIndex(v, static_cast<int>(su_queue_[v]))] = 1;
    }
  }

  /// Step 2 of docs/hardware/router.md §4 at output j of node v: the first requester from the
  /// round-robin pointer on that may send (last hop, or a credit on the virtual channel it asks
  /// for) is granted; every other requester stalls.
  void arbitrate(u64 v, int j) {
    const u64 o = outIndex(v, j);
    const int requesters = requesters_;
    const int queue_req = requesters - 1;
    const u64 f0 = fifoIndex(v, 0);
    int granted = -1;
    for (int s = 0; s < requesters && granted < 0; ++s) {
      const int r = (static_cast<int>(rr_[o]) + s) % requesters;
      int c = 0;
      u32 id = kNone;
      if (r == queue_req) {
        if (queue_req_[static_cast<size_t>(j)] == 0) continue;
        c = queue_vc_[static_cast<size_t>(j)];
        id = queueHead(v, j);
      } else {
        if (req_port_[static_cast<size_t>(r)] != j) continue;
        c = req_vc_[static_cast<size_t>(r)];
        id = fifoHeadAt(f0 + static_cast<u64>(r));
      }
      const bool last = lastHop(msgs_[id], v, j);
      u64& credit = credit_[fifoIndex(v, j, c)];
      if (!last && credit == 0) continue;
      granted = r;
      if (!last) --credit;
      if (r == queue_req) msgs_[id].word = mem_[v * words_ + msgs_[id].src_slot];
      grants_.push_back({v, j, c, r, id, last});
    }
    r_.stats.stalls += req_count_[static_cast<size_t>(j)] - (granted >= 0 ? 1 : 0);
    if (granted >= 0) rr_[o] = static_cast<u32>((granted + 1) % requesters);
  }

  /// Steps 4-5 of docs/hardware/router.md §4: pops, credits, link crossings, pushes and deliveries
  /// at the end of the cycle.
  void apply(u64 cycle) {
    const int queue_req = requesters_ - 1;
    for (const Grant& g : grants_) {
      if (g.input == queue_req) {
        ++q_head_[queueIndex(g.node, g.output)];
        started_[queueIndex(g.node, g.output)] = 0;
      } else {
        const u64 f = fifoIndex(g.node, 0) + static_cast<u64>(g.input);
        fifo_head_[f] = (fifo_head_[f] + 1) % depth_;
        --fifo_count_[f];
        const int i = g.input / vcs_;
        ++credit_[fifoIndex(g.node ^ (u64{1} << i), i, g.input % vcs_)];
      }
    }
    if (!grants_.empty()) ++r_.run.transfer_cycles;
    for (const Grant& g : grants_) {
      Msg& m = msgs_[g.id];
      const u64 y = g.node ^ (u64{1} << g.output);
      monitor_.send(g.node, g.output, m.word, cycle);
      ++r_.run.words;
      ++m.hop;
      if (g.last) {
        deliver(y, g.output, g.id, m.word);
        continue;
      }
      const u64 f = fifoIndex(y, g.output, g.vc);
      if (fifo_count_[f] == depth_) {
        ++nodeErrors(y).overflow;
        ++nodeErrors(y).lost;
        ++lost_;
        continue;
      }
      fifo_[f * depth_ + (fifo_head_[f] + fifo_count_[f]) % depth_] = g.id;
      ++fifo_count_[f];
      max_fifo_[f] = std::max(max_fifo_[f], fifo_count_[f]);
    }
    for (const Grant& c : copies_) {
      ++q_head_[queueIndex(c.node, n_)];
      deliver(c.node, n_, c.id, msgs_[c.id].word);
    }
    if (!copies_.empty()) ++r_.run.local_cycles;
    // Writes in port order, the local copy last: of two writes of one slot the higher port's
    // word is kept (docs/hardware/router.md §4).
    for (u64 y : dirty_) {
      Delivery* at = &deliveries_[y * static_cast<u64>(n_ + 1)];
      bool conflict = false;
      for (int p = 0; p <= n_; ++p) {
        if (at[p].id == kNone) continue;
        const Msg& m = msgs_[at[p].id];
        for (int q = p + 1; q <= n_; ++q) {
          if (at[q].id != kNone && msgs_[at[q].id].dst_slot == m.dst_slot) conflict = true;
        }
        mem_[y * words_ + m.dst_slot] = at[p].word;
        monitor_.store(at[p].word, cycle);
        const u64 latency = cycle + 1 - m.release;
        if (latency >= latency_hist_.size()) latency_hist_.resize(latency + 1, 0);
        ++latency_hist_[latency];
        ++r_.stats.delivered;
        if (m.start) ++r_.stats.startups;
        if (opt_.record_deliveries) r_.stats.delivered_at[at[p].id] = cycle;
        at[p].id = kNone;
      }
      if (conflict) ++nodeErrors(y).conflict;
    }
    if (!dirty_.empty()) last_delivery_ = cycle + 1;
    dirty_.clear();
  }

  void deliver(u64 y, int port, u32 id, u32 word) {
    Delivery* at = &deliveries_[y * static_cast<u64>(n_ + 1)];
    bool fresh = true;
    for (int p = 0; p <= n_; ++p) fresh = fresh && at[p].id == kNone;
    if (fresh) dirty_.push_back(y);
    at[port] = {id, word};
  }

  RouterNodeErrors& nodeErrors(u64 y) {
    auto it = std::lower_bound(r_.stats.errors.begin(), r_.stats.errors.end(), y,
                               [](const RouterNodeErrors& e, u64 node) { return e.node < node; });
    if (it == r_.stats.errors.end() || it->node != y) it = r_.stats.errors.insert(it, {y});
    return *it;
  }

  /// The heads that cannot move, node by node: FIFOs in port and then VC order, then the
  /// released injection heads in queue order (docs/hardware/router.md §5, docs/hardware/router.md
  /// §13).
  void declareDeadlock(u64 cycle) {
    r_.stats.deadlock = true;
    r_.stats.deadlock_cycle = cycle;
    for (u64 v = 0; v < nodes_; ++v) {
      for (int i = 0; i < n_; ++i) {
        for (int c = 0; c < vcs_; ++c) {
          const u64 f = fifoIndex(v, i, c);
          if (fifo_count_[f] == 0) continue;
          const Msg& m = msgs_[fifoHeadAt(f)];
          const PortVc out = outputOf(m, v);
          r_.stats.blocked.push_back(
              {v, false, i, m.dst, out.port,
               !lastHop(m, v, out.port) && credit_[fifoIndex(v, out.port, out.vc)] == 0, c,
               out.vc});
        }
      }
      for (int j = 0; j < n_; ++j) {
        const u32 q = queueHead(v, j);
        if (q == kNone || msgs_[q].release > cycle) continue;
        if (msgs_[q].start && started_[queueIndex(v, j)] == 0) continue;
        const int c = injectionVcOf(v, j);
        r_.stats.blocked.push_back({v, true, j, msgs_[q].dst, j,
                                    !lastHop(msgs_[q], v, j) && credit_[fifoIndex(v, j, c)] == 0, 0,
                                    c});
      }
    }
  }

  void finish() {
    r_.run.memory = {nodes_, words_, std::move(mem_)};
    r_.run.link_words = monitor_.linkWords();
    r_.run.span = monitor_.span();
    r_.stats.max_fifo = std::move(max_fifo_);
    u64 count = 0;
    u64 sum = 0;
    for (u64 l = 0; l < latency_hist_.size(); ++l) {
      count += latency_hist_[l];
      sum += l * latency_hist_[l];
    }
    if (count == 0) return;
    // p99: the smallest latency that at least 99 % of the messages do not exceed.
    const u64 want = (count * 99 + 99) / 100;
    u64 seen = 0;
    bool first = true;
    for (u64 l = 0; l < latency_hist_.size(); ++l) {
      if (latency_hist_[l] == 0) continue;
      if (first) r_.stats.latency_min = l;
      first = false;
      r_.stats.latency_max = l;
      if (seen < want && seen + latency_hist_[l] >= want) r_.stats.latency_p99 = l;
      seen += latency_hist_[l];
    }
    r_.stats.latency_mean = static_cast<double>(sum) / static_cast<double>(count);
  }

  const MessageList& list_;
  const RouterOptions& opt_;
  const u64 max_cycles_;
  const int n_;
  const u64 nodes_;
  const int vcs_;         // V: virtual channels per link
  const int requesters_;  // per output: nV FIFO heads and the queue head
  const u64 depth_;
  const u64 words_;
  std::vector<u32> mem_;
  std::vector<Msg> msgs_;
  std::vector<std::uint8_t> routes_;
  std::vector<u32> queue_;    // message ids, queue by queue
  std::vector<u64> q_begin_;  // queue k holds queue_[q_begin_[k] .. q_begin_[k+1])
  std::vector<u64> q_head_;
  std::vector<u32> fifo_;  // D entries per (node, input port, VC)
  std::vector<u64> fifo_head_;
  std::vector<u64> fifo_count_;
  std::vector<u64> credit_;  // per (node, output port, VC)
  std::vector<u32> rr_;      // round-robin pointer per (node, output port)
  std::vector<u64> max_fifo_;
  std::vector<Delivery> deliveries_;  // per (node, port 0..n): this cycle's writes
  std::vector<u64> dirty_;
  std::vector<std::uint8_t> su_busy_;  // per node: the start-up unit is busy
  std::vector<u32> su_queue_;          // ... with the head of this queue
  std::vector<u64> su_left_;           // ... for this many more cycles
  std::vector<std::uint8_t> started_;  // per (node, queue): its head has had its start-up
  bool startup_active_ = false;        // some start-up unit worked this cycle
  std::vector<Grant> grants_;
  std::vector<Grant> copies_;
  // This cycle's requests of the node being decided: per FIFO requester its output port (-1:
  // none) and VC; per output the queue head's request and VC, and the requester count.
  std::vector<int> req_port_;
  std::vector<int> req_vc_;
  std::vector<std::uint8_t> queue_req_;
  std::vector<int> queue_vc_;
  std::vector<u64> req_count_;
  std::vector<u64> latency_hist_;
  u64 lost_ = 0;
  u64 last_delivery_ = 0;
  TrafficMonitor monitor_;
  RoutedRun r_;
};

}  // namespace

std::vector<u64> RouterStats::maxFifoPerPort(int n) const {
  std::vector<u64> per(static_cast<size_t>(n), 0);
  const size_t v = static_cast<size_t>(std::max(vcs, 1));
  for (size_t f = 0; f < max_fifo.size(); ++f) {
    const size_t port = f / v % static_cast<size_t>(n);
    per[port] = std::max(per[port], max_fifo[f]);
  }
  return per;
}

int checkedVcs(long long vcs) {
  if (vcs < 1 || vcs > kMaxVcs) {
    throw Error("--vcs " + std::to_string(vcs) + ": must be 1.." + std::to_string(kMaxVcs));
  }
  return static_cast<int>(vcs);
}

void checkRouterOptions(const RouterOptions& opt) {
  if (opt.fifo_depth < 1 || opt.fifo_depth > 1024) {
    throw Error("FIFO depth " + std::to_string(opt.fifo_depth) + ": must be 1..1024");
  }
  if (opt.deadlock_cycles < 1) throw Error("deadlock limit must be at least 1 cycle");
  if (opt.tau > kMaxRoutedTau) {
    throw Error("--tau " + std::to_string(opt.tau) + ": routed mode's start-up must be 0.." +
                std::to_string(kMaxRoutedTau) + " cycles");
  }
  checkedVcs(opt.vcs);
}

RoutedRun runRouter(const MessageList& list, const CubeMemory& initial, const RouterOptions& opt) {
  validateMessages(list);
  checkRouterOptions(opt);
  if (initial.nodes != list.nodes() || initial.words_per_node != list.memoryWords()) {
    throw Error("routed run: the memory has " + std::to_string(initial.nodes) + " nodes x " +
                std::to_string(initial.words_per_node) + " words; the message list needs " +
                std::to_string(list.nodes()) + " x " + std::to_string(list.memoryWords()));
  }
  if (list.messages() >= kNone) throw Error("routed run: more than 2^32 - 1 messages");
  RouterEngine engine(list, initial, opt);
  return engine.run();
}

std::string describe(const BlockedPort& b, int vcs) {
  std::ostringstream o;
  o << "node " << b.node << (b.injection ? " injection queue " : " input port ") << b.input;
  if (vcs > 1 && !b.injection) o << " VC " << b.input_vc;
  o << ": packet for node " << b.dst << " waits for output " << b.output;
  if (vcs > 1) o << " VC " << b.output_vc;
  o << (b.no_credit ? " (no credit: the neighbour's FIFO is full)" : " (granted to another)");
  return o.str();
}

}  // namespace hcube

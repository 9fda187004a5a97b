#include "hc_tlm_router.h"

#include <sys/wait.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <sstream>
#include <systemc>
#include <tlm>
#include <vector>

#include "base/error.h"
#include "exec/traffic_monitor.h"

namespace hcube {
namespace {

/// A packet on a link: the word and its header (destination node and slot, the source route and
/// how much of it is done), plus the message's release cycle for the latency statistic.
struct RouterPacket {
  u32 word = 0;
  u64 dst = 0;
  u32 dst_slot = 0;
  const std::uint8_t* route = nullptr;
  u32 route_len = 0;
  u32 hop = 0;
  u64 release = 0;
  u32 src_slot = 0;
  u64 id = 0;          ///< the message's index in the list (node by node), for delivered_at
  bool start = false;  ///< the first word of a message that pays the start-up tau
                       ///< (docs/hardware/router.md §7)
  int vc = 0;          ///< the virtual channel it crosses the link on: the receiver's FIFO
                       ///< (docs/hardware/router.md §13)
};

/// What every router reports to: statistics of the whole cube (a per-run object, not a global).
struct RouterProbe {
  RouterProbe(u64 nodes, int n, u64 tagged) : monitor(nodes, n, tagged) {}
  TrafficMonitor monitor;
  u64 words = 0;
  u64 stalls = 0;
  u64 delivered = 0;
  u64 startups = 0;
  u64 lost = 0;
  u64 grants = 0;  ///< grants and copies this cycle
  u64 copies = 0;
  bool startup_active = false;  ///< some start-up unit worked this cycle
  u64 last_delivery = 0;
  std::vector<u64> latency_hist;
  std::vector<RouterNodeErrors> errors;
  std::vector<u64> delivered_at;  ///< per message, when RouterOptions::record_deliveries

  RouterNodeErrors& nodeErrors(u64 y) {
    auto it = std::lower_bound(errors.begin(), errors.end(), y,
                               [](const RouterNodeErrors& e, u64 node) { return e.node < node; });
    if (it == errors.end() || it->node != y) it = errors.insert(it, {y});
    return *it;
  }
};

using InitSocket = tlm_utils::simple_initiator_socket<sc_core::sc_module>;

class HcTlmRouterNode;
using TargetSocket = tlm_utils::simple_target_socket_tagged<HcTlmRouterNode>;

/// One node's router (docs/hardware/router.md §2–4, §13): input FIFOs per port and virtual
/// channel, injection queues, outputs with round-robin pointers and credits per VC;
/// m_link_out[j] / m_link_in[j] carry packets over dimension j (the packet names its VC),
/// m_credit_out[j] / m_credit_in[j] the credits back (the payload names the VC).
class HcTlmRouterNode : public sc_core::sc_module {
 public:
  std::vector<std::unique_ptr<InitSocket>> m_link_out;
  std::vector<std::unique_ptr<TargetSocket>> m_link_in;
  std::vector<std::unique_ptr<InitSocket>> m_credit_out;
  std::vector<std::unique_ptr<TargetSocket>> m_credit_in;

  HcTlmRouterNode(sc_core::sc_module_name name, u64 id, const MessageList& list, u64 depth, u64 tau,
                  int vcs, const CubeMemory& initial, RouterProbe& probe, u64 first_message)
      : sc_module(name),
        m_id(id),
        m_n(list.n),
        m_vcs(vcs),
        m_depth(depth),
        m_tau(tau),
        m_route(list.route),
        m_words(initial.words_per_node),
        m_mem(initial.words.begin() + static_cast<long>(id * m_words),
              initial.words.begin() + static_cast<long>((id + 1) * m_words)),
        m_fifo(static_cast<size_t>(m_n * vcs)),
        m_credit(static_cast<size_t>(m_n * vcs), depth),
        m_credit_back(static_cast<size_t>(m_n * vcs), 0),
        m_rr(static_cast<size_t>(m_n), 0),
        m_max_fifo(static_cast<size_t>(m_n * vcs), 0),
        m_arrival(static_cast<size_t>(m_n)),
        m_arrived(static_cast<size_t>(m_n), false),
        m_queue(static_cast<size_t>(m_n) + 1),
        m_started(static_cast<size_t>(m_n), false),
        m_probe(probe) {
    for (int j = 0; j < m_n; ++j) {
      const std::string s = std::to_string(j);
      m_link_out.push_back(std::make_unique<InitSocket>(("link_out_" + s).c_str()));
      m_credit_out.push_back(std::make_unique<InitSocket>(("credit_out_" + s).c_str()));
      m_link_in.push_back(std::make_unique<TargetSocket>(("link_in_" + s).c_str()));
      m_credit_in.push_back(std::make_unique<TargetSocket>(("credit_in_" + s).c_str()));
      m_link_in.back()->register_b_transport(this, &HcTlmRouterNode::linkTransport, j);
      m_credit_in.back()->register_b_transport(this, &HcTlmRouterNode::creditTransport, j);
    }
    // The message list, loaded into the injection queues by first hop (docs/hardware/router.md §2).
    for (const Message& m : list.per_node[id]) {
      RouterPacket p;
      p.dst = m.dst;
      p.dst_slot = m.dst_slot;
      p.release = m.release;
      p.src_slot = m.src_slot;
      p.id = first_message++;
      p.route_len = static_cast<u32>(m.route.size());
      p.route = m.route.empty() ? nullptr : m.route.data();
      const int hop = firstHop(list.route, id, m, vcs);
      p.start = !m.cont && tau > 0 && hop >= 0;
      m_queue[hop < 0 ? static_cast<size_t>(m_n) : static_cast<size_t>(hop)].push_back(p);
    }
    m_queue_head.assign(m_queue.size(), 0);
  }

  /// Steps 1-3 of docs/hardware/router.md §4 on the state at the start of the cycle. Returns
  /// whether the node has work (a FIFO packet or a released queue head); `next_release` gets the
  /// earliest release of an unreleased queue head.
  bool decide(u64 cycle, u64& next_release) {
    m_grants.clear();
    m_copy = false;
    bool work = false;
    int waiting = -1;  // the lowest queue whose released head waits for its start-up
    // Requests: FIFO (port i, VC c) is requester i * V + c, the queue head of Q_j requester nV
    // of output j; each names the output port and VC it asks for.
    const int queue_req = m_n * m_vcs;
    std::vector<PortVc> req(static_cast<size_t>(queue_req) + 1, PortVc{-1, 0});
    std::vector<int> queue_vc(static_cast<size_t>(m_n), -1);
    for (int r = 0; r < queue_req; ++r) {
      if (m_fifo[static_cast<size_t>(r)].empty()) continue;
      req[static_cast<size_t>(r)] = outputOf(m_fifo[static_cast<size_t>(r)].front());
      work = true;
    }
    for (int j = 0; j <= m_n; ++j) {
      const RouterPacket* head = queueHead(j);
      if (head == nullptr) continue;
      if (head->release > cycle) {
        next_release = std::min(next_release, head->release);
        continue;
      }
      if (j == m_n) {
        work = true;
        m_copy = true;
        m_copy_word = m_mem[head->src_slot];
      } else if (head->start && !m_started[static_cast<size_t>(j)]) {
        if (waiting < 0) waiting = j;
      } else {
        work = true;
        queue_vc[static_cast<size_t>(j)] = injectionVcOf(j);
      }
    }
    // The start-up unit (docs/hardware/router.md §7): one message at a time, tau cycles; its state
    // is this node's alone, so the end-of-cycle update is made here.
    if (!m_su_busy && waiting >= 0) {
      m_su_busy = true;
      m_su_queue = waiting;
      m_su_left = m_tau;
    }
    if (m_su_busy) {
      work = true;
      m_probe.startup_active = true;
      if (--m_su_left == 0) {
        m_su_busy = false;
        m_started[static_cast<size_t>(m_su_queue)] = true;
      }
    }
    for (int j = 0; j < m_n; ++j) arbitrate(j, req, queue_vc[static_cast<size_t>(j)]);
    m_probe.grants += m_grants.size() + (m_copy ? 1 : 0);
    m_probe.copies += m_copy ? 1 : 0;
    return work;
  }

  /// Step 4 (the sending side) and the credits of step 5: pops, packets across the links.
  void transfer(u64 cycle) {
    for (Grant& g : m_grants) {
      RouterPacket p;
      if (g.input == m_n * m_vcs) {
        p = *queueHead(g.output);
        ++m_queue_head[static_cast<size_t>(g.output)];
        m_started[static_cast<size_t>(g.output)] = false;
        p.word = g.word;
      } else {
        std::vector<RouterPacket>& f = m_fifo[static_cast<size_t>(g.input)];
        p = f.front();
        f.erase(f.begin());
        int vc = g.input % m_vcs;
        sendCredit(*m_credit_out[static_cast<size_t>(g.input / m_vcs)], vc);
      }
      m_probe.monitor.send(m_id, g.output, p.word, cycle);
      ++m_probe.words;
      ++p.hop;
      p.vc = g.vc;
      sendPacket(*m_link_out[static_cast<size_t>(g.output)], p);
    }
  }

  /// The end of the cycle: arrivals into the FIFOs or memory (ports in order, the local copy
  /// last), returned credits counted.
  void commit(u64 cycle) {
    bool wrote = false;
    std::vector<u32> slots;
    bool conflict = false;
    auto store = [&](u32 slot, u32 word, u64 release, u64 id, bool start) {
      if (!m_probe.delivered_at.empty()) m_probe.delivered_at[id] = cycle;
      if (start) ++m_probe.startups;
      if (std::find(slots.begin(), slots.end(), slot) != slots.end()) conflict = true;
      slots.push_back(slot);
      m_mem[slot] = word;
      m_probe.monitor.store(word, cycle);
      const u64 latency = cycle + 1 - release;
      if (latency >= m_probe.latency_hist.size()) m_probe.latency_hist.resize(latency + 1, 0);
      ++m_probe.latency_hist[latency];
      ++m_probe.delivered;
      wrote = true;
    };
    for (int j = 0; j < m_n; ++j) {
      if (!m_arrived[static_cast<size_t>(j)]) continue;
      m_arrived[static_cast<size_t>(j)] = false;
      const RouterPacket& p = m_arrival[static_cast<size_t>(j)];
      if (lastArrived(p)) {
        store(p.dst_slot, p.word, p.release, p.id, p.start);
        continue;
      }
      const size_t k = static_cast<size_t>(j * m_vcs + p.vc);
      std::vector<RouterPacket>& f = m_fifo[k];
      if (f.size() == m_depth) {
        ++m_probe.nodeErrors(m_id).overflow;
        ++m_probe.nodeErrors(m_id).lost;
        ++m_probe.lost;
        continue;
      }
      f.push_back(p);
      m_max_fifo[k] = std::max<u64>(m_max_fifo[k], f.size());
    }
    if (m_copy) {
      const RouterPacket& head = *queueHead(m_n);
      store(head.dst_slot, m_copy_word, head.release, head.id, false);
      ++m_queue_head[static_cast<size_t>(m_n)];
    }
    if (conflict) ++m_probe.nodeErrors(m_id).conflict;
    if (wrote) m_probe.last_delivery = cycle + 1;
    for (size_t k = 0; k < m_credit.size(); ++k) {
      m_credit[k] += m_credit_back[k];
      m_credit_back[k] = 0;
    }
  }

  /// The heads that cannot move, for the deadlock report: FIFOs by port and VC, then the
  /// released queue heads.
  void blocked(u64 cycle, std::vector<BlockedPort>& out) const {
    for (int r = 0; r < m_n * m_vcs; ++r) {
      if (m_fifo[static_cast<size_t>(r)].empty()) continue;
      const RouterPacket& p = m_fifo[static_cast<size_t>(r)].front();
      const PortVc o = outputOf(p);
      out.push_back({m_id, false, r / m_vcs, p.dst, o.port,
                     !lastHop(p, o.port) && credit(o.port, o.vc) == 0, r % m_vcs, o.vc});
    }
    for (int j = 0; j < m_n; ++j) {
      const RouterPacket* q = queueHead(j);
      if (q == nullptr || q->release > cycle) continue;
      if (q->start && !m_started[static_cast<size_t>(j)]) continue;
      const int c = injectionVcOf(j);
      out.push_back({m_id, true, j, q->dst, j, !lastHop(*q, j) && credit(j, c) == 0, 0, c});
    }
  }

  const std::vector<u32>& memory() const { return m_mem; }
  const std::vector<u64>& maxFifo() const { return m_max_fifo; }

 private:
  struct Grant {
    int output;
    int vc;     ///< the output's VC
    int input;  ///< requester: FIFO i * V + c, or nV for the queue
    u32 word;
  };

  const RouterPacket* queueHead(int q) const {
    const auto& v = m_queue[static_cast<size_t>(q)];
    const u64 h = m_queue_head[static_cast<size_t>(q)];
    return h < v.size() ? &v[h] : nullptr;
  }
  u64 credit(int port, int vc) const { return m_credit[static_cast<size_t>(port * m_vcs + vc)]; }
  /// The output port and VC a FIFO head requests (docs/hardware/router.md §3,
  /// docs/hardware/router.md §13), on the credits at the start of the cycle.
  PortVc outputOf(const RouterPacket& p) const {
    const auto cr = [&](int j, int c) { return credit(j, c); };
    int port = 0;
    if (m_route == RouteKind::kSource) {
      port = p.route[p.hop];
    } else if (m_route == RouteKind::kAdaptive) {
      if (m_vcs >= 2) return duatoSelect(m_id, p.dst, m_vcs, cr);
      port = pcubeSelect(m_id, p.dst, [&](int j) { return credit(j, 0); });
    } else {
      port = std::countr_zero(p.dst ^ m_id);
    }
    return {port, vcSelect(port, 0, m_vcs, cr)};
  }
  int injectionVcOf(int j) const {
    return injectionVc(m_route, j, m_vcs, [&](int q, int c) { return credit(q, c); });
  }
  bool lastHop(const RouterPacket& p, int output) const {
    if (m_route == RouteKind::kSource) return p.hop + 1 == p.route_len;
    return (m_id ^ (u64{1} << output)) == p.dst;
  }
  /// An arrived packet (its hop count already advanced) is at its destination.
  bool lastArrived(const RouterPacket& p) const {
    if (m_route == RouteKind::kSource) return p.hop == p.route_len;
    return p.dst == m_id;
  }

  /// Output j's arbitration (docs/hardware/router.md §4 step 2): requesters in round-robin order
  /// from m_rr[j]; a FIFO head is a requester of j if req names port j; the queue head if queue_vc
  /// >= 0.
  void arbitrate(int j, const std::vector<PortVc>& req, int queue_vc) {
    const int queue_req = m_n * m_vcs;
    const int requesters = queue_req + 1;
    int granted = -1;
    u64 asking = 0;
    for (int s = 0; s < requesters; ++s) {
      const int r = (static_cast<int>(m_rr[static_cast<size_t>(j)]) + s) % requesters;
      const int c = r == queue_req ? queue_vc : req[static_cast<size_t>(r)].vc;
      if (r == queue_req ? queue_vc < 0 : req[static_cast<size_t>(r)].port != j) continue;
      ++asking;
      if (granted >= 0) continue;
      const RouterPacket& p =
          r == queue_req ? *queueHead(j) : m_fifo[static_cast<size_t>(r)].front();
      const bool last = lastHop(p, j);
      if (!last && credit(j, c) == 0) continue;
      granted = r;
      if (!last) --m_credit[static_cast<size_t>(j * m_vcs + c)];
      m_grants.push_back({j, c, r, r == queue_req ? m_mem[p.src_slot] : 0});
    }
    m_probe.stalls += asking - (granted >= 0 ? 1 : 0);
    if (granted >= 0) m_rr[static_cast<size_t>(j)] = static_cast<u32>((granted + 1) % requesters);
  }

  static void send(InitSocket& socket, unsigned char* data, unsigned length) {
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_data_ptr(data);
    t.set_data_length(length);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(t, delay);
  }
  static void sendPacket(InitSocket& socket, RouterPacket& p) {
    send(socket, reinterpret_cast<unsigned char*>(&p), sizeof(RouterPacket));
  }
  /// A credit for the neighbour's output VC `vc`.
  static void sendCredit(InitSocket& socket, int& vc) {
    send(socket, reinterpret_cast<unsigned char*>(&vc), sizeof(int));
  }
  void linkTransport(int j, tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    m_arrival[static_cast<size_t>(j)] = *reinterpret_cast<RouterPacket*>(t.get_data_ptr());
    m_arrived[static_cast<size_t>(j)] = true;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void creditTransport(int j, tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    int vc = 0;
    std::memcpy(&vc, t.get_data_ptr(), sizeof vc);
    ++m_credit_back[static_cast<size_t>(j * m_vcs + vc)];
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  const u64 m_id;
  const int m_n;
  const int m_vcs;  // V: virtual channels per link
  const u64 m_depth;
  const u64 m_tau;
  const RouteKind m_route;
  const u64 m_words;
  std::vector<u32> m_mem;
  std::vector<std::vector<RouterPacket>> m_fifo;  // per input port and VC (i * V + c), head first
  std::vector<u64> m_credit;                      // per output port and VC (j * V + c)
  std::vector<u64> m_credit_back;  // credits returned this cycle, usable from the next
  std::vector<u32> m_rr;
  std::vector<u64> m_max_fifo;
  std::vector<RouterPacket> m_arrival;  // the input register of each link
  std::vector<bool> m_arrived;
  std::vector<std::vector<RouterPacket>> m_queue;  // Q_0..Q_{n-1}, Q_L
  std::vector<u64> m_queue_head;
  std::vector<bool> m_started;  // per Q_j: its head has had its start-up
  bool m_su_busy = false;       // the start-up unit (docs/hardware/router.md §7)
  int m_su_queue = 0;
  u64 m_su_left = 0;
  std::vector<Grant> m_grants;
  bool m_copy = false;
  u32 m_copy_word = 0;
  RouterProbe& m_probe;
};

/// The cube of routers: binds out[j] of x to in[j] of x ^ 2^j (links and credits), and two
/// clocked processes run the cycle: at the rising edge every router decides on the state at
/// the start of the cycle and then sends; at the falling edge every router commits and the
/// controller counts the cycle, skips idle stretches, detects a deadlock or stops the run.
class HcTlmRouterCube : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HcTlmRouterCube);
  HcTlmRouterCube(sc_core::sc_module_name name, const MessageList& list, const CubeMemory& initial,
                  const RouterOptions& opt)
      : sc_module(name),
        m_opt(opt),
        m_max_cycles(routerCycleLimit(opt, list)),
        m_total(list.messages()),
        m_clock("clock", sc_core::sc_time(10, sc_core::SC_NS)),
        m_probe(list.nodes(), list.n, opt.tagged_elements) {
    if (opt.record_deliveries) m_probe.delivered_at.assign(m_total, ~u64{0});
    u64 first = 0;
    for (u64 x = 0; x < list.nodes(); ++x) {
      m_nodes.push_back(std::make_unique<HcTlmRouterNode>(("router_" + std::to_string(x)).c_str(),
                                                          x, list, opt.fifo_depth, opt.tau, opt.vcs,
                                                          initial, m_probe, first));
      first += list.per_node[x].size();
    }
    for (u64 x = 0; x < list.nodes(); ++x) {
      for (int j = 0; j < list.n; ++j) {
        HcTlmRouterNode& peer = *m_nodes[x ^ (u64{1} << j)];
        m_nodes[x]->m_link_out[static_cast<size_t>(j)]->bind(
            *peer.m_link_in[static_cast<size_t>(j)]);
        m_nodes[x]->m_credit_out[static_cast<size_t>(j)]->bind(
            *peer.m_credit_in[static_cast<size_t>(j)]);
      }
    }
    SC_METHOD(rising);
    sensitive << m_clock.posedge_event();
    dont_initialize();
    SC_METHOD(falling);
    sensitive << m_clock.negedge_event();
    dont_initialize();
  }

  RoutedRun result() {
    RoutedRun r;
    r.run.backend = "tlm";
    r.run.cycles = m_deadlock || m_timeout ? m_cycle : m_probe.last_delivery;
    if (m_deadlock) r.run.cycles = m_cycle + 1;
    r.run.transfer_cycles = m_transfer_cycles;
    r.run.local_cycles = m_local_cycles;
    r.run.words = m_probe.words;
    r.run.timeout = m_timeout;
    const u64 words = m_nodes.empty() ? 0 : m_nodes[0]->memory().size();
    r.run.memory = {m_nodes.size(), words, {}};
    for (const auto& node : m_nodes) {
      r.run.memory.words.insert(r.run.memory.words.end(), node->memory().begin(),
                                node->memory().end());
      r.stats.max_fifo.insert(r.stats.max_fifo.end(), node->maxFifo().begin(),
                              node->maxFifo().end());
    }
    r.run.link_words = m_probe.monitor.linkWords();
    r.run.span = m_probe.monitor.span();
    r.stats.fifo_depth = m_opt.fifo_depth;
    r.stats.vcs = m_opt.vcs;
    r.stats.tau = m_opt.tau;
    r.stats.messages = m_total;
    r.stats.delivered = m_probe.delivered;
    r.stats.startups = m_probe.startups;
    r.stats.stalls = m_probe.stalls;
    r.stats.errors = m_probe.errors;
    r.stats.deadlock = m_deadlock;
    r.stats.deadlock_cycle = m_deadlock ? m_cycle : 0;
    r.stats.blocked = m_blocked;
    r.stats.delivered_at = m_probe.delivered_at;
    u64 count = 0;
    u64 sum = 0;
    const auto& h = m_probe.latency_hist;
    for (u64 l = 0; l < h.size(); ++l) {
      count += h[l];
      sum += l * h[l];
    }
    if (count != 0) {
      const u64 want = (count * 99 + 99) / 100;
      u64 seen = 0;
      bool first = true;
      for (u64 l = 0; l < h.size(); ++l) {
        if (h[l] == 0) continue;
        if (first) r.stats.latency_min = l;
        first = false;
        r.stats.latency_max = l;
        if (seen < want && seen + h[l] >= want) r.stats.latency_p99 = l;
        seen += h[l];
      }
      r.stats.latency_mean = static_cast<double>(sum) / static_cast<double>(count);
    }
    return r;
  }

 private:
  bool finished() const { return m_probe.delivered + m_probe.lost >= m_total; }

  void rising() {
    if (m_stopped) return;
    if (finished()) {
      stop();
      return;
    }
    if (m_cycle >= m_max_cycles) {
      m_timeout = true;
      stop();
      return;
    }
    m_probe.grants = 0;
    m_probe.copies = 0;
    m_probe.startup_active = false;
    bool work = false;
    u64 next_release = ~u64{0};
    for (auto& node : m_nodes) work = node->decide(m_cycle, next_release) || work;
    m_work = work;
    m_next_release = next_release;
    if (!work) return;
    if (m_probe.grants == 0) return;  // a quiet cycle: nothing to send
    for (auto& node : m_nodes) node->transfer(m_cycle);
  }

  void falling() {
    if (m_stopped) return;
    if (!m_work) {
      // Nothing in a FIFO, no released head: jump to the next release, as the golden model.
      m_cycle = std::min(m_next_release, m_max_cycles);
      return;
    }
    if (m_probe.grants == 0 && !m_probe.startup_active) {
      if (++m_quiet >= m_opt.deadlock_cycles) {
        m_deadlock = true;
        for (const auto& node : m_nodes) node->blocked(m_cycle, m_blocked);
        stop();
        return;
      }
    } else {
      m_quiet = 0;
      if (m_probe.grants > m_probe.copies) ++m_transfer_cycles;
      if (m_probe.copies > 0) ++m_local_cycles;
      for (auto& node : m_nodes) node->commit(m_cycle);
    }
    ++m_cycle;
  }

  void stop() {
    m_stopped = true;
    sc_core::sc_stop();
  }

  const RouterOptions m_opt;
  const u64 m_max_cycles;
  const u64 m_total;
  sc_core::sc_clock m_clock;
  RouterProbe m_probe;
  std::vector<std::unique_ptr<HcTlmRouterNode>> m_nodes;
  u64 m_cycle = 0;
  u64 m_quiet = 0;
  u64 m_transfer_cycles = 0;
  u64 m_local_cycles = 0;
  u64 m_next_release = 0;
  bool m_work = false;
  bool m_stopped = false;
  bool m_timeout = false;
  bool m_deadlock = false;
  std::vector<BlockedPort> m_blocked;
};

// ---- The child process and the text the result crosses the pipe in.

void putList(std::ostringstream& o, const char* key, const std::vector<u64>& v) {
  o << key << " " << v.size();
  for (u64 x : v) o << " " << x;
  o << "\n";
}
std::vector<u64> getList(std::istringstream& in) {
  size_t count = 0;
  in >> count;
  std::vector<u64> v(count);
  for (u64& x : v) in >> x;
  return v;
}

std::string serializeRouted(const RoutedRun& r) {
  std::ostringstream o;
  o.precision(17);
  o << "run " << r.run.cycles << " " << r.run.transfer_cycles << " " << r.run.local_cycles << " "
    << r.run.words << " " << r.run.timeout << " " << r.run.span << " " << r.run.wall_seconds
    << "\n";
  o << "memory " << r.run.memory.nodes << " " << r.run.memory.words_per_node;
  for (u32 w : r.run.memory.words) o << " " << w;
  o << "\n";
  putList(o, "links", r.run.link_words);
  putList(o, "fifo", r.stats.max_fifo);
  putList(o, "delivered-at", r.stats.delivered_at);
  const RouterStats& s = r.stats;
  o << "stats " << s.fifo_depth << " " << s.vcs << " " << s.tau << " " << s.startups << " "
    << s.messages << " " << s.delivered << " " << s.stalls << " " << s.latency_min << " "
    << s.latency_mean << " " << s.latency_p99 << " " << s.latency_max << " " << s.deadlock << " "
    << s.deadlock_cycle << "\n";
  o << "errors " << s.errors.size();
  for (const auto& e : s.errors)
    o << " " << e.node << " " << e.overflow << " " << e.lost << " " << e.conflict;
  o << "\nblocked " << s.blocked.size();
  for (const auto& b : s.blocked) {
    o << " " << b.node << " " << b.injection << " " << b.input << " " << b.dst << " " << b.output
      << " " << b.no_credit << " " << b.input_vc << " " << b.output_vc;
  }
  o << "\n";
  return o.str();
}

RoutedRun deserializeRouted(const std::string& text) {
  std::istringstream in(text);
  RoutedRun r;
  std::string key;
  r.run.backend = "tlm";
  in >> key >> r.run.cycles >> r.run.transfer_cycles >> r.run.local_cycles >> r.run.words >>
      r.run.timeout >> r.run.span >> r.run.wall_seconds;
  in >> key >> r.run.memory.nodes >> r.run.memory.words_per_node;
  r.run.memory.words.resize(r.run.memory.nodes * r.run.memory.words_per_node);
  for (u32& w : r.run.memory.words) in >> w;
  in >> key;
  r.run.link_words = getList(in);
  in >> key;
  r.stats.max_fifo = getList(in);
  in >> key;
  r.stats.delivered_at = getList(in);
  RouterStats& s = r.stats;
  in >> key >> s.fifo_depth >> s.vcs >> s.tau >> s.startups >> s.messages >> s.delivered >>
      s.stalls >> s.latency_min >> s.latency_mean >> s.latency_p99 >> s.latency_max >> s.deadlock >>
      s.deadlock_cycle;
  size_t count = 0;
  in >> key >> count;
  s.errors.resize(count);
  for (auto& e : s.errors) in >> e.node >> e.overflow >> e.lost >> e.conflict;
  in >> key >> count;
  s.blocked.resize(count);
  for (auto& b : s.blocked)
    in >> b.node >> b.injection >> b.input >> b.dst >> b.output >> b.no_credit >> b.input_vc >>
        b.output_vc;
  if (!in) throw std::runtime_error("TLM routed run: malformed result from the child process");
  return r;
}

std::string readAllFrom(int fd) {
  std::string bytes;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("TLM routed run: read: ") + std::strerror(errno));
    }
    if (n == 0) return bytes;
    bytes.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace

RoutedRun runRoutedOnTlm(const MessageList& list, const CubeMemory& initial,
                         const TlmRouterOptions& options) {
  // The same checks as the golden model, here, before the child.
  validateMessages(list);
  const RouterOptions& opt = options.router;
  checkRouterOptions(opt);
  if (initial.nodes != list.nodes() || initial.words_per_node != list.memoryWords()) {
    throw Error("TLM routed run: the memory does not have the list's 2^n x 2K words");
  }
  std::fflush(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) throw Error(std::string("TLM routed run: pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("TLM routed run: fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    std::string out;
    try {
      ::setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
      sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
      // Kept until _exit: SystemC objects die with the process.
      static std::unique_ptr<HcTlmRouterCube> cube;
      cube = std::make_unique<HcTlmRouterCube>("routers", list, initial, opt);
      const auto t0 = std::chrono::steady_clock::now();
      sc_core::sc_start();
      RoutedRun r = cube->result();
      r.run.wall_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      out = "1" + serializeRouted(r);
    } catch (const std::exception& e) {
      out = std::string("I") + e.what();
    }
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  const std::string bytes = readAllFrom(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (bytes.empty() || bytes[0] != '1') {
    throw std::runtime_error("TLM routed run: the simulation failed: " +
                             (bytes.empty() ? std::string("no result") : bytes.substr(1)));
  }
  return deserializeRouted(bytes.substr(1));
}

}  // namespace hcube

// hcube TLM model: the cube's traffic counters and monitor, which every node reports to — the
// TLM counterpart of the RTL's words_o / xfer_cycles_o / local_cycles_o counters and the
// testbench's per-cycle TrafficMonitor (sw/exec/traffic_monitor.h, shared by every backend).
//
// Speed: the monitor's span bookkeeping is indexed by the word (a tag, an element's initial
// global address), so on a big cube every word sent or stored touches a random line of two
// arrays of 8 bytes per element (16 MB at n = 10). Done inside the nodes' send and receive code,
// each of those cache misses stalls the simulation. The probe therefore only appends the events
// of a cycle to two small logs and replays them into the monitor when the cycle is over
// (endCycle), in one tight loop whose misses overlap. The replay calls the very same monitor in
// the same order per cycle, so link counts and span are those of the other backends.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "exec/fault.h"
#include "exec/hw_errors.h"
#include "exec/traffic_monitor.h"
#include "spec/address.h"

namespace hcube {

class HcTlmProbe {
 public:
  HcTlmProbe(u64 nodes, int dims, u64 tagged_elements)
      : m_nodes(nodes),
        m_dims(dims),
        m_tagged(tagged_elements),
        m_monitor(std::make_unique<TrafficMonitor>(nodes, dims, tagged_elements)) {}

  /// A new run: all counts to zero.
  void reset() {
    m_cycle_local = false;
    m_cycle_mac = false;
    m_error_events.clear();
    m_sends.clear();
    m_stores.clear();
    if (m_words == 0) return;  // nothing recorded yet (every store follows a send)
    m_monitor = std::make_unique<TrafficMonitor>(m_nodes, m_dims, m_tagged);
    m_monitor->recordEvents(m_record, m_record_word);
    m_words = 0;
    m_cycle_words = 0;
  }

  /// The cycle being run (0-based since start), set by the cube's controller before it begins.
  void setCycle(u64 cycle) { m_cycle = cycle; }
  u64 cycle() const { return m_cycle; }

  /// A word leaves `node` on `port` (lane `lane`) in the current cycle.
  void send(u64 node, int port, u32 word, int lane = 0) {
    ++m_words;
    ++m_cycle_words;
    m_sends.push_back({node * static_cast<u64>(m_dims) + static_cast<u64>(port), word, lane});
  }

  /// The fault to inject on the links (sw/exec/fault.h; nullptr: none), which every node's send
  /// applies to its words (HcTlmNode::sendXfer).
  void setFault(const Fault* fault) { m_fault = fault; }
  const Fault* fault() const { return m_fault; }
  /// A received word is written into memory at the end of the current cycle.
  void store(u32 word) { m_stores.push_back(word); }
  /// A node executes a PERMUTE in the current cycle.
  void local() { m_cycle_local = true; }
  /// A node's MAC units are busy in the current cycle (a MAC instruction, §2.3).
  void mac() { m_cycle_mac = true; }

  /// The cycle is over: hands its sends and stores to the monitor. Returns the words sent in
  /// the cycle and whether some node executed a PERMUTE, and starts counting the next cycle.
  struct CycleTotals {
    u64 words;
    bool local;
    bool mac;
  };
  CycleTotals endCycle() {
    for (const Send& s : m_sends) {
      m_monitor->send(s.link / static_cast<u64>(m_dims), static_cast<int>(s.link % m_dims), s.word,
                      m_cycle, s.lane);
    }
    for (u32 word : m_stores) m_monitor->store(word, m_cycle);
    m_sends.clear();
    m_stores.clear();
    const CycleTotals totals{m_cycle_words, m_cycle_local, m_cycle_mac};
    m_cycle_words = 0;
    m_cycle_local = false;
    m_cycle_mac = false;
    return totals;
  }

  u64 words() const { return m_words; }
  const TrafficMonitor& monitor() const { return *m_monitor; }

  /// Keep the monitor's log of every send and store (sw/inspect/), or of those of one word;
  /// off by default.
  void recordTraffic(bool on, u64 only_word = TrafficMonitor::kAllWords) {
    m_record = on;
    m_record_word = only_word;
    m_monitor->recordEvents(on, only_word);
  }
  TrafficLog takeTrafficLog() { return m_monitor->takeLog(); }
  /// Whether the traffic log (and with it the error event log) is kept.
  bool recording() const { return m_record; }
  /// A node's error event (HcTlmNode::raiseAt), recorded with the traffic log.
  void errorEvent(const HwErrorEvent& e) { m_error_events.push_back(e); }
  /// Every error event since the run began, in HwErrorEvent order.
  std::vector<HwErrorEvent> takeErrorEvents() {
    std::sort(m_error_events.begin(), m_error_events.end());
    return std::move(m_error_events);
  }

 private:
  struct Send {
    u64 link;  ///< node * dims + port
    u32 word;
    int lane;
  };

  u64 m_nodes;
  int m_dims;
  u64 m_tagged;
  std::unique_ptr<TrafficMonitor> m_monitor;
  std::vector<Send> m_sends;  ///< this cycle's sends (capacity kept: no allocation per cycle)
  std::vector<u32> m_stores;  ///< this cycle's stores
  u64 m_words = 0;
  u64 m_cycle_words = 0;
  bool m_cycle_local = false;
  bool m_cycle_mac = false;
  u64 m_cycle = 0;
  bool m_record = false;
  u64 m_record_word = TrafficMonitor::kAllWords;
  const Fault* m_fault = nullptr;
  std::vector<HwErrorEvent> m_error_events;  ///< with m_record: every node's error events
};

}  // namespace hcube

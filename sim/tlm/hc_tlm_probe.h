// hcube TLM model: the cube's traffic counters and monitor, which every node reports to — the
// TLM counterpart of the RTL's words_o / xfer_cycles_o / local_cycles_o counters and the
// testbench's per-cycle TrafficMonitor (sw/traffic_monitor.h, shared by every backend).
#pragma once

#include <memory>

#include "address.h"
#include "traffic_monitor.h"

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
    if (m_words == 0) return;  // nothing recorded yet (every store follows a send)
    m_monitor = std::make_unique<TrafficMonitor>(m_nodes, m_dims, m_tagged);
    m_words = 0;
    m_cycle_words = 0;
    m_cycle_local = false;
  }

  /// The cycle being run (0-based since start), set by the cube's controller before it begins.
  void setCycle(u64 cycle) { m_cycle = cycle; }
  u64 cycle() const { return m_cycle; }

  /// A word leaves `node` on `port` in the current cycle.
  void send(u64 node, int port, u32 word) {
    ++m_words;
    ++m_cycle_words;
    m_monitor->send(node, port, word, m_cycle);
  }
  /// A received word is written into memory at the end of the current cycle.
  void store(u32 word) { m_monitor->store(word, m_cycle); }
  /// A node executes a PERMUTE in the current cycle.
  void local() { m_cycle_local = true; }
  /// Whether some node executed a PERMUTE since the last call; starts the next cycle.
  bool takeCycleLocal() {
    const bool local = m_cycle_local;
    m_cycle_local = false;
    return local;
  }

  /// Words sent since the last call; starts counting the next cycle.
  u64 takeCycleWords() {
    const u64 w = m_cycle_words;
    m_cycle_words = 0;
    return w;
  }
  u64 words() const { return m_words; }
  const TrafficMonitor& monitor() const { return *m_monitor; }

 private:
  u64 m_nodes;
  int m_dims;
  u64 m_tagged;
  std::unique_ptr<TrafficMonitor> m_monitor;
  u64 m_words = 0;
  u64 m_cycle_words = 0;
  bool m_cycle_local = false;
  u64 m_cycle = 0;
};

}  // namespace hcube

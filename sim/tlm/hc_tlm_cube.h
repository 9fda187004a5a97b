// hcube TLM model: the cube — 2^n nodes bound by dimension, the clock, the run controller with
// the cycle counters, and the load bus (docs/hardware/testbench.md §1, the TLM counterpart of
// rtl/hc_cube.sv).
//
// Output port j of node x is bound to input port j of node x ^ (1 << j). Every node is an
// HcTlmNode unless the node factory given to the constructor makes another HcCubeNode for it
// (sim/cosim puts a Verilated hc_node there). The load socket decodes the node field of an
// address (hc_tlm_map) and forwards the access to that node's load socket, or to every node for
// a broadcast write; the cube's own registers start a run, set its cycle limit and give the
// counters.
//
// Speed: the nodes have no processes. Three method processes of the cube drive the whole run
// (README.md, "Cycles and SystemC time"): at the rising edge it calls every node's send phase
// (each node's b_transport calls land in its neighbours' input registers), at the falling edge
// every node's receive phase, and a fifth of a period later the controller decides about the next
// cycle: it counts the cycle if some node has not reached END, stops with a timeout at the cycle
// limit, and after the last node is done runs one uncounted cycle in which the nodes flag PASS
// words that nobody forwards (as the RTL does), then raises done.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "hc_cube_node.h"
#include "hc_tlm_config.h"
#include "hc_tlm_decoder.h"
#include "hc_tlm_probe.h"

namespace hcube {

/// What a node factory gets to build node `id` of a cube.
struct HcNodeContext {
  const char* name;  ///< the module name the node must have
  u64 id;
  const HcTlmConfig& config;
  HcTlmProbe& probe;
  HcTlmDecoder& decoder;
  sc_core::sc_clock& clock;         ///< the cube's clock
  sc_core::sc_signal<bool>& start;  ///< the cube's start pulse
  sc_core::sc_time link_latency;
  sc_core::sc_time load_latency;
};

class HcTlmCube : public sc_core::sc_module {
 public:
  /// Makes the node for `context.id`, or returns null for the default HcTlmNode.
  using NodeFactory = std::function<std::unique_ptr<HcCubeNode>(const HcNodeContext& context)>;

  /// Load bus: table words, memories, error counters, cube registers (hc_tlm_map).
  tlm_utils::simple_target_socket<HcTlmCube> m_load;
  /// The run started by the last start has finished (all nodes at END, or the cycle limit).
  sc_core::sc_out<bool> m_done;

  SC_HAS_PROCESS(HcTlmCube);
  /// One clock cycle is `clock_period`; `link_latency` is what a word takes to cross a link
  /// (less than half a period); `load_latency` is annotated on every load-bus access.
  HcTlmCube(sc_core::sc_module_name name, const HcTlmConfig& config,
            const sc_core::sc_time& clock_period, const sc_core::sc_time& link_latency,
            const sc_core::sc_time& load_latency, const NodeFactory& factory = {});

  /// Traces the clock, start, run enable, per node done and pc, and per node, port and lane the
  /// port activity, as <cube>.node_<x>.port_<j>[.lane_<l>].{out,in}_{valid,data}.
  void trace(sc_core::sc_trace_file* tf);

  const HcTlmProbe& probe() const { return m_probe; }
  HcTlmProbe& probe() { return m_probe; }
  /// Called with the cycles done after every cycle (or skipped stretch) of a run; empty: none.
  void setProgress(std::function<void(u64)> progress) { m_progress = std::move(progress); }
  /// Stretches of idle cycles the last run skipped in one step each.
  u64 skips() const { return m_skips; }
  HcCubeNode& node(u64 x) { return *m_nodes.at(x); }

 private:
  enum class State { kIdle, kStarting, kRunning, kDraining };

  void onStartRequest();
  void onRisingEdge();
  void onFallingEdge();
  void decide();
  void finish(bool timeout);
  /// The coming cycles in which every node is idle (HcCubeNode::idleCycles), 0 if none.
  u64 idleCycles() const;

  void loadTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned loadDebug(tlm::tlm_generic_payload& trans);
  /// Routes one access to the node(s) it addresses; `delay` null for a debug access.
  unsigned route(tlm::tlm_generic_payload& trans, sc_core::sc_time* delay);
  void registerAccess(tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);

  const HcTlmConfig m_config;
  const sc_core::sc_time m_load_latency;
  const sc_core::sc_time m_decide_delay;  ///< a fifth of a period: falling edge to decision
  HcTlmProbe m_probe;
  HcTlmDecoder m_decoder;
  sc_core::sc_clock m_clk;
  sc_core::sc_signal<bool> m_start;
  sc_core::sc_signal<bool> m_run;
  std::vector<std::unique_ptr<HcCubeNode>> m_nodes;
  /// The nodes that want arrivalsComplete() (those that are not HcTlmNodes).
  std::vector<HcCubeNode*> m_other_nodes;
  sc_core::sc_vector<tlm_utils::simple_initiator_socket<HcTlmCube>> m_node_load;
  sc_core::sc_event m_start_request_event;
  sc_core::sc_event m_decide_event;

  State m_state = State::kIdle;
  bool m_start_request = false;
  bool m_tracing = false;
  u64 m_max_cycles = 0;
  u64 m_cycles = 0;
  u64 m_xfer_cycles = 0;
  u64 m_local_cycles = 0;
  u64 m_mac_cycles = 0;  ///< cycles in which some node ran a MAC
  u64 m_skips = 0;
  std::function<void(u64)> m_progress;
  bool m_finished = false;
  bool m_timeout = false;
};

}  // namespace hcube

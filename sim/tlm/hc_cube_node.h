// hcube TLM model: what the cube sees of a node — the port and load sockets every node of the
// cube has, and the calls the cube's clock processes make on it once per cycle (README.md,
// "Cycles and SystemC time").
//
// Two kinds of node implement it: HcTlmNode (the TLM-2.0 model of rtl/hc_node.sv) and, for
// co-simulation, sim/cosim's bridge around the Verilated hc_node. Because both expose the same
// sockets, the cube binds them by dimension without knowing which is which, and a word crosses
// any link as the same TLM-2.0 transaction:
//
// * port j: an initiator socket `port_out_j` bound to the target socket `port_in_j` of node
//   x ^ (1 << j) (a simple_target_socket_tagged whose tag is the port number). A transfer is a
//   WRITE to address 0 of 4 * b bytes, lane l at bytes 4l .. 4l + 3, the lane's four byte
//   enables 0xFF when it carries a word and 0x00 when not; at most one transaction per port and
//   cycle, none when no lane carries a word. The target annotates the link latency on `delay`.
//   A target may also grant DMI (get_direct_mem_ptr) to the port's input registers, which it
//   maps at kPortRegisters (HcPortRegister per lane); a sender that holds the pointer writes a
//   word straight into the register instead of calling b_transport (README.md, "Sockets").
// * load: a simple_target_socket for the node's table words, memory and error counters
//   (hc_tlm_map, regions without the node field).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <string>
#include <systemc>
#include <tlm>

#include "spec/address.h"

namespace hcube {

/// The port target's input register of one lane, as a port target maps it for DMI and
/// b_transport at kPortRegisters + 8 * lane: the word, then a flag that is non-zero while the
/// register holds a word that arrived in the current cycle.
struct HcPortRegister {
  u32 data = 0;
  u32 valid = 0;
};
static_assert(sizeof(HcPortRegister) == 8);
/// Where a port target maps its input registers (the link transfer itself is at address 0).
inline constexpr u64 kPortRegisters = 0x100;

class HcCubeNode : public sc_core::sc_module {
 public:
  using PortInitiatorSocket = tlm_utils::simple_initiator_socket<HcCubeNode>;
  /// Tagged so that one callback serves every port; the tag is the port number.
  using PortTargetSocket = tlm_utils::simple_target_socket_tagged<HcCubeNode>;
  using LoadTargetSocket = tlm_utils::simple_target_socket<HcCubeNode>;

  /// Port j: words sent to node id ^ (1 << j).
  sc_core::sc_vector<PortInitiatorSocket> m_port_out;
  /// Port j: words arriving from node id ^ (1 << j).
  sc_core::sc_vector<PortTargetSocket> m_port_in;
  /// Load path: table words, memory, error counters.
  LoadTargetSocket m_load;

  HcCubeNode(sc_core::sc_module_name name, u64 id, int dims)
      : sc_core::sc_module(name),
        m_port_out("port_out", static_cast<size_t>(dims)),
        m_port_in("port_in", static_cast<size_t>(dims)),
        m_load("load"),
        m_id(id) {
    m_load.register_b_transport(this, &HcCubeNode::loadTransport);
    m_load.register_transport_dbg(this, &HcCubeNode::loadDebug);
  }

  u64 id() const { return m_id; }

  // The cube's clock processes call these, in this order, for every node (HcTlmCube):
  /// At the rising edge that raises the start pulse: pc <- 0, error counters <- 0.
  virtual void startRun() = 0;
  /// Rising edge of a cycle of the run: read memory and PASS registers, send on the ports.
  virtual void sendPhase() = 0;
  /// Rising edge, after every node's sendPhase: all words of the cycle have arrived.
  virtual void arrivalsComplete() {}
  /// Falling edge of a cycle of the run: store what arrived, advance the sequencer.
  virtual void receivePhase() = 0;
  /// The run is over (every node done, or the cycle limit).
  virtual void endRun() {}
  /// Read where done() is: how many of the coming cycles the node is sure to spend doing
  /// nothing but count down a WAIT or sit at END, with nothing held to drop (~0 at END). A node
  /// that cannot tell (a Verilated one) says 0, and the cube never skips a cycle.
  virtual u64 idleCycles() const { return 0; }
  /// Instead of running them: the next `cycles` (1 .. idleCycles()) cycles, which the cube
  /// skips because every node is idle in them. `last_cycle` is the 0-based index of
  /// the last one (where an overrun of a table without END is counted).
  virtual void skipIdle(u64 cycles, u64 last_cycle) {
    (void)cycles;
    (void)last_cycle;
  }
  /// The node has reached END since the last start (read a fifth of a period after the falling
  /// edge, when the cube's controller decides about the next cycle).
  virtual bool done() const = 0;

  /// Traces port activity per port and lane, done and pc under `prefix`.
  virtual void trace(sc_core::sc_trace_file* tf, const std::string& prefix) = 0;
  /// Clears the traced port activity (at every falling edge while tracing).
  virtual void clearTrace() = 0;

 protected:
  using PortCallback = void (HcCubeNode::*)(int port, tlm::tlm_generic_payload& trans,
                                            sc_core::sc_time& delay);
  /// Registers `callback` (a member of the derived class, called on this object) as the
  /// b_transport of every port target socket, tagged with the port number. Each derived
  /// class registers its own, so that a word costs no virtual call.
  template <typename Derived>
  void registerPortCallback(void (Derived::*callback)(int, tlm::tlm_generic_payload&,
                                                      sc_core::sc_time&)) {
    for (size_t p = 0; p < m_port_in.size(); ++p) {
      m_port_in[p].register_b_transport(this, static_cast<PortCallback>(callback),
                                        static_cast<int>(p));
    }
  }
  using PortDmiCallback = bool (HcCubeNode::*)(int port, tlm::tlm_generic_payload& trans,
                                               tlm::tlm_dmi& dmi);
  /// Registers `callback` as the get_direct_mem_ptr of every port target socket (tagged with the
  /// port number). A node that registers none denies DMI: its neighbours use b_transport.
  template <typename Derived>
  void registerPortDmi(bool (Derived::*callback)(int, tlm::tlm_generic_payload&, tlm::tlm_dmi&)) {
    for (size_t p = 0; p < m_port_in.size(); ++p) {
      m_port_in[p].register_get_direct_mem_ptr(this, static_cast<PortDmiCallback>(callback),
                                               static_cast<int>(p));
    }
  }
  virtual void loadTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) = 0;
  virtual unsigned loadDebug(tlm::tlm_generic_payload& trans) = 0;

  const u64 m_id;
};

}  // namespace hcube

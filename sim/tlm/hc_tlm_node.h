// hcube TLM model: one node of the Boolean n-cube (docs/hardware.md §2 - §4), the TLM-2.0
// counterpart of rtl/hc_node.sv.
//
// A node holds M words of memory, a table memory of D words written through its load socket
// (encoded table words, sw/table_image.h; decoded at start by the cube's shared decoder) and a
// sequencer (sw/sequencer.h) that executes one instruction per clock cycle after the start
// pulse, while the cube's run enable is high; past the last loaded word it reads END. Port j
// has one initiator socket (words sent to neighbour x ^ (1 << j)) and one target socket (words
// arriving from it); one transaction per port and cycle carries the port's lanes, a lane's four
// byte enables saying whether it carries a word.
//
// Cycle k (see README.md): at its rising edge the node reads its memory and PASS registers and
// sends (b_transport, the receiver annotating the link latency on the delay); the receiver's
// callback latches the words in its input registers. At the falling edge the node stores the
// words it received, fills its PASS registers, checks and advances its sequencer. Error
// counters count the cycles in which a condition held (docs/hardware.md §4). A WAIT
// of c cycles is slept through in one timed trigger (temporal decoupling that keeps the count
// exact: nothing but lost words, counted by the port callback, can happen during a WAIT); an
// ended node sleeps until the next start.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "hc_tlm_config.h"
#include "hc_tlm_decoder.h"
#include "hc_tlm_probe.h"
#include "hw_errors.h"
#include "sequencer.h"
#include "table.h"

namespace hcube {

class HcTlmNode : public sc_core::sc_module {
 public:
  using PortInitiatorSocket = tlm_utils::simple_initiator_socket<HcTlmNode>;
  /// Tagged so that one callback serves every port; the tag is the port number.
  using PortTargetSocket = tlm_utils::simple_target_socket_tagged<HcTlmNode>;
  using LoadTargetSocket = tlm_utils::simple_target_socket<HcTlmNode>;

  /// Clock.
  sc_core::sc_in<bool> m_clk;
  /// Start pulse (one cycle): pc <- 0, error counters <- 0; instruction 0 runs in the next cycle.
  sc_core::sc_in<bool> m_start;
  /// Run enable from the cube's controller, sampled at the rising edge.
  sc_core::sc_in<bool> m_run;
  /// The node has reached END since the last start.
  sc_core::sc_out<bool> m_done;
  /// Port j: words sent to node id ^ (1 << j).
  sc_core::sc_vector<PortInitiatorSocket> m_port_out;
  /// Port j: words arriving from node id ^ (1 << j).
  sc_core::sc_vector<PortTargetSocket> m_port_in;
  /// Load path: table words, memory, error counters (hc_tlm_map, regions without the node).
  LoadTargetSocket m_load;

  /// `link_latency` is annotated by the port target on every word that arrives (it must be
  /// shorter than half a clock period: a word crosses its link within the cycle);
  /// `load_latency` by the load target on every access.
  SC_HAS_PROCESS(HcTlmNode);
  HcTlmNode(sc_core::sc_module_name name, u64 id, const HcTlmConfig& config, HcTlmProbe& probe,
            HcTlmDecoder& decoder, const sc_core::sc_time& clock_period,
            const sc_core::sc_time& link_latency, const sc_core::sc_time& load_latency);

  u64 id() const { return m_id; }

  /// Traces the node's port activity (per port and lane: out_valid, out_data, in_valid,
  /// in_data), done and pc under `prefix` (names with '.' become VCD scopes).
  void trace(sc_core::sc_trace_file* tf, const std::string& prefix);
  /// Clears the traced port activity (called by the cube at every falling edge when tracing).
  void clearTrace();

 private:
  enum class Phase { kIdle, kRising, kFalling };

  struct Latch {
    bool valid = false;
    u32 data = 0;
  };
  struct ChannelTrace {
    bool out_valid = false;
    u32 out_data = 0;
    bool in_valid = false;
    u32 in_data = 0;
  };

  /// The node's one process: start, rising-edge and falling-edge work.
  void process();
  void reset();
  void risingEdge();
  void fallingEdge();
  void sendXfer(const Instruction& ins);
  void transmit(int port);
  void receiveXfer(const Instruction& ins);
  /// PASS words from the previous cycle that `ins` does not forward are dropped; then the PASS
  /// registers are free again.
  void checkDropped(const Instruction* ins);

  void portTransport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void end_of_elaboration() override;
  void loadTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned loadDebug(tlm::tlm_generic_payload& trans);
  /// The load-path access itself; returns the bytes moved (0 with an error response set).
  unsigned loadAccess(tlm::tlm_generic_payload& trans);

  /// Records that the condition of `e` holds in the current cycle. A counter counts the cycles
  /// in which its condition held (docs/hardware.md §4): events are collected per cycle and
  /// counted once the cycle is over.
  void raise(HwError e) {
    const u64 cycle = m_probe.cycle();
    if (cycle != m_events_cycle) {
      countEvents();
      m_events_cycle = cycle;
    }
    m_events |= 1U << static_cast<int>(e);
  }
  /// Adds the collected events to the saturating 16-bit counters.
  void countEvents();
  u64 resolve(u32 slot, bool rel) const { return rel ? (slot ^ m_id) : slot; }

  const u64 m_id;
  const HcTlmConfig m_config;
  const size_t m_channels;
  const ImageLayout m_layout;
  const unsigned m_table_word_bytes;
  HcTlmProbe& m_probe;
  HcTlmDecoder& m_decoder;
  const sc_core::sc_time m_clock_period;
  const sc_core::sc_time m_link_latency;
  const sc_core::sc_time m_load_latency;
  const sc_core::sc_time m_half_period;

  // Architectural state.
  std::vector<u32> m_memory;
  std::vector<u64> m_table_bits;  ///< table memory: D raw words (cleared to END)
  size_t m_table_length = 0;      ///< one past the highest word written (the RTL's tbl_len)
  const Table* m_table;           ///< its loaded words decoded, from the shared decoder
  Sequencer m_seq;
  std::array<u32, kHwErrorKinds> m_errors{};
  u32 m_events = 0;  ///< error kinds whose condition held in cycle m_events_cycle
  u64 m_events_cycle = 0;
  std::vector<Latch> m_pass;       ///< PASS registers, filled in the previous cycle
  std::vector<Latch> m_pass_next;  ///< ... being filled in this cycle
  std::vector<Latch> m_in;         ///< input registers: words arriving this cycle

  // Process state.
  Phase m_phase = Phase::kIdle;
  u64 m_advance = 1;         ///< cycles the falling edge moves the sequencer on (WAIT: all at once)
  bool m_receiving = false;  ///< the current instruction is an XFER (has input registers)

  // The port transaction and its buffers: built once, reused for every port and cycle.
  tlm::tlm_generic_payload m_payload;
  std::vector<u32> m_out_data;              ///< per channel
  std::vector<unsigned char> m_out_enable;  ///< per channel, 4 byte enables
  std::vector<u32> m_written;               ///< receive slots of this cycle (conflict check)

  bool m_tracing = false;
  /// The neighbours' port interfaces (m_port_out[j].operator->()), looked up once after
  /// binding: one pointer chase less per word at n = 10, where the cube's objects outgrow the
  /// caches.
  std::vector<tlm::tlm_fw_transport_if<>*> m_port_if;

  std::vector<ChannelTrace> m_trace;
  u32 m_trace_pc = 0;
};

}  // namespace hcube

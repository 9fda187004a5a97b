// hcube co-simulation: the Verilated RTL node (rtl/hc_node.sv, Verilator's SystemC output)
// standing in for one node of the SystemC-TLM cube — the bridge between the TLM node interface
// (hc_cube_node.h: per port an initiator and a target socket, the load socket, the cube's
// per-cycle calls) and the RTL node's per-channel wires, load port and scan port.
//
// Timing (sim/tlm/README.md, "Cycles and SystemC time", and README.md here). The TLM nodes send
// at the rising edge of the cube clock and store at the falling edge; the RTL node's registers
// must therefore take their clock edge at the cube's falling edge. The bridge drives the RTL's
// clk_i with the inverted cube clock while a run is on (and with its own cycles while it loads
// tables and memory), so RTL cycle k runs from the falling edge before TLM cycle k to the falling
// edge that ends it:
//
//   rising edge (sendPhase)        the RTL's outputs out_valid_o / out_data_o have been stable
//                                  since the RTL's last clock edge: they become one transaction
//                                  per port that carries a word, to the neighbour's target socket
//   rising edge, after every node  the words the neighbours sent this cycle (latched by the
//   (arrivalsComplete)             port callback) go onto in_valid_i / in_data_i
//   a fifth of a period later      store_o says which arriving words the RTL stores (for the
//                                  traffic monitor's span)
//   falling edge                   clk_i rises: the RTL stores, counts its errors, advances pc
//   a fifth of a period later      the cube's controller reads done_o
//
// The cube's start pulse drives start_i directly: it is high from the rising edge that starts a
// run to the next one, so the RTL samples it at the falling edge in between and executes
// instruction 0 in the next cycle, as the TLM nodes do. The RTL's clock stops when the cube ends
// the run (after the uncounted cycle in which a held PASS word is flagged `dropped`, or at the
// cycle limit), so its error counters and memory are read as the run left them.
//
// Load path (hc_tlm_map regions): table words go through the load port (tbl_we_i, one RTL cycle
// per word), memory words through the scan port (mem_we_i, one cycle per word; reads are
// combinational), the status region reads err_count_o and done_o. An access first synchronises
// the caller's local time offset (the load port is cycle-driven), so it must come from a thread;
// debug accesses are refused. The table words are the sw/tables/table_image.h encoding the RTL
// loads (the model's NumSlots must give the same table width as the cube's memory size).
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <systemc>
#include <tlm>
#include <type_traits>
#include <vector>

#include "exec/hw_errors.h"
#include "hc_cube_node.h"
#include "hc_load_access.h"
#include "hc_port_link.h"
#include "hc_tlm_config.h"
#include "hc_tlm_cube.h"

namespace hcube {
namespace cosim_bits {

// Verilator's SystemC ports (built with --pins-bv 2): bool for one bit, sc_bv<W> for wider ones.
inline bool bit(bool v, int i) { return i == 0 && v; }
template <int W>
bool bit(const sc_dt::sc_bv<W>& v, int i) {
  return v[i].to_bool();
}
inline void setBit(bool& v, int i, bool b) {
  if (i == 0) v = b;
}
template <int W>
void setBit(sc_dt::sc_bv<W>& v, int i, bool b) {
  v[i] = b;
}
/// Bits [lo, lo + n) (n <= 64) of a port value.
inline u64 field(bool v, int lo, int /*n*/) { return lo == 0 && v ? 1 : 0; }
template <int W>
u64 field(const sc_dt::sc_bv<W>& v, int lo, int n) {
  const int hi = std::min(W, lo + n) - 1;
  return hi < lo ? 0 : v.range(hi, lo).to_uint64();
}
inline void setField(bool& v, int lo, int /*n*/, u64 value) {
  if (lo == 0) v = (value & 1U) != 0;
}
template <int W>
void setField(sc_dt::sc_bv<W>& v, int lo, int n, u64 value) {
  const int hi = std::min(W, lo + n) - 1;
  if (hi >= lo) v.range(hi, lo) = value;
}

/// The value type of a Verilated model's port member (declared as `sc_in<T>&` / `sc_out<T>&`).
template <typename PortRef>
using PortData = typename std::remove_reference_t<PortRef>::data_type;

}  // namespace cosim_bits

/// The bridge around one Verilated hc_node of type `VNode` (built with the cube's Dim and Lanes).
template <typename VNode>
class HcCosimNode final : public HcCubeNode {
  template <typename PortRef>
  using Signal = sc_core::sc_signal<cosim_bits::PortData<PortRef>>;

 public:
  SC_HAS_PROCESS(HcCosimNode);
  /// `name` is context.name (an sc_module_name parameter, so that the node's members are
  /// created inside the node's hierarchy).
  HcCosimNode(sc_core::sc_module_name name, const HcNodeContext& context)
      : HcCubeNode(name, context.id, context.config.n),
        m_config(context.config),
        m_channels(context.config.channels()),
        m_word_bytes(context.config.tableWordBytes()),
        m_probe(context.probe),
        m_link_latency(context.link_latency),
        m_load_latency(context.load_latency),
        m_half_period(sc_core::sc_time::from_value(context.clock.period().value() / 2)),
        m_settle(sc_core::sc_time::from_value(context.clock.period().value() / 5)),
        m_cube_clock(context.clock),
        m_rtl("rtl"),
        m_rtl_clk("rtl_clk", false),
        m_rst_n("rst_n", false),
        m_one_port("one_port", context.config.one_port),
        m_mac_overlap("mac_overlap", context.config.mac_overlap),
        m_tbl_we("tbl_we", false),
        m_mem_we("mem_we", false),
        m_done_o("done_o"),
        m_permute_o("permute_o"),
        m_mac_o("mac_o"),
        m_in(m_channels),
        m_sender(*this, kMsgType, context.config.lanes, m_channels, m_half_period),
        m_trace(m_channels) {
    checkLinkLatency(m_link_latency, m_half_period, kMsgType,
                     "the link latency must be shorter than half a clock period");
    cosim_bits::PortData<decltype(m_rtl.node_id_i)> id{};
    cosim_bits::setField(id, 0, m_config.n, context.id);
    m_node_id.write(id);
    m_rtl.clk_i(m_rtl_clk);
    m_rtl.rst_ni(m_rst_n);
    m_rtl.node_id_i(m_node_id);
    m_rtl.one_port_i(m_one_port);
    m_rtl.mac_overlap_i(m_mac_overlap);
    m_rtl.tbl_we_i(m_tbl_we);
    m_rtl.tbl_addr_i(m_tbl_addr);
    m_rtl.tbl_wdata_i(m_tbl_wdata);
    m_rtl.mem_we_i(m_mem_we);
    m_rtl.mem_addr_i(m_mem_addr);
    m_rtl.mem_wdata_i(m_mem_wdata);
    m_rtl.mem_rdata_o(m_mem_rdata);
    m_rtl.start_i(context.start);
    m_rtl.done_o(m_done_o);
    m_rtl.out_valid_o(m_out_valid);
    m_rtl.out_data_o(m_out_data);
    m_rtl.in_valid_i(m_in_valid);
    m_rtl.in_data_i(m_in_data);
    m_rtl.store_o(m_store);
    m_rtl.permute_o(m_permute_o);
    m_rtl.mac_o(m_mac_o);
    m_rtl.err_event_o(m_err_event);
    m_rtl.err_flags_o(m_err_flags);
    m_rtl.err_count_o(m_err_count);
    // No fault injection in co-simulation: the fault mask's inputs stay 0.
    m_rtl.flt_en_i(m_flt_en_i);
    m_rtl.flt_node_i(m_flt_node_i);
    m_rtl.flt_chan_i(m_flt_chan_i);
    m_rtl.flt_xor_i(m_flt_xor_i);
    m_rtl.flt_clr_i(m_flt_clr_i);
    m_rtl.flt_set_i(m_flt_set_i);
    m_rtl.flt_kill_i(m_flt_kill_i);
    // Routed mode (hc_router) is not co-simulated: its inputs stay 0, its outputs are unread.
    m_rtl.rt_halt_i(m_rt_halt_i);
    m_rtl.rt_pkt_o(m_rt_pkt_o);
    m_rtl.rt_pkt_i(m_rt_pkt_i);
    m_rtl.rt_credit_o(m_rt_credit_o);
    m_rtl.rt_credit_i(m_rt_credit_i);
    m_rtl.rt_work_o(m_rt_work_o);
    m_rtl.rt_moved_o(m_rt_moved_o);
    m_rtl.rt_idle_o(m_rt_idle_o);
    m_rtl.rt_stalls_o(m_rt_stalls_o);
    m_rtl.rt_dlv_o(m_rt_dlv_o);
    m_rtl.rt_dlv_tag_o(m_rt_dlv_tag_o);
    m_rtl.rt_occ_max_o(m_rt_occ_max_o);
    m_rtl.rt_head_valid_o(m_rt_head_valid_o);
    m_rtl.rt_head_dst_o(m_rt_head_dst_o);
    m_rtl.rt_head_out_o(m_rt_head_out_o);
    m_rtl.rt_head_nocredit_o(m_rt_head_nocredit_o);
    m_rtl.rt_copy_word_o(m_rt_copy_word_o);

    registerPortCallback(&HcCosimNode::portTransport);
    SC_METHOD(onCubeClock);
    sensitive << m_cube_clock;
    dont_initialize();
    SC_METHOD(onStoreSample);
    sensitive << m_store_sample;
    dont_initialize();
  }

  void startRun() override { m_clocking = true; }
  void endRun() override { m_clocking = false; }
  bool done() const override { return m_done_o.read(); }

  void sendPhase() override {
    const auto& valid = m_out_valid.read();
    const auto& data = m_out_data.read();
    for (int p = 0; p < m_config.n; ++p) {
      bool carries = false;
      for (int l = 0; l < m_config.lanes; ++l) {
        const int c = p * m_config.lanes + l;
        const bool v = cosim_bits::bit(valid, c);
        const u32 word = v ? static_cast<u32>(cosim_bits::field(data, 32 * c, 32)) : 0;
        m_sender.stage(static_cast<size_t>(c), word, v);
        if (!v) continue;
        carries = true;
        m_probe.send(m_id, p, word, l);
        if (m_tracing) {
          HcChannelTrace& t = m_trace[static_cast<size_t>(c)];
          t.out_valid = true;
          t.out_data = word;
        }
      }
      if (carries) m_sender.transmit(p, m_port_out[static_cast<size_t>(p)].operator->());
    }
    if (m_permute_o.read()) m_probe.local();
    if (m_mac_o.read()) m_probe.mac();
  }

  void arrivalsComplete() override {
    cosim_bits::PortData<decltype(m_rtl.in_valid_i)> valid{};
    cosim_bits::PortData<decltype(m_rtl.in_data_i)> data{};
    bool any = false;
    for (size_t c = 0; c < m_channels; ++c) {
      if (!m_in[c].valid) continue;
      any = true;
      cosim_bits::setBit(valid, static_cast<int>(c), true);
      cosim_bits::setField(data, 32 * static_cast<int>(c), 32, m_in[c].data);
    }
    m_in_valid.write(valid);
    m_in_data.write(data);
    if (any) m_store_sample.notify(m_settle);
  }

  void receivePhase() override {}  // the RTL takes its clock edge at the falling edge

  void trace(sc_core::sc_trace_file* tf, const std::string& prefix) override {
    traceChannels(tf, prefix, m_config.n, m_config.lanes, m_trace);
    sc_core::sc_trace(tf, m_done_o, prefix + ".done");
    sc_core::sc_trace(tf, m_rtl_clk, prefix + ".rtl_clk");
    m_tracing = true;
  }
  void clearTrace() override {
    for (HcChannelTrace& t : m_trace) t = {};
  }

 private:
  static constexpr const char* kMsgType = "/hcube/cosim/node";

  /// The RTL clock during a run: the cube clock inverted.
  void onCubeClock() {
    if (!m_clocking || m_loading) return;
    m_rtl_clk.write(!m_cube_clock.read());
  }

  /// A fifth of a period after the arrivals went onto the wires: the words the RTL stores at the
  /// end of the cycle, for the traffic monitor.
  void onStoreSample() {
    const auto& store = m_store.read();
    for (size_t c = 0; c < m_channels; ++c) {
      if (m_in[c].valid && cosim_bits::bit(store, static_cast<int>(c))) m_probe.store(m_in[c].data);
      m_in[c].valid = false;
    }
  }

  void portTransport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const unsigned lanes = static_cast<unsigned>(m_config.lanes);
    const bool accepted = acceptPortWords(port, lanes, trans, [this](size_t c, u32 word) {
      m_in[c] = {true, word};  // onto the RTL's input wires once every node has sent
      if (m_tracing) {
        m_trace[c].in_valid = true;
        m_trace[c].in_data = word;
      }
    });
    if (accepted) delay += m_link_latency;
  }

  // ------------------------------------------------------------------------------------------
  // Load path
  // ------------------------------------------------------------------------------------------

  /// One RTL clock cycle driven by the loading thread.
  void loadCycle() {
    m_rtl_clk.write(true);
    sc_core::wait(m_half_period);
    m_rtl_clk.write(false);
    sc_core::wait(m_half_period);
  }

  void loadTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override {
    if (m_clocking) {  // the RTL's ports belong to the run
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    sc_core::wait(delay);  // the load and scan ports are cycle-driven: synchronise first
    delay = sc_core::SC_ZERO_TIME;
    m_loading = true;
    if (m_rtl_clk.read()) {  // the run left the clock high
      m_rtl_clk.write(false);
      sc_core::wait(m_half_period);
    }
    if (!m_reset_done) {  // a synchronous reset before the first access
      m_rst_n.write(false);
      loadCycle();
      m_rst_n.write(true);
      m_reset_done = true;
    }
    loadAccess(trans);
    m_loading = false;
    delay += m_load_latency;
  }

  unsigned loadDebug(tlm::tlm_generic_payload& trans) override {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // needs clock cycles
    return 0;
  }

  void loadAccess(tlm::tlm_generic_payload& trans) {
    namespace map = hc_tlm_map;
    HcLoadAccess a;
    if (!decodeLoadAccess(trans, a)) return;
    const u64 offset = a.offset;
    const unsigned length = a.length;
    unsigned char* data = a.data;
    const bool write = a.write;
    auto fail = [&](tlm::tlm_response_status status) { trans.set_response_status(status); };
    switch (a.region) {
      case map::kRegionTable: {
        const unsigned bytes = m_word_bytes;
        if (!coversWholeItems(a, bytes, m_config.table_depth)) {
          return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        }
        if (!write) return fail(tlm::TLM_COMMAND_ERROR_RESPONSE);  // the RTL cannot read it back
        const size_t first = offset / bytes;
        const int width = m_config.layout().tableWidth();
        for (size_t i = 0; i < length / bytes; ++i) {
          cosim_bits::PortData<decltype(m_rtl.tbl_addr_i)> addr{};
          cosim_bits::setField(addr, 0, 32, first + i);
          cosim_bits::PortData<decltype(m_rtl.tbl_wdata_i)> word{};
          for (int limb = 0; 64 * limb < width; ++limb) {
            u64 bits = 0;
            std::memcpy(&bits, data + i * bytes + 8 * static_cast<size_t>(limb), 8);
            cosim_bits::setField(word, 64 * limb, std::min(64, width - 64 * limb), bits);
          }
          m_tbl_addr.write(addr);
          m_tbl_wdata.write(word);
          m_tbl_we.write(true);
          loadCycle();
          m_tbl_we.write(false);
        }
        break;
      }
      case map::kRegionMemory: {
        if (!coversWholeItems(a, 4, m_config.memory_words)) {
          return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        }
        for (size_t i = 0; i < length / 4; ++i) {
          cosim_bits::PortData<decltype(m_rtl.mem_addr_i)> addr{};
          cosim_bits::setField(addr, 0, 32, offset / 4 + i);
          m_mem_addr.write(addr);
          if (write) {
            u32 word = 0;
            std::memcpy(&word, data + 4 * i, 4);
            cosim_bits::PortData<decltype(m_rtl.mem_wdata_i)> value{};
            cosim_bits::setField(value, 0, 32, word);
            m_mem_wdata.write(value);
            m_mem_we.write(true);
            loadCycle();
            m_mem_we.write(false);
          } else {
            sc_core::wait(m_settle);  // the read port is combinational: let it settle
            const u32 word = static_cast<u32>(cosim_bits::field(m_mem_rdata.read(), 0, 32));
            std::memcpy(data + 4 * i, &word, 4);
          }
        }
        break;
      }
      case map::kRegionStatus: {
        HcNodeStatus status{};
        const auto& counts = m_err_count.read();
        for (int k = 0; k < kHwErrorKinds; ++k) {
          status[static_cast<size_t>(k)] = static_cast<u32>(cosim_bits::field(counts, 16 * k, 16));
        }
        status[kHwErrorKinds] = m_done_o.read() ? 1 : 0;
        if (!readStatus(trans, a, status)) return;
        break;
      }
      default:
        return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  const HcTlmConfig m_config;
  const size_t m_channels;
  const unsigned m_word_bytes;
  HcTlmProbe& m_probe;
  const sc_core::sc_time m_link_latency;
  const sc_core::sc_time m_load_latency;
  const sc_core::sc_time m_half_period;
  const sc_core::sc_time m_settle;  ///< a fifth of a period: combinational outputs have settled
  sc_core::sc_clock& m_cube_clock;

  VNode m_rtl;
  // The RTL clock has two writers that never write in the same delta cycle: the clock process
  // during a run and the loading thread between runs.
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> m_rtl_clk;
  sc_core::sc_signal<bool> m_rst_n;
  sc_core::sc_signal<bool> m_one_port;
  sc_core::sc_signal<bool> m_mac_overlap;
  Signal<decltype(VNode::node_id_i)> m_node_id;
  sc_core::sc_signal<bool> m_tbl_we;
  Signal<decltype(VNode::tbl_addr_i)> m_tbl_addr;
  Signal<decltype(VNode::tbl_wdata_i)> m_tbl_wdata;
  sc_core::sc_signal<bool> m_mem_we;
  Signal<decltype(VNode::mem_addr_i)> m_mem_addr;
  Signal<decltype(VNode::mem_wdata_i)> m_mem_wdata;
  Signal<decltype(VNode::mem_rdata_o)> m_mem_rdata;
  sc_core::sc_signal<bool> m_done_o;
  Signal<decltype(VNode::out_valid_o)> m_out_valid;
  Signal<decltype(VNode::out_data_o)> m_out_data;
  Signal<decltype(VNode::in_valid_i)> m_in_valid;
  Signal<decltype(VNode::in_data_i)> m_in_data;
  Signal<decltype(VNode::store_o)> m_store;
  sc_core::sc_signal<bool> m_permute_o;
  sc_core::sc_signal<bool> m_mac_o;
  Signal<decltype(VNode::err_event_o)> m_err_event;
  Signal<decltype(VNode::err_flags_o)> m_err_flags;
  Signal<decltype(VNode::err_count_o)> m_err_count;
  Signal<decltype(VNode::flt_en_i)> m_flt_en_i;
  Signal<decltype(VNode::flt_node_i)> m_flt_node_i;
  Signal<decltype(VNode::flt_chan_i)> m_flt_chan_i;
  Signal<decltype(VNode::flt_xor_i)> m_flt_xor_i;
  Signal<decltype(VNode::flt_clr_i)> m_flt_clr_i;
  Signal<decltype(VNode::flt_set_i)> m_flt_set_i;
  Signal<decltype(VNode::flt_kill_i)> m_flt_kill_i;
  Signal<decltype(VNode::rt_halt_i)> m_rt_halt_i;
  Signal<decltype(VNode::rt_pkt_o)> m_rt_pkt_o;
  Signal<decltype(VNode::rt_pkt_i)> m_rt_pkt_i;
  Signal<decltype(VNode::rt_credit_o)> m_rt_credit_o;
  Signal<decltype(VNode::rt_credit_i)> m_rt_credit_i;
  Signal<decltype(VNode::rt_work_o)> m_rt_work_o;
  Signal<decltype(VNode::rt_moved_o)> m_rt_moved_o;
  Signal<decltype(VNode::rt_idle_o)> m_rt_idle_o;  // (the node-array testbench's edge skip)
  Signal<decltype(VNode::rt_stalls_o)> m_rt_stalls_o;
  Signal<decltype(VNode::rt_dlv_o)> m_rt_dlv_o;
  Signal<decltype(VNode::rt_dlv_tag_o)> m_rt_dlv_tag_o;
  Signal<decltype(VNode::rt_occ_max_o)> m_rt_occ_max_o;
  Signal<decltype(VNode::rt_head_valid_o)> m_rt_head_valid_o;
  Signal<decltype(VNode::rt_head_dst_o)> m_rt_head_dst_o;
  Signal<decltype(VNode::rt_head_out_o)> m_rt_head_out_o;
  Signal<decltype(VNode::rt_head_nocredit_o)> m_rt_head_nocredit_o;
  Signal<decltype(VNode::rt_copy_word_o)> m_rt_copy_word_o;

  bool m_clocking = false;  ///< a run is on: the RTL clock follows the cube clock
  bool m_loading = false;   ///< the loading thread drives the RTL clock
  bool m_reset_done = false;
  bool m_tracing = false;
  std::vector<HcLatch> m_in;  ///< words that arrived this cycle, per channel
  sc_core::sc_event m_store_sample;

  HcPortSender m_sender;  ///< the words each port sends, one transaction per port and cycle
  std::vector<HcChannelTrace> m_trace;
};

}  // namespace hcube

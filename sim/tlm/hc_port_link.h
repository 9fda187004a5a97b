// hcube TLM model: the port side of a cube node that both kinds of node share (HcTlmNode and
// sim/cosim's HcCosimNode): the b_transport word format of a link (hc_cube_node.h), sending a
// port's words as one transaction, accepting a transaction at a port target, the link-latency
// checks and the per-channel port trace (README.md, "Sockets and protocol" and "Tracing").
//
// What differs between the nodes stays with them: where an arriving word goes (a TLM node's
// input register, the co-simulated node's RTL input wires) is a callable, and the TLM node's DMI
// path and its register window at kPortRegisters are its own.
#pragma once

#include <cstring>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "spec/address.h"

namespace hcube {

/// A word register with its valid flag (PASS registers, PERMUTE copies, arrivals).
struct HcLatch {
  bool valid = false;
  u32 data = 0;
};

/// The traced activity of one channel (port and lane) in the current cycle.
struct HcChannelTrace {
  bool out_valid = false;
  u32 out_data = 0;
  bool in_valid = false;
  u32 in_data = 0;
};

/// Traces `channels` (port-major, `lanes` per port, `dims` ports) as
/// `prefix.port_<p>[.lane_<l>].{out_valid,out_data,in_valid,in_data}`.
inline void traceChannels(sc_core::sc_trace_file* tf, const std::string& prefix, int dims,
                          int lanes, const std::vector<HcChannelTrace>& channels) {
  for (int p = 0; p < dims; ++p) {
    for (int l = 0; l < lanes; ++l) {
      const size_t c = static_cast<size_t>(p * lanes + l);
      std::string at = prefix + ".port_" + std::to_string(p) + ".";
      if (lanes > 1) at += "lane_" + std::to_string(l) + ".";
      sc_core::sc_trace(tf, channels[c].out_valid, at + "out_valid");
      sc_core::sc_trace(tf, channels[c].out_data, at + "out_data");
      sc_core::sc_trace(tf, channels[c].in_valid, at + "in_valid");
      sc_core::sc_trace(tf, channels[c].in_data, at + "in_data");
    }
  }
}

/// Reports (SC_REPORT_ERROR, `msg_type`, `what`) a link latency that does not end before the
/// falling edge: a word must cross its link within the first half of its cycle.
inline void checkLinkLatency(const sc_core::sc_time& latency, const sc_core::sc_time& half_period,
                             const char* msg_type, const char* what) {
  if (latency >= half_period) SC_REPORT_ERROR(msg_type, what);
}

/// The sending side of a node's ports: per channel the word and its four byte enables, and the
/// port transaction, built once and reused for every port and cycle (no word allocates).
class HcPortSender {
 public:
  /// `owner` names the node in error reports (type `msg_type`); `half_period` bounds the
  /// latency a target may annotate.
  HcPortSender(const sc_core::sc_object& owner, const char* msg_type, int lanes, size_t channels,
               const sc_core::sc_time& half_period)
      : m_owner(owner),
        m_msg_type(msg_type),
        m_lanes(static_cast<size_t>(lanes)),
        m_half_period(half_period),
        m_data(channels, 0),
        m_enable(4 * channels, 0) {
    const unsigned port_bytes = 4 * static_cast<unsigned>(lanes);
    m_payload.set_command(tlm::TLM_WRITE_COMMAND);
    m_payload.set_address(0);
    m_payload.set_data_length(port_bytes);
    m_payload.set_streaming_width(port_bytes);
    m_payload.set_byte_enable_length(port_bytes);
    m_payload.set_dmi_allowed(false);
  }

  /// Channel `c` carries `word` in the next transmit of its port (or nothing, `valid` false).
  void stage(size_t c, u32 word, bool valid) {
    m_data[c] = word;
    std::memset(&m_enable[4 * c], valid ? 0xFF : 0x00, 4);
  }

  /// Sends the staged lanes of `port` to `target` (b_transport) and checks the response and
  /// that the annotated latency ends before the falling edge stores the words. Out of line (in
  /// hc_port_link.cpp), so that it does not weigh on the sender's DMI loop.
  void transmit(int port, tlm::tlm_fw_transport_if<>* target);

  /// Reports `what` (the latency `latency` of `port`) if the word it carries would arrive at or
  /// after the falling edge that stores it.
  void checkArrival(int port, const sc_core::sc_time& latency, const char* what) const;

  /// "<node>: port <port>", for error reports.
  std::string portName(int port) const;

 private:
  const sc_core::sc_object& m_owner;
  const char* m_msg_type;
  const size_t m_lanes;
  const sc_core::sc_time m_half_period;
  tlm::tlm_generic_payload m_payload;
  std::vector<u32> m_data;              ///< per channel
  std::vector<unsigned char> m_enable;  ///< per channel, 4 byte enables
};

/// A port target's b_transport for a link transfer (a WRITE to address 0 of 4 * `lanes` bytes,
/// hc_cube_node.h): sets an error response on anything else; otherwise calls `arrive(c, word)`
/// for every lane whose byte enables are set (c = port * lanes + lane), sets TLM_OK_RESPONSE and
/// returns true (the caller annotates the link latency).
template <typename Arrive>
inline bool acceptPortWords(int port, unsigned lanes, tlm::tlm_generic_payload& trans,
                            Arrive&& arrive) {
  const unsigned port_bytes = 4 * lanes;
  if (trans.get_command() != tlm::TLM_WRITE_COMMAND) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_address() != 0 || trans.get_data_length() != port_bytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_streaming_width() < port_bytes) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  const unsigned char* data = trans.get_data_ptr();
  const unsigned char* enable = trans.get_byte_enable_ptr();
  const unsigned enable_length = trans.get_byte_enable_length();
  for (unsigned l = 0; l < lanes; ++l) {
    if (enable != nullptr && enable[(4 * l) % enable_length] == 0) continue;
    u32 word = 0;
    std::memcpy(&word, data + 4 * static_cast<size_t>(l), 4);
    arrive(static_cast<size_t>(port) * lanes + l, word);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

}  // namespace hcube

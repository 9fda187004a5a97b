#include "hc_port_link.h"

namespace hcube {

void HcPortSender::transmit(int port, tlm::tlm_fw_transport_if<>* target) {
  const size_t first = static_cast<size_t>(port) * m_lanes;
  m_payload.set_data_ptr(reinterpret_cast<unsigned char*>(&m_data[first]));
  m_payload.set_byte_enable_ptr(&m_enable[4 * first]);
  m_payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  target->b_transport(m_payload, delay);
  if (m_payload.is_response_error()) {
    SC_REPORT_ERROR(m_msg_type, (portName(port) + ": " + m_payload.get_response_string()).c_str());
  }
  checkArrival(port, delay, "link latency");
}

void HcPortSender::checkArrival(int port, const sc_core::sc_time& latency, const char* what) const {
  if (latency >= m_half_period) {
    SC_REPORT_ERROR(m_msg_type,
                    (portName(port) + ": " + what + " reaches past the receive edge").c_str());
  }
}

std::string HcPortSender::portName(int port) const {
  return std::string(m_owner.name()) + ": port " + std::to_string(port);
}

}  // namespace hcube

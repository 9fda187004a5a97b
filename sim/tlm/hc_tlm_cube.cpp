#include "hc_tlm_cube.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "hc_tlm_node.h"

namespace hcube {
namespace {

constexpr const char* kMsgType = "/hcube/tlm/cube";

}  // namespace

HcTlmCube::HcTlmCube(sc_core::sc_module_name name, const HcTlmConfig& config,
                     const sc_core::sc_time& clock_period, const sc_core::sc_time& link_latency,
                     const sc_core::sc_time& load_latency, const NodeFactory& factory)
    : sc_core::sc_module(name),
      m_load("load"),
      m_done("done"),
      m_config(config),
      m_load_latency(load_latency),
      m_decide_delay(sc_core::sc_time::from_value(clock_period.value() / 5)),
      m_probe(config.nodes(), config.n, config.tagged_elements),
      m_decoder(config.layout(), config.tableWordBytes()),
      m_clk("clk", clock_period),
      m_start("start", false),
      m_run("run", false),
      m_node_load("node_load", config.nodes()) {
  const u64 nodes = config.nodes();
  m_nodes.reserve(nodes);
  for (u64 x = 0; x < nodes; ++x) {
    const std::string node_name = "node_" + std::to_string(x);
    std::unique_ptr<HcCubeNode> node;
    if (factory) {
      node = factory(HcNodeContext{node_name.c_str(), x, m_config, m_probe, m_decoder, m_clk,
                                   m_start, link_latency, load_latency});
      if (node) m_other_nodes.push_back(node.get());
    }
    if (!node) {
      node = std::make_unique<HcTlmNode>(node_name.c_str(), x, m_config, m_probe, m_decoder,
                                         clock_period, link_latency, load_latency);
    }
    m_nodes.push_back(std::move(node));
  }
  for (u64 x = 0; x < nodes; ++x) {
    HcCubeNode& node = *m_nodes[x];
    for (int j = 0; j < config.n; ++j) {
      node.m_port_out[static_cast<size_t>(j)].bind(
          m_nodes[neighbour(x, j)]->m_port_in[static_cast<size_t>(j)]);
    }
    m_node_load[x].bind(node.m_load);
  }
  m_load.register_b_transport(this, &HcTlmCube::loadTransport);
  m_load.register_transport_dbg(this, &HcTlmCube::loadDebug);

  SC_METHOD(onStartRequest);
  sensitive << m_start_request_event;
  dont_initialize();
  SC_METHOD(onRisingEdge);
  sensitive << m_clk.posedge_event();
  dont_initialize();
  SC_METHOD(onFallingEdge);
  sensitive << m_clk.negedge_event();
  dont_initialize();
  SC_METHOD(decide);
  sensitive << m_decide_event;
  dont_initialize();
}

void HcTlmCube::trace(sc_core::sc_trace_file* tf) {
  const std::string prefix = name();
  sc_core::sc_trace(tf, m_clk, prefix + ".clk");
  sc_core::sc_trace(tf, m_start, prefix + ".start");
  sc_core::sc_trace(tf, m_run, prefix + ".run");
  for (auto& node : m_nodes) node->trace(tf, node->name());
  m_tracing = true;
}

// ---------------------------------------------------------------------------------------------
// Run controller
// ---------------------------------------------------------------------------------------------

void HcTlmCube::onStartRequest() { m_start_request = true; }

void HcTlmCube::onRisingEdge() {
  if (m_start.read()) m_start.write(false);  // a one-cycle pulse
  if (m_state == State::kRunning || m_state == State::kDraining) {
    // Send phase of the cycle: every node reads its memory as it is at the start of the cycle
    // and its words land in the neighbours' input registers.
    for (auto& node : m_nodes) node->sendPhase();
    for (HcCubeNode* node : m_other_nodes) node->arrivalsComplete();
    return;
  }
  if (!m_start_request) return;
  m_start_request = false;
  m_start.write(true);
  m_state = State::kStarting;
  m_cycles = 0;
  m_xfer_cycles = 0;
  m_local_cycles = 0;
  m_mac_cycles = 0;
  m_skips = 0;
  m_finished = false;
  m_timeout = false;
  m_probe.reset();
  for (auto& node : m_nodes) node->startRun();
}

void HcTlmCube::onFallingEdge() {
  if (m_tracing) {
    for (auto& node : m_nodes) node->clearTrace();
  }
  if (m_state == State::kIdle) return;
  if (m_state != State::kStarting) {
    for (auto& node : m_nodes) node->receivePhase();
  }
  // Decide a fifth of a period later (whole ns in the VCD), once every node (a Verilated one too)
  // has settled.
  m_decide_event.notify(m_decide_delay);
}

void HcTlmCube::decide() {
  switch (m_state) {
    case State::kIdle:
      return;
    case State::kDraining:  // the uncounted cycle after the last node ended is over
      m_probe.endCycle();
      finish(false);
      return;
    case State::kRunning: {
      const HcTlmProbe::CycleTotals cycle = m_probe.endCycle();
      if (cycle.words > 0) ++m_xfer_cycles;
      if (cycle.local) ++m_local_cycles;
      if (cycle.mac) ++m_mac_cycles;
      break;
    }
    case State::kStarting:
      m_done.write(false);
      m_run.write(true);
      break;
  }
  for (;;) {
    bool busy = false;
    for (const auto& node : m_nodes) {
      if (!node->done()) {
        busy = true;
        break;
      }
    }
    if (!busy) {
      m_state = State::kDraining;
      m_probe.setCycle(m_cycles);
      return;
    }
    if (m_max_cycles != 0 && m_cycles >= m_max_cycles) {
      finish(true);
      return;
    }
    // Cycles in which every node only counts down a WAIT (or has ended) are skipped in one
    // step, up to the shortest wait or the cycle limit; every counter comes out as
    // if they had run. SystemC time does not advance over them, so not while tracing (the
    // waveform shows every cycle).
    const u64 idle = m_tracing ? 0 : idleCycles();
    if (idle == 0) break;
    const u64 skip = m_max_cycles != 0 ? std::min(idle, m_max_cycles - m_cycles) : idle;
    for (auto& node : m_nodes) node->skipIdle(skip, m_cycles + skip - 1);
    m_cycles += skip;
    ++m_skips;
  }
  if (m_progress) m_progress(m_cycles);
  m_probe.setCycle(m_cycles);
  ++m_cycles;
  m_state = State::kRunning;
}

u64 HcTlmCube::idleCycles() const {
  u64 idle = ~u64{0};
  for (const auto& node : m_nodes) {
    idle = std::min(idle, node->idleCycles());
    if (idle == 0) return 0;
  }
  return idle;
}

void HcTlmCube::finish(bool timeout) {
  m_state = State::kIdle;
  m_finished = true;
  m_timeout = timeout;
  m_run.write(false);
  for (auto& node : m_nodes) node->endRun();
  m_done.write(true);
}

// ---------------------------------------------------------------------------------------------
// Load bus
// ---------------------------------------------------------------------------------------------

void HcTlmCube::loadTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  route(trans, &delay);
}

unsigned HcTlmCube::loadDebug(tlm::tlm_generic_payload& trans) { return route(trans, nullptr); }

unsigned HcTlmCube::route(tlm::tlm_generic_payload& trans, sc_core::sc_time* delay) {
  namespace map = hc_tlm_map;
  const u64 address = trans.get_address();
  const u64 region = (address & map::kRegionMask) >> map::kRegionShift;
  if (region == map::kRegionCube) {
    if (delay == nullptr) {  // registers have side effects: no debug access
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return 0;
    }
    registerAccess(trans, *delay);
    *delay += m_load_latency;
    return trans.is_response_ok() ? trans.get_data_length() : 0;
  }
  const u64 node = address >> map::kNodeShift;
  const u64 local = address & (map::kRegionMask | map::kOffsetMask);
  const u64 unused = address & ~(map::kRegionMask | map::kOffsetMask | map::kBroadcast) &
                     ((u64{1} << map::kNodeShift) - 1);
  if (unused != 0) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  unsigned moved = 0;
  trans.set_address(local);
  if ((address & map::kBroadcast) != 0) {
    // A broadcast write reaches every node at once: the latency of one access.
    if (trans.get_command() != tlm::TLM_WRITE_COMMAND || node != 0) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    } else {
      sc_core::sc_time longest = sc_core::SC_ZERO_TIME;
      for (size_t x = 0; x < m_nodes.size(); ++x) {
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (delay != nullptr) {
          sc_core::sc_time d = *delay;
          m_node_load[x]->b_transport(trans, d);
          if (d > longest) longest = d;
        } else {
          moved = m_node_load[x]->transport_dbg(trans);
        }
        if (trans.is_response_error()) break;
      }
      if (delay != nullptr) {
        *delay = longest;
        moved = trans.get_data_length();
      }
    }
  } else if (node >= m_nodes.size()) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  } else if (delay != nullptr) {
    m_node_load[node]->b_transport(trans, *delay);
    moved = trans.get_data_length();
  } else {
    moved = m_node_load[node]->transport_dbg(trans);
  }
  trans.set_address(address);
  return trans.is_response_ok() ? moved : 0;
}

void HcTlmCube::registerAccess(tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay) {
  namespace map = hc_tlm_map;
  const u64 offset = trans.get_address() & map::kOffsetMask;
  if (trans.get_data_length() != 8 || trans.get_streaming_width() < 8 ||
      trans.get_byte_enable_ptr() != nullptr || offset % 8 != 0 || offset > map::kCubeMacCycles) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  unsigned char* data = trans.get_data_ptr();
  if (trans.get_command() == tlm::TLM_WRITE_COMMAND) {
    u64 value = 0;
    std::memcpy(&value, data, 8);
    if (offset == map::kCubeStart) {
      if ((value & 1U) != 0) {
        if (m_state != State::kIdle || m_start_request) {
          trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // already running
          return;
        }
        m_start_request_event.notify(delay);  // takes effect at the annotated time
      }
    } else if (offset == map::kCubeMaxCycles) {
      m_max_cycles = value;
    } else {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // read-only register
      return;
    }
  } else if (trans.get_command() == tlm::TLM_READ_COMMAND) {
    u64 value = 0;
    switch (offset) {
      case map::kCubeMaxCycles:
        value = m_max_cycles;
        break;
      case map::kCubeStatus:
        value = (m_finished ? 1U : 0U) | (m_timeout ? 2U : 0U);
        break;
      case map::kCubeCycles:
        value = m_cycles;
        break;
      case map::kCubeXferCycles:
        value = m_xfer_cycles;
        break;
      case map::kCubeWords:
        value = m_probe.words();
        break;
      case map::kCubeLocalCycles:
        value = m_local_cycles;
        break;
      case map::kCubeMacCycles:
        value = m_mac_cycles;
        break;
      default:
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // write-only register
        return;
    }
    std::memcpy(data, &value, 8);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace hcube

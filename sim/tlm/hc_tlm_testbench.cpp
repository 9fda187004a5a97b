#include "hc_tlm_testbench.h"

#include <chrono>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "tables/table_image.h"

namespace hcube {

HcTlmTestbench::HcTlmTestbench(sc_core::sc_module_name name, const TableSet& set,
                               const CubeMemory& initial, const HcTlmConfig& config, u64 max_cycles)
    : sc_core::sc_module(name),
      m_socket("socket"),
      m_done("done"),
      m_set(set),
      m_initial(initial),
      m_config(config),
      m_max_cycles(max_cycles) {
  SC_THREAD(run);
}

void HcTlmTestbench::access(tlm::tlm_command command, u64 address, void* data, unsigned bytes,
                            sc_core::sc_time& delay) {
  m_trans.set_command(command);
  m_trans.set_address(address);
  m_trans.set_data_ptr(static_cast<unsigned char*>(data));
  m_trans.set_data_length(bytes);
  m_trans.set_streaming_width(bytes);
  m_trans.set_byte_enable_ptr(nullptr);
  m_trans.set_byte_enable_length(0);
  m_trans.set_dmi_allowed(false);
  m_trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  m_socket->b_transport(m_trans, delay);
  if (m_trans.is_response_error()) {
    std::ostringstream msg;
    msg << "load bus: " << (command == tlm::TLM_WRITE_COMMAND ? "write" : "read") << " of " << bytes
        << " bytes at 0x" << std::hex << address << ": " << m_trans.get_response_string();
    throw Error(msg.str());
  }
}

u64 HcTlmTestbench::readRegister(u64 offset, sc_core::sc_time& delay) {
  u64 value = 0;
  access(tlm::TLM_READ_COMMAND, hc_tlm_map::cubeRegister(offset), &value, 8, delay);
  return value;
}

void HcTlmTestbench::writeRegister(u64 offset, u64 value, sc_core::sc_time& delay) {
  access(tlm::TLM_WRITE_COMMAND, hc_tlm_map::cubeRegister(offset), &value, 8, delay);
}

void HcTlmTestbench::run() {
  namespace map = hc_tlm_map;
  try {
    // Loading is loosely timed: the accesses accumulate their latencies in a local time offset,
    // and the testbench synchronises once before it starts the run.
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const ImageLayout layout = m_config.layout();
    const unsigned word_bytes = m_config.tableWordBytes();
    std::vector<u64> image;
    for (size_t t = 0; t < m_set.tables.size(); ++t) {
      const Table& table = m_set.tables[t];
      if (table.empty()) continue;
      image.clear();
      for (const Instruction& ins : table) {
        const TableWord word = encodeInstruction(ins, layout);
        image.insert(image.end(), word.begin(), word.end());
      }
      const u64 address = m_set.shared ? map::broadcast(map::kRegionTable, 0)
                                       : map::address(t, map::kRegionTable, 0);
      access(tlm::TLM_WRITE_COMMAND, address, image.data(),
             static_cast<unsigned>(table.size()) * word_bytes, delay);
    }
    const u64 words = m_initial.words_per_node;
    std::vector<u32> slots(words);
    for (u64 x = 0; x < m_initial.nodes; ++x) {
      for (u64 s = 0; s < words; ++s) slots[s] = m_initial.at(x, s);
      access(tlm::TLM_WRITE_COMMAND, map::address(x, map::kRegionMemory, 0), slots.data(),
             static_cast<unsigned>(4 * words), delay);
    }
    writeRegister(map::kCubeMaxCycles, m_max_cycles, delay);
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;

    writeRegister(map::kCubeStart, 1, delay);
    const auto started = std::chrono::steady_clock::now();
    wait(m_done.posedge_event());
    m_result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    const u64 status = readRegister(map::kCubeStatus, delay);
    m_result.timeout = (status & 2U) != 0;
    m_result.cycles = readRegister(map::kCubeCycles, delay);
    m_result.transfer_cycles = readRegister(map::kCubeXferCycles, delay);
    m_result.words = readRegister(map::kCubeWords, delay);
    m_result.local_cycles = readRegister(map::kCubeLocalCycles, delay);
    m_result.mac_cycles = readRegister(map::kCubeMacCycles, delay);
    m_result.memory.nodes = m_initial.nodes;
    m_result.memory.words_per_node = words;
    m_result.memory.words.assign(m_initial.words.size(), 0);
    std::array<u32, kHwErrorKinds> counters{};
    for (u64 x = 0; x < m_initial.nodes; ++x) {
      access(tlm::TLM_READ_COMMAND, map::address(x, map::kRegionStatus, 0), counters.data(),
             4 * kHwErrorKinds, delay);
      for (int k = 0; k < kHwErrorKinds; ++k) {
        const u32 count = counters[static_cast<size_t>(k)];
        if (count != 0) m_result.errors.push_back({x, static_cast<HwError>(k), count});
      }
      access(tlm::TLM_READ_COMMAND, map::address(x, map::kRegionMemory, 0),
             &m_result.memory.words[x * words], static_cast<unsigned>(4 * words), delay);
    }
    m_completed = true;
  } catch (const std::exception& e) {
    m_error = e.what();
  }
  sc_core::sc_stop();
}

}  // namespace hcube

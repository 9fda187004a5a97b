// hcube TLM model: the testbench that drives a cube through its load bus, as the RTL runner
// (docs/hardware/testbench.md §2) drives hc_cube through its load and scan ports: it writes the
// encoded table words (sw/tables/table_image.h; one broadcast for a shared table, else per node),
// the initial memories and the cycle limit, pulses start, waits for done and reads back the
// counters, the per-node error counters and every memory word.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <string>
#include <systemc>
#include <tlm>

#include "exec/hw_errors.h"
#include "hc_tlm_config.h"
#include "spec/reference.h"
#include "tables/table.h"

namespace hcube {

class HcTlmTestbench : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HcTlmTestbench> m_socket;
  /// The cube's done output.
  sc_core::sc_in<bool> m_done;

  SC_HAS_PROCESS(HcTlmTestbench);
  /// `set`, `initial` and `config` must outlive the simulation. `max_cycles` 0: no limit.
  HcTlmTestbench(sc_core::sc_module_name name, const TableSet& set, const CubeMemory& initial,
                 const HcTlmConfig& config, u64 max_cycles);

  /// True once the run finished and everything was read back.
  bool completed() const { return m_completed; }
  /// What went wrong on the load bus, if anything.
  const std::string& error() const { return m_error; }
  /// Counters, errors and memory read back (link_words and span come from the cube's probe).
  const RunResult& result() const { return m_result; }

 private:
  void run();
  void access(tlm::tlm_command command, u64 address, void* data, unsigned bytes,
              sc_core::sc_time& delay);
  u64 readRegister(u64 offset, sc_core::sc_time& delay);
  void writeRegister(u64 offset, u64 value, sc_core::sc_time& delay);

  const TableSet& m_set;
  const CubeMemory& m_initial;
  const HcTlmConfig& m_config;
  const u64 m_max_cycles;
  tlm::tlm_generic_payload m_trans;
  RunResult m_result;
  std::string m_error;
  bool m_completed = false;
};

}  // namespace hcube

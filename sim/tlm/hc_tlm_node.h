// hcube TLM model: one node of the Boolean n-cube (docs/hardware/node.md, checks.md), the TLM-2.0
// counterpart of rtl/hc_node.sv.
//
// A node holds M words of memory, a table memory of D words written through its load socket
// (encoded table words, sw/tables/table_image.h; decoded at start by the cube's shared decoder) and
// a sequencer (sw/tables/sequencer.h) that executes one instruction per clock cycle after the start
// pulse; past the last loaded word it reads END. Its sockets are those of every cube node
// (hc_cube_node.h): per port an initiator socket for the words it sends and a target socket
// for the words arriving, one transaction per port and cycle carrying the port's lanes.
//
// The node has no process of its own: the cube's clock processes call it (README.md). At the
// rising edge of cycle k (sendPhase) it reads its memory and PASS registers and sends: a store
// into the neighbour's input register through the DMI pointer the neighbour granted at start,
// or b_transport where it denied DMI (the receiver annotates the link latency and latches the
// words); a PERMUTE reads the words it copies. At the falling edge (receivePhase) it stores
// the words that arrived (or the PERMUTE copies), fills its PASS registers and advances its
// sequencer. Error counters count the cycles in which a condition held (docs/hardware/checks.md).
#pragma once

#include <array>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "exec/hw_errors.h"
#include "hc_cube_node.h"
#include "hc_load_access.h"
#include "hc_port_link.h"
#include "hc_tlm_config.h"
#include "hc_tlm_decoder.h"
#include "hc_tlm_probe.h"
#include "tables/mac.h"
#include "tables/sequencer.h"
#include "tables/table.h"

namespace hcube {

class HcTlmNode final : public HcCubeNode {
 public:
  /// `link_latency` is annotated by the port target on every word that arrives (it must be
  /// shorter than half a clock period: a word crosses its link within the cycle);
  /// `load_latency` by the load target on every access.
  HcTlmNode(sc_core::sc_module_name name, u64 id, const HcTlmConfig& config, HcTlmProbe& probe,
            HcTlmDecoder& decoder, const sc_core::sc_time& clock_period,
            const sc_core::sc_time& link_latency, const sc_core::sc_time& load_latency);

  void startRun() override;
  void sendPhase() override;
  void receivePhase() override;
  void endRun() override;
  bool done() const override { return m_done; }
  u64 idleCycles() const override;
  void skipIdle(u64 cycles, u64 last_cycle) override;
  void trace(sc_core::sc_trace_file* tf, const std::string& prefix) override;
  void clearTrace() override;

 private:
  void sendXfer(const Instruction& ins);
  /// Sends port `port`'s staged words by b_transport (the neighbour denied DMI).
  void transmit(int port);
  void readCopies(const Instruction& ins);
  void receiveXfer(const Instruction& ins);
  void writeCopies(const Instruction& ins);
  /// Cycle t of a MAC (docs/hardware/arithmetic.md §2): the write it makes at the end of the cycle.
  MacCycle multiplyAccumulate(const MacField& mac, u64 t);
  /// MAC overlap mode (docs/hardware/arithmetic.md §3): the `overlap` checks of `ins` against the
  /// MAC running beside it.
  void checkOverlap(const Instruction& ins, const MacField& mac);
  /// Receive-slot checks on the instruction (range, two channels naming one slot), for the
  /// channels whose input side writes memory.
  void checkWriteSlots(const Instruction& ins, bool permute);
  /// PASS words from the previous cycle that `ins` does not forward are dropped; then the PASS
  /// registers are free again. `ins` null: no instruction forwards anything this cycle.
  void checkDropped(const Instruction* ins);

  /// The port targets' b_transport: latches the arriving words in the input registers (the
  /// falling edge counts them lost unless the instruction is an XFER). A WRITE at
  /// kPortRegisters writes the registers themselves (the memory that DMI exposes).
  void portTransport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  /// The port targets' get_direct_mem_ptr: write access to the port's input registers at
  /// kPortRegisters, with the link latency as the write latency; denied while tracing (the VCD
  /// shows a word when it arrives, which only b_transport sees).
  bool portDmi(int port, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  /// At start: asks every neighbour for DMI to its input registers (m_dmi).
  void acquireDmi();
  /// Not an XFER (or ended): words that arrived in this cycle are lost.
  void discardArrivals();
  void end_of_elaboration() override;
  void loadTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  unsigned loadDebug(tlm::tlm_generic_payload& trans) override;
  /// The load-path access itself; returns the bytes moved (0 with an error response set).
  unsigned loadAccess(tlm::tlm_generic_payload& trans);

  /// Records that the condition of `e` holds in the current cycle. A counter counts the cycles
  /// in which its condition held (docs/hardware/checks.md): events are collected per cycle and
  /// counted once the cycle is over.
  void raise(HwError e) { raiseAt(m_probe.cycle(), e); }
  /// The same in `cycle`; the first time per cycle and kind it is also handed to the probe's
  /// error event log (when the probe records, sw/exec/hw_errors.h HwErrorEvent).
  void raiseAt(u64 cycle, HwError e) {
    if (cycle != m_events_cycle) {
      countEvents();
      m_events_cycle = cycle;
    }
    const u32 bit = 1U << static_cast<int>(e);
    if ((m_events & bit) == 0 && m_probe.recording()) m_probe.errorEvent({cycle, m_id, e});
    m_events |= bit;
  }
  /// Adds the collected events to the saturating 16-bit counters.
  void countEvents();
  u64 resolve(u32 slot, bool rel) const { return rel ? (slot ^ m_id) : slot; }

  // Configuration.
  const HcTlmConfig m_config;
  const size_t m_channels;
  const unsigned m_table_word_bytes;
  HcTlmProbe& m_probe;
  HcTlmDecoder& m_decoder;
  const sc_core::sc_time m_link_latency;
  const sc_core::sc_time m_load_latency;
  const sc_core::sc_time m_half_period;

  /// What the port callback touches, on two cache lines of its own: on a big cube the node
  /// that receives is rarely in the cache, and every line the callback reads is a miss.
  static constexpr size_t kInboxChannels = 10;
  struct alignas(64) Inbox {
    bool tracing = false;
    unsigned lanes = 1;
    sc_core::sc_time latency;      ///< the link latency, annotated on every arriving word
    HcPortRegister* in = nullptr;  ///< input registers: words arriving this cycle, per channel
    std::array<HcPortRegister, kInboxChannels> latches{};  ///< ... up to kInboxChannels channels
  };
  Inbox m_inbox;
  std::vector<HcPortRegister> m_in_more;  ///< the input registers of a node with more channels
  bool m_tracing = false;

  // Architectural state.
  bool m_running = false;    ///< a run is in progress (the table cannot be written)
  bool m_done = true;        ///< END reached since the last start
  bool m_pass_held = false;  ///< some PASS register holds a word
  std::vector<u32> m_memory;
  std::vector<u64> m_table_bits;  ///< table memory: D raw words (cleared to END)
  size_t m_table_length = 0;      ///< one past the highest word written (the RTL's tbl_len)
  const Table* m_table;           ///< its loaded words decoded, from the shared decoder
  /// Per instruction of m_table: its writes never name one slot twice (HcTlmDecoder::Decoded).
  const char* m_distinct_writes = nullptr;
  Sequencer m_seq;
  std::array<u32, kHwErrorKinds> m_errors{};
  u32 m_events = 0;  ///< error kinds whose condition held in cycle m_events_cycle
  u64 m_events_cycle = 0;
  std::vector<HcLatch> m_pass;       ///< PASS registers, filled in the previous cycle
  std::vector<HcLatch> m_pass_next;  ///< ... being filled in this cycle
  std::vector<HcLatch> m_copy;       ///< PERMUTE: the word each channel copies this cycle
  std::vector<u32> m_sum;            ///< XFER: an ADD receive's sum, per channel

  /// The words a port sends by b_transport (where the neighbour denied DMI), per channel.
  HcPortSender m_sender;
  std::vector<u32> m_written;  ///< receive slots of this cycle (conflict check)
  /// The neighbours' port interfaces (m_port_out[j].operator->()), looked up once after
  /// binding: one pointer chase less per word.
  std::vector<tlm::tlm_fw_transport_if<>*> m_port_if;
  /// Per port: the neighbour's input registers of the port, granted by DMI at start (null: the
  /// neighbour denied DMI, use b_transport).
  std::vector<HcPortRegister*> m_dmi;

  std::vector<HcChannelTrace> m_trace;
  u32 m_trace_pc = 0;
  bool m_trace_done = false;
};

}  // namespace hcube

#include "hc_tlm_node.h"

#include <algorithm>
#include <cstring>

#include "tables/mac.h"

namespace hcube {
namespace {

constexpr const char* kMsgType = "/hcube/tlm/node";

}  // namespace

HcTlmNode::HcTlmNode(sc_core::sc_module_name name, u64 id, const HcTlmConfig& config,
                     HcTlmProbe& probe, HcTlmDecoder& decoder, const sc_core::sc_time& clock_period,
                     const sc_core::sc_time& link_latency, const sc_core::sc_time& load_latency)
    : HcCubeNode(name, id, config.n),
      m_config(config),
      m_channels(config.channels()),
      m_table_word_bytes(config.tableWordBytes()),
      m_probe(probe),
      m_decoder(decoder),
      m_link_latency(link_latency),
      m_load_latency(load_latency),
      m_half_period(sc_core::sc_time::from_value(clock_period.value() / 2)),
      m_memory(config.memory_words, 0),
      m_table_bits(config.table_depth * (m_table_word_bytes / 8), 0),
      m_table(&decoder.decode(m_table_bits, 0).table),
      m_seq(m_table),
      m_pass(m_channels),
      m_pass_next(m_channels),
      m_copy(m_channels),
      m_sum(m_channels, 0),
      m_sender(*this, kMsgType, config.lanes, m_channels, m_half_period),
      m_dmi(static_cast<size_t>(config.n), nullptr),
      m_trace(m_channels) {
  m_inbox.lanes = static_cast<unsigned>(config.lanes);
  m_inbox.latency = link_latency;
  if (m_channels > kInboxChannels) m_in_more.resize(m_channels);
  m_inbox.in = m_channels > kInboxChannels ? m_in_more.data() : m_inbox.latches.data();
  checkLinkLatency(m_link_latency, m_half_period, kMsgType,
                   "the link latency must be shorter than half a clock period");
  m_written.reserve(m_channels);
  registerPortCallback(&HcTlmNode::portTransport);
  registerPortDmi(&HcTlmNode::portDmi);
}

void HcTlmNode::trace(sc_core::sc_trace_file* tf, const std::string& prefix) {
  traceChannels(tf, prefix, m_config.n, m_config.lanes, m_trace);
  sc_core::sc_trace(tf, m_trace_done, prefix + ".done");
  sc_core::sc_trace(tf, m_trace_pc, prefix + ".pc");
  m_tracing = true;
  m_inbox.tracing = true;
}

void HcTlmNode::clearTrace() {
  for (HcChannelTrace& t : m_trace) t = {};
}

// ---------------------------------------------------------------------------------------------
// Sequencer and data path
// ---------------------------------------------------------------------------------------------

void HcTlmNode::startRun() {
  const HcTlmDecoder::Decoded& decoded = m_decoder.decode(m_table_bits, m_table_length);
  m_table = &decoded.table;
  m_distinct_writes = decoded.distinct_writes.data();
  m_seq = Sequencer(m_table, m_config.mac_units, m_config.mac_overlap);
  m_errors = {};
  m_events = 0;
  m_events_cycle = 0;
  std::fill(m_pass.begin(), m_pass.end(), HcLatch{});
  std::fill(m_pass_next.begin(), m_pass_next.end(), HcLatch{});
  std::fill(m_inbox.in, m_inbox.in + m_channels, HcPortRegister{});
  m_pass_held = false;
  m_trace_pc = 0;
  m_done = m_seq.done();
  m_trace_done = m_done;
  m_running = true;
  acquireDmi();
}

void HcTlmNode::endRun() { m_running = false; }

void HcTlmNode::sendPhase() {
  if (m_done) {
    // Ended: a PASS word of the last cycle is dropped (words arriving now are counted lost by
    // the port callback).
    if (m_pass_held) checkDropped(nullptr);
    return;
  }
  const Instruction& ins = m_seq.current();
  if (m_seq.macWork() != nullptr)
    m_probe.mac();  // the MAC units are busy (docs/hardware/arithmetic.md §2,
                    // docs/hardware/arithmetic.md §3)
  switch (ins.op) {
    case Opcode::kXfer:
      sendXfer(ins);
      return;
    case Opcode::kPermute:
      readCopies(ins);
      checkDropped(nullptr);
      m_probe.local();
      return;
    case Opcode::kWait:
      if (m_pass_held) checkDropped(nullptr);
      if (ins.wait == 0) raise(HwError::kIllegal);
      return;
    case Opcode::kMac:  // no port is used: a held PASS word is dropped
    case Opcode::kEnd:  // END while the MAC units drain (overlap mode): likewise
      if (m_pass_held) checkDropped(nullptr);
      return;
    default:  // a table word the decoder rejected: a one-cycle illegal instruction
      raise(HwError::kIllegal);
      checkDropped(nullptr);
      return;
  }
}

void HcTlmNode::receivePhase() {
  if (m_done) {
    discardArrivals();
    return;
  }
  const Instruction& ins = m_seq.current();
  // ---- the MAC units' cycle (docs/hardware/arithmetic.md §2, §3), formed from the memory as
  // it is at the start of the cycle and written after the channels' writes ----
  MacCycle work;
  if (const MacField* mac = m_seq.macWork()) {
    work = multiplyAccumulate(*mac, m_seq.macCycle());
    if (m_seq.macBusy()) checkOverlap(ins, *mac);
  }
  if (ins.op == Opcode::kXfer) {
    receiveXfer(ins);
  } else {
    if (ins.op == Opcode::kPermute) writeCopies(ins);
    discardArrivals();  // only an XFER has input registers
  }
  if (work.writes) m_memory[work.slot] = work.word;
  const size_t pc_before = m_seq.pc();
  m_seq.advance();
  // Running off a table that has no END is an overrun (then the sequencer reads END).
  if (m_seq.pc() != pc_before) {
    if (m_seq.pc() >= m_table->size()) raise(HwError::kOverrun);
    m_trace_pc = static_cast<u32>(m_seq.pc());
  }
  m_done = m_seq.done();  // END reached and the MAC units idle
  m_trace_done = m_done;
}

u64 HcTlmNode::idleCycles() const {
  if (m_pass_held) return 0;  // its next cycle drops PASS words
  if (m_done) return ~u64{0};
  if (m_seq.macBusy()) return 0;  // its MAC units work in every cycle
  return m_seq.waitLeft();        // 0 unless in a WAIT
}

void HcTlmNode::skipIdle(u64 cycles, u64 last_cycle) {
  if (m_done) return;
  const size_t pc_before = m_seq.pc();
  m_seq.skipWait(cycles);
  if (m_seq.pc() != pc_before) {
    // As receivePhase: running off a table without END is an overrun, in the last cycle.
    if (m_seq.pc() >= m_table->size()) {
      raiseAt(last_cycle, HwError::kOverrun);
    }
    m_done = m_seq.done();
    m_trace_pc = static_cast<u32>(m_seq.pc());
    m_trace_done = m_done;
  }
}

void HcTlmNode::sendXfer(const Instruction& ins) {
  const int lanes = m_config.lanes;
  int sending_ports = 0;
  int receiving_ports = 0;
  const Channel* channels = ins.channels.data();
  // On a big cube the words sent and the neighbours' port targets are rarely in the cache: ask
  // for all of them first, so that their misses overlap instead of queueing. (A word written
  // through DMI is a store, which does not wait for its line.)
  for (size_t c = 0; c < m_channels; ++c) {
    const OutField& out = channels[c].out;
    if (out.op == OutOp::kMem) {
      const u64 slot = resolve(out.idx, out.rel);
      if (slot < m_config.memory_words) __builtin_prefetch(&m_memory[slot]);
    }
    // ... and the slots the falling edge writes (the same instruction), for writing.
    const InField& in = channels[c].in;
    if (in.writes()) {
      const u64 slot = resolve(in.slot, in.rel);
      if (slot < m_config.memory_words) __builtin_prefetch(&m_memory[slot], 1);
    }
  }
  for (size_t p = 0; p < m_port_if.size(); ++p) {
    if (m_dmi[p] != nullptr) continue;
    const char* target = reinterpret_cast<const char*>(m_port_if[p]);
    __builtin_prefetch(target);  // its vtable pointer, then the callback it forwards to
    __builtin_prefetch(target + 64);
  }
  for (int p = 0; p < m_config.n; ++p) {
    HcPortRegister* direct = m_dmi[static_cast<size_t>(p)];
    bool sends = false;     // a non-IDLE output side (one-port rule)
    bool receives = false;  // a non-IDLE input side
    bool carries = false;   // a word actually leaves on this port
    for (int l = 0; l < lanes; ++l) {
      const size_t c = static_cast<size_t>(p * lanes + l);
      const Channel& ch = channels[c];
      receives = receives || ch.in.op != InOp::kIdle;
      sends = sends || ch.out.op != OutOp::kIdle;
      bool valid = false;
      u32 word = 0;
      if (ch.out.op == OutOp::kMem) {
        const u64 slot = resolve(ch.out.idx, ch.out.rel);
        if (slot < m_config.memory_words) {
          word = m_memory[slot];
        } else {
          raise(HwError::kSlot);  // sends the word 0, as the RTL does
        }
        valid = true;
      } else if (ch.out.op == OutOp::kFwd) {
        if (ch.out.idx < m_channels && m_pass[ch.out.idx].valid) {
          valid = true;
          word = m_pass[ch.out.idx].data;
        } else {
          raise(HwError::kFwd);
        }
      }
      // A fault on the link (sw/exec/fault.h) changes or removes the word as it leaves the node.
      if (valid && m_probe.fault() != nullptr) {
        valid = m_probe.fault()->apply(m_id, p, l, m_probe.cycle(), word);
      }
      if (direct != nullptr) {
        // DMI: straight into the neighbour's input register (lane l of the port).
        if (valid) direct[l] = {word, 1};
      } else {
        m_sender.stage(c, word, valid);
      }
      if (valid) {
        carries = true;
        m_probe.send(m_id, p, word, l);
        if (m_tracing) m_trace[c] = {true, word, m_trace[c].in_valid, m_trace[c].in_data};
      }
    }
    if (carries && direct == nullptr) transmit(p);
    sending_ports += sends ? 1 : 0;
    receiving_ports += receives ? 1 : 0;
  }
  if (m_config.one_port && (sending_ports > 1 || receiving_ports > 1)) raise(HwError::kOnePort);
  if (m_pass_held) checkDropped(&ins);
}

// ---- block multiply-accumulate (docs/hardware/arithmetic.md §2, sw/tables/mac.h) ----
MacCycle HcTlmNode::multiplyAccumulate(const MacField& mac, u64 t) {
  const MacCycle work = macStep(mac, m_config.mac_units, t, m_config.memory_words,
                                [&](u64 slot) { return m_memory[slot]; });
  if (work.out_of_range) raise(HwError::kSlot);
  if (macOverlap(mac)) raise(HwError::kConflict);
  return work;
}

void HcTlmNode::checkOverlap(const Instruction& ins, const MacField& mac) {
  // MAC overlap mode (docs/hardware/arithmetic.md §3): the units run `mac`, issued in an earlier
  // cycle, beside `ins`.
  bool hazard = m_seq.macRefused();  // a second MAC (not the running one's own instruction)
  if (ins.op == Opcode::kXfer || ins.op == Opcode::kPermute) {
    const bool permute = ins.op == Opcode::kPermute;
    for (const Channel& ch : ins.channels) {
      // An illegal PERMUTE channel copies nothing and is not checked.
      if (permute && (ch.out.op != OutOp::kMem || ch.in.op != InOp::kMem)) continue;
      if (ch.out.op == OutOp::kMem && macReadHazard(mac, resolve(ch.out.idx, ch.out.rel))) {
        hazard = true;
      }
      if (ch.in.writes() && macWriteHazard(mac, resolve(ch.in.slot, ch.in.rel))) hazard = true;
    }
  }
  if (hazard) raise(HwError::kOverlap);
}

void HcTlmNode::end_of_elaboration() {
  m_port_if.clear();
  for (auto& socket : m_port_out) m_port_if.push_back(socket.operator->());
}

void HcTlmNode::acquireDmi() {
  const u64 bytes = 8 * static_cast<u64>(m_config.lanes);
  for (size_t p = 0; p < m_dmi.size(); ++p) {
    m_dmi[p] = nullptr;
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(kPortRegisters);
    trans.set_data_length(static_cast<unsigned>(bytes));
    tlm::tlm_dmi dmi;
    if (!m_port_out[p]->get_direct_mem_ptr(trans, dmi)) continue;
    if (!dmi.is_write_allowed() || dmi.get_dmi_ptr() == nullptr ||
        dmi.get_start_address() > kPortRegisters ||
        dmi.get_end_address() < kPortRegisters + bytes - 1) {
      continue;
    }
    // As for b_transport: the word must reach the register before the falling edge stores it.
    m_sender.checkArrival(static_cast<int>(p), dmi.get_write_latency(), "DMI write latency");
    m_dmi[p] = reinterpret_cast<HcPortRegister*>(dmi.get_dmi_ptr() +
                                                 (kPortRegisters - dmi.get_start_address()));
  }
}

void HcTlmNode::transmit(int port) {
  m_sender.transmit(port, m_port_if[static_cast<size_t>(port)]);
}

void HcTlmNode::checkWriteSlots(const Instruction& ins, bool permute) {
  m_written.clear();
  // The decoder knows the instructions whose writes never name one slot twice at any node.
  const bool distinct = m_distinct_writes[m_seq.pc()] != 0;
  for (const Channel& ch : ins.channels) {
    if (!ch.in.writes()) continue;
    // An illegal PERMUTE channel (ADD included) copies nothing and is not checked.
    if (permute && (ch.out.op != OutOp::kMem || ch.in.op != InOp::kMem)) continue;
    const u64 slot = resolve(ch.in.slot, ch.in.rel);
    if (slot >= m_config.memory_words) {
      raise(HwError::kSlot);
      continue;
    }
    if (distinct) continue;
    if (std::find(m_written.begin(), m_written.end(), slot) != m_written.end()) {
      raise(HwError::kConflict);
    }
    m_written.push_back(static_cast<u32>(slot));
  }
}

void HcTlmNode::receiveXfer(const Instruction& ins) {
  // Receive slots are checked on the instruction, whether or not words arrive: out of range,
  // or two MEM inputs naming one slot.
  checkWriteSlots(ins, false);
  // ---- combining receive (docs/hardware/arithmetic.md §1) ----
  // An ADD stores the slot as it was at the start of the cycle plus the arriving word (W = 32
  // bit wrap-around): every sum is formed before any receive of the cycle writes.
  for (size_t c = 0; c < m_channels; ++c) {
    const InField& in = ins.channels[c].in;
    if (in.op != InOp::kAdd || m_inbox.in[c].valid == 0) continue;
    const u64 slot = resolve(in.slot, in.rel);
    if (slot < m_config.memory_words) m_sum[c] = m_memory[slot] + m_inbox.in[c].data;
  }
  bool pass_held = false;
  for (size_t c = 0; c < m_channels; ++c) {
    const HcPortRegister arriving = m_inbox.in[c];
    m_inbox.in[c].valid = 0;
    m_pass_next[c] = {};
    const InField& in = ins.channels[c].in;
    switch (in.op) {
      case InOp::kIdle:
        if (arriving.valid != 0) raise(HwError::kLost);
        break;
      case InOp::kPass:
        if (arriving.valid != 0) {
          m_pass_next[c] = {true, arriving.data};
          pass_held = true;
        } else {
          raise(HwError::kNoData);
        }
        break;
      case InOp::kMem: {
        if (arriving.valid == 0) {
          raise(HwError::kNoData);
          break;
        }
        const u64 slot = resolve(in.slot, in.rel);
        if (slot >= m_config.memory_words) break;  // counted above
        m_memory[slot] = arriving.data;            // with a conflict, the higher channel wins
        m_probe.store(arriving.data);
        break;
      }
      case InOp::kAdd: {  // the sum formed above
        if (arriving.valid == 0) {
          raise(HwError::kNoData);
          break;
        }
        const u64 slot = resolve(in.slot, in.rel);
        if (slot >= m_config.memory_words) break;  // counted above
        m_memory[slot] = m_sum[c];                 // with a conflict, the higher channel wins
        m_probe.store(arriving.data);
        break;
      }
    }
  }
  std::swap(m_pass, m_pass_next);
  m_pass_held = pass_held;
}

void HcTlmNode::discardArrivals() {
  bool lost = false;
  for (size_t c = 0; c < m_channels; ++c) {
    if (m_inbox.in[c].valid == 0) continue;
    lost = true;
    m_inbox.in[c].valid = 0;
  }
  if (lost) raise(HwError::kLost);
}

void HcTlmNode::readCopies(const Instruction& ins) {
  // docs/hardware/node.md §2.1: MEM(a)/MEM(b) copies slot a into slot b, reading the memory as it
  // is at the start of the cycle; IDLE/IDLE does nothing; anything else is illegal and copies
  // nothing. A read outside the memory is a slot error and copies the word 0.
  for (size_t c = 0; c < m_channels; ++c) {
    const Channel& ch = ins.channels[c];
    m_copy[c] = {};
    if (ch.out.op == OutOp::kIdle && ch.in.op == InOp::kIdle) continue;
    if (ch.out.op != OutOp::kMem || ch.in.op != InOp::kMem) {
      raise(HwError::kIllegal);
      continue;
    }
    const u64 slot = resolve(ch.out.idx, ch.out.rel);
    u32 word = 0;
    if (slot < m_config.memory_words) {
      word = m_memory[slot];
    } else {
      raise(HwError::kSlot);
    }
    m_copy[c] = {true, word};
  }
}

void HcTlmNode::writeCopies(const Instruction& ins) {
  checkWriteSlots(ins, true);
  for (size_t c = 0; c < m_channels; ++c) {  // of two copies into one slot, the higher wins
    if (!m_copy[c].valid) continue;
    const InField& in = ins.channels[c].in;
    const u64 slot = resolve(in.slot, in.rel);
    if (slot < m_config.memory_words) m_memory[slot] = m_copy[c].data;
  }
}

void HcTlmNode::countEvents() {
  for (int k = 0; k < kHwErrorKinds; ++k) {
    u32& count = m_errors[static_cast<size_t>(k)];
    if (((m_events >> k) & 1U) != 0 && count < 0xFFFF) ++count;
  }
  m_events = 0;
}

void HcTlmNode::checkDropped(const Instruction* ins) {
  for (size_t c = 0; c < m_channels; ++c) {
    if (!m_pass[c].valid) continue;
    bool forwarded = false;
    if (ins != nullptr) {
      for (const Channel& ch : ins->channels) {
        forwarded = forwarded || (ch.out.op == OutOp::kFwd && ch.out.idx == c);
      }
    }
    if (!forwarded) raise(HwError::kDropped);
    // Without an XFER nothing refills the PASS registers this cycle.
    if (ins == nullptr) m_pass[c].valid = false;
  }
  if (ins == nullptr) m_pass_held = false;
}

// ---------------------------------------------------------------------------------------------
// Sockets
// ---------------------------------------------------------------------------------------------

void HcTlmNode::portTransport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  Inbox& box = m_inbox;
  const unsigned lanes = box.lanes;
  const u64 address = trans.get_address();
  if (address >= kPortRegisters && trans.get_command() == tlm::TLM_WRITE_COMMAND) {
    // The input registers themselves (what DMI grants): plain bytes, no byte enables.
    const u64 offset = address - kPortRegisters;
    const u64 length = trans.get_data_length();
    if (offset + length > 8 * u64{lanes} || trans.get_streaming_width() < length) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (trans.get_byte_enable_ptr() != nullptr) {
      trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
      return;
    }
    std::memcpy(
        reinterpret_cast<unsigned char*>(box.in + static_cast<size_t>(port) * lanes) + offset,
        trans.get_data_ptr(), length);
    delay += box.latency;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const bool accepted = acceptPortWords(port, lanes, trans, [&box, this](size_t c, u32 word) {
    if (box.tracing) {
      m_trace[c].in_valid = true;
      m_trace[c].in_data = word;
    }
    // Only an XFER has input registers: in any other instruction the falling edge counts the
    // word lost (discardArrivals).
    box.in[c] = {word, 1};
  });
  if (accepted) delay += box.latency;
}

void HcTlmNode::loadTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  loadAccess(trans);
  delay += m_load_latency;
}

unsigned HcTlmNode::loadDebug(tlm::tlm_generic_payload& trans) { return loadAccess(trans); }

unsigned HcTlmNode::loadAccess(tlm::tlm_generic_payload& trans) {
  namespace map = hc_tlm_map;
  HcLoadAccess a;
  if (!decodeLoadAccess(trans, a)) return 0;
  auto fail = [&](tlm::tlm_response_status status) {
    trans.set_response_status(status);
    return 0U;
  };
  switch (a.region) {
    case map::kRegionTable: {
      const unsigned bytes = m_table_word_bytes;
      if (!coversWholeItems(a, bytes, m_config.table_depth)) {
        return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      }
      // The table cannot change under a running sequencer.
      if (a.write && m_running) return fail(tlm::TLM_COMMAND_ERROR_RESPONSE);
      const size_t first = a.offset / bytes;
      unsigned char* bits = reinterpret_cast<unsigned char*>(&m_table_bits[first * (bytes / 8)]);
      if (a.write) {
        std::memcpy(bits, a.data, a.length);  // decoded at the next start
        m_table_length = std::max(m_table_length, first + a.length / bytes);
      } else {
        std::memcpy(a.data, bits, a.length);
      }
      break;
    }
    case map::kRegionMemory: {
      if (!coversWholeItems(a, 4, m_memory.size())) return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      u32* slots = &m_memory[a.offset / 4];
      if (a.write) {
        std::memcpy(slots, a.data, a.length);
      } else {
        std::memcpy(a.data, slots, a.length);
      }
      break;
    }
    case map::kRegionStatus: {
      HcNodeStatus status{};
      for (int k = 0; k < kHwErrorKinds; ++k) {  // with the events of the cycle not yet counted
        const u32 count = m_errors[static_cast<size_t>(k)] + ((m_events >> k) & 1U);
        status[static_cast<size_t>(k)] = std::min<u32>(count, 0xFFFF);
      }
      status[kHwErrorKinds] = m_done ? 1 : 0;
      if (!readStatus(trans, a, status)) return 0;
      break;
    }
    default:
      return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return a.length;
}

bool HcTlmNode::portDmi(int port, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const u64 first = kPortRegisters;
  const u64 last = first + 8 * static_cast<u64>(m_inbox.lanes) - 1;
  const u64 address = trans.get_address();
  // Denied (the whole port, as tlm_dmi's defaults say) while tracing and outside the registers.
  if (m_inbox.tracing || address < first || address > last) return false;
  HcPortRegister* registers = m_inbox.in + static_cast<size_t>(port) * m_inbox.lanes;
  dmi.set_dmi_ptr(reinterpret_cast<unsigned char*>(registers));
  dmi.set_start_address(first);
  dmi.set_end_address(last);
  dmi.allow_write();
  dmi.set_write_latency(m_link_latency);
  return true;
}

}  // namespace hcube

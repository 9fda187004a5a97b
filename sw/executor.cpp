#include "executor.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "error.h"
#include "sequencer.h"
#include "traffic_monitor.h"

namespace hcube {
namespace {

struct Latch {
  bool valid = false;
  u32 data = 0;
};

}  // namespace

RunResult executeTables(const TableSet& set, const CubeMemory& initial, const ExecOptions& opt) {
  checkTableShape(set);
  const TableHeader& h = set.header;
  const u64 nodes = h.nodes();
  const size_t channels = h.channels();
  const u64 words_per_node = initial.words_per_node;
  if (initial.nodes != nodes) {
    throw Error("executor: initial memory has " + std::to_string(initial.nodes) +
                " nodes, the tables are for " + std::to_string(nodes));
  }
  const auto started = std::chrono::steady_clock::now();

  RunResult r;
  r.backend = "table";
  r.memory = initial;
  std::vector<Sequencer> seq;
  seq.reserve(nodes);
  for (u64 x = 0; x < nodes; ++x) seq.emplace_back(&set.tableOf(x));

  // Per node and channel: this cycle's outgoing word, the PASS latch filled last cycle and the
  // one being filled this cycle.
  std::vector<Latch> out(nodes * channels);
  std::vector<Latch> pass_prev(nodes * channels);
  std::vector<Latch> pass_next(nodes * channels);
  // Per node and channel: the word a PERMUTE copy read at the start of the cycle.
  std::vector<Latch> copy(nodes * channels);
  std::vector<std::array<u64, kHwErrorKinds>> errors(nodes, std::array<u64, kHwErrorKinds>{});
  // As in the RTL, a counter counts the cycles in which its condition held at a node (not the
  // channels), and saturates at 16 bits.
  std::vector<u32> events(nodes, 0);
  auto raise = [&](u64 node, HwError e) { events[node] |= 1U << static_cast<int>(e); };
  auto count_events = [&] {
    for (u64 x = 0; x < nodes; ++x) {
      for (int k = 0; k < kHwErrorKinds; ++k) {
        u64& count = errors[x][static_cast<size_t>(k)];
        if (((events[x] >> k) & 1U) != 0 && count < 0xFFFF) ++count;
      }
      events[x] = 0;
    }
  };
  TrafficMonitor monitor(nodes, h.n, opt.tagged_elements);
  std::vector<u32> written;  // slots written by one node in one cycle (conflict check)

  auto resolve = [&](u64 node, u32 slot, bool rel) -> u64 { return rel ? (slot ^ node) : slot; };

  for (u64 cycle = 0;; ++cycle) {
    bool busy = false;
    for (u64 x = 0; x < nodes; ++x) busy = busy || !seq[x].done();
    if (!busy) break;
    if (cycle >= opt.max_cycles) {
      r.timeout = true;
      break;
    }
    // Output side: every node reads its memory as it was at the start of the cycle.
    bool carried = false;
    bool local = false;
    for (u64 x = 0; x < nodes; ++x) {
      const Instruction& ins = seq[x].current();
      Latch* o = &out[x * channels];
      Latch* cp = &copy[x * channels];
      int sending_ports = 0;
      int receiving_ports = 0;
      for (size_t c = 0; c < channels; ++c) o[c] = cp[c] = {};
      if (ins.op == Opcode::kPermute) {
        // docs/hardware.md §2.1: a MEM/MEM channel copies a slot (an out-of-range read copies
        // the word 0, as an XFER would send it); IDLE/IDLE does nothing; anything else is
        // illegal and copies nothing. No port is used, so one-port mode does not apply.
        local = true;
        for (size_t c = 0; c < channels; ++c) {
          const Channel& ch = ins.channels[c];
          if (ch.out.op == OutOp::kIdle && ch.in.op == InOp::kIdle) continue;
          if (ch.out.op != OutOp::kMem || ch.in.op != InOp::kMem) {
            raise(x, HwError::kIllegal);
            continue;
          }
          const u64 slot = resolve(x, ch.out.idx, ch.out.rel);
          u32 word = 0;
          if (slot < words_per_node) {
            word = r.memory.at(x, slot);
          } else {
            raise(x, HwError::kSlot);
          }
          cp[c] = {true, word};
        }
      } else if (ins.op == Opcode::kXfer) {
        for (int p = 0; p < h.n; ++p) {
          bool sends = false;
          bool receives = false;
          for (int l = 0; l < h.lanes; ++l) {
            const size_t c = static_cast<size_t>(p * h.lanes + l);
            const Channel& ch = ins.channels[c];
            receives = receives || ch.in.op != InOp::kIdle;
            sends = sends || ch.out.op != OutOp::kIdle;
            if (ch.out.op == OutOp::kMem) {
              const u64 slot = resolve(x, ch.out.idx, ch.out.rel);
              u32 word = 0;
              if (slot < words_per_node) {
                word = r.memory.at(x, slot);
              } else {
                raise(x, HwError::kSlot);
              }
              o[c] = {true, word};
            } else if (ch.out.op == OutOp::kFwd) {
              const Latch& src = pass_prev[x * channels + ch.out.idx];
              if (src.valid) {
                o[c] = src;
              } else {
                raise(x, HwError::kFwd);
              }
            }
          }
          sending_ports += sends ? 1 : 0;
          receiving_ports += receives ? 1 : 0;
        }
      }
      if (h.one_port && (sending_ports > 1 || receiving_ports > 1)) raise(x, HwError::kOnePort);
      // A PASS word from last cycle that no channel forwards now is dropped.
      for (size_t c = 0; c < channels; ++c) {
        if (!pass_prev[x * channels + c].valid) continue;
        bool forwarded = false;
        if (ins.op == Opcode::kXfer) {
          for (const Channel& ch : ins.channels) {
            forwarded = forwarded || (ch.out.op == OutOp::kFwd && ch.out.idx == c);
          }
        }
        if (!forwarded) raise(x, HwError::kDropped);
      }
      for (size_t c = 0; c < channels; ++c) {
        if (o[c].valid) {
          carried = true;
          ++r.words;
          monitor.send(x, static_cast<int>(c) / h.lanes, o[c].data, cycle);
        }
      }
    }
    // Input side: every node writes what arrived, at the end of the cycle.
    for (u64 y = 0; y < nodes; ++y) {
      const Instruction& ins = seq[y].current();
      // Receive slots are checked whether or not a word arrives: out of range, or two MEM
      // inputs naming one slot.
      written.clear();
      if (ins.op == Opcode::kXfer || ins.op == Opcode::kPermute) {
        for (size_t c = 0; c < channels; ++c) {
          const Channel& ch = ins.channels[c];
          if (ch.in.op != InOp::kMem) continue;
          if (ins.op == Opcode::kPermute && ch.out.op != OutOp::kMem) continue;  // illegal
          const u64 slot = resolve(y, ch.in.slot, ch.in.rel);
          if (slot >= words_per_node) {
            raise(y, HwError::kSlot);
            continue;
          }
          if (std::find(written.begin(), written.end(), slot) != written.end()) {
            raise(y, HwError::kConflict);
          }
          written.push_back(static_cast<u32>(slot));
        }
      }
      if (ins.op == Opcode::kPermute) {
        // Local copies land at the end of the cycle; of two copies into one slot the higher
        // channel's word is kept.
        for (size_t c = 0; c < channels; ++c) {
          if (!copy[y * channels + c].valid) continue;
          const InField& in = ins.channels[c].in;
          const u64 slot = resolve(y, in.slot, in.rel);
          if (slot < words_per_node) r.memory.at(y, slot) = copy[y * channels + c].data;
        }
      }
      for (size_t c = 0; c < channels; ++c) {
        const int port = static_cast<int>(c) / h.lanes;
        const Latch& arriving = out[neighbour(y, port) * channels + c];
        const InField in = ins.op == Opcode::kXfer ? ins.channels[c].in : InField{};
        pass_next[y * channels + c] = {};
        switch (in.op) {
          case InOp::kIdle:
            if (arriving.valid) raise(y, HwError::kLost);
            break;
          case InOp::kPass:
            if (arriving.valid) {
              pass_next[y * channels + c] = arriving;
            } else {
              raise(y, HwError::kNoData);
            }
            break;
          case InOp::kMem: {
            if (!arriving.valid) {
              raise(y, HwError::kNoData);
              break;
            }
            const u64 slot = resolve(y, in.slot, in.rel);
            if (slot >= words_per_node) break;  // counted above
            r.memory.at(y, slot) = arriving.data;
            monitor.store(arriving.data, cycle);
            break;
          }
        }
      }
    }
    std::swap(pass_prev, pass_next);
    if (carried) ++r.transfer_cycles;
    if (local) ++r.local_cycles;
    for (u64 x = 0; x < nodes; ++x) {
      // Running off the end of a table that has no END is an overrun (then it reads END).
      const size_t before = seq[x].pc();
      seq[x].advance();
      if (seq[x].pc() != before && seq[x].pc() >= set.tableOf(x).size()) {
        raise(x, HwError::kOverrun);
      }
    }
    count_events();
    ++r.cycles;
  }
  // PASS words still held after every node ended are dropped, as the RTL flags them in the
  // cycle after the last one counted.
  if (!r.timeout) {
    for (u64 x = 0; x < nodes; ++x) {
      for (size_t c = 0; c < channels; ++c) {
        if (pass_prev[x * channels + c].valid) raise(x, HwError::kDropped);
      }
    }
    count_events();
  }
  for (u64 x = 0; x < nodes; ++x) {
    for (int k = 0; k < kHwErrorKinds; ++k) {
      if (errors[x][static_cast<size_t>(k)] != 0) {
        r.errors.push_back({x, static_cast<HwError>(k), errors[x][static_cast<size_t>(k)]});
      }
    }
  }
  r.link_words = monitor.linkWords();
  r.span = monitor.span();
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace hcube

#include "tables/table.h"

#include <algorithm>

#include "base/error.h"

namespace hcube {
namespace {

std::string where(const TableSet& set, u64 table, size_t pc) {
  return (set.shared ? std::string("shared table") : "table of node " + std::to_string(table)) +
         ", instruction " + std::to_string(pc);
}

}  // namespace

u64 TableSet::cycles() const {
  u64 best = 0;
  for (const Table& t : tables) {
    u64 c = 0;
    u64 mac_end = 0;  // overlap mode: the MAC units are busy before this cycle
    for (const Instruction& i : t) {
      if (i.op == Opcode::kEnd) break;
      if (header.mac_overlap && i.op == Opcode::kMac) {
        // Issued if the units are idle (else an `overlap` error: not started); one cycle.
        if (c >= mac_end) mac_end = c + i.cycles(header.mac_units);
        c += 1;
        continue;
      }
      c += i.cycles(header.mac_units);
    }
    best = std::max({best, c, mac_end});
  }
  return best;
}

size_t TableSet::depth() const {
  size_t d = 0;
  for (const Table& t : tables) d = std::max(d, t.size());
  return d;
}

void checkTableShape(const TableSet& set) {
  const TableHeader& h = set.header;
  if (h.n < 1 || h.n > 24)
    throw Error("table header: dim " + std::to_string(h.n) + " out of range");
  if (h.lanes < 1 || h.lanes > 64) {
    throw Error("table header: lanes " + std::to_string(h.lanes) + " out of range (1..64)");
  }
  if (h.perm.n() != h.n || h.perm.slots() != h.slots) {
    throw Error("table header: permutation '" + h.perm.str() +
                "' is for n = " + std::to_string(h.perm.n()) +
                ", K = " + std::to_string(h.perm.slots()) + " but the tables are for dim " +
                std::to_string(h.n) + ", slots " + std::to_string(h.slots));
  }
  const size_t expected_tables = set.shared ? 1 : h.nodes();
  if (set.tables.size() != expected_tables) {
    throw Error("table set has " + std::to_string(set.tables.size()) + " tables, expected " +
                std::to_string(expected_tables));
  }
  if (h.mac_units < 1 || h.mac_units > 64) {
    throw Error("table header: mac-units " + std::to_string(h.mac_units) + " out of range (1..64)");
  }
  const u64 words = h.memoryWords();
  const size_t channels = h.channels();
  for (size_t t = 0; t < set.tables.size(); ++t) {
    const Table& table = set.tables[t];
    for (size_t pc = 0; pc < table.size(); ++pc) {
      const Instruction& ins = table[pc];
      if (ins.op == Opcode::kWait && ins.wait == 0) {
        throw Error(where(set, t, pc) + ": WAIT needs at least 1 cycle");
      }
      if (ins.op == Opcode::kMac) {
        const MacField& f = ins.mac;
        for (const u32 base : {f.a, f.b, f.c}) {
          if (base >= words) {
            throw Error(where(set, t, pc) + ": MAC base slot " + std::to_string(base) +
                        " is out of range (memory has " + std::to_string(words) + " slots)");
          }
        }
        for (const u32 size : {f.m, f.k, f.p}) {
          if (size < 1 || size > words) {
            throw Error(where(set, t, pc) + ": MAC block size " + std::to_string(size) +
                        " is not in 1.." + std::to_string(words));
          }
        }
      }
      if (ins.op != Opcode::kXfer && ins.op != Opcode::kPermute) {
        if (!ins.channels.empty()) {
          throw Error(where(set, t, pc) + ": only XFER and PERMUTE have channels");
        }
        continue;
      }
      if (ins.channels.size() != channels) {
        throw Error(where(set, t, pc) + ": " + (ins.op == Opcode::kXfer ? "XFER" : "PERMUTE") +
                    " has " + std::to_string(ins.channels.size()) + " channels, dim " +
                    std::to_string(h.n) + " x lanes " + std::to_string(h.lanes) + " needs " +
                    std::to_string(channels));
      }
      for (size_t c = 0; c < channels; ++c) {
        const Channel& ch = ins.channels[c];
        // Formed only for a message: every channel of every instruction passes through here.
        auto at = [&] {
          return where(set, t, pc) + ", port " + std::to_string(c / h.lanes) + " lane " +
                 std::to_string(c % h.lanes);
        };
        // A relative slot is XORed with an n-bit node address: its range is checked against
        // the largest slot it can become.
        const u64 rel_span = (u64{1} << h.n) - 1;
        auto max_slot = [&](u64 slot, bool rel) { return rel ? (slot | rel_span) : slot; };
        if (ch.out.op == OutOp::kMem && max_slot(ch.out.idx, ch.out.rel) >= words) {
          throw Error(at() + ": send slot " + std::to_string(ch.out.idx) +
                      (ch.out.rel ? "^node" : "") + " is out of range (memory has " +
                      std::to_string(words) + " slots)");
        }
        if (ch.out.op == OutOp::kFwd && ch.out.idx >= channels) {
          throw Error(at() + ": forwards from channel " + std::to_string(ch.out.idx) +
                      ", which does not exist (" + std::to_string(channels) + " channels)");
        }
        if (ch.out.op != OutOp::kMem && ch.out.rel) {
          throw Error(at() + ": relative flag on an output that is not MEM");
        }
        if (ch.in.writes() && max_slot(ch.in.slot, ch.in.rel) >= words) {
          throw Error(at() + ": receive slot " + std::to_string(ch.in.slot) +
                      (ch.in.rel ? "^node" : "") + " is out of range (memory has " +
                      std::to_string(words) + " slots)");
        }
        if (!ch.in.writes() && ch.in.rel) {
          throw Error(at() + ": relative flag on an input that is not MEM or ADD");
        }
      }
    }
  }
}

}  // namespace hcube

#include "exec/exec_program.h"

#include <algorithm>

#include "base/error.h"
#include "tables/mac.h"

namespace hcube {
namespace {

class Decoder {
 public:
  Decoder(const TableHeader& h, u64 words_per_node, bool shared, ExecProgram& p)
      : h_(h), words_(words_per_node), node_mask_(h.nodes() - 1), shared_(shared), p_(p) {}

  /// Appends the steps of `table` and its closing END; returns the index of its first step.
  u32 decode(const Table& table) {
    const u32 entry = index(p_.steps.size());
    for (const Instruction& ins : table) p_.steps.push_back(step(ins));
    if (table.empty() || table.back().op != Opcode::kEnd) {
      // docs/hardware/node.md §2: past the table the sequencer reads END (an overrun,
      // docs/hardware/checks.md).
      ExecStep end;
      end.overrun = true;
      p_.steps.push_back(end);
    }
    return entry;
  }

 private:
  static u32 index(size_t i) {
    if (i > 0xFFFFFFFFu) throw Error("executor: the decoded tables exceed 2^32 operations");
    return static_cast<u32>(i);
  }

  ExecSlot slot(u32 value, bool rel) const {
    ExecSlot s;
    s.slot = value;
    s.rel_mask = rel ? 0xFFFFFFFFu : 0;
    // The largest address it names at any node: the node bits all set where it is relative.
    const u64 highest = rel ? (u64{value} | node_mask_) : u64{value};
    s.may_overflow = highest >= words_;
    return s;
  }

  /// Pairs of `to` slots that resolve to one slot at some node: equal when both are relative
  /// or both absolute, else at the one node whose address is their XOR.
  template <typename Op>
  ExecRange clashes(const std::vector<Op>& pool, ExecRange ops) {
    const u32 begin = index(p_.clashes.size());
    for (u32 i = ops.begin; i < ops.end; ++i) {
      for (u32 j = i + 1; j < ops.end; ++j) {
        const ExecSlot& a = pool[i].to;
        const ExecSlot& b = pool[j].to;
        const bool meet =
            a.rel_mask == b.rel_mask ? a.slot == b.slot : (a.slot ^ b.slot) <= node_mask_;
        if (meet) p_.clashes.push_back({i - ops.begin, j - ops.begin});
      }
    }
    return {begin, index(p_.clashes.size())};
  }

  ExecStep step(const Instruction& ins) {
    ExecStep s;
    switch (ins.op) {
      case Opcode::kEnd:
        return s;
      case Opcode::kWait:
        s.kind = ExecStep::Kind::kWait;
        s.wait = ins.wait;
        return s;
      case Opcode::kXfer:
        s.kind = ExecStep::Kind::kXfer;
        xfer(ins, s);
        return s;
      case Opcode::kPermute:
        s.kind = ExecStep::Kind::kPermute;
        permute(ins, s);
        return s;
      case Opcode::kMac:
        s.kind = ExecStep::Kind::kMac;
        s.mac = index(p_.macs.size());
        p_.macs.push_back(ins.mac);
        s.mac_cycles = ins.cycles(h_.mac_units);
        return s;
    }
    throw Error("executor: unknown opcode");
  }

  void xfer(const Instruction& ins, ExecStep& s) {
    int sending_ports = 0;
    int receiving_ports = 0;
    s.sends.begin = index(p_.sends.size());
    s.receives.begin = index(p_.receives.size());
    s.forwarded.begin = index(p_.channels.size());
    for (int port = 0; port < h_.n; ++port) {
      bool sends = false;
      bool receives = false;
      for (int lane = 0; lane < h_.lanes; ++lane) {
        const u32 c = static_cast<u32>(port * h_.lanes + lane);
        const Channel& ch = ins.channels[c];
        sends = sends || ch.out.op != OutOp::kIdle;
        receives = receives || ch.in.op != InOp::kIdle;
        if (ch.out.op != OutOp::kIdle) {
          ExecSend op;
          op.channel = c;
          op.port = static_cast<u32>(port);
          op.fwd = ch.out.op == OutOp::kFwd;
          if (op.fwd) {
            op.fwd_channel = ch.out.idx;
            const auto first = p_.channels.begin() + s.forwarded.begin;
            if (std::find(first, p_.channels.end(), ch.out.idx) == p_.channels.end()) {
              p_.channels.push_back(ch.out.idx);
            }
          } else {
            op.from = slot(ch.out.idx, ch.out.rel);
          }
          p_.sends.push_back(op);
        }
        if (ch.in.op != InOp::kIdle) {
          ExecReceive op;
          op.channel = c;
          op.pass = ch.in.op == InOp::kPass;
          op.add = ch.in.op == InOp::kAdd;
          s.adds = s.adds || op.add;
          if (!op.pass) op.to = slot(ch.in.slot, ch.in.rel);
          p_.receives.push_back(op);
        }
      }
      sending_ports += sends ? 1 : 0;
      receiving_ports += receives ? 1 : 0;
    }
    s.sends.end = index(p_.sends.size());
    s.receives.end = index(p_.receives.size());
    s.forwarded.end = index(p_.channels.size());
    s.one_port = h_.one_port && (sending_ports > 1 || receiving_ports > 1);
    // Only MEM and ADD receives write memory; PASS receives never clash. Compare the writes.
    std::vector<ExecReceive> writes;
    for (u32 i = s.receives.begin; i < s.receives.end; ++i) {
      if (!p_.receives[i].pass) writes.push_back(p_.receives[i]);
    }
    const ExecRange clash = clashes(writes, {0, index(writes.size())});
    // Re-index the pairs from the writing receives to the instruction's receives.
    std::vector<u32> to_receive;
    for (u32 i = s.receives.begin; i < s.receives.end; ++i) {
      if (!p_.receives[i].pass) to_receive.push_back(i - s.receives.begin);
    }
    for (u32 k = clash.begin; k < clash.end; ++k) {
      p_.clashes[k] = {to_receive[p_.clashes[k].first], to_receive[p_.clashes[k].second]};
    }
    s.clashes = clash;
    if (shared_) lockstep(s);
  }

  /// Marks an XFER of a shared table lockstep if the decode proves it error-free at every node
  /// (see ExecStep::lockstep), and lists its moves.
  void lockstep(ExecStep& s) {
    const u32 count = s.sends.end - s.sends.begin;
    if (s.one_port || !s.clashes.empty() || s.receives.end - s.receives.begin != count) return;
    for (u32 i = 0; i < count; ++i) {
      const ExecSend& out = p_.sends[s.sends.begin + i];
      const ExecReceive& in = p_.receives[s.receives.begin + i];
      const auto inside = [](const ExecSlot& slot) {
        return slot.rel_mask == 0xFFFFFFFFu && !slot.may_overflow;
      };
      // Every node runs the step, so a channel's word arrives exactly where the channel
      // receives: no `lost`, no `nodata`.
      if (out.fwd || in.pass || in.add || out.channel != in.channel) return;
      if (!inside(out.from) || !inside(in.to)) return;
    }
    s.lockstep = true;
    s.moves.begin = index(p_.moves.size());
    for (u32 i = 0; i < count; ++i) {
      const ExecSend& out = p_.sends[s.sends.begin + i];
      p_.moves.push_back({out.from.slot, p_.receives[s.receives.begin + i].to.slot, out.port});
    }
    s.moves.end = index(p_.moves.size());
    // A move that writes a row another move reads must wait for that read: the executor then
    // reads every row first. Otherwise a move whose row is its own is a swap between neighbours.
    for (u32 i = s.moves.begin; i < s.moves.end; ++i) {
      for (u32 j = s.moves.begin; j < s.moves.end; ++j) {
        if (i != j && p_.moves[i].to == p_.moves[j].from) s.staged = true;
      }
    }
    for (u32 i = s.moves.begin; i < s.moves.end; ++i) {
      p_.moves[i].in_place = !s.staged && p_.moves[i].to == p_.moves[i].from;
    }
  }

  void permute(const Instruction& ins, ExecStep& s) {
    // docs/hardware/node.md §2.1: MEM/MEM copies, IDLE/IDLE does nothing, anything else is illegal
    // (copies nothing, no range or conflict check). No port is used: no one-port rule.
    s.copies.begin = index(p_.copies.size());
    for (const Channel& ch : ins.channels) {
      if (ch.out.op == OutOp::kIdle && ch.in.op == InOp::kIdle) continue;
      if (ch.out.op != OutOp::kMem || ch.in.op != InOp::kMem) {
        s.illegal = true;
        continue;
      }
      p_.copies.push_back({slot(ch.out.idx, ch.out.rel), slot(ch.in.slot, ch.in.rel)});
    }
    s.copies.end = index(p_.copies.size());
    s.clashes = clashes(p_.copies, s.copies);
  }

  const TableHeader& h_;
  const u64 words_;
  const u64 node_mask_;
  const bool shared_;
  ExecProgram& p_;
};

}  // namespace

ExecProgram decodeTables(const TableSet& set, u64 words_per_node) {
  ExecProgram p;
  p.shared = set.shared;
  Decoder decoder(set.header, words_per_node, set.shared, p);
  for (const Table& table : set.tables) p.entry.push_back(decoder.decode(table));
  p.all_lockstep =
      set.shared && std::all_of(p.steps.begin(), p.steps.end(), [](const ExecStep& s) {
        return s.kind == ExecStep::Kind::kEnd || s.kind == ExecStep::Kind::kWait || s.lockstep;
      });
  return p;
}

}  // namespace hcube

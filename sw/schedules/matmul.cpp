#include "schedules/matmul.h"

#include <algorithm>
#include <array>
#include <bit>

#include "error.h"
#include "matmul_layout.h"

namespace hcube {
namespace {

/// The cube dimension linking grid positions t and t + 1 (mod 2^bits) of a Gray-coded ring,
/// offset by `shift` (the field's position in the node address).
int ringDim(u64 t, int bits, int shift) {
  const u64 ring = u64{1} << bits;
  return shift + std::countr_zero(grayCode(t) ^ grayCode((t + 1) % ring));
}

/// One block rotating on a ring: node x sends the block's words to its neighbour on port
/// `send` and receives the words from the other neighbour on port `recv`, into the same slots.
struct Rotation {
  bool active = false;
  u64 base = 0;
  u64 words = 0;
  int send = 0;
  int recv = 0;
};

class Builder {
 public:
  Builder(const MatmulOptions& o, const MatmulLayout& l) : o_(o), l_(l), tables_(u64{1} << l.n) {}

  /// One rotation step: per node up to two rotations (C and D), sent as messages of `packet`
  /// words, each after WAIT tau; together on all-port hardware, one after the other on one-port.
  /// Every node spends the same cycles (idle nodes wait), so the nodes stay in lockstep.
  void rotate(const std::vector<std::array<Rotation, 2>>& per_node, bool alignment) {
    u64 longest[2] = {0, 0};
    for (const auto& r : per_node) {
      for (int b = 0; b < 2; ++b) longest[b] = std::max(longest[b], r[b].active ? r[b].words : 0);
    }
    auto phases = [&]() -> std::vector<std::vector<int>> {
      if (o_.one_port) return {{0}, {1}};
      return {{0, 1}};
    }();
    for (const std::vector<int>& blocks : phases) {
      u64 words = 0;
      for (int b : blocks) words = std::max(words, longest[b]);
      if (words == 0) continue;
      const u64 size = o_.packet == 0 ? words : o_.packet;
      for (u64 start = 0; start < words; start += size) {
        const u64 len = std::min(size, words - start);
        if (o_.tau > 0) {
          for (Table& t : tables_) t.push_back(Instruction::waitFor(o_.tau));
        }
        ++counts_.startups;
        for (u64 w = start; w < start + len; ++w) {
          for (u64 x = 0; x < tables_.size(); ++x) {
            Instruction ins = Instruction::xfer(static_cast<size_t>(l_.n));
            bool any = false;
            for (int b : blocks) {
              const Rotation& r = per_node[x][static_cast<size_t>(b)];
              if (!r.active || w >= r.words) continue;
              const u32 slot = static_cast<u32>(r.base + w);
              ins.channels[static_cast<size_t>(r.send)].out = {OutOp::kMem, false, slot};
              ins.channels[static_cast<size_t>(r.recv)].in = {InOp::kMem, false, slot};
              any = true;
            }
            tables_[x].push_back(any ? ins : Instruction::waitFor(1));
          }
          ++counts_.transfer_cycles;
          if (alignment) ++counts_.alignment_transfers;
        }
      }
    }
  }

  void mac(const std::vector<MacField>& per_node) {
    for (u64 x = 0; x < tables_.size(); ++x)
      tables_[x].push_back(Instruction::macBlock(per_node[x]));
    counts_.arithmetic_cycles += macCycles(per_node[0], o_.mac_units);
  }

  TableSet finish(const char* algo) {
    TableSet set;
    set.header.algo = algo;
    set.header.perm = o_.spec;
    set.header.n = l_.n;
    set.header.slots = l_.slots;
    set.header.one_port = o_.one_port;
    set.header.mac_units = o_.mac_units;
    set.shared = false;
    for (Table& t : tables_) {
      t = mergeWaits(std::move(t));
      t.push_back(Instruction::end());
    }
    set.tables = std::move(tables_);
    return set;
  }

  const MatmulCounts& counts() const { return counts_; }

 private:
  /// Consecutive WAITs of a node become one (an idle node's table stays short).
  static Table mergeWaits(Table t) {
    Table out;
    for (Instruction& ins : t) {
      if (ins.op == Opcode::kWait && !out.empty() && out.back().op == Opcode::kWait &&
          u64{out.back().wait} + ins.wait <= 0xFFFFFFFFu) {
        out.back().wait += ins.wait;
      } else {
        out.push_back(std::move(ins));
      }
    }
    return out;
  }

  const MatmulOptions& o_;
  const MatmulLayout& l_;
  std::vector<Table> tables_;
  MatmulCounts counts_;
};

/// One step of a ring rotation of the block at `base` (`words` long) along a grid ring of
/// 2^bits processors whose dimensions start at `shift`: the processor at ring position t sends
/// towards t - 1 and receives from t + 1. Nothing when the ring has one processor.
Rotation rotateAlong(u64 t, int bits, int shift, u64 base, u64 words) {
  Rotation r;
  if (bits == 0) return r;
  const u64 size = u64{1} << bits;
  r.active = true;
  r.base = base;
  r.words = words;
  r.send = ringDim((t + size - 1) % size, bits, shift);  // towards t - 1
  r.recv = ringDim(t, bits, shift);                      // from t + 1
  return r;
}

/// Rotation of C one processor to the left along grid row rings (receive from column a2 + 1).
Rotation rotateC(const MatmulLayout& l, u64 x) {
  return rotateAlong(l.gridCol(x), l.n2, 0, l.c_base, l.c_rows * l.c_cols);
}

/// Rotation of D one processor up along grid column rings (receive from row a1 + 1).
Rotation rotateD(const MatmulLayout& l, u64 x) {
  return rotateAlong(l.gridRow(x), l.n1, l.n2, l.d_base, l.d_rows * l.d_cols);
}

// TR-623 §3.1, "A Rotation Algorithm A(1,1,1)", column partitioning, Gray code encoding.
TableSet rotation(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  if (l.n1 != 0) {
    throw Error("--method rotation: A(.,1,1) is the one-dimensional column partitioning, grid 1x" +
                std::to_string(u64{1} << l.n) + " (got " + std::to_string(l.gridRows()) + "x" +
                std::to_string(l.gridCols()) + ")");
  }
  const u64 nodes = u64{1} << l.n;
  Builder b(o, l);
  for (u64 t = 0; t < nodes; ++t) {
    std::vector<MacField> macs(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      // Processor a holds C's block column (a + t) mod N: it meets rows of D's block from there.
      const u64 col = (l.gridCol(x) + t) % nodes;
      MacField& f = macs[x];
      f.a = static_cast<u32>(l.c_base);
      f.b = static_cast<u32>(l.d_base + col * l.c_cols * l.d_cols);
      f.c = static_cast<u32>(l.a_base);
      f.m = static_cast<u32>(l.c_rows);
      f.k = static_cast<u32>(l.c_cols);
      f.p = static_cast<u32>(l.d_cols);
    }
    b.mac(macs);
    if (t + 1 == nodes) break;
    std::vector<std::array<Rotation, 2>> rot(nodes);
    for (u64 x = 0; x < nodes; ++x) rot[x][0] = rotateC(l, x);
    b.rotate(rot, false);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-rotation");
}

// TR-623 §3.2, "Cannon's Algorithm A(1,2,1)", N1 = N2 = sqrt(N), Gray code encoding.
TableSet cannon(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  if (l.n1 != l.n2) {
    throw Error(
        "--method cannon: Cannon's algorithm A(.,2,1) needs a square grid N1 = N2 = "
        "sqrt(N) (got " +
        std::to_string(l.gridRows()) + "x" + std::to_string(l.gridCols()) +
        "; the paper's N1 != N2 variant is not built)");
  }
  const u64 nodes = u64{1} << l.n;
  const u64 side = l.gridRows();
  Builder b(o, l);
  // Initial alignment: in step s, rows a1 >= s rotate C left, columns a2 >= s rotate D up, so
  // that processor (a1, a2) ends with C(a1, a1 + a2) and D(a1 + a2, a2).
  for (u64 s = 1; s < side; ++s) {
    std::vector<std::array<Rotation, 2>> rot(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      if (l.gridRow(x) >= s) rot[x][0] = rotateC(l, x);
      if (l.gridCol(x) >= s) rot[x][1] = rotateD(l, x);
    }
    b.rotate(rot, true);
  }
  MacField f;
  f.a = static_cast<u32>(l.c_base);
  f.b = static_cast<u32>(l.d_base);
  f.c = static_cast<u32>(l.a_base);
  f.m = static_cast<u32>(l.c_rows);
  f.k = static_cast<u32>(l.c_cols);
  f.p = static_cast<u32>(l.d_cols);
  for (u64 t = 0; t < side; ++t) {
    b.mac(std::vector<MacField>(nodes, f));
    if (t + 1 == side) break;
    std::vector<std::array<Rotation, 2>> rot(nodes);
    for (u64 x = 0; x < nodes; ++x) rot[x] = {rotateC(l, x), rotateD(l, x)};
    b.rotate(rot, false);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-cannon");
}

}  // namespace

TableSet matmulTables(const MatmulOptions& o, MatmulCounts* counts) {
  const MatmulLayout l = MatmulLayout::of(o.spec);
  if (o.method == "rotation") return rotation(o, l, counts);
  if (o.method == "cannon") return cannon(o, l, counts);
  throw Error("--method '" + o.method + "': unknown matmul method (rotation, cannon)");
}

}  // namespace hcube

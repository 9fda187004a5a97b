#include "algorithms/matmul/matmul.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <functional>
#include <optional>

#include "algorithms/transpose/transpose2d.h"
#include "base/error.h"
#include "spec/matmul_layout.h"

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
/// The block is `words` slots from `base`, or, with `width` != 0, rows of `width` slots `stride`
/// apart (a column strip of a row-major block).
struct Rotation {
  bool active = false;
  u64 base = 0;
  u64 words = 0;
  int send = 0;
  int recv = 0;
  u64 width = 0;
  u64 stride = 0;
  /// MAC overlap (double buffering): the words are received from slot `dest` on, in the same
  /// order (kSame: into the slots they are sent from, the in-place rotation).
  static constexpr u64 kSame = ~u64{0};
  u64 dest = kSame;
  u64 slot(u64 w) const { return width == 0 ? base + w : base + (w / width) * stride + w % width; }
  u64 into(u64 w) const { return dest == kSame ? slot(w) : dest + (slot(w) - base); }
};

/// One channel of one node in one cycle of a communication: send slot `out` on `port`, store the
/// word arriving on it in slot `in` (kNone: that side of the channel idles, as in a transpose
/// step where one end of a link only sends and the other only receives).
struct Cell {
  static constexpr u32 kNone = ~u32{0};
  int port = 0;
  u32 out = 0;
  u32 in = 0;
  bool add = false;  ///< a combining receive (ADD, docs/hardware/arithmetic.md §1)
};
/// A node's part of a communication, cycle by cycle (an empty cycle: its ports idle, e.g. a
/// start-up).
using Stream = std::vector<std::vector<Cell>>;

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
              const u32 slot = static_cast<u32>(r.slot(w));
              ins.channels[static_cast<size_t>(r.send)].out = {OutOp::kMem, false, slot};
              ins.channels[static_cast<size_t>(r.recv)].in = {InOp::kMem, false,
                                                              static_cast<u32>(r.into(w))};
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

  /// Several MACs per node, the same number and shapes on every node (their slots differ).
  void macs(const std::vector<std::vector<MacField>>& per_node) {
    for (size_t i = 0; i < per_node[0].size(); ++i) {
      std::vector<MacField> step(per_node.size());
      for (size_t x = 0; x < per_node.size(); ++x) step[x] = per_node[x][i];
      mac(step);
    }
  }

  /// Emits per-node streams of cycles (sw/algorithms/matmul/matmul.cpp, Stream): `streams[x]` holds
  /// node x's streams, all nodes the same number of streams (of any lengths). One-port
  /// hardware runs the streams one after the other, all-port hardware side by side (their
  /// ports must differ). A cycle in which no node sends is a WAIT.
  void emit(const std::vector<std::vector<Stream>>& streams) {
    std::vector<std::vector<const Stream*>> phases;
    const size_t count = streams[0].size();
    if (o_.one_port) {
      for (size_t s = 0; s < count; ++s) phases.push_back({&streams[0][s]});
    } else {
      phases.push_back({});
      for (size_t s = 0; s < count; ++s) phases[0].push_back(&streams[0][s]);
    }
    size_t first = 0;
    for (const auto& phase : phases) {
      // The longest stream of the phase on any node (they differ in a packet transpose).
      size_t length = 0;
      for (const auto& node : streams) {
        for (size_t s = first; s < first + phase.size(); ++s) {
          length = std::max(length, node[s].size());
        }
      }
      for (size_t t = 0; t < length; ++t) {
        bool any = false;
        std::vector<Instruction> cycle(tables_.size(),
                                       Instruction::xfer(static_cast<size_t>(l_.n)));
        for (u64 x = 0; x < tables_.size(); ++x) {
          for (size_t s = first; s < first + phase.size(); ++s) {
            const Stream& st = streams[x][s];
            if (t >= st.size()) continue;
            for (const Cell& c : st[t]) {
              auto& ch = cycle[x].channels[static_cast<size_t>(c.port)];
              if (c.out != Cell::kNone) ch.out = {OutOp::kMem, false, c.out};
              if (c.in != Cell::kNone) ch.in = {c.add ? InOp::kAdd : InOp::kMem, false, c.in};
              any = true;
            }
          }
        }
        for (u64 x = 0; x < tables_.size(); ++x) {
          tables_[x].push_back(any ? cycle[x] : Instruction::waitFor(1));
        }
        if (any) ++counts_.transfer_cycles;
      }
      first += phase.size();
    }
  }

  void addStartups(u64 s) { counts_.startups += s; }

  // ---- MAC overlap mode (docs/hardware/arithmetic.md §3): only cannon() uses these ----
  /// Cycles every node's table has taken so far (the nodes run in lockstep).
  u64 elapsed() const {
    u64 c = 0;
    for (const Instruction& ins : tables_[0]) {
      c += o_.mac_overlap && ins.op == Opcode::kMac ? 1 : ins.cycles(o_.mac_units);
    }
    return c;
  }
  /// Before the next MAC issues: WAIT until the MAC units, whose MAC issued in cycle `issued`
  /// for `cycles` cycles, are idle again (a MAC issued while they are busy is refused).
  void waitForMac(u64 issued, u64 cycles) {
    const u64 now = elapsed();
    if (issued + cycles <= now) return;
    for (Table& t : tables_)
      t.push_back(Instruction::waitFor(static_cast<u32>(issued + cycles - now)));
  }
  // ---- end MAC overlap ----
  /// Local copies (PERMUTE, docs/hardware/node.md §2.1): node x copies slot copies[x][i].first to
  /// .second, one copy per channel and cycle (n per cycle); every node the same number.
  void localCopies(const std::vector<std::vector<std::pair<u64, u64>>>& copies) {
    const size_t channels = static_cast<size_t>(l_.n);
    const size_t count = copies[0].size();
    for (size_t at = 0; at < count; at += channels) {
      for (u64 x = 0; x < tables_.size(); ++x) {
        Instruction ins = Instruction::permute(channels);
        for (size_t c = 0; c < channels && at + c < count; ++c) {
          ins.channels[c].out = {OutOp::kMem, false, static_cast<u32>(copies[x][at + c].first)};
          ins.channels[c].in = {InOp::kMem, false, static_cast<u32>(copies[x][at + c].second)};
        }
        tables_[x].push_back(std::move(ins));
      }
      ++counts_.local_cycles;
    }
  }

  /// emit() of streams whose start-ups are `messages[s]` for stream s (the same on every node):
  /// one after the other on one-port hardware, side by side (the most of them) on all-port.
  void emit(const std::vector<std::vector<Stream>>& streams, const std::vector<u64>& messages) {
    emit(streams);
    u64 most = 0;
    for (u64 m : messages) {
      if (o_.one_port) counts_.startups += m;
      most = std::max(most, m);
    }
    if (!o_.one_port) counts_.startups += most;
  }

  /// One communication phase: `fill(x, stream)` appends node x's part and returns its messages.
  void phase(const std::function<u64(u64, Stream&)>& fill) {
    std::vector<std::vector<Stream>> streams(tables_.size(), std::vector<Stream>(1));
    u64 messages = 0;
    for (u64 x = 0; x < tables_.size(); ++x) {
      const u64 m = fill(x, streams[x][0]);
      if (x == 0) messages = m;
    }
    emit(streams, {messages});
  }
  void setScratch(u64 words) { scratch_ = words; }
  /// At least `words` scratch slots (a phase that needs more than setScratch gave).
  void needScratch(u64 words) { scratch_ = std::max(scratch_, words); }

  TableSet finish(const char* algo) {
    TableSet set;
    set.header.algo = algo;
    set.header.perm = o_.spec;
    set.header.n = l_.n;
    set.header.slots = l_.slots;
    set.header.scratch = scratch_;
    set.header.one_port = o_.one_port;
    set.header.mac_units = o_.mac_units;
    set.header.mac_overlap = o_.mac_overlap;
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
  u64 scratch_ = 0;
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

// ---- MAC overlap mode (docs/hardware/arithmetic.md §3) ----
// Cannon's multiply phase with the MACs overlapping the rotations (square grids, after the
// alignment): double buffering, C and D in two buffers each, the blocks at c_base and d_base
// and two scratch blocks after the data slots. In step t every node issues the MAC of the
// blocks in its current buffers and, while the MAC units run, rotates those blocks to its ring
// neighbours (reading the MAC's A and B blocks, which overlap mode allows) into the other
// buffers, then waits for the units before the next step's MAC. A step takes max(MAC cycles,
// 1 + rotation cycles) instead of their sum; the last MAC drains at END.
TableSet cannonOverlapped(const MatmulOptions& o, const MatmulLayout& l, Builder& b,
                          MatmulCounts* counts) {
  const u64 nodes = u64{1} << l.n;
  const u64 side = l.gridRows();
  const u64 c_words = l.c_rows * l.c_cols;
  const u64 d_words = l.d_rows * l.d_cols;
  b.setScratch(c_words + d_words);
  u64 c_at = l.c_base;  // the current buffers
  u64 d_at = l.d_base;
  u64 c_other = l.slots;  // the other buffers (scratch)
  u64 d_other = l.slots + c_words;
  for (u64 t = 0; t < side; ++t) {
    MacField f;
    f.a = static_cast<u32>(c_at);
    f.b = static_cast<u32>(d_at);
    f.c = static_cast<u32>(l.a_base);
    f.m = static_cast<u32>(l.c_rows);
    f.k = static_cast<u32>(l.c_cols);
    f.p = static_cast<u32>(l.d_cols);
    const u64 issued = b.elapsed();
    b.mac(std::vector<MacField>(nodes, f));
    if (t + 1 == side) break;
    std::vector<std::array<Rotation, 2>> rot(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      rot[x][0] = rotateC(l, x);
      rot[x][0].base = c_at;
      rot[x][0].dest = c_other;
      rot[x][1] = rotateD(l, x);
      rot[x][1].base = d_at;
      rot[x][1].dest = d_other;
    }
    b.rotate(rot, false);
    b.waitForMac(issued, macCycles(f, o.mac_units));
    std::swap(c_at, c_other);
    std::swap(d_at, d_other);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-cannon");
}
// ---- end MAC overlap ----

// TR-623 §3.2, "Cannon's Algorithm A(1,2,1)", Gray code encoding. For N1 != N2 the paper's
// simulation of a square grid: with S = max(N1, N2), C's and D's blocks are cut into strips of
// Q/S along the inner index, rc = S/N2 column strips (P/N1 x Q/S) of C's block and rd = S/N1 row
// strips (Q/S x R/N2) of D's (one of rc, rd is 1), so that a grid row holds S strips of C on a
// ring of N2 processors and a grid column S strips of D on a ring of N1: each processor
// simulates S/N2 (or S/N1) processors of the S x S grid. A rotation moves one strip: every
// processor sends its head strip (the lowest inner index it holds) to its ring neighbour and
// receives the next one into the same slots, which become its last strip. The alignment
// rotates C's row a1 left by a1 rd strips and D's column a2 up by a2 rc strips, after which
// processor (a1, a2) holds strip a1 rd + a2 rc + t of both at the head in step t; S products of
// head strips with S - 1 rotations between them. With N1 = N2 this is Cannon's algorithm.
TableSet cannon(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const u64 nodes = u64{1} << l.n;
  const u64 side = std::max(l.gridRows(), l.gridCols());  // S
  const u64 rc = side / l.gridCols();                     // C strips per processor
  const u64 rd = side / l.gridRows();                     // D strips per processor
  const u64 strip = l.q / side;                           // Q/S (N1 and N2 divide Q)
  // Which strip is at the head of each processor's C and D: it advances with every rotation.
  std::vector<u64> c_head(nodes, 0);
  std::vector<u64> d_head(nodes, 0);
  auto cStrip = [&](u64 x) {
    Rotation r = rotateC(l, x);
    if (!r.active) return r;
    r.base = l.c_base + c_head[x] * strip;
    r.words = l.c_rows * strip;
    r.width = strip;
    r.stride = l.c_cols;
    return r;
  };
  auto dStrip = [&](u64 x) {
    Rotation r = rotateD(l, x);
    if (!r.active) return r;
    r.base = l.d_base + d_head[x] * strip * l.d_cols;
    r.words = strip * l.d_cols;
    return r;
  };
  // One rotation step: C moves in the rows where `c(x)`, D in the columns where `d(x)`. On a
  // ring of one processor (N2 = 1 for C, N1 = 1 for D) nothing moves, but the head advances.
  Builder b(o, l);
  auto step = [&](auto c, auto d, bool alignment) {
    std::vector<std::array<Rotation, 2>> rot(nodes);
    std::vector<std::array<bool, 2>> moves(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      moves[x] = {c(x), d(x)};
      if (moves[x][0]) rot[x][0] = cStrip(x);
      if (moves[x][1]) rot[x][1] = dStrip(x);
    }
    b.rotate(rot, alignment);
    for (u64 x = 0; x < nodes; ++x) {
      if (moves[x][0]) c_head[x] = (c_head[x] + 1) % rc;
      if (moves[x][1]) d_head[x] = (d_head[x] + 1) % rd;
    }
  };
  // Initial alignment: in step s, rows with a1 rd >= s rotate C left by a strip, columns with
  // a2 rc >= s rotate D up by one.
  for (u64 s = 1; s < side; ++s) {
    step([&](u64 x) { return l.gridRow(x) * rd >= s; },
         [&](u64 x) { return l.gridCol(x) * rc >= s; }, true);
  }
  if (o.mac_overlap) return cannonOverlapped(o, l, b, counts);
  for (u64 t = 0; t < side; ++t) {
    // The head strips: one MAC when C's strip is its whole block (rc = 1), else one per row of
    // C (a column strip of a row-major block is not a dense block).
    std::vector<std::vector<MacField>> macs(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      const u64 c_at = l.c_base + c_head[x] * strip;
      const u64 d_at = l.d_base + d_head[x] * strip * l.d_cols;
      const u64 rows = rc == 1 ? 1 : l.c_rows;
      for (u64 i = 0; i < rows; ++i) {
        MacField f;
        f.a = static_cast<u32>(c_at + i * l.c_cols);
        f.b = static_cast<u32>(d_at);
        f.c = static_cast<u32>(l.a_base + i * l.d_cols);
        f.m = static_cast<u32>(rc == 1 ? l.c_rows : 1);
        f.k = static_cast<u32>(strip);
        f.p = static_cast<u32>(l.d_cols);
        macs[x].push_back(f);
      }
    }
    b.macs(macs);
    if (t + 1 == side) break;
    step([](u64) { return true; }, [](u64) { return true; }, false);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-cannon");
}

/// Appends one step of a communication to `st` as messages of `packet` cycles (0: the whole step
/// is one message), each after `tau` idle cycles (its start-up); returns the messages.
u64 appendStep(Stream& st, Stream step, u32 tau, u64 packet) {
  if (step.empty()) return 0;
  const u64 size = packet == 0 ? step.size() : packet;
  u64 messages = 0;
  for (u64 start = 0; start < step.size(); start += size) {
    st.insert(st.end(), tau, {});
    const u64 end = std::min<u64>(start + size, step.size());
    for (u64 c = start; c < end; ++c) st.push_back(std::move(step[c]));
    ++messages;
  }
  return messages;
}

/// Adds `cell` to cycle `i` of `step`, growing it.
void put(Stream& step, size_t i, Cell cell) {
  if (step.size() <= i) step.resize(i + 1);
  step[i].push_back(cell);
}

/// The nodes of x's subcube spanned by `dims` (x with those bits set every way), in increasing
/// order, so that two neighbours enumerate matching blocks in the same order.
std::vector<u64> subcubeOf(u64 x, std::vector<int> dims) {
  std::sort(dims.begin(), dims.end());
  u64 mask = 0;
  for (int d : dims) mask |= u64{1} << d;
  std::vector<u64> out;
  for (u64 z = 0; z < (u64{1} << dims.size()); ++z) {
    u64 y = x & ~mask;
    for (size_t b = 0; b < dims.size(); ++b) {
      if ((z >> b) & 1) y |= u64{1} << dims[b];
    }
    out.push_back(y);
  }
  return out;
}

/// Dimensions shift .. shift + bits - 1.
std::vector<int> dimRange(int shift, int bits) {
  std::vector<int> d;
  for (int b = 0; b < bits; ++b) d.push_back(shift + b);
  return d;
}

/// TR-623 §2.1, all-to-all broadcasting within the subcube of dimensions shift .. shift + bits - 1
/// (one grid row or column), node x's part: every node's block (`words` long, at `own` in its
/// node) ends in every node of the subcube at buf + g words, g the block's source's grid position
/// there (the Gray-code inverse of its address bits); a node's own block stays at `own`. In step
/// t = 0 .. bits-1 each node exchanges with its neighbour across one dimension every block it has
/// gathered so far (2^t blocks), as messages of `packet` words after `tau` idle cycles each (the
/// start-ups). SBT (`parts` 1): step t crosses dimension shift + t. nRSBT (`parts` = bits): word
/// w of a block belongs to part u = w mod bits, and part u crosses dimension shift + (u + t) mod
/// bits, so the parts use all the subcube's ports at once. Returns the messages.
u64 subcubeBroadcast(Stream& st, u64 x, int bits, int shift, u64 own, u64 buf, u64 words,
                     bool n_port, u32 tau, u64 packet) {
  const u64 parts = n_port ? static_cast<u64>(bits) : 1;
  const u64 mask = (u64{1} << bits) - 1;
  auto place = [&](u64 y) { return buf + grayInverse((y >> shift) & mask) * words; };
  u64 messages = 0;
  for (int t = 0; t < bits; ++t) {
    Stream step;
    for (u64 u = 0; u < parts; ++u) {
      // The dimensions part u has crossed before step t, and the one it crosses now.
      auto dimAt = [&](int s) {
        return shift + static_cast<int>((u + static_cast<u64>(s)) % static_cast<u64>(bits));
      };
      const int d = dimAt(t);
      const u64 peer = x ^ (u64{1} << d);
      size_t i = 0;
      for (u64 sub = 0; sub < (u64{1} << t); ++sub) {
        u64 offset = 0;
        for (int b = 0; b < t; ++b) {
          if ((sub >> b) & 1) offset |= u64{1} << dimAt(b);
        }
        const u64 from = x ^ offset;         // a block this node sends
        const u64 arriving = peer ^ offset;  // the block the peer sends in the same cycle
        const u64 from_base = from == x ? own : place(from);
        for (u64 w = u; w < words; w += parts, ++i) {
          put(step, i, {d, static_cast<u32>(from_base + w), static_cast<u32>(place(arriving) + w)});
        }
      }
    }
    messages += appendStep(st, std::move(step), tau, packet);
  }
  return messages;
}

/// One part's view of one step of a communication within a subcube (subcubeSteps).
struct PartStep {
  int dim = 0;      ///< the dimension the part crosses in this step
  u64 crossed = 0;  ///< the dimensions (bits) it crossed in the earlier steps
  u64 pending = 0;  ///< the dimensions it crosses in the later steps
  u64 part = 0;     ///< u: words w with w mod parts = u
  u64 parts = 1;
};

/// The steps of an exchange or a reduction within a subcube spanned by `dims`, the preamble
/// subcubeExchange and subcubeReduce share. One-port: one part, crossing dims[t] in step t.
/// n-port: |dims| parts, part u crossing dims[(u + t) mod |dims|] in step t, so that every port
/// of the subcube is busy at once. `cells(step, p)` adds part p's cells from cycle 0 of `step`
/// (the parts run side by side); each step becomes messages of `packet` words after `tau` each
/// (appendStep). Returns the messages.
u64 subcubeSteps(Stream& st, const std::vector<int>& dims, bool n_port, u32 tau, u64 packet,
                 const std::function<void(Stream&, const PartStep&)>& cells) {
  const size_t bits = dims.size();
  if (bits == 0) return 0;
  u64 messages = 0;
  for (size_t t = 0; t < bits; ++t) {
    Stream step;
    PartStep p;
    p.parts = n_port ? bits : 1;
    for (p.part = 0; p.part < p.parts; ++p.part) {
      auto dimAt = [&](size_t s) { return dims[(p.part + s) % bits]; };
      p.dim = dimAt(t);
      p.crossed = p.pending = 0;
      for (size_t s = 0; s < t; ++s) p.crossed |= u64{1} << dimAt(s);
      for (size_t s = t + 1; s < bits; ++s) p.pending |= u64{1} << dimAt(s);
      cells(step, p);
    }
    messages += appendStep(st, std::move(step), tau, packet);
  }
  return messages;
}

/// TR-623 §2 (Table 4) and §2.1's lc_txp1: all-to-all personalized communication (the exchange
/// algorithm, a one-dimensional transpose) within the subcube of x spanned by `dims`, node x's
/// part. Every node holds one strip of `words` words for every node i of its subcube, at at(i);
/// in the end node y holds the strip node s had for it at at(s), or, when `land` gives a slot for
/// s, added into that slot (a combining receive). The strips are swapped in place: after the
/// dimensions in a set X have been crossed, the strip from s to d sits at the node that takes
/// d's bits in X and s's elsewhere, at the index that takes s's bits in X and d's elsewhere; in
/// the step that crosses dimension e, a node sends the strips whose index differs from it in bit
/// e, in increasing order of index, and receives the neighbour's (index i ^ 2^e) into index i. A
/// strip is home when its index agrees with the node in every dimension still to be crossed.
/// One-port: n M / 2 element transfers for M = 2^|dims| words; n-port: M / 2 (per part, ceil)
/// (subcubeSteps). Returns the messages.
/// How a strip that has arrived is written where `land` says: added (a combining receive) or
/// stored, and at land + w (a dense strip) or, with `strided`, in the strips' own rows of `width`
/// words `stride` apart.
struct LandShape {
  bool add = true;
  bool strided = false;
};
u64 subcubeExchange(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port,
                    u32 tau, u64 packet, const std::function<u64(u64)>& at,
                    const std::function<std::optional<u64>(u64)>& land, u64 width = 0,
                    u64 stride = 0, LandShape shape = {}) {
  const std::vector<u64> members = subcubeOf(x, dims);
  // Word w of a strip: at(i) + w, or, with `width`, rows of `width` words `stride` apart (a
  // column strip of a row-major block).
  auto offset = [&](u64 w) { return width == 0 ? w : (w / width) * stride + w % width; };
  auto slot = [&](u64 i, u64 w) { return at(i) + offset(w); };
  return subcubeSteps(st, dims, n_port, tau, packet, [&](Stream& step, const PartStep& p) {
    const u64 bit = u64{1} << p.dim;
    size_t c = 0;
    for (u64 i : members) {
      if (((i ^ x) & bit) == 0) continue;
      const bool home = ((i ^ x) & p.pending) == 0;
      const std::optional<u64> into = home && land ? land(i) : std::nullopt;
      for (u64 w = p.part; w < words; w += p.parts, ++c) {
        const u64 in = into ? *into + (shape.strided ? offset(w) : w) : slot(i, w);
        put(step, c,
            {p.dim, static_cast<u32>(slot(i, w)), static_cast<u32>(in), into && shape.add});
      }
    }
  });
}

/// subcubeExchange with strips that are not contiguous: word w of the strip for (or, in the end,
/// from) member i is in slot(i, w). No landing: every strip ends in place.
u64 subcubeExchange(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port,
                    u32 tau, u64 packet, const std::function<u64(u64, u64)>& slot) {
  const std::vector<u64> members = subcubeOf(x, dims);
  return subcubeSteps(st, dims, n_port, tau, packet, [&](Stream& step, const PartStep& p) {
    const u64 bit = u64{1} << p.dim;
    size_t c = 0;
    for (u64 i : members) {
      if (((i ^ x) & bit) == 0) continue;
      for (u64 w = p.part; w < words; w += p.parts, ++c) {
        const u32 at = static_cast<u32>(slot(i, w));
        put(step, c, {p.dim, at, at});
      }
    }
  });
}

/// TR-623 §2.1's la_red1 (Table 3): all-to-all reduction within the subcube of x spanned by
/// `dims`, node x's part. Every node holds a partial block of `words` words for every node y of
/// its subcube at at(y) (its own, at(x), is where the sum ends); in the end node y's block holds
/// the sum of all of them. In the step that crosses dimension e, node x sends its partial blocks
/// for the nodes y that agree with it in the dimensions crossed so far and differ in e, and adds
/// (combining receives) the neighbour's for y ^ 2^e into its own. One-port: (2^|dims| - 1) words
/// element transfers; n-port: 1/|dims| of that (per part, ceil) (subcubeSteps). Returns the
/// messages.
/// With `slotOf(y, w)`: word w of the partial block for y is in that slot (blocks need not be
/// dense; the node's own block, y = x, may be split between A and a buffer).
u64 subcubeReduce(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port, u32 tau,
                  u64 packet, const std::function<u64(u64, u64)>& slotOf) {
  const std::vector<u64> members = subcubeOf(x, dims);
  return subcubeSteps(st, dims, n_port, tau, packet, [&](Stream& step, const PartStep& p) {
    const u64 bit = u64{1} << p.dim;
    size_t c = 0;
    for (u64 y : members) {
      if (((y ^ x) & p.crossed) != 0 || ((y ^ x) & bit) == 0) continue;
      for (u64 w = p.part; w < words; w += p.parts, ++c) {
        put(step, c,
            {p.dim, static_cast<u32>(slotOf(y, w)), static_cast<u32>(slotOf(y ^ bit, w)), true});
      }
    }
  });
}
u64 subcubeReduce(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port, u32 tau,
                  u64 packet, const std::function<u64(u64)>& at) {
  return subcubeReduce(st, x, dims, words, n_port, tau, packet,
                       [&](u64 y, u64 w) { return at(y) + w; });
}

/// TR-623 §2.2, "SBT transpose alg. with N1 x N2 partitioning" for a square grid (n1 = n2 = h):
/// the block of processor (a1, a2), `words` long at `home`, moves to processor (a2, a1). With the
/// Gray-coded grid fields that swaps node bits h + k and k for every k. For k = 0 .. h-1 in two
/// steps of `words` cycles: the nodes whose bits h + k and k differ send their block across
/// dimension h + k and the others receive it into `visit`; then those send it on across
/// dimension k into the first ones' `home`, or, when the block has arrived (the node's higher
/// bit pairs agree), added into `land` if given. 2h = n steps of `words`: n M element transfers
/// (Table 8's transposes). A processor on the diagonal keeps its block (`land` is not used for
/// it). Messages of `packet` words after `tau` each. Returns the messages.
/// With `hi` and `lo` (>= 0) the bit pairs swapped are hi + k and lo + k instead (an h-bit
/// field of the row field with an h-bit field of the column field, gridTransposePhases).
u64 squareTranspose(Stream& st, u64 x, int h, u64 words, u64 home, u64 visit,
                    std::optional<u64> land, u32 tau, u64 packet, int hi = -1, int lo = 0) {
  if (hi < 0) hi = h;
  u64 messages = 0;
  auto differs = [&](int k) { return (((x >> (hi + k)) ^ (x >> (lo + k))) & 1) != 0; };
  for (int k = 0; k < h; ++k) {
    bool arrived = true;
    for (int k2 = k + 1; k2 < h; ++k2) arrived = arrived && !differs(k2);
    const bool d = differs(k);
    Stream first;
    Stream second;
    for (u64 w = 0; w < words; ++w) {
      if (d) {
        put(first, w, {hi + k, static_cast<u32>(home + w), Cell::kNone});
        const bool into_land = arrived && land.has_value();
        put(second, w,
            {lo + k, Cell::kNone, static_cast<u32>((into_land ? *land : home) + w), into_land});
      } else {
        put(first, w, {hi + k, Cell::kNone, static_cast<u32>(visit + w)});
        put(second, w, {lo + k, static_cast<u32>(visit + w), Cell::kNone});
      }
    }
    messages += appendStep(st, std::move(first), tau, packet);
    messages += appendStep(st, std::move(second), tau, packet);
  }
  return messages;
}

/// The position t (0 .. r-1) in the group of r = 2^e consecutive grid positions high r .. high r
/// + r - 1 whose Gray code has the low bits sigma (the node bits that tell the group's members
/// apart; they are not t itself, the Gray code's low bits flip with the parity of `high`).
u64 fiberSlot(u64 high, u64 sigma, u64 r) {
  for (u64 t = 0; t < r; ++t) {
    if ((grayCode(high * r + t) & (r - 1)) == sigma) return t;
  }
  return 0;  // not reached: the low bits of high r + t take every value
}

/// TR-623 §2: "For the transposition of a matrix partitioned into N1 x N2 blocks, one can combine
/// the one-dimensional matrix transposition algorithm with the algorithm for the transposition of
/// a two-dimensionally square-partitioned matrix." A matrix X (`cols` columns) whose block on
/// processor (a1, a2) is X's block (a1, a2) of the N1 x N2 partition (`words` long, row-major at
/// `home`) moves to the transposed allocation: processor (b1, b2) ends with X's rows b2 X_r/N2 ..
/// and columns b1 X_c/N1 .., as r = 2^e pieces (e = |n1 - n2|, h = min(n1, n2)) at `home`:
///  * N1 < N2: piece t is rows t X_r/N2 .. of the block (X_r/N2 x X_c/N2, dense): an exchange
///    (subcubeExchange) within the low e bits of the column field sends each piece to the member
///    it belongs to, then a square transpose swaps the row field with the high h bits of the
///    column field. At (b1, b2), piece t holds the source column block gridPieceSource() names.
///  * N1 > N2: piece t is columns t X_c/N1 .. (X_r/N1 x X_c/N1, rows X_c/N2 apart), exchanged
///    within the low e bits of the row field; then the high h bits of the row field are swapped
///    with the column field. At (b1, b2), piece t holds the source row block gridPieceSource()
///    names.
///  * N1 = N2: the square transpose alone.
/// One-port: e M/2 + 2h M element transfers (M = `words`; Table 4's exchange and §2.2's square
/// transpose), e + 2h = n start-ups. gridExchange is node x's part of the exchange (its
/// messages); gridTransposePhases (below) runs both parts.
u64 gridExchange(Stream& st, u64 x, const MatmulLayout& l, u64 cols, u64 words, u64 home,
                 bool n_port, u32 tau, u64 packet) {
  const int e = std::abs(l.n1 - l.n2);
  const u64 r = u64{1} << e;
  const u64 piece = words / r;
  if (l.n1 < l.n2) {
    const u64 a1 = l.gridRow(x);
    return subcubeExchange(
        st, x, dimRange(0, e), piece, n_port, tau, packet,
        [&](u64 i) { return home + fiberSlot(a1, i & (r - 1), r) * piece; }, nullptr);
  }
  if (l.n1 > l.n2) {
    const u64 a2 = l.gridCol(x);
    const u64 width = cols >> l.n1;  // X_c/N1
    return subcubeExchange(
        st, x, dimRange(l.n2, e), piece, n_port, tau, packet,
        [&](u64 i) { return home + fiberSlot(a2, (i >> l.n2) & (r - 1), r) * width; }, nullptr,
        width, cols >> l.n2);
  }
  return 0;
}

/// After the transpose of gridTransposePhases: which source block piece t at processor (b1, b2)
/// came from, its column block (N1 < N2) or row block (N1 > N2) in the N1 x N2 partition; b1 (N1 =
/// N2).
u64 gridPieceSource(const MatmulLayout& l, u64 b1, u64 b2, u64 t) {
  const int e = std::abs(l.n1 - l.n2);
  const u64 r = u64{1} << e;
  if (l.n1 <= l.n2) {
    const u64 sigma = grayCode((b2 >> e) * r + t) & (r - 1);
    return grayInverse((grayCode(b1) << e) | sigma);
  }
  const u64 sigma = grayCode((b1 >> e) * r + t) & (r - 1);
  return grayInverse((grayCode(b2) << e) | sigma);
}

/// How the square part of a transpose moves blocks (MatmulOptions::transpose).
enum class SquareKind { kSbt, kSpt, kDpt, kMpt };

SquareKind squareKind(const MatmulOptions& o) {
  if (o.transpose == "sbt" || (o.transpose.empty() && o.one_port)) return SquareKind::kSbt;
  if (o.transpose == "dpt") return SquareKind::kDpt;
  if (o.transpose == "mpt") return SquareKind::kMpt;
  return SquareKind::kSpt;
}

/// The time Johnsson & Ho 1987 §6.1 gives a packet transpose of `words` words per node over 2h
/// dimensions in packets of `packet` (every packet step τ + B cycles).
u64 packetTransposeCycles(SquareKind k, int h, u64 words, u64 packet, u32 tau) {
  switch (k) {
    case SquareKind::kDpt:
      return dptFormulaCycles(2 * h, words, packet, tau);
    case SquareKind::kMpt:
      return mptScheduleCycles(2 * h, words, packet, tau);
    default:
      return sptFormulaCycles(2 * h, words, packet, tau);
  }
}

/// The packet size of a packet transpose of `words` words over 2h dimensions: --packet (at most
/// `words`), or
/// without it the smallest B that minimises packetTransposeCycles (TR-623 Table 11 assumes the
/// optimum packet size; for the SPT, B = sqrt(M τ / (n - 1)) when that is a divisor of M).
u64 squarePacket(const MatmulOptions& o, SquareKind k, int h, u64 words) {
  if (o.packet != 0) return std::min(o.packet, words);  // a packet no longer than the block
  u64 best = 1;
  u64 best_cycles = packetTransposeCycles(k, h, words, 1, o.tau);
  for (u64 size = 2; size <= words; ++size) {
    const u64 c = packetTransposeCycles(k, h, words, size, o.tau);
    if (c < best_cycles) {
      best = size;
      best_cycles = c;
    }
  }
  return best;
}

/// Johnsson & Ho 1987 §6.1 (the transposes TR-623 Table 11 assumes for A(n,2,2) .. A(n,2,5)) on
/// the 2h dimensions hi .. hi + h - 1 (the sub-cube's row part) and lo .. lo + h - 1 (its column
/// part): the `words`-word block at `home` of every node x moves to the node with those two bit
/// fields swapped, as packets of B words (squarePacket) on the routes transpose2dNodeRoutes
/// gives: SPT one path, DPT two, MPT 2H(x) paths per node, store-and-forward, every packet step
/// τ idle cycles (its start-up) and B element cycles, every port of a node in use at once.
/// Packets wait at intermediate nodes in scratch buffers of B words allocated from `scratch`
/// (the first free one that is empty by then); a packet that has arrived is stored at `home` of
/// its destination (every position of a block arrives after it has left: the source of x's
/// block, tr(x), has the same H and launch pattern, and a path takes 2H(x) >= 2 steps), or added
/// into `land` when given. Every node uses the same B, so the phase is a sequence of packet steps;
/// its start-ups are their number, ceil(M/B) + 2h - 1 for the SPT (§6.1.1). Returns the scratch
/// words the buffers took.
u64 packetSquareTranspose(Builder& b, const MatmulOptions& o, const MatmulLayout& l, int h, int hi,
                          int lo, u64 words, u64 home, std::optional<u64> land, u64 scratch) {
  if (h == 0 || words == 0) return 0;
  const SquareKind kind = squareKind(o);
  Transpose2dOptions to;
  to.algo = kind == SquareKind::kDpt   ? Transpose2dAlgo::kDpt
            : kind == SquareKind::kMpt ? Transpose2dAlgo::kMpt
                                       : Transpose2dAlgo::kSpt;
  to.packet = squarePacket(o, kind, h, words);
  to.tau = o.tau;
  to.per_class_packets = false;
  const u64 nodes = u64{1} << l.n;
  const u64 mask = (u64{1} << h) - 1;
  const int sub_n = 2 * h;
  auto subNode = [&](u64 x) { return (((x >> hi) & mask) << h) | ((x >> lo) & mask); };
  auto realDim = [&](int d) { return d < h ? lo + d : hi + (d - h); };
  struct Route {
    PacketRoute r;
    std::vector<u64> nodes;  // nodes[e]: the sender of hop e; nodes.back() the destination
    std::vector<u64> held;   // held[e]: the buffer at nodes[e + 1] after hop e (intermediates)
  };
  std::vector<Route> routes;
  u64 steps = 0;
  for (u64 x = 0; x < nodes; ++x) {
    for (PacketRoute& r : transpose2dNodeRoutes(sub_n, subNode(x), words, to.packet, to)) {
      Route route;
      route.nodes.push_back(x);
      for (int d : r.dims) route.nodes.push_back(route.nodes.back() ^ (u64{1} << realDim(d)));
      route.held.assign(r.dims.size(), 0);
      steps = std::max(steps, r.steps.back() + 1);
      route.r = std::move(r);
      routes.push_back(std::move(route));
    }
  }
  // Intermediate buffers, allocated in order of arrival: a packet occupies its buffer from the
  // cycle its first word arrives to the cycle its last word leaves.
  struct Hold {
    u64 from, until, node;
    size_t route, hop;
  };
  std::vector<Hold> holds;
  for (size_t i = 0; i < routes.size(); ++i) {
    const PacketRoute& r = routes[i].r;
    for (size_t e = 0; e + 1 < r.dims.size(); ++e) {
      holds.push_back({r.steps[e] * r.step_cycles + o.tau,
                       r.steps[e + 1] * r.step_cycles + o.tau + r.slots.size() - 1,
                       routes[i].nodes[e + 1], i, e});
    }
  }
  std::sort(holds.begin(), holds.end(),
            [](const Hold& a, const Hold& c) { return a.from < c.from; });
  std::vector<std::vector<u64>> busy_until(nodes);  // per node and buffer
  u64 buffers = 0;
  for (const Hold& hd : holds) {
    std::vector<u64>& bu = busy_until[hd.node];
    size_t k = 0;
    while (k < bu.size() && bu[k] >= hd.from) ++k;
    if (k == bu.size()) bu.push_back(0);
    bu[k] = hd.until;
    buffers = std::max<u64>(buffers, bu.size());
    routes[hd.route].held[hd.hop] = scratch + k * to.packet;
  }
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(1));
  for (const Route& route : routes) {
    const PacketRoute& r = route.r;
    const size_t last = r.dims.size() - 1;
    for (size_t e = 0; e <= last; ++e) {
      const int dim = realDim(r.dims[e]);
      for (size_t k = 0; k < r.slots.size(); ++k) {
        const size_t cycle = static_cast<size_t>(r.steps[e] * r.step_cycles + o.tau + k);
        const u64 out = e == 0 ? home + r.slots[k] : route.held[e - 1] + k;
        const bool lands = e == last && land.has_value();
        const u64 in = e < last ? route.held[e] + k : (lands ? *land : home) + r.slots[k];
        put(streams[route.nodes[e]][0], cycle, {dim, static_cast<u32>(out), Cell::kNone});
        put(streams[route.nodes[e + 1]][0], cycle, {dim, Cell::kNone, static_cast<u32>(in), lands});
      }
    }
  }
  // Lemma 14 of §6.1.3 (and the SPT and DPT timing) promise one packet per directed edge and
  // step; a second word on a channel would be a planning error.
  for (u64 x = 0; x < nodes; ++x) {
    for (const auto& cycle : streams[x][0]) {
      u64 outs = 0, ins = 0;
      for (const Cell& c : cycle) {
        const u64 bit = u64{1} << c.port;
        if (c.out != Cell::kNone) {
          if (outs & bit) throw Error("packet transpose: two words on one output channel");
          outs |= bit;
        }
        if (c.in != Cell::kNone) {
          if (ins & bit) throw Error("packet transpose: two words on one input channel");
          ins |= bit;
        }
      }
    }
  }
  b.emit(streams, {steps});
  return buffers * to.packet;
}

/// The square part of a transpose (h bit pairs hi + k <-> lo + k) of the `words`-word block at
/// `home`, as one phase: §2.2's SBT transpose (squareTranspose, relaying through `visit`) or a
/// packet transpose (packetSquareTranspose, buffers from `scratch` on). A block that arrives
/// home is added into `land` when given. Returns the scratch words the buffers took.
u64 squarePhase(Builder& b, const MatmulOptions& o, const MatmulLayout& l, int h, int hi, int lo,
                u64 words, u64 home, u64 visit, std::optional<u64> land, u64 scratch) {
  if (squareKind(o) != SquareKind::kSbt) {
    return packetSquareTranspose(b, o, l, h, hi, lo, words, home, land, scratch);
  }
  b.phase([&](u64 x, Stream& st) {
    return squareTranspose(st, x, h, words, home, visit, land, o.tau, o.packet, hi, lo);
  });
  return 0;
}

/// TR-623 §2's transpose of an N1 x N2 partitioned matrix (`cols` columns, block of `words` at
/// `home`), as the exchange phase (gridExchange) and the square phase (squarePhase). Returns the
/// scratch words the packet buffers took.
u64 gridTransposePhases(Builder& b, const MatmulOptions& o, const MatmulLayout& l, u64 cols,
                        u64 words, u64 home, u64 visit, u64 scratch) {
  const int e = std::abs(l.n1 - l.n2);
  const int h = std::min(l.n1, l.n2);
  if (e > 0) {
    b.phase([&](u64 x, Stream& st) {
      return gridExchange(st, x, l, cols, words, home, !o.one_port, o.tau, o.packet);
    });
  }
  const int hi = l.n1 < l.n2 ? l.n2 : l.n2 + e;
  const int lo = l.n1 < l.n2 ? e : 0;
  return squarePhase(b, o, l, h, hi, lo, words, home, visit, std::nullopt, scratch);
}

// TR-623 §3.2, A(.,2,1) by broadcasting (the paper's "Doubling Algorithm A(.,2,1)", lc_row and
// ld_col): C's blocks are broadcast all-to-all within grid rows, D's within grid columns (SBTs,
// one-port: Table 8, (N2-1) P/N1 Q/N2 + (N1-1) Q/N1 R/N2 element transfers, n start-ups; nRSBTs,
// n-port: Table 11, max((N2-1)/n2 P/N1 Q/N2 + n2 tau, (N1-1)/n1 Q/N1 R/N2 + n1 tau)), no initial
// alignment, any N1 x N2 grid; then every processor multiplies its row of C by its column of D.
// Temporary storage: the gathered blocks, N2 of C's and N1 of D's (the paper's PQ/N1 and QR/N2).
TableSet broadcast(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;
  const u64 db = l.d_rows * l.d_cols;
  const u64 c_buf = l.slots;
  const u64 d_buf = c_buf + l.gridCols() * cb;
  Builder b(o, l);
  b.setScratch(l.gridCols() * cb + l.gridRows() * db);
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(2));
  std::vector<u64> messages(2);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 mc = subcubeBroadcast(streams[x][0], x, l.n2, 0, l.c_base, c_buf, cb, o.n_port_tree,
                                    o.tau, o.packet);
    const u64 md = subcubeBroadcast(streams[x][1], x, l.n1, l.n2, l.d_base, d_buf, db,
                                    o.n_port_tree, o.tau, o.packet);
    if (x == 0) messages = {mc, md};
  }
  b.emit(streams, messages);
  // A += sum over the grid columns a2' of C(a1, a2') times D's rows a2' Q/N2 .. (a2'+1) Q/N2 - 1
  // of column a2. With N1 <= N2 those rows lie in one of D's blocks (one MAC per a2'); with
  // N1 > N2 they span N1/N2 blocks, and a C block's columns that meet one D block are not a
  // dense block: one MAC per row of C and D block.
  const u64 q2 = l.c_cols;  // Q / N2
  const u64 q1 = l.d_rows;  // Q / N1
  std::vector<std::vector<MacField>> macs(nodes);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 a1 = l.gridRow(x);
    const u64 a2 = l.gridCol(x);
    auto cAt = [&](u64 col) { return col == a2 ? l.c_base : c_buf + col * cb; };
    auto dAt = [&](u64 row) { return row == a1 ? l.d_base : d_buf + row * db; };
    for (u64 col = 0; col < l.gridCols(); ++col) {
      const u64 j0 = col * q2;  // the first row of D that C's block column col meets
      if (q2 <= q1) {
        MacField f;
        f.a = static_cast<u32>(cAt(col));
        f.b = static_cast<u32>(dAt(j0 / q1) + (j0 % q1) * l.d_cols);
        f.c = static_cast<u32>(l.a_base);
        f.m = static_cast<u32>(l.c_rows);
        f.k = static_cast<u32>(q2);
        f.p = static_cast<u32>(l.d_cols);
        macs[x].push_back(f);
        continue;
      }
      for (u64 row = j0 / q1; row < (j0 + q2) / q1; ++row) {
        for (u64 i = 0; i < l.c_rows; ++i) {
          MacField f;
          f.a = static_cast<u32>(cAt(col) + i * q2 + (row * q1 - j0));
          f.b = static_cast<u32>(dAt(row));
          f.c = static_cast<u32>(l.a_base + i * l.d_cols);
          f.m = 1;
          f.k = static_cast<u32>(q1);
          f.p = static_cast<u32>(l.d_cols);
          macs[x].push_back(f);
        }
      }
    }
  }
  b.macs(macs);
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-" + o.method).c_str());
}

// TR-623 §3.1, "A Gray code Exchange alg. A(1,1,1)" and "A(n,1,1)", column partitioning (grid
// 1 x N), Gray code encoding. Before step t = 1 .. N-1 every processor exchanges the C block it
// holds with its neighbour across dimension T(t-1) (the Gray code's transition bit: the
// trailing ones of t-1), in place, so that in step t processor x holds the block that started
// in x XOR G(t) and multiplies it with the matching Q/N rows of its D. n-port (A(n,1,1)): C's
// block is cut into n pieces of rows (piece u: rows u P/n .. (u+1) P/n - 1, as near equal as P
// allows), piece u crossing dimension (T(t-1) + u) mod n, so each step uses every port; one
// MAC per piece. Each step's exchange is a message of a piece (or messages of `packet` words),
// each after a start-up of tau.
TableSet exchange(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  if (l.n1 != 0) {
    throw Error("--method exchange: A(.,1,1) is the one-dimensional column partitioning, grid 1x" +
                std::to_string(u64{1} << l.n) + " (got " + std::to_string(l.gridRows()) + "x" +
                std::to_string(l.gridCols()) + ")");
  }
  const u64 nodes = u64{1} << l.n;
  const u64 pieces = o.one_port ? 1 : static_cast<u64>(l.n);
  std::vector<u64> first_row(pieces + 1);
  for (u64 u = 0; u <= pieces; ++u) first_row[u] = u * l.c_rows / pieces;
  u64 longest = 0;
  for (u64 u = 0; u < pieces; ++u) {
    longest = std::max(longest, (first_row[u + 1] - first_row[u]) * l.c_cols);
  }
  // source[x][u]: the node whose C rows of piece u node x holds now.
  std::vector<std::vector<u64>> source(nodes, std::vector<u64>(pieces));
  for (u64 x = 0; x < nodes; ++x) std::fill(source[x].begin(), source[x].end(), x);
  Builder b(o, l);
  for (u64 t = 0; t < nodes; ++t) {
    if (t > 0) {
      const int transition = std::countr_one(t - 1);
      const u64 size = o.packet == 0 ? longest : o.packet;
      std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(1));
      for (u64 start = 0; start < longest; start += size) {
        const u64 len = std::min(size, longest - start);
        for (u64 x = 0; x < nodes; ++x) {
          Stream& st = streams[x][0];
          st.insert(st.end(), o.tau, {});
          const size_t at = st.size();
          st.resize(at + len);
          for (u64 u = 0; u < pieces; ++u) {
            const int d =
                static_cast<int>((static_cast<u64>(transition) + u) % static_cast<u64>(l.n));
            const u64 base = l.c_base + first_row[u] * l.c_cols;
            const u64 words = (first_row[u + 1] - first_row[u]) * l.c_cols;
            for (u64 w = start; w < start + len && w < words; ++w) {
              st[at + (w - start)].push_back(
                  {d, static_cast<u32>(base + w), static_cast<u32>(base + w)});
            }
          }
        }
        b.addStartups(1);
      }
      b.emit(streams);
      for (u64 x = 0; x < nodes; ++x) {
        for (u64 u = 0; u < pieces; ++u) {
          source[x][u] ^= u64{1} << ((static_cast<u64>(transition) + u) % static_cast<u64>(l.n));
        }
      }
    }
    std::vector<std::vector<MacField>> macs(nodes);
    for (u64 x = 0; x < nodes; ++x) {
      for (u64 u = 0; u < pieces; ++u) {
        if (first_row[u + 1] == first_row[u]) continue;
        const u64 col = l.gridCol(source[x][u]);  // the block column of C held
        MacField f;
        f.a = static_cast<u32>(l.c_base + first_row[u] * l.c_cols);
        f.b = static_cast<u32>(l.d_base + col * l.c_cols * l.d_cols);
        f.c = static_cast<u32>(l.a_base + first_row[u] * l.d_cols);
        f.m = static_cast<u32>(first_row[u + 1] - first_row[u]);
        f.k = static_cast<u32>(l.c_cols);
        f.p = static_cast<u32>(l.d_cols);
        macs[x].push_back(f);
      }
    }
    b.macs(macs);
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-exchange");
}

/// The grid a method needs: one-dimensional (1 x N) or square; throws Error naming the method.
void requireGrid(const MatmulOptions& o, const MatmulLayout& l, const char* name, bool square) {
  const std::string got = std::to_string(l.gridRows()) + "x" + std::to_string(l.gridCols()) + ")";
  if (!square && l.n1 != 0) {
    throw Error("--method " + o.method + ": " + name +
                " is the one-dimensional column partitioning, grid 1x" +
                std::to_string(u64{1} << l.n) + " (got " + got);
  }
  if (square && l.n1 != l.n2) {
    throw Error("--method " + o.method + ": " + name +
                " is built for square grids N1 = N2 only (n even; got " + got);
  }
}

/// Every node's MACs of one same-shaped product step: `f(x)` gives node x's list.
void macsOf(Builder& b, u64 nodes, const std::function<std::vector<MacField>(u64)>& f) {
  std::vector<std::vector<MacField>> macs(nodes);
  for (u64 x = 0; x < nodes; ++x) macs[x] = f(x);
  b.macs(macs);
}

MacField macField(u64 a, u64 bb, u64 c, u64 m, u64 k, u64 p) {
  MacField f;
  f.a = static_cast<u32>(a);
  f.b = static_cast<u32>(bb);
  f.c = static_cast<u32>(c);
  f.m = static_cast<u32>(m);
  f.k = static_cast<u32>(k);
  f.p = static_cast<u32>(p);
  return f;
}

// TR-623 §3.1, "Algorithm A(.,1,4)", column partitioning (grid 1 x N), Gray code encoding:
// transpose D (processor a gets rows a Q/N .. (a+1) Q/N - 1 of all of D, ld_txp), multiply its C
// (P x Q/N) by them into partial products of every block column of A, and reduce those over
// the processors so that processor a ends with the sum of block column a (la_red). The
// transpose is the exchange AAPC (subcubeExchange over all n dimensions, M = Q R/N: D's block is
// N row strips of Q/N x R/N, strip j bound for grid column j, at the slot of its grid position;
// at the end strip s of processor a is D's block (a, s)); the reduction the all-to-all reduction
// (subcubeReduce, M = P R). One-port, A^c(1,1,4): (N-1) P R/N + n Q/2 R/N element transfers and
// 2n start-ups (Table 6). n-port, A^c(n,1,4) (all-port hardware): every strip and partial block
// cut into n parts on rotated dimension orders, (N-1) P R/N / n + Q/2 R/N (Table 6, ceil per
// part when n does not divide). Arithmetic: N MACs of P x Q/N x R/N, PQR/N multiply-adds; the
// reduction's additions are in the receives.
TableSet a114(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  requireGrid(o, l, "A(.,1,4)", false);
  const u64 nodes = u64{1} << l.n;
  const u64 strip = l.c_cols * l.d_cols;  // Q/N x R/N
  const u64 part = l.a_rows * l.a_cols;   // a partial block of A, P x R/N
  const u64 partial_buf = l.slots;        // partial block of column g at partial_buf + g part
  const bool n_port = !o.one_port;
  const std::vector<int> all = dimRange(0, l.n);
  Builder b(o, l);
  b.setScratch(nodes * part);
  b.phase([&](u64 x, Stream& st) {
    return subcubeExchange(
        st, x, all, strip, n_port, o.tau, o.packet,
        [&](u64 i) { return l.d_base + l.gridCol(i) * strip; }, nullptr);
  });
  // Partial products: A's own block column straight into A, the others into the buffer.
  macsOf(b, nodes, [&](u64 x) {
    std::vector<MacField> out;
    for (u64 g = 0; g < nodes; ++g) {
      out.push_back(macField(l.c_base, l.d_base + g * strip,
                             g == l.gridCol(x) ? l.a_base : partial_buf + g * part, l.c_rows,
                             l.c_cols, l.d_cols));
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, all, part, n_port, o.tau, o.packet, [&](u64 y) {
      return y == x ? l.a_base : partial_buf + l.gridCol(y) * part;
    });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a114");
}

// TR-623 §3.1, "Algorithm A(.,1,3)", column partitioning (grid 1 x N), Gray code encoding:
// transpose C (lc_txp: processor a gets rows a P/N .. (a+1) P/N - 1 of all of C), broadcast D
// all-to-all (ld_brd: every processor gets all of D), multiply into the transposed block row of
// A (la_txp, P/N x R) and transpose that back (la), the second transpose adding into A with
// combining receives where each block arrives. The transposes are the exchange AAPC
// (subcubeExchange): C's block is N row strips of P/N x Q/N, strip g bound for grid column g, at
// the slot of its grid position, so processor a ends with C(a P/N.., s Q/N..) at strip s; A^T's
// N blocks P/N x R/N sit in scratch by destination (processor a's own block goes straight into
// A). One-port, A^c(1,1,3): (N-1) Q R/N + n P/2 R/N + n P/2 Q/N element transfers, 3n start-ups
// (Table 6). n-port, A^c(n,1,3): nRSBT broadcast and n-port exchanges, (N-1) Q R/N / n + P/2 R/N
// + P/2 Q/N (ceil per part). Arithmetic: N^2 MACs of P/N x Q/N x R/N, 2QR P/N operations
// (Table 5). Needs N | P.
TableSet a113(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  requireGrid(o, l, "A(.,1,3)", false);
  const u64 nodes = u64{1} << l.n;
  if (l.p % nodes != 0) {
    throw Error("--method a113: P = " + std::to_string(l.p) + " does not divide over the " +
                std::to_string(nodes) + " processors (A(.,1,3) transposes C into P/N row strips)");
  }
  const u64 rows = l.p / nodes;          // P/N
  const u64 cs = rows * l.c_cols;        // a strip of C, P/N x Q/N
  const u64 db = l.d_rows * l.d_cols;    // D's block, Q x R/N
  const u64 ds = l.c_cols * l.d_cols;    // Q/N rows of D's block, Q/N x R/N
  const u64 ab = rows * l.a_cols;        // a block of A^T, P/N x R/N
  const u64 d_buf = l.slots;             // D's block g at d_buf + g db
  const u64 a_buf = d_buf + nodes * db;  // A^T's block for column g at a_buf + g ab
  const bool n_port = !o.one_port;
  const std::vector<int> all = dimRange(0, l.n);
  Builder b(o, l);
  b.setScratch(nodes * (db + ab));
  b.phase([&](u64 x, Stream& st) {
    return subcubeExchange(
        st, x, all, cs, n_port, o.tau, o.packet,
        [&](u64 i) { return l.c_base + l.gridCol(i) * cs; }, nullptr);
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n, 0, l.d_base, d_buf, db, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 own = l.gridCol(x);
    std::vector<MacField> out;
    for (u64 g = 0; g < nodes; ++g) {
      const u64 d = g == own ? l.d_base : d_buf + g * db;
      const u64 a = g == own ? l.a_base + own * ab : a_buf + g * ab;
      for (u64 s = 0; s < nodes; ++s) {
        out.push_back(macField(l.c_base + s * cs, d + s * ds, a, rows, l.c_cols, l.d_cols));
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeExchange(
        st, x, all, ab, n_port, o.tau, o.packet, [&](u64 i) { return a_buf + l.gridCol(i) * ab; },
        [&](u64 src) -> std::optional<u64> { return l.a_base + l.gridCol(src) * ab; });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a113");
}

// TR-623 §3.2, Algorithms A(.,2,2) .. A(.,2,5) (Figure 2; A(.,2,2) and A(.,2,3) in the text,
// A(.,2,4) and A(.,2,5) in appendix B), two-dimensional partitioning on a square grid S x S
// (N1 = N2 = S = 2^h), Gray code encoding. Each is a transpose (squareTranspose, n M), an
// all-to-all broadcast within grid rows or columns (subcubeBroadcast), S products of blocks
// P/S x Q/S x R/S and an all-to-all reduction within grid columns or rows (subcubeReduce), and
// for A(.,2,3) and A(.,2,5) a transpose of A that adds into A where each block arrives (the
// diagonal processors reduce straight into A). Element transfers (Table 8, one-port):
//   A(1,2,2): P/S Q/S n + Q/S P/S (S-1) + P/S R/S (S-1)              2n start-ups
//   A(1,2,3): P/S Q/S n + Q/S R/S (S-1) + R/S P/S (S-1) + R/S P/S n  3n
//   A(1,2,4): Q/S R/S n + R/S Q/S (S-1) + P/S R/S (S-1)              2n
//   A(1,2,5): Q/S R/S n + P/S Q/S (S-1) + R/S P/S (S-1) + R/S P/S n  3n
// On all-port hardware the broadcasts and reductions run on nRSBTs (h parts, Table 11's
// (S-1)/h terms, ceil per part) and the transposes are packet transposes (squarePhase: the SPT
// with the optimum packet, Table 11's (sqrt(P/S Q/S) t_c + sqrt((n-1) tau))^2, or the DPT or MPT
// with --transpose). Arithmetic: PQR/N multiply-adds.
TableSet twoDimensional(const MatmulOptions& o, const MatmulLayout& l, int which,
                        MatmulCounts* counts) {
  const std::string name = "A(.,2," + std::to_string(which) + ")";
  requireGrid(o, l, name.c_str(), true);
  const int h = l.n1;
  const u64 side = l.gridRows();
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/S x Q/S
  const u64 db = l.d_rows * l.d_cols;  // Q/S x R/S
  const u64 ab = l.a_rows * l.a_cols;  // P/S x R/S
  const bool n_port = !o.one_port;
  const bool transpose_c = which == 2 || which == 3;
  const bool transpose_a = which == 3 || which == 5;
  const bool gather_c = which == 2 || which == 5;  // else D is gathered
  // Gathered within grid rows (the column field, dimensions 0 .. h-1) or columns (h .. 2h-1).
  const bool gather_rows = which == 2 || which == 3;
  const u64 gathered = gather_c ? cb : db;
  const u64 visit = l.slots;                         // a transpose's visitor
  const u64 g_buf = visit + std::max({cb, db, ab});  // gathered block b
  const u64 p_buf = g_buf + side * gathered;         // partial block b
  const u64 t_buf = p_buf + side * ab;               // A^T's block
  Builder b(o, l);
  const u64 scratch = t_buf + ab - l.slots;
  b.setScratch(scratch);
  const u64 moved = transpose_c ? l.c_base : l.d_base;
  b.needScratch(scratch + squarePhase(b, o, l, h, h, 0, transpose_c ? cb : db, moved, visit,
                                      std::nullopt, l.slots + scratch));
  const u64 own_gathered = gather_c ? l.c_base : l.d_base;
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, h, gather_rows ? 0 : h, own_gathered, g_buf, gathered, n_port,
                            o.tau, o.packet);
  });
  // The reduction runs within grid columns (A(.,2,2), A(.,2,3)) or rows (A(.,2,4), A(.,2,5)):
  // partial block b goes to the processor at position b there; its own one ends in A, or, when A
  // is transposed afterwards, in A^T's block (A itself on the diagonal).
  const bool reduce_in_columns = which == 2 || which == 3;
  auto position = [&](u64 y) { return reduce_in_columns ? l.gridRow(y) : l.gridCol(y); };
  auto final_slot = [&](u64 x) {
    return !transpose_a || l.gridRow(x) == l.gridCol(x) ? l.a_base : t_buf;
  };
  macsOf(b, nodes, [&](u64 x) {
    const u64 mine = gather_rows ? l.gridCol(x) : l.gridRow(x);  // own gathered position
    std::vector<MacField> out;
    for (u64 g = 0; g < side; ++g) {
      const u64 block = g == mine ? own_gathered : g_buf + g * gathered;
      const u64 target = g == position(x) ? final_slot(x) : p_buf + g * ab;
      // A(.,2,2), A(.,2,5): gathered C block g times the local D; A(.,2,3), A(.,2,4): the local C
      // times gathered D block g.
      out.push_back(gather_c ? macField(block, l.d_base, target, l.c_rows, l.c_cols, l.d_cols)
                             : macField(l.c_base, block, target, l.c_rows, l.c_cols, l.d_cols));
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, reduce_in_columns ? dimRange(h, h) : dimRange(0, h), ab, n_port,
                         o.tau, o.packet,
                         [&](u64 y) { return y == x ? final_slot(x) : p_buf + position(y) * ab; });
  });
  if (transpose_a) {
    b.needScratch(scratch +
                  squarePhase(b, o, l, h, h, 0, ab, t_buf, visit, l.a_base, l.slots + scratch));
  }
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-a12" + std::to_string(which)).c_str());
}

/// The dimensions a square transpose of the N1 x N2 grid swaps when N1 > N2: the high n2 bits
/// of the row field (from n2 + e) with the column field (from 0), e = n1 - n2.
int tallHi(const MatmulLayout& l) { return l.n2 + (l.n1 - l.n2); }

// TR-623 §3.2, Algorithms A(.,2,3) (text) and A(.,2,5) (appendix B) on grids N1 x N2 with
// N1 < N2 (e = n2 - n1, r = 2^e, h = n1), Gray code encoding. A(.,2,3): the transpose of C into
// lc_txp (gridTransposePhases), the all-to-all broadcast of D within grid rows (ld_row), the
// products la_txp = lc_txp x ld_row, the all-to-all reduction within grid columns into la_txp_red
// (processor (b1, b2) ends with A's rows b2 P/N2 .. and columns b1 R/N1 .., the allocation of A^T),
// and the transpose of A^T back into la. A(.,2,5): the transpose of D into ld_txp, the broadcast
// of C within grid columns (lc_col), la_txp = lc_col x ld_txp, the reduction within grid rows
// into la_txp_red, the same transpose back. The A^T block of (b1, b2) is r pieces of P/N2 x R/N2,
// one for each A column block b1 r + s (dense, so every product is one MAC of P/N2 x Q/N2 x R/N2);
// the piece bound for column block a2 is kept at position fiberSlot(b2 / r, G(a2) mod r), which is
// the row offset (in P/N2 rows) it takes in A's block, so the transpose back is §2's combination
// run in reverse: the one-dimensional exchange within the low e column bits (subcubeExchange)
// gathers the r pieces of one A block at one node in A's row order, then the square transpose of
// the row field with the high h column bits (squareTranspose) adds the whole block into A. On the
// nodes where that square transpose stays put (b1 = b2 / r) the exchange adds the arriving
// pieces into A itself and the reduction leaves the node's own piece in A. Element transfers,
// one-port: Table 8's broadcast and reduction terms exactly, the transposes e M/2 + 2h M each
// (Table 8 charges n M); 3n start-ups (Table 8). Needs N2 | P (the P/N2 rows of A^T).
TableSet transposedAWide(const MatmulOptions& o, const MatmulLayout& l, int which,
                         MatmulCounts* counts) {
  const int e = l.n2 - l.n1;
  const u64 r = u64{1} << e;
  const int h = l.n1;
  if (l.p % l.gridCols() != 0) {
    throw Error("--method " + o.method + ": P = " + std::to_string(l.p) +
                " does not divide over the " + std::to_string(l.gridCols()) +
                " grid columns (A(.,2," + std::to_string(which) +
                ") reduces A^T into P/N2 x R/N1 blocks)");
  }
  const bool c_moves = which == 3;  // A(.,2,3) transposes C, A(.,2,5) D
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;      // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;      // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;      // P/N1 x R/N2 = P/N2 x R/N1
  const u64 rows = l.p >> l.n2;            // P/N2
  const u64 inner = l.q >> l.n2;           // Q/N2
  const u64 pa = rows * l.a_cols;          // a piece of A^T, P/N2 x R/N2
  const u64 moved = c_moves ? cb : db;     // the transposed block
  const u64 gathered = c_moves ? db : cb;  // D's blocks in a grid row, or C's in a column
  const u64 gathered_count = c_moves ? l.gridCols() : l.gridRows();
  const u64 partial_count = c_moves ? l.gridRows() : l.gridCols();
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + std::max(moved, ab);        // gathered block g
  const u64 p_buf = g_buf + gathered_count * gathered;  // partial A^T block for position g
  const u64 t_buf = p_buf + partial_count * ab;         // this node's A^T block
  auto diag = [&](u64 x) { return l.gridRow(x) == (l.gridCol(x) >> e); };
  // Where the piece bound for A column block a2 sits in an A^T block held in grid column b2.
  auto pos = [&](u64 b2, u64 a2) { return fiberSlot(b2 >> e, grayCode(a2) & (r - 1), r); };
  // Word w of this node's own A^T block: A itself for the piece that stays here, else t_buf.
  auto own = [&](u64 x, u64 w) {
    const u64 b2 = l.gridCol(x);
    return diag(x) && w / pa == pos(b2, b2) ? l.a_base + w : t_buf + w;
  };
  Builder b(o, l);
  const u64 scratch = t_buf + ab - l.slots;
  b.setScratch(scratch);
  b.needScratch(scratch + gridTransposePhases(b, o, l, c_moves ? l.q : l.r, moved,
                                              c_moves ? l.c_base : l.d_base, visit,
                                              l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return c_moves
               ? subcubeBroadcast(st, x, l.n2, 0, l.d_base, g_buf, db, n_port, o.tau, o.packet)
               : subcubeBroadcast(st, x, l.n1, l.n2, l.c_base, g_buf, cb, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    // The target of the piece bound for column block a2 of the A^T block of grid position g.
    auto target = [&](u64 g, bool mine, u64 dest_col, u64 a2) {
      const u64 at = pos(dest_col, a2) * pa;
      return mine ? own(x, at) : p_buf + g * ab + at;
    };
    std::vector<MacField> out;
    if (c_moves) {
      // lc_txp piece t: C's rows b2 P/N2 .., columns src Q/N2 .. (src = gridPieceSource, in
      // b1 r .. b1 r + r - 1), which meet rows (src - b1 r) Q/N2 .. of D's blocks in grid row b1.
      // Partial block g (grid row g of this grid column): A's columns g R/N1 .., column blocks
      // g r + s.
      for (u64 g = 0; g < l.gridRows(); ++g) {
        for (u64 s = 0; s < r; ++s) {
          const u64 a2 = g * r + s;
          const u64 d_at = a2 == b2 ? l.d_base : g_buf + a2 * db;
          for (u64 t = 0; t < r; ++t) {
            const u64 src = gridPieceSource(l, b1, b2, t);
            out.push_back(macField(l.c_base + t * (cb / r),
                                   d_at + (src - b1 * r) * inner * l.d_cols,
                                   target(g, g == b1, b2, a2), rows, inner, l.d_cols));
          }
        }
      }
    } else {
      // ld_txp piece t: D's rows b2 Q/N2 .., columns src R/N2 .. (A's column block src). Partial
      // block g (grid column g of this grid row): A's rows g P/N2 .., in C's block row g / r.
      for (u64 g = 0; g < l.gridCols(); ++g) {
        const u64 a1 = g >> e;
        const u64 c_at = (a1 == b1 ? l.c_base : g_buf + a1 * cb) + (g & (r - 1)) * rows * inner;
        for (u64 t = 0; t < r; ++t) {
          const u64 src = gridPieceSource(l, b1, b2, t);
          out.push_back(macField(c_at, l.d_base + t * (db / r), target(g, g == b2, g, src), rows,
                                 inner, l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    if (c_moves) {
      return subcubeReduce(
          st, x, dimRange(l.n2, l.n1), ab, n_port, o.tau, o.packet,
          [&](u64 y, u64 w) { return y == x ? own(x, w) : p_buf + l.gridRow(y) * ab + w; });
    }
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet, [&](u64 y, u64 w) {
      return y == x ? own(x, w) : p_buf + l.gridCol(y) * ab + w;
    });
  });
  // The transpose back: the exchange within the low e column bits, then the square transpose of
  // the row field with the high h column bits.
  b.phase([&](u64 x, Stream& st) {
    const u64 high = l.gridCol(x) >> e;
    return subcubeExchange(
        st, x, dimRange(0, e), pa, n_port, o.tau, o.packet,
        [&](u64 i) { return t_buf + fiberSlot(high, i & (r - 1), r) * pa; },
        [&](u64 src) -> std::optional<u64> {
          if (!diag(x)) return std::nullopt;
          return l.a_base + fiberSlot(high, src & (r - 1), r) * pa;
        });
  });
  b.needScratch(scratch +
                squarePhase(b, o, l, h, l.n2, e, ab, t_buf, visit, l.a_base, l.slots + scratch));
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-a12" + std::to_string(which)).c_str());
}

// TR-623 §3.2 and appendix B, Algorithm A(.,2,4) on grids N1 x N2 with N1 > N2 (e = n1 - n2,
// r = 2^e, h = n2), Gray code encoding. As with N1 <= N2, grid column b2 must end with D's rows
// b2 Q/N2 .. (its C blocks' columns) spread over its N1 processors, to be broadcast within the
// column. Here those rows are r of D's block rows, N1 whole blocks (b2 r + s, a2) of Q/N1 x R/N2:
// the transposed allocation gives processor (b1, b2) the block with a2 = b1 / r and s =
// fiberSlot(b2, G(b1) mod r) (the paper's ld_txp splits the same rows by columns instead, R/N1
// each, which would cut D's blocks into column strips that the MAC cannot read as its B block).
// Moving block (a1, a2) to that processor swaps the high h bits of the row field with the column
// field and keeps the low e bits: the square transpose of h bit pairs alone (squareTranspose),
// 2h M element transfers and 2h start-ups (Table 8 charges n M and n). Then, as the paper says,
// the broadcast of the blocks within grid columns ((N1-1) R/N1 Q/N2, Table 8), one product per
// gathered block and row of C (C's columns that meet block (b2 r + s, a2) are a column strip
// Q/N1 wide of its block: 1 x Q/N1 x R/N2 MACs into the partial block of column block a2), and
// the reduction within grid rows ((N2-1) P/N1 R/N2, Table 8) leaving A's block in la.
TableSet a124Tall(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const int e = l.n1 - l.n2;
  const u64 r = u64{1} << e;
  const int h = l.n2;
  const u64 nodes = u64{1} << l.n;
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const u64 strip = l.q >> l.n1;       // Q/N1
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + db;                 // D block of grid row g
  const u64 p_buf = g_buf + l.gridRows() * db;  // partial block of A's column block g
  Builder b(o, l);
  const u64 scratch = db + l.gridRows() * db + l.gridCols() * ab;
  b.setScratch(scratch);
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, db, l.d_base, visit, std::nullopt,
                                      l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n1, l.n2, l.d_base, g_buf, db, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    auto partial = [&](u64 a2) { return a2 == b2 ? l.a_base : p_buf + a2 * ab; };
    std::vector<MacField> out;
    for (u64 g = 0; g < l.gridRows(); ++g) {
      // Grid row g of this column holds D's block (b2 r + s, g / r).
      const u64 s = fiberSlot(b2, grayCode(g) & (r - 1), r);
      const u64 d_at = g == b1 ? l.d_base : g_buf + g * db;
      for (u64 i = 0; i < l.c_rows; ++i) {
        out.push_back(macField(l.c_base + i * l.c_cols + s * strip, d_at,
                               partial(g >> e) + i * l.a_cols, 1, strip, l.d_cols));
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return y == x ? l.a_base : p_buf + l.gridCol(y) * ab; });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a124");
}

// TR-623 §3.2, Algorithm A(.,2,3) on grids N1 x N2 with N1 > N2 (e = n1 - n2, r = 2^e, h = n2),
// Gray code encoding: transpose C (gridTransposePhases; processor (b1, b2) gets C's rows b2 P/N2
// .., columns b1 Q/N1 .., as r column strips P/N1 x Q/N1, each one of C's block rows b2 r + s),
// broadcast D within grid rows (ld_row, Table 8's (N2-1) Q/N1 R/N2), multiply, and reduce within
// grid columns. The reduction is the paper's alternative (§3.2, A(.,2,3): "the accumulation can
// be made such that P/max(N1, N2) elements for each column are accumulated in a processor
// selected such that the proper allocation of A is obtained through a ... personalized
// communication"): with N1 > N2 each processor of grid column b2 receives the P/N1 x R/N2 sum of
// one whole block of A, (b2 r + s, a2) for the processor b1 with b1 / r = a2 and G(b1) mod r =
// G(b2 r + s) mod r. Its home differs from it by the high h bits of the row field and the
// column field, swapped: the square transpose of h bit pairs moves every block home, adding it
// into A (the processors with b1 / r = b2 reduce straight into A). The main-text reduction would
// give each processor P/N2 rows of R/N1 columns, a column strip of D's blocks, which the MAC
// cannot read as its B block. Products: C's strip rows (1 x Q/N1) times D's block (Q/N1 x R/N2)
// of the same grid row, P MACs per processor. Element transfers, one-port: the transpose of C
// e M/2 + 2h M, Table 8's broadcast (N2-1) Q/N1 R/N2 and reduction (N1-1) R/N1 P/N2, the
// transpose of A 2h M (Table 8: n M); n + n2 + n1 + 2h start-ups (Table 8: 3n).
TableSet a123Tall(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const int e = l.n1 - l.n2;
  const u64 r = u64{1} << e;
  const int h = l.n2;
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const u64 strip = l.q >> l.n1;       // Q/N1
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + std::max(cb, ab);   // D block of grid column g
  const u64 p_buf = g_buf + l.gridCols() * db;  // partial block for grid row g
  const u64 t_buf = p_buf + l.gridRows() * ab;  // this node's sum, bound for the transpose
  auto diag = [&](u64 x) { return (l.gridRow(x) >> e) == l.gridCol(x); };
  Builder b(o, l);
  const u64 scratch = t_buf + ab - l.slots;
  b.setScratch(scratch);
  b.needScratch(scratch +
                gridTransposePhases(b, o, l, l.q, cb, l.c_base, visit, l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n2, 0, l.d_base, g_buf, db, n_port, o.tau, o.packet);
  });
  auto mine = [&](u64 x) { return diag(x) ? l.a_base : t_buf; };
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    std::vector<MacField> out;
    for (u64 t = 0; t < r; ++t) {
      const u64 src = gridPieceSource(l, b1, b2, t);  // C's block row b2 r + s
      for (u64 a2 = 0; a2 < l.gridCols(); ++a2) {
        // The processor of this grid column that sums A's block (src, a2).
        const u64 g = grayInverse((grayCode(a2) << e) | (grayCode(src) & (r - 1)));
        const u64 into = g == b1 ? mine(x) : p_buf + g * ab;
        const u64 d_at = a2 == b2 ? l.d_base : g_buf + a2 * db;
        for (u64 i = 0; i < l.c_rows; ++i) {
          out.push_back(macField(l.c_base + i * l.c_cols + t * strip, d_at, into + i * l.a_cols, 1,
                                 strip, l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, dimRange(l.n2, l.n1), ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return y == x ? mine(x) : p_buf + l.gridRow(y) * ab; });
  });
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, ab, t_buf, visit, l.a_base,
                                      l.slots + scratch));
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a123");
}

// TR-623 appendix B, Algorithm A(.,2,5) on grids N1 x N2 with N1 > N2 (e = n1 - n2, r = 2^e,
// h = n2), Gray code encoding, in the paper's form: transpose D into ld_txp (processor (b1, b2)
// gets D's rows b2 Q/N2 .. and columns b1 R/N1 ..), broadcast C within grid columns (lc_col),
// la_txp = lc_col x ld_txp, reduce within grid rows into la_txp_red (A's rows b2 P/N2 ..,
// columns b1 R/N1 ..), transpose A^T back into la. With N1 > N2 a block's R/N1 columns are a
// column strip of D's and A's blocks (R/N2 wide), so both transposes run §2's combination in the
// order that ends where the data must be dense:
//  * D: the square transpose of the high h row bits with the column field (squarePhase) moves
//    D's block (a1, a2) to the node whose row is G(a2) with G(a1)'s low e bits and whose column
//    is a1 / r; the exchange within the low e row bits (subcubeExchange) then sends column strip
//    u (Q/N1 x R/N1) to the member b1 = a2 r + u, where it is stored as a dense piece, the pieces
//    stacked in the order of D's rows (a Q/N2 x R/N1 matrix, the B block of one MAC). The strip a
//    node keeps for itself does not move: a local copy (PERMUTE, ceil(Q/N1 R/N1 / n) cycles)
//    puts it in its place.
//  * A: the partial blocks of A^T are r pieces P/N1 x R/N1 (A's block rows b2' r + s), dense in
//    scratch (one MAC of P/N1 x Q/N2 x R/N1 per piece: C's gathered block times the stacked D);
//    this node's own block is kept in A's shape (P/N1 x R/N2, the piece for A's row block a1 in
//    the column strip of A's block it will fill) so that the exchange within the low e row bits
//    and the square transpose back land it in A unchanged (per-row MACs write it). The nodes the
//    square transpose leaves in place (b1 / r = b2) add their arriving strips into A in the
//    exchange and reduce their own piece straight into A.
// Element transfers, one-port: the transposes e M/2 + 2h M each (Table 8: n M), Table 8's
// broadcast (N1-1) P/N1 Q/N2 and reduction (N2-1) R/N1 P/N2; 3n start-ups (Table 8). Needs
// N1 | R.
TableSet a125Tall(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  const int e = l.n1 - l.n2;
  const u64 r = u64{1} << e;
  const int h = l.n2;
  if (l.r % l.gridRows() != 0) {
    throw Error("--method a125: R = " + std::to_string(l.r) + " does not divide over the " +
                std::to_string(l.gridRows()) +
                " grid rows (A(.,2,5) transposes D into Q/N2 x R/N1 blocks)");
  }
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2 = P/N2 x R/N1
  const u64 width = l.r >> l.n1;       // R/N1
  const u64 pd = l.d_rows * width;     // a D^T piece, Q/N1 x R/N1
  const u64 pa = l.a_rows * width;     // an A^T piece, P/N1 x R/N1
  const bool n_port = !o.one_port;
  const u64 visit = l.slots;
  const u64 g_buf = visit + std::max(db, ab);   // C block of grid row g
  const u64 p_buf = g_buf + l.gridRows() * cb;  // partial A^T block for grid column g
  const u64 t_buf = p_buf + l.gridCols() * ab;  // this node's A^T block, in A's shape
  const u64 dd = t_buf + ab;                    // D^T, dense, Q/N2 x R/N1
  const u64 scratch = dd + db - l.slots;
  auto diag = [&](u64 x) { return (l.gridRow(x) >> e) == l.gridCol(x); };
  // The row-low bits of a node (its place within its group of r grid rows).
  auto sigma = [&](u64 y) { return (y >> l.n2) & (r - 1); };
  Builder b(o, l);
  b.setScratch(scratch);
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, db, l.d_base, visit, std::nullopt,
                                      l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    const u64 high = l.gridRow(x) >> e;  // a2 of the block held
    const u64 b2 = l.gridCol(x);
    return subcubeExchange(
        st, x, dimRange(l.n2, e), pd, n_port, o.tau, o.packet,
        [&](u64 i) { return l.d_base + fiberSlot(high, sigma(i), r) * width; },
        [&](u64 src) -> std::optional<u64> { return dd + fiberSlot(b2, sigma(src), r) * pd; },
        width, l.d_cols, LandShape{false, false});
  });
  std::vector<std::vector<std::pair<u64, u64>>> copies(nodes);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 from = l.d_base + fiberSlot(l.gridRow(x) >> e, sigma(x), r) * width;
    const u64 to = dd + fiberSlot(l.gridCol(x), sigma(x), r) * pd;
    for (u64 w = 0; w < pd; ++w) {
      copies[x].push_back({from + (w / width) * l.d_cols + w % width, to + w});
    }
  }
  b.localCopies(copies);
  b.phase([&](u64 x, Stream& st) {
    return subcubeBroadcast(st, x, l.n1, l.n2, l.c_base, g_buf, cb, n_port, o.tau, o.packet);
  });
  // Word w of this node's own A^T block (piece s, row rho, column c, pieces dense in that
  // order) in A's shape: the column strip of the member the piece is bound for, in t_buf, or in
  // A for the piece that stays here.
  auto own = [&](u64 x, u64 w) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    const u64 s = w / pa;
    const u64 at = fiberSlot(b1 >> e, grayCode(b2 * r + s) & (r - 1), r);
    const bool stays = diag(x) && b2 * r + s == b1;
    return (stays ? l.a_base : t_buf) + ((w % pa) / width) * l.a_cols + at * width + w % width;
  };
  macsOf(b, nodes, [&](u64 x) {
    const u64 b1 = l.gridRow(x);
    const u64 b2 = l.gridCol(x);
    std::vector<MacField> out;
    for (u64 g = 0; g < l.gridCols(); ++g) {
      for (u64 s = 0; s < r; ++s) {
        const u64 a1 = g * r + s;  // A's block row of piece s of grid column g's block
        const u64 c_at = a1 == b1 ? l.c_base : g_buf + a1 * cb;
        if (g != b2) {
          out.push_back(macField(c_at, dd, p_buf + g * ab + s * pa, l.c_rows, l.c_cols, width));
          continue;
        }
        for (u64 i = 0; i < l.c_rows; ++i) {
          out.push_back(
              macField(c_at + i * l.c_cols, dd, own(x, s * pa + i * width), 1, l.c_cols, width));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet, [&](u64 y, u64 w) {
      return y == x ? own(x, w) : p_buf + l.gridCol(y) * ab + w;
    });
  });
  b.phase([&](u64 x, Stream& st) {
    const u64 high = l.gridRow(x) >> e;
    return subcubeExchange(
        st, x, dimRange(l.n2, e), pa, n_port, o.tau, o.packet,
        [&](u64 i) { return t_buf + fiberSlot(high, sigma(i), r) * width; },
        [&](u64 src) -> std::optional<u64> {
          if (!diag(x)) return std::nullopt;
          return l.a_base + fiberSlot(high, sigma(src), r) * width;
        },
        width, l.a_cols, LandShape{true, true});
  });
  b.needScratch(scratch + squarePhase(b, o, l, h, tallHi(l), 0, ab, t_buf, visit, l.a_base,
                                      l.slots + scratch));
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a125");
}

// TR-623 §3.2, Algorithms A(.,2,2) and A(.,2,4) (Figure 2, appendix B) on grids N1 x N2 with
// N1 != N2, Gray code encoding: the transpose of C (A(.,2,2)) or D (A(.,2,4)) into the paper's
// lc_txp allocation (P/N2 x Q/N1 blocks, rows over the grid columns) or its D counterpart
// (Q/N2 x R/N1), by gridTransposePhases; the all-to-all broadcast of those blocks within grid rows
// (A(.,2,2), N2 of them) or columns (A(.,2,4), N1); the products into partial blocks of A; the
// all-to-all reduction within grid columns (A(.,2,2), N1 partial blocks of P/N1 x R/N2) or rows
// (A(.,2,4), N2 of them). One-port element transfers: Table 8's broadcast and reduction terms,
// (N2-1) Q/N1 P/N2 + (N1-1) P/N1 R/N2 (A(1,2,2)), (N1-1) R/N1 Q/N2 + (N2-1) P/N1 R/N2
// (A(1,2,4)); the transpose e M/2 + 2h M (gridTransposePhases; Table 8 charges n M); 2n start-ups.
// The products: A(.,2,2), N1 < N2: one MAC per transposed piece (P/N2 x Q/N2 x R/N2); N1 > N2:
// the pieces are column strips, one MAC per row of a piece (1 x Q/N1 x R/N2). A(.,2,4), N1 < N2:
// one MAC per piece (P/N1 x Q/N2 x R/N2). PQR/N multiply-adds in every case.
TableSet twoDimensionalNotSquare(const MatmulOptions& o, const MatmulLayout& l, int which,
                                 MatmulCounts* counts) {
  if (which == 3 || which == 5) {
    if (l.n1 < l.n2) return transposedAWide(o, l, which, counts);
    return which == 3 ? a123Tall(o, l, counts) : a125Tall(o, l, counts);
  }
  if (which == 4 && l.n1 > l.n2) return a124Tall(o, l, counts);
  const bool c_moves = which == 2;
  if (c_moves && l.n1 < l.n2 && l.p % l.gridCols() != 0) {
    throw Error("--method a122: P = " + std::to_string(l.p) + " does not divide over the " +
                std::to_string(l.gridCols()) +
                " grid columns (A(.,2,2) transposes C into P/N2 x Q/N1 blocks)");
  }
  const int e = std::abs(l.n1 - l.n2);
  const u64 r = u64{1} << e;
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const bool n_port = !o.one_port;
  const u64 moved = c_moves ? cb : db;
  const u64 own = c_moves ? l.c_base : l.d_base;
  const u64 gathered_count = c_moves ? l.gridCols() : l.gridRows();
  const u64 partial_count = c_moves ? l.gridRows() : l.gridCols();
  const u64 visit = l.slots;
  const u64 g_buf = visit + moved;                   // gathered block g
  const u64 p_buf = g_buf + gathered_count * moved;  // partial block g
  Builder b(o, l);
  const u64 scratch = moved + gathered_count * moved + partial_count * ab;
  b.setScratch(scratch);
  b.needScratch(scratch + gridTransposePhases(b, o, l, c_moves ? l.q : l.r, moved, own, visit,
                                              l.slots + scratch));
  b.phase([&](u64 x, Stream& st) {
    return c_moves
               ? subcubeBroadcast(st, x, l.n2, 0, own, g_buf, moved, n_port, o.tau, o.packet)
               : subcubeBroadcast(st, x, l.n1, l.n2, own, g_buf, moved, n_port, o.tau, o.packet);
  });
  macsOf(b, nodes, [&](u64 x) {
    const u64 row = l.gridRow(x);
    const u64 col = l.gridCol(x);
    const u64 piece = moved / r;
    std::vector<MacField> out;
    if (c_moves) {
      // Gathered block g is C's rows g P/N2 .. and columns row Q/N1 .. (this processor's D rows).
      auto partial = [&](u64 a1) { return a1 == row ? l.a_base : p_buf + a1 * ab; };
      for (u64 g = 0; g < l.gridCols(); ++g) {
        const u64 block = g == col ? own : g_buf + g * moved;
        for (u64 t = 0; t < r; ++t) {
          const u64 source = gridPieceSource(l, row, g, t);
          if (l.n1 < l.n2) {
            const u64 rows = l.p >> l.n2;  // P/N2: rows g P/N2 .. of A's block row g / r
            const u64 d_row = (source - row * r) * l.c_cols;  // C's column block in Q/N1
            out.push_back(macField(block + t * piece, l.d_base + d_row * l.d_cols,
                                   partial(g >> e) + (g & (r - 1)) * rows * l.a_cols, rows,
                                   l.c_cols, l.d_cols));
          } else {
            const u64 width = l.q >> l.n1;  // Q/N1: piece t is a column strip
            for (u64 i = 0; i < l.c_rows; ++i) {
              out.push_back(macField(block + i * l.c_cols + t * width, l.d_base,
                                     partial(source) + i * l.a_cols, 1, width, l.d_cols));
            }
          }
        }
      }
    } else {
      // Gathered block g is D's rows col Q/N2 .. (this processor's C columns) and columns
      // g R/N1 .., in r pieces of Q/N2 x R/N2, each one column block of A.
      auto partial = [&](u64 a2) { return a2 == col ? l.a_base : p_buf + a2 * ab; };
      for (u64 g = 0; g < l.gridRows(); ++g) {
        const u64 block = g == row ? own : g_buf + g * moved;
        for (u64 t = 0; t < r; ++t) {
          out.push_back(macField(l.c_base, block + t * piece,
                                 partial(gridPieceSource(l, g, col, t)), l.c_rows, l.c_cols,
                                 l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    if (c_moves) {
      return subcubeReduce(st, x, dimRange(l.n2, l.n1), ab, n_port, o.tau, o.packet,
                           [&](u64 y) { return y == x ? l.a_base : p_buf + l.gridRow(y) * ab; });
    }
    return subcubeReduce(st, x, dimRange(0, l.n2), ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return y == x ? l.a_base : p_buf + l.gridCol(y) * ab; });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish(("matmul-a12" + std::to_string(which)).c_str());
}

// TR-623 §3.3, "Algorithm A(.,3,1)", three-dimensional partitioning on N1' x N2' x N3'
// processors, Gray code encoding, on the layout grid N1 x N2 with N1' = N1, N2' N3' = N2 and
// N2' >= N1 (default N2' = N1). The paper's final allocation la2 keeps A N1 x N2 partitioned,
// each N1' x N2' cell of the three-dimensional grid split over the N3' processors of its fiber.
// Node bits: the row field (n1) is the N1' direction, the high n2' bits of the column field the
// N2' direction, its low n3' = n2 - n2' bits the N3' direction; a fiber (fixed N1', N2'
// coordinates) is the subcube of those low bits and holds N3' consecutive block columns.
// The slice of Q that fiber position sigma (the low bits) multiplies, S(sigma), is the set of C
// block columns held by the nodes with low bits sigma, N2' of them (the paper's lc3: C
// partitioned N1' x N2' N3', so C does not move). D's block row a1 (Q/N1 rows) holds N2/N1
// sub-strips of Q/N2 rows, one for each block column of C, of which the w = N2'/N1 in S(sigma)
// go to fiber position sigma: the paper's transformation into ld3 (D partitioned N1' N3' x N2')
// is an all-to-all personalized exchange within each fiber (subcubeExchange, n3' M/2 one-port
// with M = Q/N1 R/N2, Table 4). (With N2' < N1, or with the fiber in the row bits as well, a
// sub-strip would not stay within one fiber: the transformation becomes a dimension permutation
// across fibers, which is not built.) Then, as in the paper, C is broadcast all-to-all in the N2'
// direction and D in the N1' direction (both at once on all-port hardware), every node
// multiplies its gathered P/N1 x Q/N3' slice of C by the matching Q/N3' x R/N2' slice of D
// into N3' partial blocks of A (P/N1 x R/N2 each, its own one straight into A), and the partial
// blocks are reduced all-to-all within the fiber (subcubeReduce), leaving node (a1, a2) with A's
// block (a1, a2). Element transfers, one-port: the broadcasts are Table 8's A(1,2,1) on the
// N1' x N2' grid with Q replaced by Q/N3', (N2'-1) P/N1 Q/N2 + (N1-1) Q/N1 R/N2; the reduction
// §3.3's sum over i = 1 .. n3' of P/N1' R/N2' / 2^i = (N3'-1) P/N1 R/N2; the transformation
// n3' Q/N1 R/N2 / 2; start-ups n3' + n2' + n1 + n3'. All-port: nRSBTs and n-port exchange and
// reduction (ceil per part). Arithmetic: N2 MACs of P/N1 x Q/N2 x R/N2, PQR/N multiply-adds
// (Table 5's 2PQR/N operations); the reduction's additions are in the combining receives.
// TR-623 §3.3, "Algorithm A(.,3,1)" with the fiber in the row bits: N1' N3' = N1, N2' = N2 and
// N1' >= N2' (default N1' = N2), the mirror image of threeDimensional below. Node bits: the low
// n3' bits of the row field are the fiber (N3' direction), the high n1' bits the N1' direction,
// the column field the N2' direction. D stays where the layout puts it (the paper's ld3, D
// partitioned N1' N3' x N2': fiber position sigma holds D's block rows whose Gray-coded low bits
// are sigma, S(sigma)); C's block column a2 (Q/N2 columns) holds N1/N2 column sub-strips of Q/N1
// columns, one for each of D's block rows, of which the w = N1'/N2 in S(sigma) go to fiber
// position sigma: the transformation into lc3 (C partitioned N1' x N2' N3') is an all-to-all
// personalized exchange within each fiber (subcubeExchange, n3' M/2 one-port with M = P/N1 Q/N2,
// Table 4), in place, so the sub-strips stay column strips of C's block. Then C is broadcast
// along N2' and D along N1' (both at once on all-port hardware), every node multiplies, row by
// row of the C sub-strips (1 x Q/N1 x R/N2 MACs: a column strip is no dense block), into the N3'
// partial blocks of A (P/N1 x R/N2 each, its own one straight into A), and the partial blocks
// are reduced all-to-all within the fiber. Element transfers, one-port: Table 8's A(1,2,1) on
// N1' x N2' with Q/N3', (N2-1) P/N1 Q/N2 + (N1'-1) Q/N1 R/N2; the reduction (N3'-1) P/N1 R/N2;
// the transformation n3' P/N1 Q/N2 / 2; start-ups n3' + n2 + n1' + n3'. Arithmetic: P MACs per
// node, PQR/N multiply-adds.
TableSet threeDimensionalRows(const MatmulOptions& o, const MatmulLayout& l, int d3,
                              MatmulCounts* counts) {
  const int h1 = l.n1 - d3;  // n1'
  if (d3 < 0 || h1 < l.n2) {
    throw Error("--method a131: A(.,3,1) with the fiber in the row bits needs N1' >= N2' (got " +
                std::to_string(u64{1} << std::max(h1, 0)) + "x" + std::to_string(l.gridCols()) +
                "x" + std::to_string(u64{1} << std::max(d3, 0)) + ")");
  }
  const u64 depth = u64{1} << d3;  // N3'
  const u64 low = depth - 1;
  const u64 lines = u64{1} << h1;  // N1'
  const u64 w = lines >> l.n2;     // column sub-strips of a C block per fiber position
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;  // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;  // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;  // P/N1 x R/N2
  const u64 width = l.d_rows;          // Q/N1, a column sub-strip of C's block
  const u64 strip = l.c_rows * width;  // P/N1 x Q/N1
  const bool n_port = !o.one_port;
  auto sigma = [&](u64 y) { return (y >> l.n2) & low; };
  // The place (in units of Q/N1 columns) within C's block column g / w of the sub-strip of D's
  // block row g depth + fiberSlot(g, s), g its N1' position.
  auto place = [&](u64 g, u64 s) { return (g % w) * depth + fiberSlot(g, s, depth); };
  const u64 c_buf = l.slots;                    // gathered C block of grid column b
  const u64 d_buf = c_buf + l.gridCols() * cb;  // gathered D block at N1' position g
  const u64 p_buf = d_buf + lines * db;         // partial block for fiber position s
  auto partial = [&](u64 x, u64 y) { return y == x ? l.a_base : p_buf + sigma(y) * ab; };
  Builder b(o, l);
  b.setScratch(l.gridCols() * cb + lines * db + depth * ab);
  const std::vector<int> fiber = dimRange(l.n2, d3);
  b.phase([&](u64 x, Stream& st) {
    const u64 a2 = l.gridCol(x);
    return subcubeExchange(st, x, fiber, w * strip, n_port, o.tau, o.packet, [&](u64 i, u64 word) {
      const u64 k = word / strip;
      const u64 in = word % strip;
      return l.c_base + (in / width) * l.c_cols + place(a2 * w + k, sigma(i)) * width + in % width;
    });
  });
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(2));
  std::vector<u64> messages(2);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 mc =
        subcubeBroadcast(streams[x][0], x, l.n2, 0, l.c_base, c_buf, cb, n_port, o.tau, o.packet);
    const u64 md = subcubeBroadcast(streams[x][1], x, h1, l.n2 + d3, l.d_base, d_buf, db, n_port,
                                    o.tau, o.packet);
    if (x == 0) messages = {mc, md};
  }
  b.emit(streams, messages);
  macsOf(b, nodes, [&](u64 x) {
    const u64 a2 = l.gridCol(x);
    const u64 own = l.gridRow(x) >> d3;  // own N1' position
    std::vector<MacField> out;
    for (u64 y : subcubeOf(x, fiber)) {
      for (u64 g = 0; g < lines; ++g) {
        // D's block row at N1' position g meets C's column sub-strip of fiber position y's rows,
        // in the C block of grid column g / w at y's place.
        const u64 col = g / w;
        const u64 c_at = (col == a2 ? l.c_base : c_buf + col * cb) + place(g, sigma(y)) * width;
        const u64 d_at = g == own ? l.d_base : d_buf + g * db;
        for (u64 i = 0; i < l.c_rows; ++i) {
          out.push_back(macField(c_at + i * l.c_cols, d_at, partial(x, y) + i * l.a_cols, 1, width,
                                 l.d_cols));
        }
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, fiber, ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return partial(x, y); });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a131");
}

TableSet threeDimensional(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts) {
  if (o.fiber_in_rows || (o.fiber_dims < 0 && l.n1 > l.n2)) {
    return threeDimensionalRows(o, l, o.fiber_dims < 0 ? l.n1 - l.n2 : o.fiber_dims, counts);
  }
  const std::string got =
      "(got " + std::to_string(l.gridRows()) + "x" + std::to_string(l.gridCols()) + ")";
  const int d3 = o.fiber_dims < 0 ? l.n2 - l.n1 : o.fiber_dims;  // n3'
  const int h2 = l.n2 - d3;                                      // n2'
  if (d3 < 0 || h2 < l.n1) {
    const std::string three = o.fiber_dims < 0 ? got
                                               : "(got " + std::to_string(l.gridRows()) + "x" +
                                                     std::to_string(u64{1} << h2) + "x" +
                                                     std::to_string(u64{1} << d3) + ")";
    throw Error(
        "--method a131: A(.,3,1) is built for N1' = N1 and N2' N3' = N2 with N2' >= N1' on the "
        "grid N1 x N2 (the fiber within the column bits; with N2' < N1' D's sub-strips would "
        "leave their fiber) " +
        three);
  }
  const u64 depth = u64{1} << d3;  // N3'
  const u64 low = depth - 1;       // a node's fiber position: its low column bits
  const u64 lines = u64{1} << h2;  // N2'
  const u64 w = lines >> l.n1;     // sub-strips of a D block per fiber position
  const u64 side = l.gridRows();   // N1' = N1
  const u64 nodes = u64{1} << l.n;
  const u64 cb = l.c_rows * l.c_cols;   // P/N1 x Q/N2
  const u64 db = l.d_rows * l.d_cols;   // Q/N1 x R/N2
  const u64 ab = l.a_rows * l.a_cols;   // P/N1 x R/N2
  const u64 sub = l.c_cols * l.d_cols;  // Q/N2 x R/N2, a sub-strip of D's block
  const bool n_port = !o.one_port;
  // The place, within the D block of grid row b, of the sub-strip of C's block column g v + j
  // (j = fiberSlot(g, sigma)) for the N2' position g: (g mod w) v + j, the block row being g / w.
  auto place = [&](u64 g, u64 sigma) { return (g % w) * depth + fiberSlot(g, sigma, depth); };
  const u64 c_buf = l.slots;             // gathered C block at position g (N2' direction)
  const u64 d_buf = c_buf + lines * cb;  // gathered D block of grid row b
  const u64 p_buf = d_buf + side * db;   // partial block for fiber position sigma
  auto partial = [&](u64 x, u64 y) { return y == x ? l.a_base : p_buf + (y & low) * ab; };
  Builder b(o, l);
  b.setScratch(lines * cb + side * db + depth * ab);
  const std::vector<int> fiber = dimRange(0, d3);
  b.phase([&](u64 x, Stream& st) {
    const u64 a1 = l.gridRow(x);
    // The strip for fiber position sigma: the w sub-strips of D's block (a1, .) whose C block
    // columns lie in S(sigma), k = 0 .. w-1 at N2' position a1 w + k.
    return subcubeExchange(st, x, fiber, w * sub, n_port, o.tau, o.packet, [&](u64 i, u64 word) {
      return l.d_base + place(a1 * w + word / sub, i & low) * sub + word % sub;
    });
  });
  std::vector<std::vector<Stream>> streams(nodes, std::vector<Stream>(2));
  std::vector<u64> messages(2);
  for (u64 x = 0; x < nodes; ++x) {
    const u64 mc =
        subcubeBroadcast(streams[x][0], x, h2, d3, l.c_base, c_buf, cb, n_port, o.tau, o.packet);
    const u64 md = subcubeBroadcast(streams[x][1], x, l.n1, l.n2, l.d_base, d_buf, db, n_port,
                                    o.tau, o.packet);
    if (x == 0) messages = {mc, md};
  }
  b.emit(streams, messages);
  macsOf(b, nodes, [&](u64 x) {
    const u64 a1 = l.gridRow(x);
    const u64 own = grayInverse((x & (l.gridCols() - 1)) >> d3);  // own N2' position
    std::vector<MacField> out;
    for (u64 y : subcubeOf(x, fiber)) {
      for (u64 g = 0; g < lines; ++g) {
        // C's block column at N2' position g meets the sub-strip of D's block row g / w that
        // fiber position y holds, at its place for y.
        const u64 c_at = g == own ? l.c_base : c_buf + g * cb;
        const u64 row = g / w;
        const u64 d_at = (row == a1 ? l.d_base : d_buf + row * db) + place(g, y & low) * sub;
        out.push_back(macField(c_at, d_at, partial(x, y), l.c_rows, l.c_cols, l.d_cols));
      }
    }
    return out;
  });
  b.phase([&](u64 x, Stream& st) {
    return subcubeReduce(st, x, fiber, ab, n_port, o.tau, o.packet,
                         [&](u64 y) { return partial(x, y); });
  });
  if (counts != nullptr) *counts = b.counts();
  return b.finish("matmul-a131");
}

}  // namespace

TableSet matmulTables(const MatmulOptions& o, MatmulCounts* counts) {
  const MatmulLayout l = MatmulLayout::of(o.spec);
  // MAC overlap mode (docs/hardware/arithmetic.md §3): an overlapped schedule exists for Cannon's
  // algorithm on square grids; every other method's tables would run as they are (their MACs
  // and transfers alternate), so they are refused rather than labelled overlapped.
  if (o.mac_overlap && o.method != "cannon") {
    throw Error("--mac-overlap: only --method cannon has an overlapped schedule (got '" + o.method +
                "')");
  }
  if (o.mac_overlap && l.n1 != l.n2) {
    throw Error("--mac-overlap: the overlapped Cannon schedule needs a square grid (got " +
                std::to_string(l.gridRows()) + "x" + std::to_string(l.gridCols()) +
                "; an even --n with --grid auto or N1 = N2)");
  }
  if (o.method == "rotation") return rotation(o, l, counts);
  if (o.method == "cannon") return cannon(o, l, counts);
  if (o.method == "broadcast") return broadcast(o, l, counts);
  if (o.method == "doubling") {
    // TR-623 §3.1, "A Doubling Algorithm A(.,1,1)": lc_brd, C broadcast all-to-all over the
    // cube, then one product: the broadcast form on the grid 1 x N (D's columns never move).
    requireGrid(o, l, "A(.,1,1)", false);
    return broadcast(o, l, counts);
  }
  if (o.method == "exchange") return exchange(o, l, counts);
  if (o.method == "a114") return a114(o, l, counts);
  if (o.method == "a113") return a113(o, l, counts);
  if (o.method.size() == 4 && o.method.starts_with("a12") && o.method[3] >= '2' &&
      o.method[3] <= '5') {
    const int which = o.method[3] - '0';
    if (l.n1 != l.n2) return twoDimensionalNotSquare(o, l, which, counts);
    return twoDimensional(o, l, which, counts);
  }
  if (o.method == "a131") return threeDimensional(o, l, counts);
  throw Error("--method '" + o.method + "': unknown matmul method (" + kMatmulMethods + ")");
}

}  // namespace hcube

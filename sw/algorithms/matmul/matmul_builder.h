// hcube: the internals of matmulTables (matmul.h), for the files of sw/algorithms/matmul/ only. The
// Builder turns per-node rotations, streams of cycles, MACs and local copies into per-node tables
// and counts what they cost; the primitives are the communications of Johnsson & Ho 1988,
// "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives" (TR-623) §2 that the
// methods are made of; the methods are the entry points matmul.cpp dispatches to, one family per
// file (README.md in this folder).
#pragma once

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/matmul/matmul.h"
#include "spec/matmul_layout.h"
#include "tables/table.h"

namespace hcube::matmul_detail {

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

  /// Emits per-node streams of cycles (Stream, above): `streams[x]` holds
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

// ---- Communication primitives within subcubes (subcube.cpp, TR-623 §2) ----

/// Adds `cell` to cycle `i` of `step`, growing it.
void put(Stream& step, size_t i, Cell cell);

/// The nodes of x's subcube spanned by `dims`, in increasing order.
std::vector<u64> subcubeOf(u64 x, std::vector<int> dims);

/// Dimensions shift .. shift + bits - 1.
std::vector<int> dimRange(int shift, int bits);

/// TR-623 §2.1: all-to-all broadcasting (SBT or nRSBT) within the subcube of dimensions shift ..
/// shift + bits - 1, node x's part. Returns the messages.
u64 subcubeBroadcast(Stream& st, u64 x, int bits, int shift, u64 own, u64 buf, u64 words,
                     bool n_port, u32 tau, u64 packet);

/// How a strip that has arrived is written where `land` says: added (a combining receive) or
/// stored, and at land + w (a dense strip) or, with `strided`, in the strips' own rows of `width`
/// words `stride` apart.
struct LandShape {
  bool add = true;
  bool strided = false;
};

/// TR-623 §2 (Table 4), §2.1's lc_txp1: all-to-all personalized communication within the
/// subcube of x spanned by `dims`, node x's part; strips at at(i), landing where `land` says.
/// Returns the messages.
u64 subcubeExchange(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port,
                    u32 tau, u64 packet, const std::function<u64(u64)>& at,
                    const std::function<std::optional<u64>(u64)>& land, u64 width = 0,
                    u64 stride = 0, LandShape shape = {});

/// subcubeExchange with strips that are not contiguous: word w of the strip for member i is in
/// slot(i, w); every strip ends in place.
u64 subcubeExchange(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port,
                    u32 tau, u64 packet, const std::function<u64(u64, u64)>& slot);

/// TR-623 §2.1's la_red1 (Table 3): all-to-all reduction within the subcube of x spanned by
/// `dims`, node x's part; word w of the partial block for y at slotOf(y, w). Returns the messages.
u64 subcubeReduce(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port, u32 tau,
                  u64 packet, const std::function<u64(u64, u64)>& slotOf);
/// subcubeReduce with dense partial blocks at at(y).
u64 subcubeReduce(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port, u32 tau,
                  u64 packet, const std::function<u64(u64)>& at);

/// TR-623 §2.2, the SBT transpose of a square grid (h bit pairs hi + k <-> lo + k, hi = h by
/// default), node x's part. Returns the messages.
u64 squareTranspose(Stream& st, u64 x, int h, u64 words, u64 home, u64 visit,
                    std::optional<u64> land, u32 tau, u64 packet, int hi = -1, int lo = 0);

/// The position (0 .. r-1) in the group of r consecutive grid positions high r .. high r + r - 1
/// whose Gray code has the low bits sigma.
u64 fiberSlot(u64 high, u64 sigma, u64 r);

// ---- Transposes as phases of a Builder (transpose_phases.cpp, TR-623 §2 and Johnsson & Ho
// 1987 §6.1) ----

/// After the transpose of gridTransposePhases: which source block piece t at processor (b1, b2)
/// came from.
u64 gridPieceSource(const MatmulLayout& l, u64 b1, u64 b2, u64 t);

/// The square part of a transpose as one phase: §2.2's SBT transpose or a packet transpose
/// (SPT, DPT, MPT). Returns the scratch words the buffers took.
u64 squarePhase(Builder& b, const MatmulOptions& o, const MatmulLayout& l, int h, int hi, int lo,
                u64 words, u64 home, u64 visit, std::optional<u64> land, u64 scratch);

/// TR-623 §2's transpose of an N1 x N2 partitioned matrix: the exchange phase and the square
/// phase. Returns the scratch words the packet buffers took.
u64 gridTransposePhases(Builder& b, const MatmulOptions& o, const MatmulLayout& l, u64 cols,
                        u64 words, u64 home, u64 visit, u64 scratch);

// ---- What the methods share (matmul_builder.cpp) ----

/// The grid a method needs: one-dimensional (1 x N) or square; throws Error naming the method.
void requireGrid(const MatmulOptions& o, const MatmulLayout& l, const char* name, bool square);

/// Every node's MACs of one same-shaped product step: `f(x)` gives node x's list.
void macsOf(Builder& b, u64 nodes, const std::function<std::vector<MacField>(u64)>& f);

/// A MAC of the m x k block at `a` by the k x p block at `bb`, added into the m x p block at `c`.
MacField macField(u64 a, u64 bb, u64 c, u64 m, u64 k, u64 p);

// ---- The methods, one family per file; `counts` (may be null) receives what the tables cost ----

/// rotation.cpp: A(.,1,1) by rotation (TR-623 §3.1), method "rotation".
TableSet rotation(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts);
/// rotation.cpp: Cannon's algorithm A(.,2,1) (§3.2), with the MAC overlap mode, method "cannon".
TableSet cannon(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts);
/// broadcast.cpp: A(.,2,1) by all-to-all broadcasting (§3.2), methods "broadcast", "doubling".
TableSet broadcast(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts);
/// one_dimensional.cpp: A(.,1,1) by the Gray code exchange (§3.1), method "exchange".
TableSet exchange(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts);
/// one_dimensional.cpp: A(.,1,4) (§3.1), method "a114".
TableSet a114(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts);
/// one_dimensional.cpp: A(.,1,3) (§3.1), method "a113".
TableSet a113(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts);
/// two_dimensional.cpp: A(.,2,which), which = 2 .. 5 (§3.2), on a square grid.
TableSet twoDimensional(const MatmulOptions& o, const MatmulLayout& l, int which,
                        MatmulCounts* counts);
/// two_dimensional_rect.cpp: A(.,2,which), which = 2 .. 5 (§3.2, appendix B), on N1 != N2.
TableSet twoDimensionalNotSquare(const MatmulOptions& o, const MatmulLayout& l, int which,
                                 MatmulCounts* counts);
/// three_dimensional.cpp: A(.,3,1) (§3.3), method "a131".
TableSet threeDimensional(const MatmulOptions& o, const MatmulLayout& l, MatmulCounts* counts);

}  // namespace hcube::matmul_detail

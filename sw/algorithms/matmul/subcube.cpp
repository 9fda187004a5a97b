// Johnsson & Ho 1988, "Expressing Boolean Cube Matrix Algorithms in Shared Memory Primitives"
// (TR-623) §2: the communications the matmul methods are made of, each as one node's part (a Stream
// of cycles): all-to-all broadcasting within a subcube on SBTs or nRSBTs (§2.1), the all-to-all
// personalized exchange (§2, Table 4; §2.1's lc_txp1), the all-to-all reduction (§2.1's la_red1,
// Table 3) and the SBT transpose of a square grid (§2.2), with the grid-position helpers they and
// the methods share.
#include <algorithm>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "algorithms/matmul/matmul_builder.h"
#include "spec/matmul_layout.h"

namespace hcube::matmul_detail {

namespace {

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

}  // namespace

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
u64 subcubeExchange(Stream& st, u64 x, const std::vector<int>& dims, u64 words, bool n_port,
                    u32 tau, u64 packet, const std::function<u64(u64)>& at,
                    const std::function<std::optional<u64>(u64)>& land, u64 width, u64 stride,
                    LandShape shape) {
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
                    std::optional<u64> land, u32 tau, u64 packet, int hi, int lo) {
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

}  // namespace hcube::matmul_detail

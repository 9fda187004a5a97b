// Johnsson & Ho 1988 (TR-623) §2: SBT / nRSBT all-to-all broadcast and reduction (see the header).
#include "algorithms/matmul/collectives.h"

#include "base/error.h"
#include "spec/address.h"
#include "spec/permutation.h"

namespace hcube {
namespace {

/// One word a step moves at a node: read `from` (sent), and the slot the neighbour's word of
/// the same position lands in.
struct StepWord {
  u32 from = 0;
  u32 into = 0;
};

/// x XOR the dimensions of `dims` selected by the bits of z (bit i selects dims[i]).
u64 spread(u64 z, const std::vector<int>& dims) {
  u64 v = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if ((z >> i) & 1U) v |= u64{1} << dims[i];
  }
  return v;
}

class CollectiveBuilder {
 public:
  CollectiveBuilder(const CollectiveOptions& o, bool reduce) : o_(o), reduce_(reduce) {
    if (o.n < 1 || o.n > 16) {
      throw Error("--n " + std::to_string(o.n) + ": the cube dimension must be 1..16");
    }
    if (o.m < 1 || (o.m << o.n) > (u64{1} << 24)) {
      throw Error("--m " + std::to_string(o.m) + ": a block must be 1 .. 2^24 / 2^n words");
    }
    parts_ = o.n_port ? o.n : 1;
  }

  TableSet build() const {
    TableSet set;
    set.header.algo = reduce_ ? "reduce-all" : "broadcast-all";
    set.header.perm = PermutationSpec::collective(o_.n, o_.m, reduce_, o_.gray);
    set.header.n = o_.n;
    set.header.slots = o_.m << o_.n;
    set.header.one_port = !o_.n_port;
    set.shared = false;
    const u64 nodes = u64{1} << o_.n;
    for (u64 x = 0; x < nodes; ++x) set.tables.push_back(tableOf(x));
    return set;
  }

 private:
  /// The dimension part u uses in step t (0-based): the broadcast goes up from dimension 0, the
  /// reduction down from n - 1 (la_red1's 2^(n-t)); part u of the nRSBT is rotated by u.
  int dim(int u, int t) const {
    const int base = reduce_ ? o_.n - 1 - t : t;
    return (base + u) % o_.n;
  }

  /// The words part u moves at node x in step t, in the order both ends enumerate them.
  std::vector<StepWord> stepWords(u64 x, int u, int t) const {
    const int d = dim(u, t);
    std::vector<int> free;  // broadcast: dims used before; reduction: dims still to come
    if (reduce_) {
      for (int s = t + 1; s < o_.n; ++s) free.push_back(dim(u, s));
    } else {
      for (int s = 0; s < t; ++s) free.push_back(dim(u, s));
    }
    std::vector<StepWord> words;
    for (u64 z = 0; z < (u64{1} << free.size()); ++z) {
      const u64 r = spread(z, free);
      // Broadcast: send the block of node x ^ r, receive the neighbour's block (x ^ 2^d) ^ r.
      // Reduction: send the block the neighbour keeps, x ^ 2^d ^ r, and add the neighbour's
      // copy of the block x keeps, x ^ r.
      const u64 sent = reduce_ ? x ^ (u64{1} << d) ^ r : x ^ r;
      const u64 kept = reduce_ ? x ^ r : x ^ (u64{1} << d) ^ r;
      // Node y's block is block y (binary) or G^-1(y) (Gray) of the node-local order.
      const u64 sent_block = o_.gray ? grayDecode(sent) : sent;
      const u64 kept_block = o_.gray ? grayDecode(kept) : kept;
      // Part u: the words i = u, u + parts, u + 2 parts, ... of every block.
      for (u64 off = static_cast<u64>(u); off < o_.m; off += static_cast<u64>(parts_)) {
        words.push_back(
            {static_cast<u32>(sent_block * o_.m + off), static_cast<u32>(kept_block * o_.m + off)});
      }
    }
    return words;
  }

  Table tableOf(u64 x) const {
    Table t;
    const size_t channels = static_cast<size_t>(o_.n);
    for (int step = 0; step < o_.n; ++step) {
      if (o_.tau > 0) t.push_back(Instruction::waitFor(o_.tau));
      std::vector<std::vector<StepWord>> parts;
      for (int u = 0; u < parts_; ++u) parts.push_back(stepWords(x, u, step));
      // Part 0 is the largest (ceil(m / parts) words of every block); a smaller part's port
      // idles in its last cycles.
      for (size_t j = 0; j < parts[0].size(); ++j) {
        Instruction ins = Instruction::xfer(channels);
        for (int u = 0; u < parts_; ++u) {
          if (j >= parts[static_cast<size_t>(u)].size()) continue;
          Channel& ch = ins.channels[static_cast<size_t>(dim(u, step))];
          ch.out = {OutOp::kMem, false, parts[static_cast<size_t>(u)][j].from};
          ch.in = {reduce_ ? InOp::kAdd : InOp::kMem, false, parts[static_cast<size_t>(u)][j].into};
        }
        t.push_back(std::move(ins));
      }
    }
    t.push_back(Instruction::end());
    return t;
  }

  const CollectiveOptions& o_;
  const bool reduce_;
  int parts_ = 1;
};

/// One-to-all broadcast from `root` and its reverse, the all-to-one reduction into `root`
/// (TR-623 §2 with [9]'s SBT / nRSBT): K = m. In broadcast step t, part u goes along dimension
/// d = (u + t) mod n (u = 0 and d = t for the one-port SBT) from the nodes that hold it (relative
/// address r = x ^ root within the dimensions used before) to their neighbours; the reduction
/// runs the steps backwards, the neighbours sending their partial sums, which the tree's inner
/// nodes add (ADD). n steps of ceil(m / parts) cycles each, n start-ups.
class RootedBuilder {
 public:
  RootedBuilder(const CollectiveOptions& o, bool reduce, u64 root)
      : o_(o), reduce_(reduce), root_(root), parts_(o.n_port ? o.n : 1) {
    if (o.n < 1 || o.n > 16) {
      throw Error("--n " + std::to_string(o.n) + ": the cube dimension must be 1..16");
    }
    if (o.m < 1 || o.m > (u64{1} << 24)) {
      throw Error("--m " + std::to_string(o.m) + ": must be 1 .. 2^24 words");
    }
  }

  TableSet build() const {
    TableSet set;
    set.header.algo = reduce_ ? "reduce-one" : "broadcast-one";
    set.header.perm = PermutationSpec::rooted(o_.n, o_.m, reduce_, root_);
    set.header.n = o_.n;
    set.header.slots = o_.m;
    set.header.one_port = !o_.n_port;
    set.shared = false;
    for (u64 x = 0; x < (u64{1} << o_.n); ++x) set.tables.push_back(tableOf(x));
    return set;
  }

 private:
  int dim(int u, int s) const { return (u + s) % o_.n; }

  /// The dimensions part u has used before broadcast step s.
  u64 usedMask(int u, int s) const {
    u64 mask = 0;
    for (int i = 0; i < s; ++i) mask |= u64{1} << dim(u, i);
    return mask;
  }

  Table tableOf(u64 x) const {
    const u64 r = x ^ root_;
    const u64 longest = (o_.m + static_cast<u64>(parts_) - 1) / static_cast<u64>(parts_);
    Table t;
    for (int step = 0; step < o_.n; ++step) {
      const int s = reduce_ ? o_.n - 1 - step : step;  // the broadcast step this one is (or undoes)
      if (o_.tau > 0) t.push_back(Instruction::waitFor(o_.tau));
      for (u64 j = 0; j < longest; ++j) {
        Instruction ins = Instruction::xfer(static_cast<size_t>(o_.n));
        for (int u = 0; u < parts_; ++u) {
          const u64 word = static_cast<u64>(u) + j * static_cast<u64>(parts_);
          if (word >= o_.m) continue;
          const int d = dim(u, s);
          const u64 used = usedMask(u, s);
          const bool holder = (r & ~used) == 0;             // sends in the broadcast
          const bool child = (r & ~used) == (u64{1} << d);  // receives in the broadcast
          Channel& ch = ins.channels[static_cast<size_t>(d)];
          const u32 slot = static_cast<u32>(word);
          if (holder) {
            if (reduce_) {
              ch.in = {InOp::kAdd, false, slot};
            } else {
              ch.out = {OutOp::kMem, false, slot};
            }
          } else if (child) {
            if (reduce_) {
              ch.out = {OutOp::kMem, false, slot};
            } else {
              ch.in = {InOp::kMem, false, slot};
            }
          }
        }
        t.push_back(std::move(ins));
      }
    }
    t.push_back(Instruction::end());
    return t;
  }

  const CollectiveOptions& o_;
  const bool reduce_;
  const u64 root_;
  const int parts_;
};

}  // namespace

TableSet broadcastOneTables(const CollectiveOptions& o, u64 root) {
  return RootedBuilder(o, false, root).build();
}

TableSet reduceOneTables(const CollectiveOptions& o, u64 root) {
  return RootedBuilder(o, true, root).build();
}

TableSet broadcastAllTables(const CollectiveOptions& o) {
  return CollectiveBuilder(o, false).build();
}

TableSet reduceAllTables(const CollectiveOptions& o) { return CollectiveBuilder(o, true).build(); }

u64 collectiveElementTransfers(const CollectiveOptions& o) {
  const u64 n = static_cast<u64>(o.n);
  return ((u64{1} << o.n) - 1) * (o.n_port ? (o.m + n - 1) / n : o.m);
}

}  // namespace hcube

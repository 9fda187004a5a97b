#include "algorithms/aapc/alignment.h"

#include <algorithm>

#include "base/error.h"

namespace hcube {
namespace {

// One permutation cycle still to be worked off: the word in e_k goes to e_{k+1} and the word in
// the last element goes to e_0, where e = (a[0], a[pos], a[pos + 1], ..., a[L - 1]).
struct PendingCycle {
  std::vector<u32> a;
  size_t pos = 1;
  size_t length() const { return 1 + a.size() - pos; }
  u32 at(size_t k) const { return k == 0 ? a[0] : a[pos + k - 1]; }
};

// Applies PERMUTE cycles with start-of-cycle reads to the identity and checks that every word
// ends where `dest` says.
void checkCompiled(const std::vector<u32>& dest, const std::vector<CopyCycle>& cycles,
                   long long scratch_slot) {
  const size_t k = dest.size();
  std::vector<long long> mem(k + (scratch_slot >= 0 ? 1 : 0), -1);
  for (size_t s = 0; s < k; ++s) mem[s] = static_cast<long long>(s);
  auto index = [&](u32 slot) -> size_t {
    if (slot < k) return slot;
    if (scratch_slot >= 0 && slot == static_cast<u64>(scratch_slot)) return k;
    throw InternalError("local permutation: internal error, copy names slot " +
                        std::to_string(slot));
  };
  for (const CopyCycle& cycle : cycles) {
    std::vector<long long> next = mem;
    std::vector<bool> written(mem.size(), false);
    for (const LocalCopy& c : cycle) {
      const size_t to = index(c.to);
      if (written[to])
        throw InternalError("local permutation: internal error, two copies into one slot");
      written[to] = true;
      next[to] = mem[index(c.from)];
    }
    mem = std::move(next);
  }
  for (size_t s = 0; s < k; ++s) {
    if (mem[dest[s]] != static_cast<long long>(s)) {
      throw InternalError("local permutation: internal error, the word of slot " +
                          std::to_string(s) + " does not reach slot " + std::to_string(dest[s]));
    }
  }
}

std::vector<CopyCycle> compileGreedy(const std::vector<u32>& dest, size_t capacity,
                                     long long scratch_slot) {
  std::vector<PendingCycle> pending;
  std::vector<bool> seen(dest.size(), false);
  for (u32 s = 0; s < dest.size(); ++s) {
    if (seen[s] || dest[s] == s) continue;
    PendingCycle c;
    for (u32 e = s; !seen[e]; e = dest[e]) {
      seen[e] = true;
      c.a.push_back(e);
    }
    pending.push_back(std::move(c));
  }
  std::vector<LocalCopy> chain;  // the running scratch chain, in order
  size_t chain_next = 0;
  std::vector<CopyCycle> out;
  while (!pending.empty() || chain_next < chain.size()) {
    CopyCycle now;
    size_t free = capacity;
    // 1. Closed rotations of the longest cycles that fit.
    std::stable_sort(
        pending.begin(), pending.end(),
        [](const PendingCycle& x, const PendingCycle& y) { return x.length() > y.length(); });
    std::vector<PendingCycle> left;
    for (PendingCycle& c : pending) {
      const size_t len = c.length();
      if (len > free) {
        left.push_back(std::move(c));
        continue;
      }
      for (size_t q = 0; q < len; ++q) now.push_back({c.at(q), c.at((q + 1) % len)});
      free -= len;
    }
    pending = std::move(left);
    // 2. The running scratch chain takes what the rotations left.
    if (chain_next < chain.size()) {
      const size_t take = std::min(free, chain.size() - chain_next);
      now.insert(now.end(), chain.begin() + static_cast<std::ptrdiff_t>(chain_next),
                 chain.begin() + static_cast<std::ptrdiff_t>(chain_next + take));
      chain_next += take;
      free -= take;
    }
    // 3. The longest remaining cycle (every one is longer than `free` now) starts a scratch
    // chain, or is rotated in part.
    if (free > 0 && !pending.empty()) {
      PendingCycle& c = pending.front();
      const size_t len = c.length();
      if (scratch_slot >= 0 && chain_next >= chain.size()) {
        const u32 t = static_cast<u32>(scratch_slot);
        chain.clear();
        chain.push_back({c.at(len - 1), t});
        for (size_t q = len - 1; q >= 1; --q) chain.push_back({c.at(q - 1), c.at(q)});
        chain.push_back({t, c.at(0)});
        chain_next = free;  // len + 1 > free: the last copy stays for a later cycle
        now.insert(now.end(), chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(free));
        pending.erase(pending.begin());
      } else if (free >= 2) {
        for (size_t q = 0; q + 1 < free; ++q) now.push_back({c.at(q), c.at(q + 1)});
        now.push_back({c.at(free - 1), c.at(0)});
        c.pos += free - 1;
      }
    }
    out.push_back(std::move(now));
  }
  return out;
}

}  // namespace

std::vector<CopyCycle> compileLocalPermutation(const std::vector<u32>& dest,
                                               size_t copies_per_cycle, long long scratch_slot) {
  std::vector<bool> hit(dest.size(), false);
  for (size_t s = 0; s < dest.size(); ++s) {
    if (dest[s] >= dest.size() || hit[dest[s]]) {
      throw Error("local permutation: slot " + std::to_string(s) + " -> " +
                  std::to_string(dest[s]) + " is not part of a permutation of " +
                  std::to_string(dest.size()) + " slots");
    }
    hit[dest[s]] = true;
  }
  if (scratch_slot >= 0 && static_cast<u64>(scratch_slot) < dest.size()) {
    throw Error("local permutation: scratch slot " + std::to_string(scratch_slot) +
                " is one of the permuted slots");
  }
  if (copies_per_cycle == 0 || (copies_per_cycle == 1 && scratch_slot < 0)) {
    throw Error("local permutation: " + std::to_string(copies_per_cycle) +
                " copy per PERMUTE cannot swap two slots without a scratch slot");
  }
  std::vector<CopyCycle> cycles = compileGreedy(dest, copies_per_cycle, scratch_slot);
  checkCompiled(dest, cycles, scratch_slot);
  return cycles;
}

LocalPhase compileLocalPhase(const std::vector<std::vector<u32>>& dests, size_t copies_per_cycle,
                             long long scratch_slot) {
  LocalPhase phase;
  for (const std::vector<u32>& dest : dests) {
    std::vector<CopyCycle> best;
    bool have = false;
    bool best_scratch = false;
    // In place when a PERMUTE can swap (without a scratch slot this throws for one copy).
    if (copies_per_cycle >= 2 || scratch_slot < 0) {
      best = compileLocalPermutation(dest, copies_per_cycle, -1);
      have = true;
    }
    if (scratch_slot >= 0) {
      std::vector<CopyCycle> with = compileLocalPermutation(dest, copies_per_cycle, scratch_slot);
      if (!have || with.size() < best.size()) {
        best = std::move(with);
        best_scratch = true;
      }
    }
    phase.cycles = std::max<u64>(phase.cycles, best.size());
    if (best_scratch) {
      for (const CopyCycle& cycle : best) {
        for (const LocalCopy& c : cycle) {
          if (c.to == static_cast<u64>(scratch_slot)) phase.uses_scratch = true;
        }
      }
    }
    phase.nodes.push_back(std::move(best));
  }
  return phase;
}

PermutationSpec grayAapc(int d, u64 slots) {
  if (d < 1 || !isPowerOfTwo(slots) || slots < (u64{1} << d)) {
    throw Error("Gray-code AAPC: K = " + std::to_string(slots) +
                " must be a power of two and a multiple of 2^d = " +
                std::to_string(u64{1} << (d < 1 ? 0 : d)));
  }
  const int k = log2Exact(slots);
  // Global address bits: local slot bits 0..k-1 (i = bits 0..d-1, h above), node bits k..k+d-1.
  std::vector<u64> rows(static_cast<size_t>(k + d), 0);
  for (int b = 0; b < d; ++b) {
    // Destination slot bit b = G(j)_b = j_b ^ j_{b+1}; destination node bit b = G(i)_b.
    rows[static_cast<size_t>(b)] = (u64{1} << (k + b)) | (b + 1 < d ? u64{1} << (k + b + 1) : 0);
    rows[static_cast<size_t>(k + b)] = (u64{1} << b) | (b + 1 < d ? u64{1} << (b + 1) : 0);
  }
  for (int b = d; b < k; ++b) rows[static_cast<size_t>(b)] = u64{1} << b;  // h stays
  return PermutationSpec::linear(d, k, std::move(rows));
}

bool isRelativeAapcCase(const BuiltCase& c, std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (c.perm.kind() != PermutationSpec::Kind::kAapc) {
    return no("it performs '" + c.perm.str() + "', not an AAPC");
  }
  if (!c.tables.shared || c.tables.tables.size() != 1) {
    return no("its tables are per node, not one relative-address table");
  }
  for (const Instruction& ins : c.tables.tables[0]) {
    if (ins.op == Opcode::kPermute) return no("its table already has PERMUTE instructions");
    for (const Channel& ch : ins.channels) {
      if ((ch.out.op == OutOp::kMem && !ch.out.rel) || (ch.in.op == InOp::kMem && !ch.in.rel)) {
        return no("its table uses absolute slots");
      }
    }
  }
  return true;
}

BuiltCase explicitAlignment(const BuiltCase& relative, AddressCode code, AlignmentCost* cost) {
  std::string why;
  if (!isRelativeAapcCase(relative, &why)) {
    throw Error("explicit alignment: the case of '" + relative.tables.header.algo +
                "' is not a relative-address AAPC (" + why + ")");
  }
  const TableHeader& h = relative.tables.header;
  const int d = h.n;
  const u64 nodes = h.nodes();
  const u64 k = h.slots;
  const u64 low = nodes - 1;
  BuiltCase out = relative;
  out.perm = code == AddressCode::kGray ? grayAapc(d, k) : relative.perm;
  out.tables.header.perm = out.perm;
  out.bound_source = relative.bound_source + "; exchange phase, the alignments are local";

  // Phase 1: (j|h,i) -> (j|h, j ^ f(i)); phase 3: (y|h,r) -> (y|h, g(y ^ r)); f = g = identity
  // or the Gray code G.
  auto f = [&](u64 v) { return code == AddressCode::kGray ? grayEncode(v) : v; };
  std::vector<std::vector<u32>> pre(nodes, std::vector<u32>(k));
  std::vector<std::vector<u32>> post(nodes, std::vector<u32>(k));
  for (u64 x = 0; x < nodes; ++x) {
    for (u64 s = 0; s < k; ++s) {
      const u64 hi = s & ~low;
      const u64 i = s & low;
      pre[x][s] = static_cast<u32>(hi | (x ^ f(i)));
      post[x][s] = static_cast<u32>(hi | f(x ^ i));
    }
  }
  const size_t copies = h.channels();
  const long long scratch_slot = static_cast<long long>(h.memoryWords());
  const LocalPhase phase1 = compileLocalPhase(pre, copies, scratch_slot);
  const LocalPhase phase3 = compileLocalPhase(post, copies, scratch_slot);
  if (phase1.uses_scratch || phase3.uses_scratch) out.tables.header.scratch = h.scratch + 1;

  // Phase 2: the relative schedule's exchange with the relative flags cleared: slot w now holds
  // the element whose relative address is w.
  Table exchange;
  for (const Instruction& ins : relative.tables.tables[0]) {
    if (ins.op == Opcode::kEnd) break;
    Instruction a = ins;
    for (Channel& ch : a.channels) {
      ch.out.rel = false;
      ch.in.rel = false;
    }
    exchange.push_back(std::move(a));
  }
  auto emit = [&](Table& t, const std::vector<CopyCycle>& mine, u64 phase_cycles) {
    for (const CopyCycle& cycle : mine) {
      Instruction p = Instruction::permute(copies);
      for (size_t c = 0; c < cycle.size(); ++c) {
        p.channels[c].out = {OutOp::kMem, false, cycle[c].from};
        p.channels[c].in = {InOp::kMem, false, cycle[c].to};
      }
      t.push_back(std::move(p));
    }
    // Every node starts the exchange in the same cycle: a node with fewer copies waits.
    if (mine.size() < phase_cycles) {
      t.push_back(Instruction::waitFor(static_cast<u32>(phase_cycles - mine.size())));
    }
  };
  out.tables.shared = false;
  out.tables.tables.assign(nodes, Table{});
  for (u64 x = 0; x < nodes; ++x) {
    Table& t = out.tables.tables[x];
    emit(t, phase1.nodes[x], phase1.cycles);
    t.insert(t.end(), exchange.begin(), exchange.end());
    emit(t, phase3.nodes[x], phase3.cycles);
    t.push_back(Instruction::end());
  }
  if (cost) {
    cost->pre_cycles = phase1.cycles;
    cost->post_cycles = phase3.cycles;
    cost->exchange_instructions = exchange.size();
    cost->uses_scratch = phase1.uses_scratch || phase3.uses_scratch;
  }
  return out;
}

}  // namespace hcube

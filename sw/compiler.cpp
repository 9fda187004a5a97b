#include "compiler.h"

#include <algorithm>

#include "error.h"

namespace hcube {

TableSet compileRelative(const RelativeSchedule& schedule, const PermutationSpec& perm,
                         const CompileOptions& options) {
  const int d = schedule.dims();
  if (perm.kind() != PermutationSpec::Kind::kAapc || perm.n() != d) {
    throw Error("compile: the " + schedule.algo() + " schedule for d = " + std::to_string(d) +
                " performs 'aapc n=" + std::to_string(d) + "', not '" + perm.str() + "'");
  }
  if (options.lanes != 1) {
    throw Error("compile: the " + schedule.algo() +
                " schedule uses one word per port and cycle; lanes = " +
                std::to_string(options.lanes) + " is not supported for it");
  }
  if (options.one_port) {
    throw Error("compile: the " + schedule.algo() +
                " schedule sends on every port in every step; it cannot run in one-port mode");
  }
  TableSet set;
  set.header.algo = schedule.algo();
  set.header.perm = perm;
  set.header.n = d;
  set.header.slots = perm.slots();
  set.header.scratch = options.scratch;
  set.header.lanes = 1;
  set.header.one_port = false;
  set.shared = true;
  Table table;
  table.reserve(perm.repetitions() * schedule.steps() + 1);
  for (u64 h = 0; h < perm.repetitions(); ++h) {
    const u64 base = h << d;
    for (u64 t = 0; t < schedule.steps(); ++t) {
      Instruction ins = Instruction::xfer(static_cast<size_t>(d));
      for (int j = 0; j < d; ++j) {
        const u32 w = schedule.at(t, j);
        if (w == RelativeSchedule::kIdle) continue;
        if (w >> d) {
          throw Error("compile: " + schedule.algo() + " step " + std::to_string(t) + " dim " +
                      std::to_string(j) + " names relative address " + std::to_string(w) +
                      ", which has more than d = " + std::to_string(d) + " bits");
        }
        const u32 slot = static_cast<u32>(base | w);
        Channel& ch = ins.channels[static_cast<size_t>(j)];
        ch.out = {OutOp::kMem, true, slot};
        ch.in = {InOp::kMem, true, slot};
      }
      table.push_back(std::move(ins));
    }
  }
  table.push_back(Instruction::end());
  set.tables.push_back(std::move(table));
  return set;
}

TableSet compileMoves(const MoveSchedule& schedule, const PermutationSpec& perm,
                      const CompileOptions& options) {
  const int n = schedule.dims;
  if (perm.n() != n) {
    throw Error("compile: the " + schedule.algo + " schedule is for n = " + std::to_string(n) +
                ", the permutation '" + perm.str() + "' for n = " + std::to_string(perm.n()));
  }
  if (options.lanes < 1) throw Error("compile: lanes must be >= 1");
  TableSet set;
  set.header.algo = schedule.algo;
  set.header.perm = perm;
  set.header.n = n;
  set.header.slots = perm.slots();
  set.header.scratch = options.scratch;
  set.header.lanes = options.lanes;
  set.header.one_port = options.one_port;
  set.shared = false;
  const u64 nodes = perm.nodes();
  const u64 words = set.header.memoryWords();
  const size_t channels = set.header.channels();
  set.tables.assign(nodes, Table{});
  std::vector<int> used(nodes * static_cast<u64>(n));
  std::vector<u32> first_slot(nodes * static_cast<u64>(n));
  for (size_t t = 0; t < schedule.steps.size(); ++t) {
    for (Table& table : set.tables) table.push_back(Instruction::xfer(channels));
    std::fill(used.begin(), used.end(), 0);
    for (const Move& m : schedule.steps[t]) {
      const std::string at = "compile: " + schedule.algo + " step " + std::to_string(t) +
                             ", node " + std::to_string(m.node) + ", port " + std::to_string(m.dim);
      if (m.node >= nodes || m.dim < 0 || m.dim >= n) {
        throw Error(at + ": no such node or port on a " + std::to_string(n) + "-cube");
      }
      if (m.slot >= words || m.to_slot >= words) {
        throw Error(at + ": slot " + std::to_string(m.slot) + " -> " + std::to_string(m.to_slot) +
                    " is outside the memory of " + std::to_string(words) + " slots");
      }
      const u64 link = m.node * static_cast<u64>(n) + static_cast<u64>(m.dim);
      const int lane = used[link]++;
      if (lane == 0) first_slot[link] = m.slot;
      if (lane >= options.lanes) {
        throw Error(at + ": slots " + std::to_string(first_slot[link]) + " and " +
                    std::to_string(m.slot) + " both cross this link, which carries " +
                    std::to_string(options.lanes) + " word(s) per cycle");
      }
      const size_t c = static_cast<size_t>(m.dim * options.lanes + lane);
      set.tables[m.node].back().channels[c].out = {OutOp::kMem, false, m.slot};
      set.tables[neighbour(m.node, m.dim)].back().channels[c].in = {InOp::kMem, false, m.to_slot};
    }
  }
  for (Table& table : set.tables) table.push_back(Instruction::end());
  return set;
}

}  // namespace hcube

#include "tables/compiler.h"

#include <algorithm>
#include <map>
#include <utility>

#include "base/error.h"

namespace hcube {

namespace {

/// An empty table set whose header describes `perm` on the hardware of `options`.
TableSet emptyTables(const std::string& algo, const PermutationSpec& perm,
                     const CompileOptions& options, bool shared) {
  TableSet set;
  set.header.algo = algo;
  set.header.perm = perm;
  set.header.n = perm.n();
  set.header.slots = perm.slots();
  set.header.scratch = options.scratch;
  set.header.lanes = options.lanes;
  set.header.one_port = options.one_port;
  set.shared = shared;
  return set;
}

thread_local CompileRecord* recorder = nullptr;

void record(const PermutationSpec& perm, const CompileOptions& options) {
  ++recorder->calls;
  recorder->relative.reset();
  recorder->slots.reset();
  recorder->moves.reset();
  recorder->perm = perm;
  recorder->options = options;
}

}  // namespace

CompileRecord* setCompileRecorder(CompileRecord* r) {
  CompileRecord* previous = recorder;
  recorder = r;
  return previous;
}

TableSet compileRelative(const RelativeSchedule& schedule, const PermutationSpec& perm,
                         const CompileOptions& options) {
  if (recorder != nullptr) {
    record(perm, options);
    recorder->relative = schedule;
  }
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
  // lanes == 1 and all-port were checked above.
  TableSet set = emptyTables(schedule.algo(), perm, options, true);
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

TableSet compileSlots(const SlotSchedule& schedule, const PermutationSpec& perm,
                      const CompileOptions& options) {
  if (recorder != nullptr) {
    record(perm, options);
    recorder->slots = schedule;
  }
  const int d = schedule.dims;
  const std::string name = "compile: the " + schedule.algo + " schedule";
  if (perm.kind() != PermutationSpec::Kind::kAapc || perm.n() != d ||
      perm.slots() != schedule.slots) {
    throw Error(name + " for d = " + std::to_string(d) + ", K = " + std::to_string(schedule.slots) +
                " performs 'aapc n=" + std::to_string(d) +
                " m=" + std::to_string(schedule.slots >> d) + "', not '" + perm.str() + "'");
  }
  if (options.lanes < schedule.lanes) {
    throw Error(name + " sends " + std::to_string(schedule.lanes) +
                " words per port and cycle; the hardware has " + std::to_string(options.lanes) +
                " lane(s)");
  }
  if (options.startup > 0xFFFFFFFFULL) {
    throw Error(name + ": start-up " + std::to_string(options.startup) +
                " cycles does not fit one WAIT (at most 2^32 - 1)");
  }
  TableSet set = emptyTables(schedule.algo, perm, options, true);
  Table table;
  std::vector<u64> moved_in(schedule.slots, ~u64{0});
  for (u64 t = 0; t < schedule.steps.size(); ++t) {
    if (schedule.block_starts[t] && options.startup > 0) {
      table.push_back(Instruction::waitFor(static_cast<u32>(options.startup)));
    }
    Instruction ins = Instruction::xfer(set.header.channels());
    int port_used = -1;
    for (int j = 0; j < d; ++j) {
      for (int l = 0; l < schedule.lanes; ++l) {
        const u32 w = schedule.steps[t][static_cast<size_t>(j * schedule.lanes + l)];
        if (w == SlotSchedule::kIdle) continue;
        const std::string at = name + " step " + std::to_string(t) + ", port " + std::to_string(j) +
                               " lane " + std::to_string(l);
        if (w >= schedule.slots) {
          throw Error(at + ": slot " + std::to_string(w) + " is outside the " +
                      std::to_string(schedule.slots) + " slots");
        }
        if (moved_in[w] == t) {
          throw Error(at + ": slot " + std::to_string(w) +
                      " already moves in this step (an element crosses one link per cycle)");
        }
        moved_in[w] = t;
        if (options.one_port && port_used >= 0 && port_used != j) {
          throw Error(at + ": one-port hardware, but the step also uses port " +
                      std::to_string(port_used));
        }
        port_used = j;
        Channel& ch = ins.channels[static_cast<size_t>(j * options.lanes + l)];
        ch.out = {OutOp::kMem, true, w};
        ch.in = {InOp::kMem, true, w};
      }
    }
    table.push_back(std::move(ins));
  }
  table.push_back(Instruction::end());
  set.tables.push_back(std::move(table));
  return set;
}

namespace {

bool isLocalStep(const MoveSchedule& schedule, size_t t) {
  const std::vector<Move>& moves = schedule.steps[t];
  if (moves.empty()) return false;
  const bool local = moves.front().dim == Move::kLocal;
  for (const Move& m : moves) {
    if ((m.dim == Move::kLocal) != local) {
      throw Error("compile: " + schedule.algo + " step " + std::to_string(t) + ", node " +
                  std::to_string(m.node) +
                  ": the step mixes link moves and local copies (a step is either a transfer "
                  "or a PERMUTE)");
    }
  }
  return local;
}

/// Lowers one step of local copies (docs/hardware/node.md §2.1). Node x's copies go, in the order
/// the schedule lists them, onto channels 0 .. n*b-1 of consecutive PERMUTE cycles. Splitting is
/// exact only if no copy reads a slot that a copy of an earlier PERMUTE cycle of the same step
/// has written (the step reads the memory as it was at its start); otherwise Error. Every node
/// gets as many PERMUTEs as the busiest node needs (empty ones pad), so nodes stay in lockstep.
void lowerLocalStep(const MoveSchedule& schedule, size_t t, const CompileOptions& options,
                    u64 words, TableSet& set) {
  const size_t channels = set.header.channels();
  const u64 nodes = set.header.nodes();
  std::vector<std::vector<const Move*>> per_node(nodes);
  for (const Move& m : schedule.steps[t]) {
    const std::string at = "compile: " + schedule.algo + " step " + std::to_string(t) + ", node " +
                           std::to_string(m.node);
    if (m.node >= nodes) {
      throw Error(at + ": no such node on a " + std::to_string(set.header.n) + "-cube");
    }
    if (m.slot >= words || m.to_slot >= words) {
      throw Error(at + ": local copy " + std::to_string(m.slot) + " -> " +
                  std::to_string(m.to_slot) + " is outside the memory of " + std::to_string(words) +
                  " slots");
    }
    per_node[m.node].push_back(&m);
  }
  size_t cycles = 1;
  for (const auto& copies : per_node) {
    cycles = std::max(cycles, (copies.size() + channels - 1) / channels);
  }
  if (cycles > 1 && !options.split_local) {
    for (u64 x = 0; x < nodes; ++x) {
      if (per_node[x].size() > channels) {
        throw Error("compile: " + schedule.algo + " step " + std::to_string(t) + ", node " +
                    std::to_string(x) + ": " + std::to_string(per_node[x].size()) +
                    " local copies do not fit one PERMUTE cycle of " + std::to_string(channels) +
                    " channels (n * b)");
      }
    }
  }
  const size_t first = set.tables.front().size();
  for (Table& table : set.tables) {
    for (size_t c = 0; c < cycles; ++c) table.push_back(Instruction::permute(channels));
  }
  std::vector<u64> written_at(words);
  for (u64 x = 0; x < nodes; ++x) {
    std::fill(written_at.begin(), written_at.end(), 0);  // 0: not written; else cycle + 1
    const auto& copies = per_node[x];
    for (size_t i = 0; i < copies.size(); ++i) {
      const Move& m = *copies[i];
      const size_t cycle = i / channels;
      if (written_at[m.slot] != 0 && written_at[m.slot] - 1 < cycle) {
        throw Error("compile: " + schedule.algo + " step " + std::to_string(t) + ", node " +
                    std::to_string(x) + ": the copy " + std::to_string(m.slot) + " -> " +
                    std::to_string(m.to_slot) + " would read slot " + std::to_string(m.slot) +
                    " after an earlier PERMUTE cycle of the step overwrote it; the step cannot "
                    "be split exactly into cycles of " +
                    std::to_string(channels) + " copies");
      }
      if (written_at[m.to_slot] == 0) written_at[m.to_slot] = cycle + 1;
      Channel& ch = set.tables[x][first + cycle].channels[i % channels];
      ch.out = {OutOp::kMem, false, m.slot};
      ch.in = {InOp::kMem, false, m.to_slot};
    }
  }
}

/// One-port hardware: at most one port sends and one receives per node and step.
void checkOnePort(const MoveSchedule& schedule, size_t t, int n) {
  std::map<u64, int> sends;
  std::map<u64, int> receives;
  auto claim = [&](std::map<u64, int>& ports, u64 node, int dim, const char* what) {
    auto [it, fresh] = ports.emplace(node, dim);
    if (!fresh && it->second != dim) {
      throw Error("compile: " + schedule.algo + " step " + std::to_string(t) + ", node " +
                  std::to_string(node) + ": one-port hardware, but the node " + what +
                  " on ports " + std::to_string(it->second) + " and " + std::to_string(dim) +
                  " of its " + std::to_string(n));
    }
  };
  for (const Move& m : schedule.steps[t]) {
    claim(sends, m.node, m.dim, "sends");
    claim(receives, neighbour(m.node, m.dim), m.dim, "receives");
  }
}

}  // namespace

TableSet compileMoves(const MoveSchedule& schedule, const PermutationSpec& perm,
                      const CompileOptions& options) {
  if (recorder != nullptr) {
    record(perm, options);
    recorder->moves = schedule;
  }
  const int n = schedule.dims;
  if (perm.n() != n) {
    throw Error("compile: the " + schedule.algo + " schedule is for n = " + std::to_string(n) +
                ", the permutation '" + perm.str() + "' for n = " + std::to_string(perm.n()));
  }
  if (options.lanes < 1) throw Error("compile: lanes must be >= 1");
  TableSet set = emptyTables(schedule.algo, perm, options, false);
  const u64 nodes = perm.nodes();
  const u64 words = set.header.memoryWords();
  const size_t channels = set.header.channels();
  set.tables.assign(nodes, Table{});
  std::vector<int> used(nodes * static_cast<u64>(n));
  std::vector<u32> first_slot(nodes * static_cast<u64>(n));
  for (size_t t = 0; t < schedule.steps.size(); ++t) {
    if (isLocalStep(schedule, t)) {
      lowerLocalStep(schedule, t, options, words, set);
      continue;
    }
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
    if (options.one_port) checkOnePort(schedule, t, n);
  }
  for (Table& table : set.tables) table.push_back(Instruction::end());
  return set;
}

}  // namespace hcube

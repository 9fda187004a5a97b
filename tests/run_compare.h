// hcube tests: exact agreement of two runs of the same tables (TLM or RTL against the table
// executor): cycles, transfer cycles, words, timeout, error counters, span, link counts and
// every memory word, the first differing word named; and the small tables those tests build by
// hand.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "exec/executor.h"
#include "exec/hw_errors.h"
#include "spec/address.h"
#include "spec/reference.h"
#include "tables/table.h"

namespace hcube::testing {

inline std::string errorList(const std::vector<NodeErrorCount>& errors) {
  std::ostringstream out;
  for (const NodeErrorCount& e : errors) {
    out << " node " << e.node << " " << hwErrorName(e.kind) << " x" << e.count << ";";
  }
  return out.str();
}

/// Expects `run` (from `backend`) to equal `table` (the golden executor's run) exactly.
inline void expectSameRun(const std::string& backend, const RunResult& run,
                          const RunResult& table) {
  EXPECT_EQ(run.backend, backend);
  EXPECT_EQ(run.cycles, table.cycles);
  EXPECT_EQ(run.transfer_cycles, table.transfer_cycles);
  EXPECT_EQ(run.local_cycles, table.local_cycles);
  EXPECT_EQ(run.mac_cycles, table.mac_cycles);
  EXPECT_EQ(run.words, table.words);
  EXPECT_EQ(run.timeout, table.timeout);
  EXPECT_EQ(run.errors, table.errors)
      << backend << ":" << errorList(run.errors) << "\ntable:" << errorList(table.errors);
  EXPECT_EQ(run.span, table.span);
  EXPECT_EQ(run.link_words, table.link_words);
  ASSERT_EQ(run.memory.nodes, table.memory.nodes);
  ASSERT_EQ(run.memory.words_per_node, table.memory.words_per_node);
  ASSERT_EQ(run.memory.words.size(), table.memory.words.size());
  for (size_t i = 0; i < run.memory.words.size(); ++i) {
    ASSERT_EQ(run.memory.words[i], table.memory.words[i])
        << "first difference: node " << i / run.memory.words_per_node << " slot "
        << i % run.memory.words_per_node;
  }
}

/// `set` on the table executor from the tagged memory, with the cycle limit the cube backends
/// default to: `max_cycles`, or set.cycles() + 1000 when it is 0.
inline RunResult onTable(const TableSet& set, u64 max_cycles = 0) {
  ExecOptions opt;
  opt.tagged_elements = set.header.perm.elements();
  opt.max_cycles = max_cycles != 0 ? max_cycles : set.cycles() + 1000;
  return executeTables(set, taggedMemory(set.header.perm, set.header.memoryWords()), opt);
}

/// Per-node tables of `depth` idle XFERs and an END, for an AAPC-sized memory of m * 2^n slots.
inline TableSet handMade(int n, u64 m, size_t depth, int lanes = 1, bool one_port = false) {
  TableSet set;
  set.header.algo = "hand-made";
  set.header.perm = PermutationSpec::aapc(n, m);
  set.header.n = n;
  set.header.slots = set.header.perm.slots();
  set.header.lanes = lanes;
  set.header.one_port = one_port;
  set.shared = false;
  Table table(depth, Instruction::xfer(static_cast<size_t>(n * lanes)));
  table.push_back(Instruction::end());
  set.tables.assign(set.header.nodes(), table);
  return set;
}

/// The channel of `port` and `lane` in instruction `pc` of `node`'s table.
inline Channel& chan(TableSet& set, u64 node, size_t pc, int port, int lane = 0) {
  return set.tables[node][pc].channels[static_cast<size_t>(port * set.header.lanes + lane)];
}

/// Node `from` sends slot `slot` on `port` in instruction `pc`; the neighbour stores it in `to`.
inline void move(TableSet& set, u64 from, size_t pc, int port, u32 slot, u32 to, int lane = 0) {
  chan(set, from, pc, port, lane).out = {OutOp::kMem, false, slot};
  chan(set, neighbour(from, port), pc, port, lane).in = {InOp::kMem, false, to};
}

}  // namespace hcube::testing

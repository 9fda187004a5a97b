// hcube tests: exact agreement of two runs of the same tables (TLM or RTL against the table
// executor): cycles, transfer cycles, words, timeout, error counters, span, link counts and
// every memory word, the first differing word named.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "hw_errors.h"

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

}  // namespace hcube::testing

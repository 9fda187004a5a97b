// Co-simulation (sim/cosim): Verilated RTL nodes (rtl/hc_node.sv through Verilator's SystemC
// output) inside the SystemC-TLM cube must measure exactly what the table executor measures —
// cycles, transfer and local cycles, words, error counters, link counts, span, every memory word —
// on Edelman's AAPC for n = 4 (one RTL node, neighbouring RTL nodes, every node RTL) and on
// hand-made tables whose errors happen at the RTL node or at its TLM neighbours. The models are
// those the build holds (HCUBE_COSIM_MODELS; the default has Dim 4 / 16 slots / 1 lane and
// Dim 3 / 8 slots / 2 lanes).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "cosim_backend.h"
#include "exec/executor.h"
#include "run_compare.h"

namespace hcube {
namespace {

using testing::chan;
using testing::errorList;
using testing::handMade;
using testing::move;
using testing::onTable;

/// Runs `set` on the co-simulated cube (RTL at `rtl_nodes`) and on the executor; expects the same
/// result and returns the co-simulation's.
RunResult expectAgreement(const TableSet& set, std::vector<u64> rtl_nodes, u64 max_cycles = 0) {
  CosimOptions opt;
  opt.rtl_nodes = std::move(rtl_nodes);
  opt.max_cycles = max_cycles;
  const RunResult table = onTable(set, max_cycles);
  const RunResult cosim = runOnCosim(set, opt);
  testing::expectSameRun("cosim", cosim, table);
  EXPECT_EQ(cosim.local_cycles, table.local_cycles);
  return cosim;
}

TEST(CosimEdelman, OneRtlNodeAmongTlmNodesMatchesExecutorAndReference) {
  const BuiltCase c = buildCase({"edelman", 4, 0, 1, false});
  const RunResult cosim = expectAgreement(c.tables, {5});
  EXPECT_EQ(cosim.cycles, 8U);
  EXPECT_EQ(cosim.transfer_cycles, 8U);
  EXPECT_EQ(cosim.words, 16U * 4U * 8U);
  EXPECT_EQ(cosim.span, 7U);
  EXPECT_TRUE(cosim.errors.empty()) << errorList(cosim.errors);
  const CheckResult check = checkAgainstReference(c.perm, cosim.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, 256U);
}

TEST(CosimEdelman, NeighbouringRtlNodesAndAnAllRtlCube) {
  const BuiltCase c = buildCase({"edelman", 4, 0, 1, false});
  // Node 5 and three of its neighbours: words cross RTL-to-RTL links too.
  RunResult cosim = expectAgreement(c.tables, {5, 4, 7, 13});
  EXPECT_EQ(checkAgainstReference(c.perm, cosim.memory).mismatches, 0U);
  std::vector<u64> all(16);
  for (u64 x = 0; x < 16; ++x) all[x] = x;
  cosim = expectAgreement(c.tables, all);
  EXPECT_EQ(checkAgainstReference(c.perm, cosim.memory).mismatches, 0U);
}

TEST(CosimEdelman, EveryAapcAlgorithmWithTheRtlNodeAtEachCorner) {
  for (const char* algo : {"jh1", "jh2", "jh3", "jh4"}) {
    SCOPED_TRACE(algo);
    const BuiltCase c = buildCase({algo, 4, 0, 1, false});
    for (u64 x : {0, 15}) {
      SCOPED_TRACE("RTL node " + std::to_string(x));
      const RunResult cosim = expectAgreement(c.tables, {x});
      EXPECT_EQ(checkAgainstReference(c.perm, cosim.memory).mismatches, 0U);
    }
  }
}

TEST(CosimErrors, LostNoDataForwardDropAndConflictAtTheRtlNodeAndItsNeighbours) {
  TableSet set = handMade(4, 1, 3);
  // Node 5 is RTL; its neighbours are 4, 7, 1 and 13.
  chan(set, 4, 0, 0).out = {OutOp::kMem, false, 3};  // to node 5, which does not listen: lost
  chan(set, 5, 0, 1).in = {InOp::kMem, false, 2};    // from node 7, which sends nothing: nodata
  move(set, 5, 0, 2, 9, 9);                          // RTL -> TLM node 1
  move(set, 1, 1, 2, 6, 0);                          // TLM node 1 -> RTL into slot 0 ...
  move(set, 13, 1, 3, 7, 0);                         // ... and node 13 too: conflict
  chan(set, 7, 1, 1).out = {OutOp::kMem, false, 4};  // node 7 -> 5 with PASS
  chan(set, 5, 1, 1).in = {InOp::kPass, false, 0};
  chan(set, 5, 2, 3).out = {OutOp::kFwd, false, 1};  // forwarded to node 13
  chan(set, 13, 2, 3).in = {InOp::kMem, false, 15};
  chan(set, 5, 2, 0).out = {OutOp::kFwd, false, 2};  // nothing to forward: fwd
  chan(set, 4, 2, 0).in = {InOp::kPass, false, 0};   // node 4 receives nothing ...
  chan(set, 1, 1, 2).in = {InOp::kPass, false, 0};   // node 1 holds node 5's ... no: nodata
  const RunResult cosim = expectAgreement(set, {5});
  EXPECT_EQ(cosim.memory.at(13, 15), 7U * 16U + 4U);  // node 7's slot 4 through node 5
  EXPECT_EQ(cosim.errors, (std::vector<NodeErrorCount>{{1, HwError::kNoData, 1},
                                                       {4, HwError::kNoData, 1},
                                                       {5, HwError::kLost, 1},
                                                       {5, HwError::kNoData, 1},
                                                       {5, HwError::kFwd, 1},
                                                       {5, HwError::kConflict, 1}}))
      << errorList(cosim.errors);
}

TEST(CosimErrors, WaitOverrunDropAtTheEndAndTheCycleLimit) {
  TableSet set = handMade(4, 1, 2);
  set.tables[5] = {Instruction::xfer(4), Instruction::waitFor(4), Instruction::xfer(4)};  // no END
  move(set, 5, 0, 0, 1, 1);                          // RTL -> node 4
  chan(set, 1, 1, 2).out = {OutOp::kMem, false, 2};  // to node 5 while it waits: lost
  chan(set, 13, 0, 3).out = {OutOp::kMem, false, 3};
  chan(set, 5, 0, 3).in = {InOp::kPass, false, 0};  // held, then the WAIT drops it
  chan(set, 7, 0, 1).out = {OutOp::kMem, false, 8};
  chan(set, 5, 2, 1).in = {InOp::kMem, false, 8};  // node 7 sent in cycle 0, not 5: nodata
  const RunResult cosim = expectAgreement(set, {5});
  EXPECT_EQ(cosim.cycles, 6U);
  EXPECT_EQ(cosim.errors, (std::vector<NodeErrorCount>{{5, HwError::kLost, 2},
                                                       {5, HwError::kNoData, 1},
                                                       {5, HwError::kOverrun, 1},
                                                       {5, HwError::kDropped, 1}}))
      << errorList(cosim.errors);
  for (u64 limit : {1, 3, 5}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    EXPECT_TRUE(expectAgreement(set, {5}, limit).timeout);
  }
  TableSet pass = handMade(4, 1, 1);  // a PASS word still held when every node has ended
  move(pass, 4, 0, 0, 1, 0);
  chan(pass, 5, 0, 0).in = {InOp::kPass, false, 0};
  EXPECT_EQ(expectAgreement(pass, {5}).errors,
            (std::vector<NodeErrorCount>{{5, HwError::kDropped, 1}}));
}

TEST(CosimPermute, LocalCopiesAtTheRtlNodeAndLostWordsArrivingDuringThem) {
  TableSet set = handMade(4, 1, 2);
  for (u64 x : {5, 4}) {
    // PERMUTE: rotate slots 0 -> 1 -> 2 -> 0 and copy slot 9 into slot 8 (relative: 9 ^ x).
    Instruction p = Instruction::permute(4);
    p.channels[0] = {{OutOp::kMem, false, 0}, {InOp::kMem, false, 1}};
    p.channels[1] = {{OutOp::kMem, false, 1}, {InOp::kMem, false, 2}};
    p.channels[2] = {{OutOp::kMem, false, 2}, {InOp::kMem, false, 0}};
    p.channels[3] = {{OutOp::kMem, true, static_cast<u32>(9 ^ x)}, {InOp::kMem, false, 8}};
    set.tables[x][0] = p;
  }
  Instruction bad = Instruction::permute(4);
  bad.channels[1] = {{OutOp::kMem, false, 3}, {InOp::kIdle, false, 0}};  // illegal
  bad.channels[2] = {{OutOp::kMem, false, 4}, {InOp::kMem, false, 6}};
  bad.channels[3] = {{OutOp::kMem, false, 5}, {InOp::kMem, false, 6}};  // conflict: 5 wins
  set.tables[5][1] = bad;
  chan(set, 7, 1, 1).out = {OutOp::kMem, false, 0};  // arrives during node 5's PERMUTE: lost
  const RunResult cosim = expectAgreement(set, {5});
  EXPECT_EQ(cosim.local_cycles, 2U);
  EXPECT_EQ(cosim.memory.at(5, 1), 5U * 16U + 0U);
  EXPECT_EQ(cosim.memory.at(5, 0), 5U * 16U + 2U);
  EXPECT_EQ(cosim.memory.at(5, 8), 5U * 16U + 9U);
  EXPECT_EQ(cosim.memory.at(5, 6), 5U * 16U + 5U);
  EXPECT_EQ(cosim.errors,
            (std::vector<NodeErrorCount>{
                {5, HwError::kLost, 1}, {5, HwError::kIllegal, 1}, {5, HwError::kConflict, 1}}))
      << errorList(cosim.errors);
}

TEST(CosimLanes, TwoLanesCrossBetweenTheRtlNodeAndTlmNodes) {
  // n = 3, K = 8, two lanes: every node swaps slots (2j, 2j + 1) with its neighbour across j.
  TableSet set = handMade(3, 1, 2, 2);
  for (u64 x = 0; x < 8; ++x) {
    for (int j = 0; j < 3; ++j) {
      for (int l = 0; l < 2; ++l) {
        const u32 slot = static_cast<u32>(2 * j + l);
        chan(set, x, 0, j, l) = {{OutOp::kMem, false, slot}, {InOp::kMem, false, slot}};
      }
    }
  }
  chan(set, 3, 1, 1, 1).out = {OutOp::kMem, false, 7};  // lane 1 only, to RTL node 1: lost
  const RunResult cosim = expectAgreement(set, {2, 1});
  EXPECT_EQ(cosim.words, 8U * 3U * 2U + 1U);
  EXPECT_EQ(cosim.memory.at(2, 1), 3U * 8U + 1U);
  EXPECT_EQ(cosim.errors, (std::vector<NodeErrorCount>{{1, HwError::kLost, 1}}));
}

TEST(CosimBackend, BadRtlNodesAndConfigurationsWithoutAModelAreErrors) {
  const BuiltCase c = buildCase({"edelman", 4, 0, 1, false});
  CosimOptions opt;
  EXPECT_THROW(runOnCosim(c.tables, opt), Error);  // no RTL node named
  opt.rtl_nodes = {16};
  EXPECT_THROW(runOnCosim(c.tables, opt), Error);  // outside the 4-cube
  opt.rtl_nodes = {3, 3};
  EXPECT_THROW(runOnCosim(c.tables, opt), Error);  // named twice
  opt.rtl_nodes = {3};
  const BuiltCase big = buildCase({"edelman", 5, 0, 1, false});
  try {
    runOnCosim(big.tables, opt);
    ADD_FAILURE() << "a 5-cube ran without a Dim = 5 model";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("HCUBE_COSIM_MODELS"), std::string::npos) << e.what();
  }
}

TEST(CosimTrace, VcdNamesTheRtlNodeLikeTheTlmNodes) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("hcube_cosim_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const BuiltCase c = buildCase({"edelman", 4, 0, 1, false});
  CosimOptions opt;
  opt.rtl_nodes = {5};
  opt.vcd = (dir / "cosim.vcd").string();
  testing::expectSameRun("cosim", runOnCosim(c.tables, opt), onTable(c.tables));
  std::ifstream in(opt.vcd);
  std::stringstream text;
  text << in.rdbuf();
  const std::string vcd = text.str();
  for (const char* s : {"$scope module node_5 $end", "$scope module node_4 $end", " rtl_clk ",
                        " out_valid ", " in_data "}) {
    EXPECT_NE(vcd.find(s), std::string::npos) << s;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hcube

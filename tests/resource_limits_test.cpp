// The RTL's estimates (sw/tables/resource_limits.h): the model state a run needs, and the memory a
// model build needs, refused before any work when the machine cannot hold it.
#include "tables/resource_limits.h"

#include <gtest/gtest.h>

#include <string>

#include "algorithms/algorithms.h"
#include "base/error.h"

namespace hcube {
namespace {

TEST(RtlEstimates, RunStateIsEveryNodesTableAndMemory) {
  // edelman n = 4: K = 16, 8 steps + END = 9 table words -> depth 16; memory 16 words. Slot
  // fields of 4 bits, channel fields 6 + 4 + 4 = 14 bits, a table word 2 + 4 * 14 = 58 bits,
  // stored as two 32-bit pieces: 16 nodes x (16 x 8 B + 16 x 4 B) = 3072 B, x 1.25 = 3840 B.
  const BuiltCase c = buildCase({"edelman", 4, 0, 1, false});
  const ResourceEstimate e = rtlRunEstimate(c.tables);
  EXPECT_EQ(e.bytes, 3840U);
  EXPECT_EQ(e.detail, "16 nodes x (16 table words of 58 bits + 16 memory words)");
  EXPECT_EQ(e.field, "dim");
}

TEST(RtlEstimates, BuildMemoryGrowsWithTheNodeInstances) {
  EXPECT_EQ(rtlBuildEstimate(11).bytes, u64{300000000} + u64{2048} * 1600000);
  EXPECT_EQ(rtlBuildEstimate(12).bytes, u64{300000000} + u64{4096} * 1600000);
  EXPECT_DOUBLE_EQ(rtlBuildEstimate(12).seconds, 30 + 4096 * 0.135);
}

TEST(RtlEstimates, ACubeWhoseBuildDoesNotFitTheMachineIsRefused) {
  // n = 12 needs about 6.9 GB for Verilator: fits 24 GB, not 4 GB.
  EXPECT_NO_THROW(requireRtlDimension(12, u64{24} << 30));
  try {
    requireRtlDimension(12, u64{4} << 30);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "RTL backend: building the Verilated 12-cube would need about 6.9 GB (Verilator "
              "elaborates 4096 node instances, about 1.6 MB each), more than this machine's 4.3 GB "
              "of memory (use --backend table)");
  }
  EXPECT_THROW(requireRtlDimension(13, u64{1} << 40), Error);
}

}  // namespace
}  // namespace hcube

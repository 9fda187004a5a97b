// Edelman 1991: Tables i, ii, iii reproduced exactly; Theorem 3.2's conditions for d = 1..16.
#include "algorithms/aapc/edelman.h"

#include <gtest/gtest.h>

#include <bitset>

#include "base/error.h"
#include "test_util.h"

namespace hcube {
namespace {

using testing::binary;

void expectTable(int d, const std::string& golden) {
  const std::vector<std::string> lines = testing::goldenLines(golden);
  const RelativeSchedule s = edelmanSchedule(d);
  ASSERT_EQ(lines.size(), s.steps()) << golden;
  for (u64 i = 0; i < s.steps(); ++i) {
    std::string row;
    for (int j = 0; j < d; ++j) row += (j ? " " : "") + binary(s.at(i, j), d);
    EXPECT_EQ(row, lines[i]) << golden << ", step " << i + 1;
  }
}

TEST(Edelman, ReproducesTableIForDimension3) { expectTable(3, "edelman_table_i_d3.txt"); }
TEST(Edelman, ReproducesTableIIForDimension4) { expectTable(4, "edelman_table_ii_d4.txt"); }
TEST(Edelman, ReproducesTableIIIForDimension5) { expectTable(5, "edelman_table_iii_d5.txt"); }

TEST(Edelman, SatisfiesTheorem32ConditionsForDimensions1To16) {
  for (int d = 1; d <= 16; ++d) {
    const RelativeSchedule s = edelmanSchedule(d);
    EXPECT_EQ(s.steps(), u64{1} << (d - 1)) << "d = " << d;
    const std::vector<std::string> bad = checkEdelmanConditions(s);
    EXPECT_TRUE(bad.empty()) << "d = " << d << ": " << (bad.empty() ? "" : bad.front());
  }
}

TEST(Edelman, EveryRelativeAddressAppearsOncePerOneBit) {
  // The consequence the proof of Theorem 3.2 draws: w appears Sum(w) times, once in each
  // column k with bit k of w set.
  for (int d = 1; d <= 12; ++d) {
    const RelativeSchedule s = edelmanSchedule(d);
    std::vector<u32> seen(u64{1} << d, 0);
    for (u64 i = 0; i < s.steps(); ++i) {
      for (int j = 0; j < d; ++j) seen[s.at(i, j)] |= 1U << j;
    }
    for (u64 w = 0; w < seen.size(); ++w) ASSERT_EQ(seen[w], w) << "d = " << d << ", w = " << w;
  }
}

TEST(Edelman, ConditionCheckerCatchesViolations) {
  RelativeSchedule s = edelmanSchedule(3);
  s.set(0, 0, 0b110);  // bit 0 clear: not wire appropriate; also a row duplicate of w[0][1]
  s.set(1, 2, 0b100);  // duplicate of w[0][2] in column 2
  const std::vector<std::string> bad = checkEdelmanConditions(s);
  ASSERT_EQ(bad.size(), 3U);
  EXPECT_EQ(bad[0], "w[0][0] violates wire appropriateness");
  EXPECT_EQ(bad[1], "w[0][1] violates row uniqueness");
  EXPECT_EQ(bad[2], "w[1][2] violates column uniqueness");
}

TEST(Edelman, SpanOfTheDimension3ScheduleIs4) {
  // Relative address 011 moves in steps 1 and 4 of Table i.
  EXPECT_EQ(relativeScheduleSpan(edelmanSchedule(3)), 4U);
}

TEST(Edelman, RejectsImpossibleDimensions) {
  EXPECT_THROW(edelmanSchedule(0), Error);
  EXPECT_THROW(edelmanSchedule(31), Error);
}

}  // namespace
}  // namespace hcube

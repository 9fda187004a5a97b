#include "spec/address.h"

#include <gtest/gtest.h>

namespace hcube {
namespace {

TEST(Address, PackAndUnpackAreInverse) {
  EXPECT_EQ(packAddress({5, 3}, 8), 43U);
  EXPECT_EQ(unpackAddress(43, 8), (GlobalAddress{5, 3}));
}

TEST(Address, HammingDistanceCountsDifferingBits) {
  EXPECT_EQ(hammingDistance(0b1011, 0b0010), 2);
  EXPECT_EQ(hammingDistance(7, 7), 0);
  EXPECT_EQ(neighbour(0b101, 1), 0b111U);
}

TEST(Address, GrayCodeOfZeroToSeven) {
  const u64 expected[8] = {0b000, 0b001, 0b011, 0b010, 0b110, 0b111, 0b101, 0b100};
  for (u64 i = 0; i < 8; ++i) EXPECT_EQ(grayEncode(i), expected[i]) << i;
}

TEST(Address, GrayDecodeInvertsEncodeAndNeighboursDifferInOneBit) {
  for (u64 i = 0; i < (1U << 16); ++i) {
    ASSERT_EQ(grayDecode(grayEncode(i)), i);
    if (i > 0) {
      ASSERT_EQ(hammingDistance(grayEncode(i), grayEncode(i - 1)), 1) << i;
    }
  }
}

TEST(Address, BitsFor) {
  EXPECT_EQ(bitsFor(1), 1);
  EXPECT_EQ(bitsFor(2), 1);
  EXPECT_EQ(bitsFor(3), 2);
  EXPECT_EQ(bitsFor(1024), 10);
  EXPECT_EQ(bitsFor(1025), 11);
}

}  // namespace
}  // namespace hcube

#include "spec/permutation.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "spec/reference.h"

namespace hcube {
namespace {

TEST(Permutation, AapcExchangesNodeAndLocalAddress) {
  const PermutationSpec p = PermutationSpec::aapc(3, 1);
  EXPECT_EQ(p.slots(), 8U);
  EXPECT_EQ(p.dest({5, 2}), (GlobalAddress{2, 5}));
  EXPECT_EQ(p.dest({0, 0}), (GlobalAddress{0, 0}));
}

// Elements that take part per node and their total distance, counted by hand. AAPC on the
// 2-cube: slot i of node x goes to node i, so the distances are popcount(x ^ i): 16 pairs, eight
// at distance 1 and four at distance 2, 16 in all. A scatter from node 2 (l = 0): only node 2's
// four elements take part, at distances 1, 2, 0, 1 to nodes 0..3.
TEST(Permutation, ParticipatingElementsPerNodeAndTheirDistance) {
  const PermutationSpec a = PermutationSpec::aapc(2, 1);
  EXPECT_EQ(a.participatingPerNode(), (std::vector<u64>{4, 4, 4, 4}));
  EXPECT_EQ(a.participatingDistance(), 16U);
  const PermutationSpec s = PermutationSpec::personalized(2, 1, false, 0, 2);
  EXPECT_EQ(s.participatingPerNode(), (std::vector<u64>{0, 0, 4, 0}));
  EXPECT_EQ(s.participatingDistance(), 4U);
}

TEST(Permutation, AapcRepeatedKeepsTheHighLocalBits) {
  // K = 3 * 2^2: slot l = (h, i), (j | h, i) -> (i | h, j).
  const PermutationSpec p = PermutationSpec::aapc(2, 3);
  EXPECT_EQ(p.slots(), 12U);
  EXPECT_EQ(p.dest({1, 2 * 4 + 3}), (GlobalAddress{3, 2 * 4 + 1}));
}

TEST(Permutation, DimensionPermutationMovesBits) {
  // n = 2, k = 2: (a3 a2 | a1 a0) -> (a1 a0 | a3 a2), i.e. the same as the AAPC.
  const PermutationSpec d = PermutationSpec::dimension(2, 2, {2, 3, 0, 1});
  const PermutationSpec a = PermutationSpec::aapc(2, 1);
  for (u64 x = 0; x < 4; ++x) {
    for (u64 l = 0; l < 4; ++l) EXPECT_EQ(d.dest({x, l}), a.dest({x, l}));
  }
}

TEST(Permutation, ParseRoundTrips) {
  for (const char* text : {"aapc n=3 m=1", "aapc n=4 m=5", "dim n=2 k=3 delta=4,3,2,1,0"}) {
    EXPECT_EQ(PermutationSpec::parse(text).str(), text);
  }
}

TEST(Permutation, RejectsNonPermutationDelta) {
  EXPECT_THROW(PermutationSpec::dimension(2, 2, {0, 0, 1, 2}), Error);
  EXPECT_THROW(PermutationSpec::dimension(2, 2, {0, 1, 2}), Error);
  EXPECT_THROW(PermutationSpec::dimension(2, 2, {0, 1, 2, 4}), Error);
  EXPECT_THROW(PermutationSpec::parse("aapc n=x"), Error);
  EXPECT_THROW(PermutationSpec::parse("rotate n=3"), Error);
  EXPECT_THROW(PermutationSpec::aapc(0, 1), Error);
}

TEST(Permutation, LinearGrayAapcSendsToTheGrayCodeOfTheSlot) {
  // (j|i) -> (G(i)|G(j)) on a 2-cube with K = 4: address bits 0,1 local (i), 2,3 node (j).
  // G(v) = v ^ (v >> 1): dest node bit 0 = i0 ^ i1, bit 1 = i1; dest slot bit 0 = j0 ^ j1,
  // bit 1 = j1.
  const PermutationSpec p = PermutationSpec::linear(2, 2, {0b1100, 0b1000, 0b0011, 0b0010});
  for (u64 j = 0; j < 4; ++j) {
    for (u64 i = 0; i < 4; ++i) {
      EXPECT_EQ(p.dest({j, i}), (GlobalAddress{grayEncode(i), grayEncode(j)}));
    }
  }
  EXPECT_EQ(p.str(), "linear n=2 k=2 rows=12,8,3,2");
  EXPECT_EQ(PermutationSpec::parse(p.str()).str(), p.str());
}

TEST(Permutation, LinearRejectsASingularMap) {
  try {
    PermutationSpec::linear(1, 1, {0b11, 0b11});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "linear permutation: the rows are linearly dependent (address bit 1 is lost), so "
              "the map is not a permutation");
  }
  EXPECT_THROW(PermutationSpec::linear(1, 1, {0b100, 0b1}), Error);
  EXPECT_THROW(PermutationSpec::parse("linear n=1 k=1"), Error);
}

TEST(Reference, ExpectedMemoryOfTheThreeCubeAapc) {
  const PermutationSpec p = PermutationSpec::aapc(3, 1);
  const CubeMemory want = expectedMemory(p);
  // Node x slot l ends with the element that started at node l slot x: tag l * 8 + x.
  for (u64 x = 0; x < 8; ++x) {
    for (u64 l = 0; l < 8; ++l) EXPECT_EQ(want.at(x, l), l * 8 + x);
  }
}

TEST(Reference, CheckNamesTheFirstMismatch) {
  const PermutationSpec p = PermutationSpec::aapc(2, 1);
  CubeMemory got = expectedMemory(p);
  std::swap(got.at(1, 2), got.at(3, 0));
  const CheckResult r = checkAgainstReference(p, got);
  EXPECT_EQ(r.mismatches, 2U);
  EXPECT_EQ(r.correct, 14U);
  ASSERT_EQ(r.first.size(), 2U);
  EXPECT_EQ(describe(r.first[0], 4),
            "node 1 slot 2 holds tag 3 (from node 0 slot 3), the reference expects tag 9 (from "
            "node 2 slot 1)");
}

}  // namespace
}  // namespace hcube

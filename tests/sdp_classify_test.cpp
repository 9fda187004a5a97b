// Ho & Johnsson 1988 §2.2 classification and §3 lower bounds of stable dimension permutations
// (sw/spec/sdp.h), on the paper's examples.
#include <gtest/gtest.h>

#include "base/error.h"
#include "spec/sdp.h"

namespace hcube {
namespace {

std::vector<int> dimsOf(const Gsh& g) { return g.dims; }

// Table 1's SDP: J0 = 0,1,2,3; J1 = 4,5,6; J2 = 7,8 on the processor dimensions of a 9-cube.
TEST(SdpClassify, Table1SdpHasThreeRealGshs) {
  const Sdp s = Sdp::fromCycles(9, 9, "0,1,2,3/4,5,6/7,8");
  EXPECT_EQ(s.delta[3], 0);
  EXPECT_EQ(s.delta[6], 4);
  EXPECT_EQ(s.delta[8], 7);
  EXPECT_EQ(s.delta[9], 9);
  const SdpClass c = classify(s, parseCycles("0,1,2,3/4,5,6/7,8"));
  ASSERT_EQ(c.gshs.size(), 3U);
  EXPECT_EQ(dimsOf(c.gshs[0]), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(dimsOf(c.gshs[2]), (std::vector<int>{7, 8}));
  for (const Gsh& g : c.gshs) EXPECT_EQ(g.kind, Gsh::Kind::kReal);
  EXPECT_EQ(c.beta, 3);
  EXPECT_EQ(c.sigma, 9);
  EXPECT_EQ(c.sigma_p, 9);
  EXPECT_EQ(c.sigma_s, 0);
  EXPECT_EQ(c.sigma_max, 4);
  EXPECT_EQ(c.sigma_min, 2);
  EXPECT_EQ(c.oJ, 1);  // J1 has odd order 3
  EXPECT_TRUE(c.separable);
  EXPECT_TRUE(c.full_cube);
  // Theorem 1, K = 512, tau = 10: one-port max(9 * 256, 8 tau), n-port max(256, 8 tau).
  const SdpBounds b = sdpLowerBounds(s, c, 10);
  EXPECT_EQ(b.startups, 8U);
  EXPECT_DOUBLE_EQ(b.one_port, 2304.0);
  EXPECT_DOUBLE_EQ(b.n_port, 256.0);
  EXPECT_DOUBLE_EQ(sdpLowerBounds(s, c, 100).n_port, 800.0);
}

// Figure 2: the shuffle delta(i) = (i + 1) mod 5, one real GSH of odd order 5.
TEST(SdpClassify, Figure2ShuffleIsOneGshOfOrderFive) {
  const Sdp s = Sdp::fromDelta(5, 1, {1, 2, 3, 4, 0, 5});
  const SdpClass c = classify(s);
  ASSERT_EQ(c.gshs.size(), 1U);
  EXPECT_EQ(dimsOf(c.gshs[0]), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(c.oJ, 1);
  // Lemma 3, odd order: sigma_p - 1 = 4 start-ups; K = 2: one-port transfers 5 * 2/2.
  EXPECT_DOUBLE_EQ(gshLowerBound(c.gshs[0], 2, 3, true), 12.0);
  EXPECT_DOUBLE_EQ(gshLowerBound(c.gshs[0], 2, 1, true), 5.0);
  EXPECT_DOUBLE_EQ(gshLowerBound(c.gshs[0], 2, 3, false), 12.0);
}

// Bit-reversal of the processor address, 4-cube: (0 3)(1 2), its own inverse (§2.2).
TEST(SdpClassify, BitReversalIsTwoTranspositions) {
  const Sdp s = Sdp::fromDelta(4, 2, {3, 2, 1, 0, 4, 5});
  const SdpClass c = classify(s);
  ASSERT_EQ(c.gshs.size(), 2U);
  EXPECT_EQ(dimsOf(c.gshs[0]), (std::vector<int>{0, 3}));
  EXPECT_EQ(dimsOf(c.gshs[1]), (std::vector<int>{1, 2}));
  EXPECT_EQ(c.oJ, 0);
  EXPECT_EQ(sdpLowerBounds(s, c, 7).startups, 4U);
}

// Mixed and virtual GSHs: (0 4) crosses the processor/storage boundary (Definition 8), (5 6)
// is all storage; the SDP is non-separable (Definition 9).
TEST(SdpClassify, MixedAndVirtualGshs) {
  const Sdp s = Sdp::fromCycles(4, 3, "0,4/5,6/1,2,3");
  const SdpClass c = classify(s);
  ASSERT_EQ(c.gshs.size(), 3U);
  EXPECT_EQ(c.gshs[0].kind, Gsh::Kind::kMixed);
  EXPECT_EQ(c.gshs[0].sigma_p, 1);
  EXPECT_EQ(c.gshs[1].kind, Gsh::Kind::kReal);
  EXPECT_EQ(c.gshs[2].kind, Gsh::Kind::kVirtual);
  EXPECT_FALSE(c.separable);
  EXPECT_EQ(c.beta, 2);
  EXPECT_EQ(c.beta_real, 1);
  EXPECT_EQ(c.sigma_p, 4);
  EXPECT_EQ(c.sigma_s, 3);
  EXPECT_EQ(c.sigma_min, 1);
  EXPECT_EQ(c.oJ, 1);
  // Lemma 4: a mixed GSH needs sigma_p start-ups (no odd discount).
  EXPECT_DOUBLE_EQ(gshLowerBound(c.gshs[0], 8, 10, true), 10.0);
}

// Corollary 4: data on m_p = 2 of n = 4 processor dimensions, GSH (0 1), K = 16.
TEST(SdpClassify, Corollary4ExtendedCube) {
  const Sdp s = Sdp::fromCycles(4, 4, "0,1", 2);
  const SdpClass c = classify(s);
  EXPECT_FALSE(c.full_cube);
  const SdpBounds b = sdpLowerBounds(s, c, 0);
  // one-port: max(K + sigma_p - oJ - 1, sigma_p K / 2^(n - m_p + 1)) = max(17, 4).
  EXPECT_DOUBLE_EQ(b.transfer_one_port, 17.0);
  // n-port: max(K / (n - m_p + sigma_p) + sigma_p - oJ - 1, K / 2^(n - m_p + 1)) = max(5, 2).
  EXPECT_DOUBLE_EQ(b.transfer_n_port, 5.0);
  EXPECT_DOUBLE_EQ(sdpLowerBounds(s, c, 20).n_port, 40.0);
}

TEST(SdpClassify, ReferenceModelUsesPaperNumbering) {
  // n = 2, k = 1: processor dims 0, 1 (project positions 1, 2), storage dim 2 (position 0).
  const Sdp s = Sdp::fromCycles(2, 1, "0,2");
  const PermutationSpec p = s.toPermutationSpec();
  EXPECT_EQ(p.delta(), (std::vector<int>{1, 0, 2}));
  // Element in node 1 (processor bit 0 set), slot 0 goes to node 0, slot 1.
  EXPECT_EQ(p.dest({1, 0}), (GlobalAddress{0, 1}));
}

TEST(SdpClassify, BadInputIsNamed) {
  try {
    Sdp::fromDelta(3, 1, {1, 1, 2, 3});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a permutation"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Sdp::fromDelta(3, 1, {1, 0, 2}), Error);
  EXPECT_THROW(Sdp::fromDelta(3, 1, {1, 0, 2, 7}), Error);
  EXPECT_THROW(Sdp::fromCycles(3, 1, "0,1/1,2"), Error);
  EXPECT_THROW(Sdp::fromCycles(3, 1, "0,x"), Error);
  EXPECT_THROW(Sdp::fromCycles(3, 1, "0,9"), Error);
  EXPECT_THROW(Sdp::fromCycles(4, 1, "0,3", 2), Error);  // dim 3 holds no data
}

// Table 4's third example, sigma_i = {2, 5, 11}, needs 18 processor dimensions: the cube the
// SDP functions accept (kSdpMaxDim) and its classification and Theorem 1 bound (n-port
// max(K/2, (sigma_p - oJ) tau) = max(32, 16 tau) at K = 64); n = 19 is refused by name.
TEST(SdpClassify, Table4ThirdExampleOnTheEighteenCube) {
  const std::string c = "0,1/2,3,4,5,6/7,8,9,10,11,12,13,14,15,16,17";
  const Sdp s = Sdp::fromCycles(18, 6, c);
  const SdpClass cls = classify(s, parseCycles(c));
  EXPECT_EQ(cls.sigma_p, 18);
  EXPECT_EQ(cls.beta, 3);
  EXPECT_EQ(cls.sigma_max, 11);
  EXPECT_EQ(cls.sigma_min, 2);
  EXPECT_EQ(cls.oJ, 2);
  EXPECT_TRUE(cls.separable);
  const SdpBounds lb = sdpLowerBounds(s, cls, 10);
  EXPECT_EQ(lb.startups, 16U);
  EXPECT_DOUBLE_EQ(lb.n_port, 160);
  try {
    Sdp::fromCycles(19, 6, c);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--n 19: must be 1..18"), std::string::npos) << e.what();
  }
}

TEST(SdpClassify, DescribeNamesEverything) {
  const SdpDescription d =
      describeSdp(Sdp::fromCycles(9, 9, "0,1,2,3/4,5,6/7,8"), parseCycles("0,1,2,3/4,5,6/7,8"), 10);
  EXPECT_NE(d.text.find("sigma_p=9"), std::string::npos) << d.text;
  EXPECT_NE(d.text.find("oJ=1"), std::string::npos) << d.text;
  EXPECT_NE(d.text.find("= 2304 cycles"), std::string::npos) << d.text;
  EXPECT_NE(d.json.find("\"sigma_max\":4"), std::string::npos) << d.json;
  EXPECT_NE(d.json.find("\"n_port\":256"), std::string::npos) << d.json;
}

}  // namespace
}  // namespace hcube

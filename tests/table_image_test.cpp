// The binary table-word encoding of docs/hardware.md §3 and the image file.
#include "table_image.h"

#include <gtest/gtest.h>

#include <sstream>

#include "algorithms.h"
#include "error.h"

namespace hcube {
namespace {

TEST(TableImage, LayoutWidthsFollowTheContract) {
  const ImageLayout l{3, 1, 8};  // n = 3, one lane, 8 words
  EXPECT_EQ(l.slotBits(), 3);
  EXPECT_EQ(l.idxBits(), 3);  // max(3, PortBits 2 + LaneBits 1)
  EXPECT_EQ(l.chanBits(), 12);
  EXPECT_EQ(l.tableWidth(), 38);
  const ImageLayout small{1, 1, 2};
  EXPECT_EQ(small.tableWidth(), 34);  // wide enough for WAIT's 32-bit count
}

TEST(TableImage, EncodesFieldsAtTheirBitPositions) {
  const ImageLayout l{2, 1, 4};  // SlotBits 2, IdxBits 2, ChanBits 10, width 34
  Instruction x = Instruction::xfer(2);
  x.channels[0] = {{OutOp::kMem, true, 3}, {InOp::kMem, true, 2}};
  x.channels[1] = {{OutOp::kFwd, false, 0}, {InOp::kPass, false, 0}};
  // ch0 at bit 2: out_op 01, rel 1, idx 11, in_op 01, rel 1, slot 10 -> 10 1 01 11 1 01 (MSB..LSB)
  // ch1 at bit 12: out_op 10, rel 0, idx 00, in_op 10, rel 0, slot 00 -> 00 0 10 00 0 10
  const TableWord w = encodeInstruction(x, l);
  const u64 ch0 = 0b1010111101ULL;
  const u64 ch1 = 0b0001000010ULL;
  EXPECT_EQ(w.at(0), 1ULL | (ch0 << 2) | (ch1 << 12));
  EXPECT_EQ(
      toHex(w, l.tableWidth()), "0000" + [&] {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%05llx", static_cast<unsigned long long>(w.at(0)));
        return std::string(buf);
      }());
  EXPECT_EQ(decodeInstruction(w, l), x);
  const TableWord wait = encodeInstruction(Instruction::waitFor(0xDEADBEEF), l);
  EXPECT_EQ(toHex(wait, 34), "37ab6fbbe");
  EXPECT_EQ(decodeInstruction(wait, l), Instruction::waitFor(0xDEADBEEF));
  EXPECT_EQ(toHex(encodeInstruction(Instruction::end(), l), 34), "000000000");
}

TEST(TableImage, PermuteIsOpcode3WithTheChannelFieldsOfXfer) {
  const ImageLayout l{2, 1, 4};  // as above: ChanBits 10, width 34
  Instruction p = Instruction::permute(2);
  p.channels[0] = {{OutOp::kMem, true, 3}, {InOp::kMem, true, 2}};
  p.channels[1] = {{OutOp::kMem, false, 1}, {InOp::kMem, false, 0}};
  // ch0 as in the XFER above; ch1 at bit 12: out_op 01, rel 0, idx 01, in_op 01, rel 0,
  // slot 00 -> 00 0 01 01 0 01 (MSB..LSB).
  const u64 ch0 = 0b1010111101ULL;
  const u64 ch1 = 0b0000101001ULL;
  const TableWord w = encodeInstruction(p, l);
  EXPECT_EQ(w.at(0), 3ULL | (ch0 << 2) | (ch1 << 12));
  EXPECT_EQ(toHex(w, 34), "000029af7");
  EXPECT_EQ(decodeInstruction(w, l), p);
  // A PERMUTE channel the hardware flags as illegal (FWD out, PASS in) still decodes as it is.
  Instruction bad = Instruction::permute(2);
  bad.channels[1] = {{OutOp::kFwd, false, 0}, {InOp::kPass, false, 0}};
  EXPECT_EQ(decodeInstruction(encodeInstruction(bad, l), l), bad);
  EXPECT_EQ(decodeInstruction(encodeInstruction(Instruction::permute(2), l), l),
            Instruction::permute(2));
}

TEST(TableImage, EveryEdelmanInstructionRoundTripsForDimensions1To10) {
  for (int n = 1; n <= 10; ++n) {
    const TableSet set = buildCase({"edelman", n, 0, 1, false}).tables;
    const ImageLayout l = ImageLayout::of(set.header);
    for (const Instruction& ins : set.tables[0]) {
      const TableWord w = encodeInstruction(ins, l);
      ASSERT_EQ(decodeInstruction(fromHex(toHex(w, l.tableWidth()), l.tableWidth()), l), ins);
    }
  }
}

TEST(TableImage, FromHexRejectsBadText) {
  EXPECT_THROW(fromHex("12", 34), Error);         // too short
  EXPECT_THROW(fromHex("00000000g", 34), Error);  // not hex
  EXPECT_THROW(fromHex("400000000", 34), Error);  // bit 34 set
  EXPECT_NO_THROW(fromHex("3ffffffff", 34));
}

TEST(TableImage, ImageFileHeaderAndBroadcastBlock) {
  std::ostringstream out;
  writeImage(out, buildCase({"edelman", 1, 0, 1, false}).tables);
  EXPECT_EQ(out.str(),
            "hcube-image 1\ndim 1\nslots 2\nmemory 2\nlanes 1\none-port 0\ntable-width 34\n"
            "table * 2\n"
            "0000006b5\n"  // XFER ch0: out MEM rel slot 1, in MEM rel slot 1
            "000000000\n"
            "end\n");
}

}  // namespace
}  // namespace hcube

// The binary table-word encoding of docs/hardware/node.md §3 and the image file.
#include "tables/table_image.h"

#include <gtest/gtest.h>

#include <sstream>

#include "algorithms/algorithms.h"
#include "base/error.h"

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
            "hcube-image 1\nalgo edelman\nperm aapc n=1 m=1\ndim 1\nslots 2\nmemory 2\nlanes 1\n"
            "one-port 0\ntable-width 34\n"
            "table * 2\n"
            "0000006b5\n"  // XFER ch0: out MEM rel slot 1, in MEM rel slot 1
            "000000000\n"
            "end\n");
}

TableSet imageRoundTrip(const TableSet& set) {
  std::ostringstream out;
  writeImage(out, set);
  std::istringstream in(out.str());
  return readImage(in, "t.hex");
}

// The image reads back into the very table set it was written from.
TEST(ImageReader, ImagesReadBackIntoTheSameTables) {
  for (int n = 1; n <= 6; ++n) {
    const TableSet set = buildCase({"edelman", n, 0, 1, false}).tables;
    EXPECT_EQ(imageRoundTrip(set), set) << "edelman n = " << n;
  }
  // A Gray-code linear permutation; per-node tables with PERMUTE and scratch.
  CaseSpec gray{"jh4", 3, 0, 1, false};
  gray.params = {{"alignment", "explicit"}, {"code", "gray"}};
  const TableSet g = buildCase(gray).tables;
  EXPECT_EQ(imageRoundTrip(g), g);
  CaseSpec explicit_alignment{"edelman", 3, 0, 1, false};
  explicit_alignment.params = {{"alignment", "explicit"}};
  const TableSet e = buildCase(explicit_alignment).tables;
  ASSERT_FALSE(e.shared);
  ASSERT_GT(e.header.scratch, 0U);
  EXPECT_EQ(imageRoundTrip(e), e);
  // Two lanes, one-port, a wait.
  TableSet w = buildCase({"jh3", 3, 0, 2, false}).tables;
  w.header.one_port = true;  // only the header flag is read back here, not checked
  w.tables[0].insert(w.tables[0].begin() + 1, Instruction::waitFor(4000000000U));
  EXPECT_EQ(imageRoundTrip(w), w);
}

std::string imageError(const std::string& text) {
  std::istringstream in(text);
  HeaderOrigin origin;
  try {
    readImage(in, "bad.hex", &origin);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

const std::string kImageHeader =
    "hcube-image 1\nalgo edelman\nperm aapc n=1 m=1\ndim 1\nslots 2\nmemory 2\nlanes 1\n"
    "one-port 0\ntable-width 34\n";

TEST(ImageReader, EveryMalformedImageNamesFileAndLine) {
  EXPECT_EQ(imageError(kImageHeader + "table * 2\n0000006b5\n000000000\nend\n"), "no error");
  EXPECT_EQ(imageError(""), "bad.hex:0: empty input, expected 'hcube-image 1'");
  EXPECT_EQ(imageError("hcube-table 1\n"), "bad.hex:1: expected 'hcube-image 1'");
  EXPECT_EQ(imageError(kImageHeader + "table * 2\n0000006b5\n"),
            "bad.hex:11: unexpected end of input: 1 more table word(s) expected");
  EXPECT_EQ(imageError(kImageHeader + "table * 2\n0000006b5\n000000000\n"),
            "bad.hex:12: unexpected end of input: missing 'end'");
  EXPECT_EQ(imageError(kImageHeader + "table * 2\n0000006b5\n00000000g\nend\n"),
            "bad.hex:12: hex word '00000000g' has a non-hex digit");
  EXPECT_EQ(imageError(kImageHeader + "table * 2\n0000006b5\n0000000\nend\n"),
            "bad.hex:12: hex word '0000000' has 7 digits, expected 9");
  // Output op 3 in channel 0.
  EXPECT_EQ(imageError(kImageHeader + "table * 2\n00000000d\n000000000\nend\n"),
            "bad.hex:11: table word: channel 0 output op 3");
  EXPECT_EQ(imageError(kImageHeader + "table * 0\nend\n"),
            "bad.hex:10: table length '0' is not an integer in 1..4294967296");
  EXPECT_EQ(imageError(kImageHeader + "table 1 1\n000000000\nend\n"),
            "bad.hex:10: expected 'table 0' (tables in node order)");
  EXPECT_EQ(imageError(kImageHeader + "table 0 1\n000000000\nend\n"),
            "bad.hex:12: only 1 of 2 node tables given");
  EXPECT_EQ(imageError(kImageHeader + "table * 1\n000000000\nend\nmore\n"),
            "bad.hex:13: text after 'end'");
  // Header fields.
  EXPECT_EQ(imageError("hcube-image 1\ndim 1\nslots 2\nmemory 2\nlanes 1\none-port 0\n"
                       "table-width 34\ntable * 1\n000000000\nend\n"),
            "bad.hex:8: the image names no permutation (no 'perm' line: written by an hcube "
            "before images carried one); verify the tables.hct beside it");
  EXPECT_EQ(
      imageError("hcube-image 1\nalgo e\nperm aapc n=4294967297 m=1\ndim 1\nslots 2\n"
                 "memory 2\nlanes 1\none-port 0\ntable-width 34\ntable * 1\n000000000\nend\n"),
      "bad.hex:3: perm n=4294967297: out of range (0..64)");
  EXPECT_EQ(imageError("hcube-image 1\nalgo e\nperm aapc n=1 m=1\ndim 1\nslots 2\nmemory 2\n"
                       "lanes 1\none-port 0\ntable-width 40\ntable * 1\n000000000\nend\n"),
            "bad.hex:9: table-width 40 is not the 34 bits of dim 1, lanes 1, memory 2");
  EXPECT_EQ(imageError("hcube-image 1\nalgo e\nperm aapc n=1 m=1\ndim 1\nslots 2\nmemory 1\n"
                       "lanes 1\none-port 0\ntable-width 34\ntable * 1\n000000000\nend\n"),
            "bad.hex:6: memory 1 is less than slots 2");
  EXPECT_EQ(imageError("hcube-image 1\nalgo e\nperm aapc n=1 m=1\ndim 1\ndim 1\n"),
            "bad.hex:5: header field 'dim' given twice");
  EXPECT_EQ(imageError("hcube-image 1\nalgo e\nperm aapc n=1 m=1\ncolour 1\n"),
            "bad.hex:4: unknown header field 'colour'");
  // X m2>. : a send slot beyond the memory, named by the table-shape check.
  EXPECT_EQ(imageError("hcube-image 1\nalgo e\nperm aapc n=1 m=1\ndim 1\nslots 2\nmemory 2\n"
                       "lanes 1\none-port 0\ntable-width 34\ntable * 1\n000000045\nend\n"),
            "bad.hex: shared table, instruction 0, port 0 lane 0: send slot 2 is out of range "
            "(memory has 2 slots)");
}

}  // namespace
}  // namespace hcube

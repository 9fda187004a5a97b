// The table text format: round trip, and every malformed input named by file and line.
#include "tables/table_text.h"

#include <gtest/gtest.h>

#include <sstream>

#include "algorithms/algorithms.h"
#include "base/error.h"

namespace hcube {
namespace {

TableSet roundTrip(const TableSet& set) {
  std::ostringstream out;
  writeTableText(out, set);
  std::istringstream in(out.str());
  return readTableText(in, "roundtrip");
}

TEST(TableText, EdelmanTablesRoundTripForDimensions1To8) {
  for (int n = 1; n <= 8; ++n) {
    const TableSet set = buildCase({"edelman", n, 0, 1, false}).tables;
    EXPECT_EQ(roundTrip(set), set) << "n = " << n;
  }
}

TEST(TableText, PerNodeTablesWithEveryOpRoundTrip) {
  TableSet set;
  set.header.algo = "handmade";
  set.header.perm = PermutationSpec::aapc(1, 2);
  set.header.n = 1;
  set.header.slots = 4;
  set.header.scratch = 2;
  set.header.lanes = 2;
  set.header.one_port = true;
  set.shared = false;
  for (int node = 0; node < 2; ++node) {
    Table t;
    Instruction x = Instruction::xfer(2);
    x.channels[0] = {{OutOp::kMem, false, 5}, {InOp::kPass, false, 0}};
    x.channels[1] = {{OutOp::kFwd, false, 0}, {InOp::kMem, true, 1}};
    t.push_back(x);
    t.push_back(Instruction::waitFor(17));
    t.push_back(Instruction::xfer(2));
    t.push_back(Instruction::end());
    set.tables.push_back(t);
  }
  EXPECT_EQ(roundTrip(set), set);
}

TEST(TableText, WritesTheDocumentedFormat) {
  std::ostringstream out;
  writeTableText(out, buildCase({"edelman", 2, 0, 1, false}).tables);
  EXPECT_EQ(out.str(),
            "hcube-table 1\n"
            "# hcube schedule tables; format: docs/table-format.md\n"
            "algo edelman\n"
            "perm aapc n=2 m=1\n"
            "dim 2\n"
            "slots 4\n"
            "scratch 0\n"
            "lanes 1\n"
            "ports all\n"
            "# X: one cell OUT>IN per channel (channel = port * lanes + lane)\n"
            "table *\n"
            "X m^3>m^3 m^2>m^2\n"
            "X m^1>m^1 m^3>m^3\n"
            "E\n"
            "end\n");
}

std::string errorOf(const std::string& text) {
  std::istringstream in(text);
  try {
    readTableText(in, "bad.hct");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

const std::string kHeader =
    "hcube-table 1\nalgo t\nperm aapc n=2 m=1\ndim 2\nslots 4\nscratch 0\nlanes 1\nports all\n";

TEST(TableText, MalformedInputsAreNamedByLine) {
  EXPECT_EQ(errorOf(""), "bad.hct:0: empty input, expected 'hcube-table 1'");
  EXPECT_EQ(errorOf("hcube-table 2\n"), "bad.hct:1: unsupported version 2");
  EXPECT_EQ(errorOf("hcube-table 1\nalgo x\ndim 2\ntable *\n"),
            "bad.hct:4: header field 'perm' is missing");
  EXPECT_EQ(errorOf(kHeader + "table *\nX m^1>m^1\nE\nend\n"),
            "bad.hct:10: 'X' has 1 channels, dim 2 x lanes 1 needs 2");
  EXPECT_EQ(errorOf(kHeader + "table *\nX m^1>m^1 q>.\nE\nend\n"),
            "bad.hct:10: channel 1 output 'q' is not '.', 'm<slot>', 'm^<slot>' or 'f<channel>'");
  EXPECT_EQ(errorOf(kHeader + "table *\nX m1>m1 m2\nE\nend\n"),
            "bad.hct:10: channel 1 'm2' is not of the form OUT>IN");
  EXPECT_EQ(errorOf(kHeader + "table *\nX m1>m1 mx>.\nE\nend\n"),
            "bad.hct:10: 'mx': slot 'x' is not a non-negative integer");
  EXPECT_EQ(errorOf(kHeader + "table *\nW 0\nE\nend\n"),
            "bad.hct:10: wait cycles 0 is out of range (1..4294967295)");
  EXPECT_EQ(errorOf(kHeader + "table *\nX m1>m1 .>.\nE\n"),
            "bad.hct:11: unexpected end of input: missing 'end'");
  EXPECT_EQ(errorOf(kHeader + "table *\nZ\nend\n"),
            "bad.hct:10: unknown instruction 'Z' (expected X, P, W, E, table or end)");
  EXPECT_EQ(errorOf(kHeader + "table 0\nE\nend\n"), "bad.hct:11: only 1 of 4 node tables given");
  EXPECT_EQ(errorOf(kHeader + "table 1\nE\nend\n"),
            "bad.hct:9: expected 'table 0' (tables in node order)");
  EXPECT_EQ(errorOf(kHeader + "table 4\nE\nend\n"), "bad.hct:9: node 4 is out of range (0..3)");
  EXPECT_EQ(errorOf(kHeader + "table *\nE\nend\nmore\n"), "bad.hct:12: text after 'end'");
}

TEST(TableText, PermuteLinesRoundTripAndAreWrittenAsP) {
  TableSet set;
  set.header.algo = "handmade";
  set.header.perm = PermutationSpec::aapc(2, 1);
  set.header.n = 2;
  set.header.slots = 4;
  set.header.scratch = 4;
  set.header.lanes = 1;
  Table t;
  Instruction p = Instruction::permute(2);
  p.channels[0] = {{OutOp::kMem, true, 1}, {InOp::kMem, false, 4}};
  p.channels[1] = {{OutOp::kMem, false, 3}, {InOp::kMem, true, 2}};
  t.push_back(p);
  t.push_back(Instruction::permute(2));
  t.push_back(Instruction::end());
  set.tables.push_back(t);
  std::ostringstream out;
  writeTableText(out, set);
  const std::string text = out.str();
  EXPECT_NE(text.find("table *\nP m^1>m4 m3>m^2\nP .>. .>.\nE\nend\n"), std::string::npos) << text;
  EXPECT_EQ(roundTrip(set), set);
}

TEST(TableText, PermuteCellsOtherThanCopiesAreRejected) {
  EXPECT_EQ(errorOf(kHeader + "table *\nP m1>m0 f0>m1\nE\nend\n"),
            "bad.hct:10: 'P' channel 1 'f0>m1': a PERMUTE cell is a local copy 'm<a>>m<b>' (or "
            "with m^) or idle '.>.'");
  EXPECT_EQ(errorOf(kHeader + "table *\nP m1>p .>.\nE\nend\n"),
            "bad.hct:10: 'P' channel 0 'm1>p': a PERMUTE cell is a local copy 'm<a>>m<b>' (or "
            "with m^) or idle '.>.'");
  EXPECT_EQ(errorOf(kHeader + "table *\nP .>m2 .>.\nE\nend\n"),
            "bad.hct:10: 'P' channel 0 '.>m2': a PERMUTE cell is a local copy 'm<a>>m<b>' (or "
            "with m^) or idle '.>.'");
  EXPECT_EQ(errorOf(kHeader + "table *\nX .>. .>.\nP m^3>. .>.\nE\nend\n"),
            "bad.hct:11: 'P' channel 0 'm^3>.': a PERMUTE cell is a local copy 'm<a>>m<b>' (or "
            "with m^) or idle '.>.'");
  EXPECT_EQ(errorOf(kHeader + "table *\nP m1>m0\nE\nend\n"),
            "bad.hct:10: 'P' has 1 channels, dim 2 x lanes 1 needs 2");
  EXPECT_EQ(errorOf(kHeader + "table *\nP m1>m0 m2>m^4\nE\nend\n"),
            "bad.hct: shared table, instruction 0, port 1 lane 0: receive slot 4^node is out of "
            "range (memory has 4 slots)");
}

TEST(TableText, TablesForTheWrongCubeAreRejected) {
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm aapc n=3 m=1\ndim 2\nslots 4\nscratch 0\n"
                    "lanes 1\nports all\ntable *\nE\nend\n"),
            "bad.hct:9: permutation 'aapc n=3 m=1' does not match dim 2 and slots 4");
}

// Probes: numbers that would wrap modulo 2^32, fields that do not belong to the kind,
// repeated fields, an algo name that is not UTF-8 and a table without instructions are each an
// error naming the file and line.
TEST(TableText, PermNumbersAreNotCutTo32Bits) {
  const std::string tail = "dim 3\nslots 8\nscratch 0\nlanes 1\nports all\ntable *\nE\nend\n";
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm aapc n=4294967299 m=1\n" + tail),
            "bad.hct:3: perm n=4294967299: out of range (0..64)");
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm dim n=3 k=4294967296 delta=0,1,2\n" + tail),
            "bad.hct:3: perm k=4294967296: out of range (0..64)");
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm dim n=3 k=0 delta=0,4294967297,2\n" + tail),
            "bad.hct:3: perm delta= entry '4294967297': out of range (0..127)");
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm aapc n=3 m=99999999999999999999\n" + tail),
            "bad.hct:3: perm m=99999999999999999999: out of range (0..4294967296)");
}

TEST(TableText, PermFieldsMustBelongToTheKindAndAppearOnce) {
  const std::string tail = "dim 3\nslots 8\nscratch 0\nlanes 1\nports all\ntable *\nE\nend\n";
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm aapc n=3 m=1 delta=2,1,0 rows=7 k=9\n" + tail),
            "bad.hct:3: perm: field 'delta' does not belong to a 'aapc' permutation (it takes n=, "
            "m=)");
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm dim n=3 k=0 delta=0,1,2 m=2\n" + tail),
            "bad.hct:3: perm: field 'm' does not belong to a 'dim' permutation (it takes n=, k=, "
            "delta=)");
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\nperm aapc n=5 n=3 m=1\n" + tail),
            "bad.hct:3: perm: field 'n' given twice");
  // scatter and gather take n, m, l and root.
  std::istringstream ok("hcube-table 1\nalgo t\nperm scatter n=3 m=1 l=0 root=5\n" + tail);
  EXPECT_EQ(readTableText(ok, "ok.hct").header.perm.str(), "scatter n=3 m=1 l=0 root=5");
}

TEST(TableText, AlgoNameMustBeUtf8) {
  const std::string rest =
      "perm aapc n=2 m=1\ndim 2\nslots 4\nscratch 0\nlanes 1\nports all\ntable *\nE\nend\n";
  EXPECT_EQ(errorOf("hcube-table 1\nalgo t\xff\n" + rest),
            "bad.hct:2: algo name is not UTF-8 text");
  EXPECT_EQ(errorOf("hcube-table 1\nalgo \xc0\xaf\n" + rest),  // an overlong '/'
            "bad.hct:2: algo name is not UTF-8 text");
  std::istringstream ok("hcube-table 1\nalgo d\xc3\xa9j\xc3\xa0\n" + rest);
  EXPECT_EQ(readTableText(ok, "ok.hct").header.algo, "d\xc3\xa9j\xc3\xa0");
}

TEST(TableText, ATableWithoutInstructionsIsAnError) {
  EXPECT_EQ(errorOf(kHeader + "table *\nend\n"),
            "bad.hct:9: this table has no instructions (a table ends with E; a node with nothing "
            "to do has the table 'E')");
  EXPECT_EQ(errorOf(kHeader + "table 0\nE\ntable 1\ntable 2\nE\ntable 3\nE\nend\n"),
            "bad.hct:11: this table has no instructions (a table ends with E; a node with nothing "
            "to do has the table 'E')");
}

TEST(TableText, SlotsOutOfRangeAreRejected) {
  EXPECT_EQ(errorOf(kHeader + "table *\nX m4>m1 .>.\nE\nend\n"),
            "bad.hct: shared table, instruction 0, port 0 lane 0: send slot 4 is out of range "
            "(memory has 4 slots)");
  // A relative slot can become slot | (2^n - 1): 4 ^ node reaches 7.
  EXPECT_EQ(errorOf(kHeader + "table *\nX .>. .>m^4\nE\nend\n"),
            "bad.hct: shared table, instruction 0, port 1 lane 0: receive slot 4^node is out of "
            "range (memory has 4 slots)");
  EXPECT_EQ(errorOf(kHeader + "table *\nX f2>. .>.\nE\nend\n"),
            "bad.hct: shared table, instruction 0, port 0 lane 0: forwards from channel 2, which "
            "does not exist (2 channels)");
}

}  // namespace
}  // namespace hcube

// hcube tests: schedule files (.hcs, docs/schedule-format.md, sw/algorithms/schedule_file.h) —
// round trips of the whole catalogue through `hcube schedule` and `hcube compile`, Edelman 1991's
// Tables i-iii written by hand from the paper, bad files refused with file and line, and run /
// compare
// --schedule.
#include "algorithms/schedule_file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "cli_fixture.h"
#include "tables/table_text.h"

namespace hcube {
namespace {

using test::tool;

std::string tablesText(const TableSet& set) {
  std::ostringstream out;
  writeTableText(out, set);
  return out.str();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The cases of the round trip: every catalogue algorithm at a small n, with the parameters it
// needs; the options beyond the defaults give the forms their lanes, one-port steps, start-ups.
struct RoundTripCase {
  std::string algo;
  int n;
  std::map<std::string, std::string> params;
  int lanes = 1;
  bool one_port = false;
};

std::vector<RoundTripCase> roundTripCases() {
  return {
      {"edelman", 3, {}},
      {"edelman", 5, {}},
      {"jh1", 4, {}},
      {"jh2", 4, {}},
      {"jh3", 3, {}},
      {"jh4", 4, {}},
      {"jh4", 4, {{"blocking", "on"}, {"tau", "5"}}},
      {"jh4", 4, {}, 2},
      {"exchange", 3, {}, 1, true},
      {"exchange", 3, {{"tau", "3"}, {"packet", "2"}}, 1, true},
      {"sbnt", 3, {}},
      {"sbnt", 3, {{"schedule", "greedy"}}},
      {"bit-reversal", 3, {}},
      {"k-shuffle", 3, {}},
      {"dimperm", 2, {{"delta", "2,3,0,1"}}},
      {"one-to-all", 3, {}},
      {"all-to-one", 3, {}},
      {"some-to-all", 3, {{"l", "1"}}},
      {"all-to-some", 3, {{"l", "1"}}},
      {"spt", 4, {}},
      {"dpt", 4, {}},
      {"mpt", 4, {}},
      {"jh4-pipelined", 4, {{"axes", "2"}}},
      {"jh5", 4, {{"axes", "2"}}},
      {"transpose-1d", 3, {}},
      {"storage-convert", 3, {}},
      {"transpose-gray", 4, {}},
      {"transpose-gray-separate", 4, {}},
      {"transpose-assign1", 4, {}},
      {"transpose-assign2", 4, {}},
      {"transpose-assign3", 4, {}},
      {"sdp", 3, {}},
      {"sdp", 3, {{"method", "a3"}}},
      {"broadcast-all", 3, {}},
      {"reduce-all", 3, {}},
      {"broadcast-one", 3, {}},
      {"reduce-one", 3, {}},
      {"matmul", 2, {{"method", "cannon"}, {"shape", "4x4x4"}}},
  };
}

// The algorithms whose tables are one compiled abstract schedule; the others must be refused.
const std::set<std::string> kWithForm = {"edelman",
                                         "jh1",
                                         "jh2",
                                         "jh3",
                                         "jh4",
                                         "exchange",
                                         "sbnt",
                                         "bit-reversal",
                                         "k-shuffle",
                                         "dimperm",
                                         "one-to-all",
                                         "all-to-one",
                                         "some-to-all",
                                         "all-to-some",
                                         "jh4-pipelined",
                                         "jh5",
                                         "transpose-1d",
                                         "storage-convert",
                                         "transpose-gray",
                                         "transpose-gray-separate",
                                         "transpose-assign1",
                                         "transpose-assign2",
                                         "transpose-assign3",
                                         "sdp"};

TEST(ScheduleFile, RoundTripCoversTheCatalogue) {
  std::set<std::string> covered;
  for (const RoundTripCase& c : roundTripCases()) covered.insert(c.algo);
  for (const AlgorithmInfo& a : algorithmCatalogue()) {
    EXPECT_TRUE(covered.count(a.name)) << a.name << " has no round-trip case";
  }
}

// Every algorithm with an abstract form: case -> schedule file -> read -> compile gives the
// catalogue's tables exactly (as .hct text); every other one is refused, saying why.
TEST(ScheduleFile, RoundTripOfTheCatalogue) {
  for (const RoundTripCase& rc : roundTripCases()) {
    CaseSpec spec;
    spec.algo = rc.algo;
    spec.n = rc.n;
    spec.params = rc.params;
    spec.lanes = rc.lanes;
    spec.one_port = rc.one_port;
    const std::string what = rc.algo + " n=" + std::to_string(rc.n);
    if (kWithForm.count(rc.algo) == 0) {
      try {
        scheduleOfCase(spec);
        ADD_FAILURE() << what << ": written, but expected to be refused";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("has no abstract schedule to write"),
                  std::string::npos)
            << e.what();
      }
      continue;
    }
    CompileOptions options;
    const ScheduleFile s = scheduleOfCase(spec, &options);
    std::ostringstream file;
    writeScheduleFile(file, s);
    std::istringstream in(file.str());
    const ScheduleFile back = readScheduleFile(in, what + ".hcs");
    const BuiltCase built = buildCase(spec);
    EXPECT_EQ(tablesText(compileScheduleFile(back, options)), tablesText(built.tables)) << what;
    // Written again, the file is the same text.
    std::ostringstream again;
    writeScheduleFile(again, back);
    EXPECT_EQ(again.str(), file.str()) << what;
  }
}

class ScheduleCli : public test::ScratchDirTest {};

// The tool's round trip: hcube schedule, hcube compile and hcube tables agree byte for byte.
TEST_F(ScheduleCli, ScheduleCompileEqualsTables) {
  const std::vector<std::vector<std::string>> cases = {
      {"--algo", "edelman", "--n", "4"},
      {"--algo", "jh4", "--n", "4", "--blocking", "on", "--tau", "7"},
      {"--algo", "jh2", "--n", "3", "--width", "2"},
      {"--algo", "exchange", "--n", "3", "--ports", "one"},
      {"--algo", "bit-reversal", "--n", "3"},
      {"--algo", "jh5", "--n", "4", "--axes", "2"},
  };
  int i = 0;
  for (const auto& c : cases) {
    const std::string hcs = (dir_ / ("s" + std::to_string(i) + ".hcs")).string();
    const std::string cat = (dir_ / ("cat" + std::to_string(i))).string();
    const std::string hct = (dir_ / ("t" + std::to_string(i) + ".hct")).string();
    ++i;
    std::vector<std::string> a = {"schedule"};
    a.insert(a.end(), c.begin(), c.end());
    a.insert(a.end(), {"--out", hcs});
    ASSERT_EQ(tool(a).status, 0) << tool(a).output;
    std::vector<std::string> t = {"tables"};
    t.insert(t.end(), c.begin(), c.end());
    t.insert(t.end(), {"--out", cat});
    ASSERT_EQ(tool(t).status, 0);
    // The hardware options again for compile: --width, --ports, --tau.
    std::vector<std::string> k = {"compile", hcs, "--out", hct};
    for (size_t j = 0; j + 1 < c.size(); ++j) {
      if (c[j] == "--width" || c[j] == "--ports" || c[j] == "--tau") {
        k.push_back(c[j]);
        k.push_back(c[j + 1]);
      }
    }
    const ProcessResult r = tool(k);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(slurp(hct), slurp(cat + "/tables.hct")) << c[1];
  }
}

TEST_F(ScheduleCli, RefusesAlgorithmsWithoutAnAbstractForm) {
  const ProcessResult r =
      tool({"schedule", "--algo", "reduce-all", "--n", "3", "--out", (dir_ / "x.hcs").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "hcube: error: algorithm 'reduce-all' has no abstract schedule to write: its tables "
            "are built instruction by instruction (combining receives, which a move does not "
            "add), not lowered from a relative, slot or move schedule\n");
  const ProcessResult spt =
      tool({"schedule", "--algo", "spt", "--n", "4", "--out", (dir_ / "y.hcs").string()});
  EXPECT_EQ(spt.status, 2);
  EXPECT_NE(spt.output.find("its tables are built instruction by instruction"), std::string::npos)
      << spt.output;
}

TEST_F(ScheduleCli, HelpListsTheCommands) {
  const ProcessResult r = tool({"--help"});
  EXPECT_NE(r.output.find("hcube schedule --algo A --n N"), std::string::npos);
  EXPECT_NE(r.output.find("hcube compile F.hcs"), std::string::npos);
  EXPECT_NE(r.output.find("--schedule F.hcs"), std::string::npos);
}

// Edelman 1991, Tables i, ii and iii, copied by hand from the paper (tests/schedules/): each
// compiles to the catalogue's edelman tables and runs in K/2 cycles, the bound of Theorem 3.1.
TEST_F(ScheduleCli, EdelmanTablesFromThePaper) {
  const std::vector<std::pair<std::string, int>> tables = {{"i", 3}, {"ii", 4}, {"iii", 5}};
  for (const auto& [name, n] : tables) {
    const std::string hcs = std::string(HCUBE_SCHEDULES_DIR) + "/edelman-table-" + name + ".hcs";
    const std::string hct = (dir_ / (name + ".hct")).string();
    const std::string cat = (dir_ / ("cat-" + name)).string();
    ASSERT_EQ(tool({"compile", hcs, "--out", hct}).status, 0);
    ASSERT_EQ(tool({"tables", "--algo", "edelman", "--n", std::to_string(n), "--out", cat}).status,
              0);
    EXPECT_EQ(slurp(hct), slurp(cat + "/tables.hct")) << "Table " << name;
    const std::string k2 = std::to_string((1 << n) / 2);
    const ProcessResult run = tool({"run", "--schedule", hcs});
    EXPECT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("  cycles           " + k2 + " (start to last done)"),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("  lower bound      " + k2 + " (K/2, Edelman 1991 Theorem 3.1)"),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("verdict          PASS"), std::string::npos);
    const ProcessResult cmp = tool({"compare", "--schedule", hcs, "--backends", "table,tlm"});
    EXPECT_EQ(cmp.status, 0) << cmp.output;
    EXPECT_NE(cmp.output.find("verdict: AGREE"), std::string::npos) << cmp.output;
  }
}

TEST_F(ScheduleCli, RunScheduleWithHardwareOptions) {
  const std::string hcs = (dir_ / "jh4.hcs").string();
  ASSERT_EQ(
      tool({"schedule", "--algo", "jh4", "--n", "3", "--blocking", "on", "--out", hcs}).status, 0);
  const ProcessResult r = tool({"run", "--schedule", hcs, "--tau", "10", "--json"});
  EXPECT_EQ(r.status, 0) << r.output;
  // K/2 = 4 transfer steps plus n = 3 block start-ups of 10 cycles (Johnsson & Ho 1992 §5).
  EXPECT_NE(r.output.find("\"cycles\":34"), std::string::npos) << r.output;
  const ProcessResult bad = tool({"run", "--schedule", hcs, "--algo", "jh4"});
  EXPECT_EQ(bad.status, 2);
  const ProcessResult k = tool({"run", "--schedule", hcs, "--k", "16"});
  EXPECT_EQ(k.status, 2);
  EXPECT_EQ(k.output,
            "hcube: error: --schedule cannot be combined with --k (the schedule file fixes the "
            "algorithm and the case; --width, --ports and --tau choose the hardware)\n");
  const ProcessResult n = tool({"run", "--schedule", hcs, "--n", "4"});
  EXPECT_EQ(n.status, 2);
  EXPECT_EQ(n.output, "hcube: error: " + hcs + ": the schedule is for n = 3, not --n 4\n");
}

// The paper's Table i, as a schedule file, on the three executors: the same cycles (K/2 = 4) and
// no mismatch on the RTL either.
TEST_F(ScheduleCli, EdelmanTableIOnTheRtl) {
  const std::string hcs = std::string(HCUBE_SCHEDULES_DIR) + "/edelman-table-i.hcs";
  const ProcessResult cmp =
      tool({"compare", "--schedule", hcs, "--backends", "table,tlm,rtl", "--json"});
  EXPECT_EQ(cmp.status, 0) << cmp.output;
  EXPECT_NE(cmp.output.find("\"agree\":true"), std::string::npos) << cmp.output;
  const ProcessResult run = tool({"run", "--schedule", hcs, "--backend", "rtl"});
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("  cycles           4 (start to last done)"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("verdict          PASS"), std::string::npos) << run.output;
}

// --tau applies to block transfers; the relative and moves forms have none, so it is refused.
TEST_F(ScheduleCli, TauIsRefusedWhereThereAreNoBlockTransfers) {
  const std::string hcs = std::string(HCUBE_SCHEDULES_DIR) + "/edelman-table-i.hcs";
  const ProcessResult r = tool({"compile", hcs, "--tau", "3", "--out", (dir_ / "t.hct").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: " + hcs +
                          ": compile: --tau 3: the relative form sends single words, it has no "
                          "block transfers to start (the slots form has)\n");
}

// A bad schedule file: exit 2 and the message, with file and line.
struct BadFile {
  const char* name;
  const char* text;
  const char* message;  ///< after "hcube: error: FILE:"
};

const char* kHeader3 =
    "hcube-schedule 1\n"
    "algo mine\n"
    "n 3\n"
    "form relative\n"
    "perm aapc n=3 m=1\n";

std::string edelman3Body() {
  return "step 0b011 0b110 0b100\n"
         "step 0b001 0b111 0b110\n"
         "step 0b111 0b010 0b101\n"
         "step 0b101 0b011 0b111\n"
         "end\n";
}

const char* kMovesHeader =
    "hcube-schedule 1\n"
    "algo mine\n"
    "n 1\n"
    "form moves\n"
    "perm aapc n=1 m=1\n";

std::vector<BadFile> badFiles() {
  static const std::string h = kHeader3;
  static const std::string body = edelman3Body();
  static const std::string m = kMovesHeader;
  static std::vector<std::string> texts = {
      /*0*/ "hcube-table 1\n",
      /*1*/ "hcube-schedule 1\nalgo mine\nn 3\nform diagonal\n",
      /*2*/ "hcube-schedule 1\nalgo mine\nn 3\nn 3\n",
      /*3*/ "hcube-schedule 1\nalgo mine\nn x3\n",
      /*4*/ "hcube-schedule 1\nalgo mine\nn 3\nform relative\nperm aapc n=4 m=1\n" + body,
      /*5*/ h +
          "step 0b011 0b110 0b100\nstep 0b001 0b111 0b110\nstep 0b111 0b010 0b101\n"
          "step 0b101 0b011 0b1111\nend\n",
      /*6*/ h +
          "step 0b011 0b110 0b100\nstep 0b001 0b111 0b110\nstep 0b111 0b010 0b101\n"
          "end\n",
      /*7*/ h + "step 0b011 0b110\n",
      /*8*/ h + "step 0b011 0b110 0b110\n",
      /*9*/ h + "step 0b010 0b110 0b100\n",
      /*10*/ m + "step\nmove 0 0 0 0\nmove 0 1 0 1\nend\n",
      /*11*/ m + "step\nmove 0 1 0 1\nmove 2 0 0 0\nend\n",
      /*12*/ m + "step\nmove 0 1 1 1\nend\n",
      /*13*/ m + "step\nmove 0 1 0 2\nend\n",
      /*14*/ m + "lanes 2\nstep\nmove 0 0 0 1\nmove 0 1 0 1\nend\n",
      /*15*/ m + "step\nmove 0 1 0 1\ncopy 1 0 1\nend\n",
      /*16*/ m + "move 0 1 0 1\n",
      /*17*/ h + "lanes 2\n" + body,
      /*18*/ h + "step 0b011 0b110 0bx\n",
      /*19*/ h + body + "step\n",
      /*20*/ h + "widths 3\n",
      /*21*/ "hcube-schedule 1\nalgo mine\nn 1\nform slots\nperm dim n=1 k=1 delta=1,0\nend\n",
      /*22*/
      "hcube-schedule 1\nalgo mi\xff"
      "ne\n",
      /*23*/ "hcube-schedule 1\nalgo mine\nn 1\nform slots\nperm aapc n=1 m=1\nstep 2\nend\n",
      /*24*/ m + "step\nmove 0 1 0 1\nmove 1 1 0 0\nend\n",
      /*25*/ h,
      /*26*/ h + "step 0b011 0b110 0b100\n",
      /*27*/ "hcube-schedule 1\nalgo big\nn 20\nform moves\nperm aapc n=20 m=1\nstep\nend\n",
  };
  return {
      {"wrong magic", texts[0].c_str(), "1: expected 'hcube-schedule 1'"},
      {"unknown form", texts[1].c_str(),
       "4: unknown form 'diagonal' (expected relative, slots or moves)"},
      {"repeated header field", texts[2].c_str(),
       "4: header field 'n' given twice (first on line 3)"},
      {"malformed number", texts[3].c_str(), "3: n 'x3' is not a non-negative integer"},
      {"schedule for the wrong n", texts[4].c_str(),
       "5: the schedule is for n = 3, the permutation 'aapc n=4 m=1' for n = 4"},
      {"relative address too wide", texts[5].c_str(),
       "9: step 3, dimension 2: relative address 0b1111 has more than n = 3 bits"},
      {"element that never arrives", texts[6].c_str(),
       "9: element (0|3) never arrives at (3|0), where 'aapc n=3 m=1' sends it: after the last "
       "step it is in node 1 slot 2"},
      {"step with too few entries", texts[7].c_str(),
       "6: step 0 has 2 entries; the relative form has one per dimension (n = 3)"},
      {"one word on two links", texts[8].c_str(),
       "6: step 0, dimension 2: relative address 0b110 also crosses dimension 1 in this step "
       "(Theorem 3.2, row uniqueness: a word crosses one link per step)"},
      {"word that does not cross its dimension", texts[9].c_str(),
       "6: step 0, dimension 0: relative address 0b010 has bit 0 clear, so its word does not "
       "cross dimension 0 (Edelman 1991 Theorem 3.2, wire appropriateness)"},
      {"two words on one lane", texts[10].c_str(),
       "8: step 0, node 0, dimension 0: slots 0 and 1 both cross this link in the step, a "
       "second word on lane 0 (lanes 1)"},
      {"node out of range", texts[11].c_str(), "8: step 0: node 2 is not on a 1-cube (0..1)"},
      {"dimension out of range", texts[12].c_str(),
       "7: step 0, node 0: dimension 1 is not on a 1-cube (0..0)"},
      {"slot out of range", texts[13].c_str(),
       "7: step 0, node 0, dimension 0: slot 2 is out of range (the 2 slots 0..1 of a node)"},
      {"two words into one slot", texts[14].c_str(),
       "9: step 0, node 0, dimension 0: slot 1 of node 1 is written twice in the step (first "
       "on line 8)"},
      {"step mixing moves and copies", texts[15].c_str(),
       "8: step 0, node 1: the step mixes link moves and local copies (a step is either a "
       "transfer or a PERMUTE)"},
      {"move before any step", texts[16].c_str(), "6: 'move' before the first 'step'"},
      {"lanes in the relative form", texts[17].c_str(),
       "6: the relative form has one word per dimension and step (lanes 1)"},
      {"malformed binary entry", texts[18].c_str(),
       "6: step 0, dimension 2 '0bx' is not a number (decimal, or binary as 0b0110)"},
      {"text after end", texts[19].c_str(), "11: text after 'end'"},
      {"unknown header field", texts[20].c_str(),
       "6: unknown header field 'widths' (expected algo, n, form, perm, lanes, scratch, or the "
       "first step)"},
      {"homogeneous form for another permutation", texts[21].c_str(),
       "5: the slots form is a homogeneous AAPC schedule (Johnsson & Ho 1992 section 2.1); the "
       "permutation must be 'aapc', not 'dim n=1 k=1 delta=1,0'"},
      {"algo name not UTF-8", texts[22].c_str(), "2: algo name is not UTF-8 text"},
      {"slot out of range, slots form", texts[23].c_str(),
       "6: step 0, dimension 0 lane 0: slot 2 is out of range (the 2 slots 0..1)"},
      {"element that never arrives, moves form", texts[24].c_str(),
       "9: element (0|0) never arrives at (0|0), where 'aapc n=1 m=1' sends it: after the last "
       "step it is in no slot (overwritten)"},
      {"no steps", texts[25].c_str(), "5: unexpected end of input in the header"},
      {"missing end", texts[26].c_str(), "6: unexpected end of input: missing 'end'"},
      {"cube too large to check", texts[27].c_str(),
       "5: 'aapc n=20 m=1' on 1048576 nodes x 1048576 words is more than the 268435456 words of "
       "cube memory this tool simulates"},
  };
}

TEST_F(ScheduleCli, BadFilesNameFileAndLine) {
  ASSERT_GE(badFiles().size(), 10U);
  int i = 0;
  for (const BadFile& b : badFiles()) {
    const std::string path = write("bad" + std::to_string(i++) + ".hcs", b.text);
    const ProcessResult r = tool({"compile", path, "--out", (dir_ / "x.hct").string()});
    EXPECT_EQ(r.status, 2) << b.name;
    EXPECT_EQ(r.output, "hcube: error: " + path + ":" + b.message + "\n") << b.name;
  }
}

}  // namespace
}  // namespace hcube

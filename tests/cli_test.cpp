// The hcube tool on good and bad input: exit status and the message a user sees.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>

#include "algorithms/algorithms.h"
#include "base/error.h"
#include "cli_commands.h"
#include "cli_fixture.h"
#include "hc_tlm_run.h"
#include "inspect/report.h"
#include "process.h"
#include "rtl_backend.h"
#include "tables/table_image.h"
#include "tables/table_text.h"

namespace hcube {
namespace {

namespace fs = std::filesystem;

using Outcome = ProcessResult;
using test::tool;

class Cli : public test::ScratchDirTest {};

const std::string kHeader3 =
    "hcube-table 1\nalgo t\nperm aapc n=3 m=1\ndim 3\nslots 8\nscratch 0\nlanes 1\nports all\n";

TEST_F(Cli, ListShowsEveryAlgorithmWithItsSource) {
  const Outcome o = tool({"list"});
  EXPECT_EQ(o.status, 0);
  EXPECT_NE(o.output.find("edelman"), std::string::npos);
  EXPECT_NE(o.output.find("Edelman 1991, Theorem 3.2"), std::string::npos);
}

TEST_F(Cli, RunJsonReportsTheMeasuredCase) {
  const Outcome o = tool({"run", "--algo", "edelman", "--n", "4", "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
  for (const char* field :
       {"\"algo\":\"edelman\"", "\"n\":4", "\"K\":16", "\"backend\":\"table\"", "\"cycles\":8",
        "\"transfer_cycles\":8", "\"lower_bound\":8", "\"ratio\":1.0", "\"span\":7",
        "\"elements\":256", "\"mismatches\":0", "\"verdict\":\"pass\""}) {
    EXPECT_NE(o.output.find(field), std::string::npos) << field << " in " << o.output;
  }
}

TEST_F(Cli, TablesWrittenThenVerifiedAndRunFromFile) {
  const std::string out = (dir_ / "t").string();
  EXPECT_EQ(tool({"tables", "--algo", "edelman", "--n", "3", "--out", out}).status, 0);
  const Outcome v = tool({"verify", out});
  EXPECT_EQ(v.status, 0) << v.output;
  EXPECT_NE(v.output.find("OK (4 cycles"), std::string::npos) << v.output;
  const Outcome r = tool({"run", "--tables", out, "--json"});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"mismatches\":0"), std::string::npos) << r.output;
}

TEST_F(Cli, UnknownAlgorithmIsAnError) {
  const Outcome o = tool({"run", "--algo", "quicksort", "--n", "3"});
  EXPECT_EQ(o.status, 2);
  // The message lists the whole catalogue, in listing order.
  std::string known;
  for (const AlgorithmInfo& a : algorithmCatalogue()) known += (known.empty() ? "" : ", ") + a.name;
  EXPECT_EQ(o.output,
            "hcube: error: --algo 'quicksort': unknown algorithm (known: " + known + ")\n");
  EXPECT_NE(known.find("edelman, jh1, jh2, jh3, jh4"), std::string::npos);
}

// A case inside the cube limits whose tables do not fit the memory the process may use: a clear
// error (exit 2), not a crash or an "internal error". The address-space limit (256 MiB, set by
// the shell) stands in for a machine too small for n = 12, K = 256 (about 570 MB), a case the
// estimate made before building accepts.
TEST_F(Cli, CaseTooBigForMemoryIsAnError) {
  const ProcessResult r =
      runProcess({"/bin/sh", "-c",
                  "ulimit -v 262144 && exec \"$0\" run --algo jh4-pipelined --n 12 --axes 2 --k "
                  "256",
                  HCUBE_TOOL});
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("out of memory building or running this case"), std::string::npos)
      << r.output;
}

// A campaign's size is checked before the case is built or any fault drawn: refused at once
// with the option named, under an address-space limit far below what N faults would hold.
TEST_F(Cli, CampaignTooLargeIsRefusedBeforeAllocating) {
  const ProcessResult r = runProcess(
      {"/bin/sh", "-c",
       "ulimit -v 204800 && exec \"$0\" faults --campaign 99999999999 --algo edelman --n 2",
       HCUBE_TOOL});
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output,
            "hcube: error: --campaign 99999999999: a campaign runs at most 1000000 faults (each is "
            "a run of the case)\n");
}

TEST_F(Cli, ImpossibleNAndKAreErrors) {
  Outcome o = tool({"run", "--algo", "edelman", "--n", "0"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --n 0: must be 1..20\n");
  o = tool({"run", "--algo", "edelman", "--n", "3", "--k", "12"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: --k 12: an AAPC on 8 nodes needs K = m * 2^n elements per node (a "
            "multiple of 8)\n");
  o = tool({"run", "--algo", "edelman", "--n", "13", "--backend", "rtl"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: RTL backend: n = 13 is beyond the RTL cube's supported 1..12 (use "
            "--backend table)\n");
  o = tool({"run", "--algo", "edelman", "--n", "three"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --n 'three' is not an integer\n");
  o = tool({"run", "--algo", "edelman", "--n", "3", "--frobnicate", "1"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --frobnicate: algorithm 'edelman' takes no such option\n");
  o = tool({"verify", "x.hct", "--frobnicate", "1"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: unknown option --frobnicate for this command (see hcube --help)\n");
}

TEST_F(Cli, MalformedTableFileNamesFileAndLine) {
  const std::string bad = write("bad.hct", kHeader3 + "table *\nX m^3>m^3 m^6>m^6\nE\nend\n");
  const Outcome o = tool({"verify", bad});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: " + bad + ":10: 'X' has 2 channels, dim 3 x lanes 1 needs 3\n");
}

TEST_F(Cli, TruncatedTableFileIsAnError) {
  const std::string bad = write("cut.hct", kHeader3 + "table *\nX m^3>m^3 m^6>m^6 m^4>m^4\n");
  const Outcome o = tool({"verify", bad});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + bad + ":10: unexpected end of input: missing 'end'\n");
}

TEST_F(Cli, TableForTheWrongNIsAnError) {
  const std::string out = (dir_ / "t3").string();
  ASSERT_EQ(tool({"tables", "--algo", "edelman", "--n", "3", "--out", out}).status, 0);
  const Outcome o = tool({"run", "--tables", out, "--n", "4"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + out + ": the tables are for n = 3, not --n 4\n");
}

TEST_F(Cli, SlotOutOfRangeIsAnError) {
  const std::string bad = write("slot.hct", kHeader3 + "table *\nX m9>m1 .>. .>.\nE\nend\n");
  const Outcome o = tool({"verify", bad});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + bad +
                          ": shared table, instruction 0, port 0 lane 0: send slot 9 is out of "
                          "range (memory has 8 slots)\n");
}

TEST_F(Cli, ConflictingTableIsRejectedBeforeItRuns) {
  // Ports 0 and 1 both write relative slot 3 in cycle 0.
  const std::string bad =
      write("conflict.hct", kHeader3 +
                                "table *\nX m^3>m^3 m^6>m^3 m^4>m^4\nX m^1>m^1 m^7>m^7 m^6>m^6\n"
                                "X m^7>m^7 m^2>m^2 m^5>m^5\nX m^5>m^5 m^3>m^3 m^7>m^7\nE\nend\n");
  Outcome o = tool({"verify", bad});
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("cycle 0, node 0, port 1, lane 0, slot 3: a second word is written into "
                          "this slot in the same cycle"),
            std::string::npos)
      << o.output;
  o = tool({"run", "--tables", bad});
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("not running tables that fail verification"), std::string::npos);
}

TEST_F(Cli, MissingFileIsAnError) {
  const Outcome o = tool({"verify", (dir_ / "nothing.hct").string()});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: " + (dir_ / "nothing.hct").string() + ": cannot open for reading\n");
}

TEST_F(Cli, GrayCodeAapcWithExplicitAlignmentRuns) {
  // Johnsson & Ho 1992 §2.2.2 on a 4-cube: 8 exchange cycles (K/2) and 10 PERMUTE cycles for the
  // two alignment phases with the Gray code folded in.
  Outcome o =
      tool({"run", "--algo", "jh4", "--n", "4", "--alignment", "explicit", "--code", "gray"});
  EXPECT_EQ(o.status, 0) << o.output;
  for (const char* line :
       {"cycles           18 (start to last done)", "transfer cycles  8\n",
        "local-phase cycles 10 (PERMUTE, local memory only)", "span             4 ",
        "elements         256 of 256 where the reference model says (0 mismatches)",
        "verdict          PASS"}) {
    EXPECT_NE(o.output.find(line), std::string::npos) << line << " in " << o.output;
  }
  o = tool(
      {"run", "--algo", "jh4", "--n", "4", "--alignment", "explicit", "--code", "gray", "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
  for (const char* field : {"\"cycles\":18", "\"transfer_cycles\":8", "\"local_cycles\":10",
                            "\"perm\":\"linear n=4 k=4 rows=48,96,192,128,3,6,12,8\"",
                            "\"mismatches\":0", "\"verdict\":\"pass\""}) {
    EXPECT_NE(o.output.find(field), std::string::npos) << field << " in " << o.output;
  }
}

TEST_F(Cli, ExplicitAlignmentTablesVerifyAndRunFromFile) {
  const std::string out = (dir_ / "t").string();
  Outcome o =
      tool({"tables", "--algo", "edelman", "--n", "3", "--alignment", "explicit", "--out", out});
  EXPECT_EQ(o.status, 0) << o.output;
  std::ifstream text(out + "/tables.hct");
  const std::string hct((std::istreambuf_iterator<char>(text)), std::istreambuf_iterator<char>());
  // Node 1's pre-alignment: slot pairs (s, s ^ 1), one swap and one scratch-chain copy per cycle.
  EXPECT_NE(hct.find("table 1\nP m0>m1 m1>m0 m3>m8\nP m4>m5 m5>m4 m2>m3\nP m6>m7 m7>m6 m8>m2\n"),
            std::string::npos)
      << hct;
  o = tool({"verify", out});
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("OK (10 cycles"), std::string::npos) << o.output;
  o = tool({"run", "--tables", out, "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("\"local_cycles\":6"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("\"mismatches\":0"), std::string::npos) << o.output;
}

TEST_F(Cli, AlignmentOptionsOnTheWrongAlgorithmOrCodeAreErrors) {
  Outcome o = tool({"run", "--algo", "jh4", "--n", "3", "--code", "gray"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: --code gray: needs --alignment explicit (the Gray-code conversion is "
            "folded into the local alignment phases, Johnsson & Ho 1992 section 2.2.2)\n");
  o = tool({"run", "--algo", "bit-reversal", "--n", "3", "--alignment", "explicit"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("hcube: error: --alignment: algorithm 'bit-reversal' is not a "
                          "relative-address AAPC"),
            std::string::npos)
      << o.output;
}

// Options the parser cannot place are errors, never silently ignored.
TEST_F(Cli, SingleDashOptionsAndStrayWordsAreErrors) {
  Outcome o = tool({"run", "--algo", "jh4", "--n", "3", "-backend", "rtl"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: '-backend': options start with two dashes (--backend)\n");
  const std::string out = (dir_ / "d").string();
  o = tool({"tables", "--algo", "jh4", "--n", "3", "--out", out, "extra", "words"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: unexpected word 'extra' (see hcube --help)\n");
  EXPECT_FALSE(fs::exists(out));
  o = tool({"verify", "a.hct", "b.hct"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: unexpected word 'b.hct' (see hcube --help)\n");
}

TEST_F(Cli, RepeatedOptionIsAnError) {
  Outcome o = tool({"run", "--algo", "edelman", "--n", "3", "--n", "4"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --n given twice\n");
  o = tool({"run", "--algo", "edelman", "--n", "3", "--json", "--json"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --json given twice\n");
}

// Options with a fixed set of values, and comma lists, are checked by the option parser from
// their description (sim/cli_commands.cpp), the same way for every command.
TEST_F(Cli, ChoicesAndListsAreCheckedWhereTheOptionIsDescribed) {
  Outcome o = tool({"run", "--algo", "edelman", "--n", "3", "--backend", "gpu"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --backend 'gpu': must be table, tlm or rtl\n");
  o = tool({"tables", "--algo", "edelman", "--n", "3", "--ports", "two", "--out", "x"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --ports 'two': must be all or one\n");
  o = tool({"run", "--algo", "edelman", "--n", "3", "--backend", "rtl", "--rtl-model", "wide"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --rtl-model 'wide': must be array or flat\n");
  o = tool({"compare", "--algo", "edelman", "--n", "3", "--backends", "table,fpga"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --backends: 'fpga' is not table, tlm or rtl\n");
  o = tool({"compare", "--algo", "edelman", "--n", "3", "--backends", "table,tlm,table"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --backends: 'table' given twice\n");
  o = tool({"compare", "--algo", "edelman", "--n", "3", "--backends=table", "--backends", "tlm"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --backends given twice\n");
  o = tool({"compare", "--algo", "edelman", "--n", "3", "--backends", ","});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --backends needs a value\n");
  o = tool({"compare", "--algo", "edelman", "--n", "3", "--modes", "schedule,xy"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: route 'xy': must be ecube, source or adaptive\n");
  // A list given well runs: the two backends compared agree.
  o = tool({"compare", "--algo", "edelman", "--n", "3", "--backends", "table,tlm", "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
}

TEST_F(Cli, NegativeAndEqualsFormsParse) {
  Outcome o = tool({"run", "--algo", "edelman", "--n", "-1"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --n -1: must be 1..20\n");
  o = tool({"run", "--algo=edelman", "--n=3", "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("\"n\":3"), std::string::npos) << o.output;
  o = tool({"run", "--algo", "edelman", "--n=", "--json"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --n needs a value\n");
  // An algorithm's own parameter (not declared by the command) follows the same rules.
  o = tool({"run", "--algo", "edelman", "--n", "3", "--tau"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --tau needs a value\n");
  o = tool({"run", "--algo", "edelman", "--n", "3", "--tau", "1", "--tau=2"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --tau given twice\n");
  o = tool({"run", "--algo", "edelman", "--n", "3", "--trace", "--json"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --trace needs a value\n");
  o = tool({"run", "--algo", "edelman", "--n", "--json"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --n needs a value\n");
  o = tool({"run", "--algo", "edelman", "--n", "3", "--json=yes"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: option --json takes no value ('--json=yes')\n");
}

TEST_F(Cli, TablesCannotBeCombinedWithCaseOptions) {
  const std::string out = (dir_ / "t3").string();
  ASSERT_EQ(tool({"tables", "--algo", "edelman", "--n", "3", "--out", out}).status, 0);
  Outcome o = tool({"run", "--algo", "edelman", "--tables", out});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: --tables cannot be combined with --algo (the tables fix the algorithm "
            "and the case)\n");
  o = tool({"run", "--tables", out, "--k", "16"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: --tables cannot be combined with --k (the tables fix the algorithm and "
            "the case)\n");
  o = tool({"compare", "--tables", out, "--tau", "3"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: --tables cannot be combined with --tau (the tables fix the algorithm "
            "and the case)\n");
  o = tool({"run", "--tables", out, "--n", "-5"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: --n -5: must be 1..20\n");
  o = tool({"run", "--tables", out, "--n", "3"});
  EXPECT_EQ(o.status, 0) << o.output;
}

TEST_F(Cli, MatrixTooLargeSaysSo) {
  const Outcome o =
      tool({"run", "--algo", "transpose-1d", "--n", "2", "--matrix", "4294967296x4294967296"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: --matrix '4294967296x4294967296': too large, at most 2^30 rows and "
            "columns\n");
}

TEST_F(Cli, TraceFileErrorsAreTheSameOnEveryBackend) {
  for (const char* backend : {"rtl", "tlm"}) {
    Outcome o = tool({"run", "--algo", "edelman", "--n", "2", "--backend", backend, "--trace",
                      (dir_ / "nodir" / "t.vcd").string()});
    EXPECT_EQ(o.status, 2) << backend;
    EXPECT_EQ(o.output, "hcube: error: --trace " + (dir_ / "nodir" / "t.vcd").string() +
                            ": directory '" + (dir_ / "nodir").string() + "' does not exist\n")
        << backend;
    o = tool({"run", "--algo", "edelman", "--n", "2", "--backend", backend, "--trace", ""});
    EXPECT_EQ(o.status, 2) << backend;
    EXPECT_EQ(o.output, "hcube: error: --trace '': needs a file name\n") << backend;
    o = tool({"run", "--algo", "edelman", "--n", "2", "--backend", backend, "--trace",
              "/proc/hcube.vcd"});
    EXPECT_EQ(o.status, 2) << backend;
    EXPECT_EQ(o.output, "hcube: error: --trace /proc/hcube.vcd: cannot be written\n") << backend;
  }
}

TEST_F(Cli, HelpOnEveryCommand) {
  Outcome o = tool({"--help"});
  EXPECT_EQ(o.status, 0);
  for (const CommandLine& command : commandLines()) {
    const std::string& cmd = command.name;
    EXPECT_NE(o.output.find("  hcube " + cmd), std::string::npos) << cmd;
    const Outcome c = tool({cmd, "--help"});
    EXPECT_EQ(c.status, 0) << cmd << ": " << c.output;
    EXPECT_EQ(c.output.rfind("usage:\n  hcube " + cmd, 0), 0U) << c.output;
    EXPECT_NE(c.output.find("3 internal error"), std::string::npos) << c.output;
    // Generated from the option description: every option the command takes, with its help.
    for (const std::string& name : command.options) {
      const OptionInfo& info = optionInfo(name);
      EXPECT_NE(c.output.find("  " + name + (info.value.empty() ? "" : " " + info.value)),
                std::string::npos)
          << cmd << " " << name << "\n"
          << c.output;
      EXPECT_NE(c.output.find(info.help), std::string::npos) << cmd << " " << name;
    }
    EXPECT_EQ(c.output.find("\nAlgorithm parameters:\n") != std::string::npos,
              command.algorithm_params)
        << cmd;
  }
  o = tool({"run", "--help"});
  EXPECT_NE(o.output.find("[--backend table|tlm|rtl]"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("  --backend table|tlm|rtl         the executor: C++ table executor, "
                          "SystemC-TLM or RTL\n"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("\nAlgorithm parameters:\n  --PARAM V"), std::string::npos);
  EXPECT_EQ(o.output.find("hcube verify"), std::string::npos) << o.output;
  o = tool({"verify", "--help"});
  EXPECT_EQ(o.output.find("--PARAM"), std::string::npos) << o.output;
}

// The option description is one: every option a command's synopsis names is declared for that
// command (so --help lists it and CLI11 parses it), and every declared option is in the catalogue
// once.
TEST(CliDescription, SynopsesAndDeclarationsAgree) {
  std::set<std::string> seen;
  for (const OptionInfo& o : optionCatalogue()) {
    EXPECT_TRUE(seen.insert(o.name).second) << o.name << " twice in the catalogue";
    EXPECT_EQ(o.name.rfind("--", 0), 0U) << o.name;
    EXPECT_FALSE(o.help.empty()) << o.name;
  }
  for (const CommandLine& c : commandLines()) {
    EXPECT_EQ(findCommandLine(c.name), &c);
    std::set<std::string> declared;
    for (const std::string& name : c.options) {
      EXPECT_NO_THROW(optionInfo(name)) << c.name << " " << name;
      EXPECT_TRUE(declared.insert(name).second) << c.name << " declares " << name << " twice";
    }
    const std::regex option("--[a-z][a-z-]*");
    for (auto it = std::sregex_iterator(c.synopsis.begin(), c.synopsis.end(), option);
         it != std::sregex_iterator(); ++it) {
      const std::string name = it->str();
      // "(e.g. --tau 20)" shows an algorithm's parameter.
      if (it->position() >= 5 && c.synopsis.compare(it->position() - 5, 5, "e.g. ") == 0) continue;
      if (name == "--PARAM") {
        EXPECT_TRUE(c.algorithm_params) << c.name;
        continue;
      }
      EXPECT_EQ(declared.count(name), 1U) << c.name << "'s synopsis names " << name;
    }
  }
  EXPECT_EQ(findCommandLine("frobnicate"), nullptr);
  EXPECT_EQ(kCommandOptions.count("--route"), 0U);  // spt takes --route greedy|sync
  EXPECT_EQ(kCommandOptions.count("--backend"), 1U);
}

// A table set with an empty schedule on a dim-N cube with one slot per node.
std::string emptySchedule(int n, const std::string& extra = "W 1\n", int lines = 0) {
  std::string delta;
  for (int b = 0; b < n; ++b) delta += (b ? "," : "") + std::to_string(b);
  std::string body;
  for (int i = 0; i < lines; ++i) body += extra;
  return "hcube-table 1\nalgo t\nperm dim n=" + std::to_string(n) + " k=0 delta=" + delta +
         "\ndim " + std::to_string(n) + "\nslots 1\nscratch 0\nlanes 1\nports all\ntable *\n" +
         body + "E\nend\n";
}

// Sizes are estimated from the header before anything large is allocated and refused
// with the estimate, the limit and the file and line of the field that decided it.
TEST_F(Cli, VerifierRefusesADim24FileAtOnce) {
  const std::string f = write("d24.hct", emptySchedule(24));
  const Outcome o = tool({"verify", f});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + f +
                          ":4: verification would need about 13.5 GB (2^24 nodes: 403 MB of "
                          "per-node state, 12.9 GB of per-channel state (24 channels), 218 MB of "
                          "memory (1 words)), more than the limit of 4.3 GB\n");
}

TEST_F(Cli, TheLongestWaitVerifiesAtOnce) {
  // A 1-cube exchange, then the longest WAIT the format allows: one step of the verifier.
  const std::string f =
      write("wait.hct",
            "hcube-table 1\nalgo t\nperm aapc n=1 m=1\ndim 1\nslots 2\nscratch 0\nlanes 1\n"
            "ports all\ntable *\nX m^1>m^1\nW 4294967295\nE\nend\n");
  const Outcome o = tool({"verify", f});
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(o.output,
            f + ": OK (4294967296 cycles, every element where the reference model says)\n");
}

TEST_F(Cli, HugeScratchNamesFileAndLine) {
  const std::string f =
      write("scratch.hct",
            "hcube-table 1\nalgo t\nperm aapc n=2 m=1\ndim 2\nslots 4\nscratch 4294967296\n"
            "lanes 1\nports all\ntable *\nE\nend\n");
  const Outcome o = tool({"verify", f});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + f +
                          ":6: verification: 4 nodes x 4294967300 words (slots 4 + scratch "
                          "4294967296) is more than the 268435456 words this tool simulates\n");
}

TEST_F(Cli, VerifierRefusesWhatWouldTakeHours) {
  // 2000 one-cycle waits on a 20-cube: 2000 steps x 2^20 nodes x 20 channels.
  const std::string f = write("slow.hct", emptySchedule(20, "W 1\n", 2000));
  const Outcome o = tool({"verify", f});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + f +
                          ":4: verification would take about 1.2 h, more than the limit of 1.0 "
                          "h\n");
}

TEST_F(Cli, TlmBackendRefusesA16CubeBeforeElaborating) {
  const std::string f = write("d16.hct", emptySchedule(16));
  const Outcome o = tool({"run", "--tables", f, "--backend", "tlm"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + f +
                          ":4: the TLM backend would need about 4.5 GB (2^16 nodes: 3.3 GB of "
                          "per-node state, 1.3 GB of per-channel state (16 channels), 852 KB of "
                          "memory (1 words)), more than the limit of 4.3 GB\n");
}

TEST_F(Cli, RtlLimitsAreCheckedBeforeAnyTablesAreBuilt) {
  // Before the fix: 163 s of schedule building and verification, then the refusal.
  Outcome o = tool({"run", "--algo", "edelman", "--n", "13", "--backend", "rtl"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: RTL backend: n = 13 is beyond the RTL cube's supported 1..12 (use "
            "--backend table)\n");
  o = tool({"compare", "--algo", "edelman", "--n", "13", "--backends", "table,rtl"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: RTL backend: n = 13 is beyond the RTL cube's supported 1..12 (use "
            "--backend table)\n");
  // The RTL simulates every cycle of a wait: 4 * 10^9 cycles on 8 nodes are refused with the
  // time they would take.
  const std::string f =
      write("wait.hct",
            kHeader3 +
                "table *\nX m^3>m^3 m^6>m^6 m^4>m^4\nX m^1>m^1 m^7>m^7 m^6>m^6\n"
                "X m^7>m^7 m^2>m^2 m^5>m^5\nX m^5>m^5 m^3>m^3 m^7>m^7\nW 4000000000\nE\nend\n");
  o = tool({"run", "--tables", f, "--backend", "rtl"});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + f +
                          ":4: the RTL run would take about 2.2 h, more than the limit "
                          "of 1.0 h\n");
}

TEST_F(Cli, OutOfMemoryMessageFitsVerify) {
  // Verifying a 20-cube needs about 700 MB, within the tool's limit, more than the 300 MB of
  // address space the shell allows here.
  const std::string f = write("d20.hct", emptySchedule(20));
  const ProcessResult r =
      runProcess({"/bin/sh", "-c", "ulimit -v 307200 && exec \"$0\" verify \"$1\"", HCUBE_TOOL, f});
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output, "hcube: error: out of memory reading or verifying " + f +
                          "; its tables do not fit this machine's memory\n");
}

// The image is an input like the text tables.
std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_F(Cli, ImageVerifiesAndRunsLikeTheTextTables) {
  const std::string out = (dir_ / "t").string();
  ASSERT_EQ(tool({"tables", "--algo", "edelman", "--n", "3", "--out", out}).status, 0);
  Outcome o = tool({"verify", out + "/tables.hex"});
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(o.output,
            out + "/tables.hex: OK (4 cycles, every element where the reference model says)\n");
  o = tool({"run", "--tables", out + "/tables.hex", "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("\"perm\":\"aapc n=3 m=1\""), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("\"mismatches\":0"), std::string::npos) << o.output;
  o = tool({"diff", out + "/tables.hct", out + "/tables.hex"});
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.output, out + "/tables.hct and " + out + "/tables.hex describe the same tables\n");
}

TEST_F(Cli, ADirectoryWhoseImageDiffersFromItsTextIsNamed) {
  const std::string out = (dir_ / "t").string();
  ASSERT_EQ(tool({"tables", "--algo", "edelman", "--n", "3", "--out", out}).status, 0);
  // Step 1 of the shared table sends relative slot 7 on port 1; the image is rewritten to send
  // slot 5 there.
  TableSet set = readTableTextFile(out + "/tables.hct");
  ASSERT_EQ(formatChannel(set.tables[0][1].channels[1]), "m^7>m^7");
  set.tables[0][1].channels[1].out.idx = 5;
  writeImageFile(out + "/tables.hex", set);
  const std::string hex = readFile(fs::path(out) / "tables.hex");
  Outcome o = tool({"verify", out});
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.output, out +
                          ": tables.hct and tables.hex describe different tables (1 "
                          "difference(s)):\n  shared table, step 1, channel 1 (port 1 lane 0): "
                          "tables.hct m^7>m^7, tables.hex m^5>m^7\n");
  o = tool({"run", "--tables", out});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + out +
                          ": tables.hct and tables.hex describe different tables (shared table, "
                          "step 1, channel 1 (port 1 lane 0): tables.hct m^7>m^7, tables.hex "
                          "m^5>m^7; hcube diff lists them all)\n");
  // A truncated image beside good text tables no longer passes: the header and one word.
  size_t cut = 0;
  for (int line = 0; line < 11; ++line) cut = hex.find('\n', cut) + 1;
  std::ofstream(fs::path(out) / "tables.hex") << hex.substr(0, cut);
  o = tool({"verify", out});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output, "hcube: error: " + out +
                          "/tables.hex:11: unexpected end of input: 4 more table word(s) "
                          "expected\n");
}

TEST_F(Cli, DiffNamesNodeStepAndChannel) {
  const std::string a = (dir_ / "a").string();
  const std::string b = (dir_ / "b").string();
  ASSERT_EQ(tool({"tables", "--algo", "edelman", "--n", "2", "--out", a}).status, 0);
  ASSERT_EQ(tool({"tables", "--algo", "edelman", "--n", "2", "--alignment", "explicit", "--out", b})
                .status,
            0);
  Outcome o = tool({"diff", a, a + "/tables.hex"});
  EXPECT_EQ(o.status, 0) << o.output;
  o = tool({"diff", a + "/tables.hex", b + "/tables.hct"});
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.output.rfind(a + "/tables.hex and " + b + "/tables.hct differ (27 difference(s)):\n" +
                               "  node 0, step 0: " + a + "/tables.hex 'X m^3>m^3 m^2>m^2', " + b +
                               "/tables.hct 'W 2'\n" +
                               "  node 0, step 1, channel 0 (port 0 lane 0): " + a +
                               "/tables.hex m^1>m^1, " + b + "/tables.hct m3>m3\n",
                           0),
            0U)
      << o.output;
  EXPECT_NE(o.output.find("  node 1, step 3: only " + b +
                          "/tables.hct has an instruction ('X "
                          "m1>m1 m3>m3'; " +
                          a + "/tables.hex's table has 3)\n"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("\n  ... and 7 more\n"), std::string::npos) << o.output;
  o = tool({"diff", a});
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.output,
            "hcube: error: diff takes two tables (a .hct or .hex file, or a directory)\n");
}

TEST(TlmChild, InternalFaultsAreToldApartFromBadInput) {
  try {
    runInChildProcess([]() -> RunResult { throw Error("bad table"); });
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bad table");
  }
  try {
    runInChildProcess([]() -> RunResult { throw std::logic_error("broken invariant"); });
    FAIL() << "no exception";
  } catch (const Error& e) {
    FAIL() << "an internal fault reported as bad input: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "TLM backend: internal error in the simulation process: broken invariant");
  }
  EXPECT_THROW(runInChildProcess([]() -> RunResult { throw std::bad_alloc(); }), std::bad_alloc);
}

// A broken invariant of hcube is not bad input: a handler for bad input (catch Error, exit 2)
// lets it through to the tool's exit 3, and the fuzz harnesses count it as a finding.
TEST(Errors, InternalErrorsAreNotInputErrors) {
  static_assert(!std::is_base_of_v<Error, InternalError>);
  static_assert(std::is_same_v<InputError, Error>);
  bool escaped = false;
  try {
    try {
      throw InternalError("jh4: the groups take 3 steps, not 2");
    } catch (const Error&) {
      FAIL() << "an internal error caught as bad input";
    }
  } catch (const std::logic_error& e) {
    escaped = true;
    EXPECT_STREQ(e.what(), "jh4: the groups take 3 steps, not 2");
  }
  EXPECT_TRUE(escaped);
}

TEST(JsonText, OutputIsValidJsonForAnyBytes) {
  const std::string fffd = "\xef\xbf\xbd";  // U+FFFD in UTF-8
  EXPECT_EQ(jsonText(nlohmann::ordered_json("t\xff")), "\"t" + fffd + "\"");
  EXPECT_EQ(jsonText(nlohmann::ordered_json("\xc0\xaf")), "\"" + fffd + fffd + "\"");  // overlong
  EXPECT_EQ(jsonText(nlohmann::ordered_json("d\xc3\xa9j\xc3\xa0")), "\"d\xc3\xa9j\xc3\xa0\"");
  EXPECT_EQ(jsonText(nlohmann::ordered_json("a\"b\\c\n\x01")), "\"a\\\"b\\\\c\\n\\u0001\"");
  // Every result parses back.
  const auto parsed = nlohmann::json::parse(jsonText(nlohmann::ordered_json("x\xed\xa0\x80y")));
  EXPECT_EQ(parsed, "x" + fffd + fffd + fffd + "y");
}

// The JSON keys of run, compare and list, in order: scripts rely on them.
const std::vector<std::string> kRunKeys = {"algo",
                                           "n",
                                           "nodes",
                                           "K",
                                           "perm",
                                           "backend",
                                           "ports",
                                           "lanes",
                                           "cycles",
                                           "transfer_cycles",
                                           "local_cycles",
                                           "lower_bound",
                                           "bound_source",
                                           "ratio",
                                           "span",
                                           "words",
                                           "link_utilisation",
                                           "elements",
                                           "correct",
                                           "mismatches",
                                           "memory_digest",
                                           "hw_errors",
                                           "timeout",
                                           "wall_seconds",
                                           "verdict"};

std::vector<std::string> keysOf(const nlohmann::ordered_json& j) {
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  return keys;
}

TEST_F(Cli, JsonKeysOfRunCompareAndListArePinned) {
  Outcome o = tool({"run", "--algo", "edelman", "--n", "3", "--json"});
  ASSERT_EQ(o.status, 0) << o.output;
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(o.output);
  EXPECT_EQ(keysOf(j), kRunKeys);
  EXPECT_EQ(keysOf(j["link_utilisation"]), (std::vector<std::string>{"min", "mean", "max"}));
  EXPECT_EQ(j["cycles"], 4);
  EXPECT_EQ(j["ratio"], 1.0);
  EXPECT_EQ(j["verdict"], "pass");

  o = tool({"compare", "--algo", "edelman", "--n", "2", "--backends", "table,tlm", "--json"});
  ASSERT_EQ(o.status, 0) << o.output;
  j = nlohmann::ordered_json::parse(o.output);
  EXPECT_EQ(keysOf(j), (std::vector<std::string>{"agree", "runs", "problems"}));
  EXPECT_EQ(j["agree"], true);
  ASSERT_EQ(j["runs"].size(), 2U);
  EXPECT_EQ(keysOf(j["runs"][0]), kRunKeys);
  EXPECT_EQ(j["runs"][1]["backend"], "tlm");
  EXPECT_TRUE(j["problems"].empty());

  o = tool({"list", "--json"});
  ASSERT_EQ(o.status, 0) << o.output;
  j = nlohmann::ordered_json::parse(o.output);
  ASSERT_EQ(j.size(), algorithmCatalogue().size());
  for (const auto& a : j) {
    EXPECT_EQ(keysOf(a), (std::vector<std::string>{"name", "summary", "source"}));
  }
  EXPECT_EQ(j[0]["name"], algorithmCatalogue()[0].name);
}

TEST_F(Cli, JsonIsValidForAnAlgoNameThatIsNotUtf8InTheReport) {
  // The reader refuses such a name; a report built in memory still writes valid JSON.
  RunReport r;
  r.algo = "bad\xff";
  const nlohmann::json j = nlohmann::json::parse(formatReportJson(r));
  EXPECT_EQ(j["algo"], "bad\xef\xbf\xbd");
}

TEST(RtlResult, LocalCyclesFieldIsReadWhenTheRunnerWritesIt) {
  const std::string head =
      R"({"format": "hcube-result", "version": 1, "backend": "rtl", "nodes": 2, "n": 1,)"
      R"( "memory_words": 3,)";
  const std::string body =
      R"( "cycles": 7, "transfer_cycles": 1, "mac_cycles": 0, "words": 2, "timeout": false,)"
      R"( "wall_seconds": 0.5, "span": 1, "link_words": [1, 1], "hw_errors": [],)"
      R"( "memory": ["000000000000000200000000", "000000010000000300000000"]})";
  std::istringstream with(head + R"( "local_cycles": 6,)" + body);
  const RunResult r = parseRtlResult(with, "r.json", 2, 1, 3);
  EXPECT_EQ(r.cycles, 7U);
  EXPECT_EQ(r.transfer_cycles, 1U);
  EXPECT_EQ(r.local_cycles, 6U);
  EXPECT_EQ(r.memory.at(1, 1), 3U);
  // A document without the field (no PERMUTE ran): no local cycles.
  std::istringstream without(head + body);
  EXPECT_EQ(parseRtlResult(without, "r.json", 2, 1, 3).local_cycles, 0U);
  std::istringstream bad(head + R"( "local_cycles": "many",)" + body);
  try {
    parseRtlResult(bad, "r.json", 2, 1, 3);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "r.json: field 'local_cycles' is not a non-negative integer");
  }
}

}  // namespace
}  // namespace hcube

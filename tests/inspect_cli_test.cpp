// hcube tests: the inspection options of the tool on every backend: the link
// CSV, the heatmap SVG and the element path must be the same bytes from table, TLM and RTL,
// and bad input is exit 2 with a message. The case is the standard exchange on a 2-cube
// (counted by hand in tests/inspect_test.cpp): every directed link carries 2 words in 4 cycles,
// and element 0:3 goes node 0 -> 2 (cycle 1, dimension 1, into slot 1) -> 3 (cycle 3,
// dimension 0), where it ends in slot 0.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_fixture.h"
#include "process.h"

namespace hcube {
namespace {

namespace fs = std::filesystem;

using test::tool;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class InspectCli : public test::ScratchDirTest {
 protected:
  struct Files {
    std::string csv;
    std::string svg;
    std::string trace;
  };
  Files inspect(const std::string& backend) {
    const std::string csv = (dir_ / (backend + ".csv")).string();
    const std::string svg = (dir_ / (backend + ".svg")).string();
    const ProcessResult r = tool({"run", "--algo", "exchange", "--n", "2", "--backend", backend,
                                  "--links", csv, "--heatmap", svg});
    EXPECT_EQ(r.status, 0) << r.output;
    const ProcessResult t =
        tool({"trace", "--algo", "exchange", "--n", "2", "--backend", backend, "--element", "0:3"});
    EXPECT_EQ(t.status, 0) << t.output;
    // The RTL backend reports model builds and run forecasts on stderr ("hcube: ..." lines),
    // which runProcess merges into the output: the path is the rest.
    std::istringstream lines(t.output);
    std::string path;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("hcube: ", 0) != 0) path += line + "\n";
    }
    return {slurp(csv), slurp(svg), path};
  }
};

const char* const kCsv =
    "node,dimension,neighbour,words,utilisation\n"
    "0,0,1,2,0.500000\n"
    "0,1,2,2,0.500000\n"
    "1,0,0,2,0.500000\n"
    "1,1,3,2,0.500000\n"
    "2,0,3,2,0.500000\n"
    "2,1,0,2,0.500000\n"
    "3,0,2,2,0.500000\n"
    "3,1,1,2,0.500000\n";

const char* const kTrace =
    "exchange, aapc n=2 m=1, width 1, 4 cycles\n"
    "element 0:3 (tag 3) starts in node 0, slot 3\n"
    " cycle   from  dim  lane     to  arrives  slot\n"
    "     1      0    1     0      2  stored   1\n"
    "     3      2    0     0      3  stored   0\n"
    "at the end in: node 3 slot 0\n";

TEST_F(InspectCli, TableAndTlmWriteTheSameFiles) {
  const Files table = inspect("table");
  EXPECT_EQ(table.csv, kCsv);
  EXPECT_EQ(table.trace, kTrace);
  EXPECT_NE(table.svg.find("<svg"), std::string::npos);
  const Files tlm = inspect("tlm");
  EXPECT_EQ(tlm.csv, table.csv);
  EXPECT_EQ(tlm.svg, table.svg);
  EXPECT_EQ(tlm.trace, table.trace);
}

TEST_F(InspectCli, RtlWritesTheSameFiles) {
  const Files table = inspect("table");
  const Files rtl = inspect("rtl");
  EXPECT_EQ(rtl.csv, kCsv);
  EXPECT_EQ(rtl.svg, table.svg);
  EXPECT_EQ(rtl.trace, kTrace);
}

TEST_F(InspectCli, BadElementsAndFilesAreExit2) {
  const std::vector<std::string> base = {"trace", "--algo", "exchange", "--n", "2", "--element"};
  auto trace = [&](const std::string& element) {
    std::vector<std::string> a = base;
    a.push_back(element);
    return tool(a);
  };
  ProcessResult r = trace("4:0");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --element 4:0: node 4 is outside the 2-cube (nodes 0..3)\n");
  r = trace("0:4");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --element 0:4: slot 4 is outside the data slots (0..3)\n");
  r = trace("0-3");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "hcube: error: --element '0-3': must be NODE:SLOT (two decimal numbers, e.g. 3:0)\n");
  r = tool({"trace", "--algo", "exchange", "--n", "2"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --element NODE:SLOT is required\n");
  r = tool({"run", "--algo", "exchange", "--n", "2", "--links", dir_.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --links " + dir_.string() + ": is a directory\n");
  r = tool({"run", "--algo", "exchange", "--n", "2", "--heatmap", "/nonexistent/dir/h.svg"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "hcube: error: --heatmap /nonexistent/dir/h.svg: cannot be written\n");
}

}  // namespace
}  // namespace hcube

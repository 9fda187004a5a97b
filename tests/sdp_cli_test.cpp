// The hcube tool on stable dimension permutations (Ho & Johnsson 1988): `hcube sdp --describe`
// and `hcube run --algo sdp`, good input and bad (exit 2 and a message naming why).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli_fixture.h"
#include "process.h"

namespace hcube {
namespace {

using Outcome = ProcessResult;
using test::tool;

void expectError(const std::vector<std::string>& args, const std::string& says) {
  const Outcome o = tool(args);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(says), std::string::npos) << "expected '" << says << "' in " << o.output;
}

TEST(SdpCli, DescribeTable1Sdp) {
  const Outcome o = tool({"sdp", "--describe", "--n", "9", "--k", "512", "--cycles",
                          "0,1,2,3/4,5,6/7,8", "--tau", "10"});
  EXPECT_EQ(o.status, 0) << o.output;
  for (const char* s : {"(0,1,2,3) real sigma=4", "(4,5,6) real sigma=3", "separable       yes",
                        "sigma_p=9", "beta=3", "sigma_max=4", "sigma_min=2", "oJ=1",
                        "one-port      max(2304, 8 tau) = 2304 cycles",
                        "n-port        max(256, 8 tau) = 256 cycles"}) {
    EXPECT_NE(o.output.find(s), std::string::npos) << s << " in " << o.output;
  }
}

TEST(SdpCli, DescribeJsonOfAMixedExtendedSdp) {
  const Outcome o = tool({"sdp", "--describe", "--n", "4", "--k", "16", "--mp", "3", "--delta",
                          "4,1,2,3,0,5,6,7", "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
  for (const char* s :
       {"\"kind\":\"mixed\"", "\"separable\":false", "\"full_cube\":false", "Corollary 4"}) {
    EXPECT_NE(o.output.find(s), std::string::npos) << s << " in " << o.output;
  }
}

TEST(SdpCli, RunA1PrintsFormulaAndCountedStartups) {
  const Outcome o = tool({"run", "--algo", "sdp", "--method", "a1", "--n", "3", "--k", "8",
                          "--cycles", "0,1,2", "--tau", "5", "--ports", "one", "--json"});
  EXPECT_EQ(o.status, 0) << o.output;
  for (const char* s : {"\"cycles\":36", "\"mismatches\":0", "\"verdict\":\"pass\"",
                        "= 16 + 4 tau = 36", "schedule: 4 start-ups, 16 element cycles"}) {
    EXPECT_NE(o.output.find(s), std::string::npos) << s << " in " << o.output;
  }
}

TEST(SdpCli, BadInputExitsTwoNamingWhy) {
  const std::vector<std::string> run = {"run", "--algo", "sdp", "--n", "3", "--k", "8"};
  auto with = [&run](std::vector<std::string> more) {
    std::vector<std::string> a = run;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  expectError(with({"--delta", "1,1,2,3,4,5", "--ports", "one"}), "not a permutation");
  expectError(with({"--cycles", "0,1/1,2", "--ports", "one"}), "named twice");
  expectError(with({"--cycles", "0,9", "--ports", "one"}), "is not one of the dimensions");
  expectError(with({"--method", "a5", "--cycles", "0,3"}), "not separable");
  expectError(with({"--method", "a5", "--cycles", "0,3,1"}),
              "section 4.4 only names it (\"one can employ the same algorithm as if there is no "
              "virtual dimension, for instance Algorithms A4, A5, or A6\") without a construction");
  expectError(with({"--method", "a4", "--cycles", "0,3/1,4/2,5"}),
              "every storage dimension is in a mixed GSH");
  // Section 4.4's own-pivot sequences: the paper counts them (m'_s = 3 storage dimensions here,
  // each followed by a processor dimension) but gives no construction; the refusal says so.
  expectError(with({"--method", "a4", "--cycles", "0,3/1,4/2,5"}),
              "Section 4.4 counts m'_s = 3 sequences here that would need no extra storage");
  expectError(with({"--method", "a6", "--cycles", "0,3,4/1,5,2"}),
              "Section 4.4 counts m'_s = 2 sequences here");
  // A stray --aapc (only A2 runs AAPCs) and an unknown one.
  expectError(with({"--method", "a4", "--cycles", "0,1,2", "--aapc", "jh4"}),
              "--aapc: algorithm 'sdp' takes no such option");
  expectError(with({"--method", "a2", "--cycles", "0,1,2", "--aapc", "jh9", "--ports", "all"}),
              "--aapc 'jh9': unknown AAPC schedule");
  expectError(with({"--method", "a2", "--cycles", "0,1,2", "--aapc", "edelman", "--ports", "one"}),
              "the one-port A2 runs its AAPCs by --aapc exchange");
  expectError(with({"--method", "a1", "--cycles", "0,1,2", "--gamma", "3", "--ports", "one"}),
              "gamma");
  expectError(with({"--method", "a1p", "--cycles", "0,3,1"}), "not separable");
  expectError(with({"--method", "a2r", "--cycles", "0,1,2", "--ports", "one"}), "n-port");
  expectError(with({"--method", "a5", "--gamma", "1", "--cycles", "0,1,2"}), "--gamma 1");
  expectError(with({"--method", "extended", "--cycles", "0,1,2", "--ports", "one"}),
              "for data on a subcube, --mp < n");
  expectError(with({"--method", "extended", "--mp", "2", "--cycles", "0,1", "--inner", "a9"}),
              "--inner 'a9'");
  expectError({"run", "--algo", "sdp", "--n", "3", "--k", "2", "--method", "extended", "--mp", "1",
               "--cycles", "0,3", "--ports", "one"},
              "only 0 of the log2 K = 1 are free");
  expectError(with({"--mp", "2", "--cycles", "0,1,2", "--ports", "one"}), "holds no data");
  expectError(with({"--method", "best", "--gamma", "3", "--cycles", "0,1,2"}), "gamma");
  expectError({"run", "--algo", "sdp", "--n", "3", "--k", "1", "--method", "a1", "--cycles",
               "0,1,2", "--ports", "one"},
              "needs a storage dimension");
  expectError({"sdp", "--describe", "--n", "3", "--k", "8"}, "exactly one of --delta");
  expectError({"sdp", "--describe", "--n", "3", "--k", "6", "--cycles", "0,1"}, "power of two");
  expectError({"sdp", "--n", "3", "--cycles", "0,1"}, "--describe");
  // The refusals: A2 without enough free storage dimensions (one-port, n-port, rotated), A1
  // and A4 without a storage dimension to exchange with, A6 when every storage dimension is in
  // a mixed GSH, gamma above sigma_max.
  expectError({"run", "--algo", "sdp", "--n", "3", "--k", "4", "--method", "a2", "--cycles",
               "0,1,2", "--ports", "one"},
              "only 2 of the log2 K = 2 storage dimensions are free; use K >= 2^3");
  expectError({"run", "--algo", "sdp", "--n", "3", "--k", "2", "--method", "a2", "--cycles",
               "0,1,2", "--ports", "all"},
              "only 1 of the log2 K = 1 storage dimensions are free");
  expectError(
      {"run", "--algo", "sdp", "--n", "3", "--k", "2", "--method", "a2r", "--cycles", "0,1,2"},
      "only 1 of the log2 K = 1 storage dimensions are free");
  expectError(
      {"run", "--algo", "sdp", "--n", "3", "--k", "1", "--method", "a4", "--cycles", "0,1,2"},
      "it needs K >= 2");
  expectError(with({"--method", "a6", "--cycles", "0,3/1,4/2,5"}),
              "every storage dimension is in a mixed GSH");
  expectError(with({"--method", "a5", "--gamma", "4", "--cycles", "0,1,2"}),
              "2 <= gamma <= sigma_max = 3");
  // The extended scheme whose expansion leaves the inner method one element per node.
  expectError({"run", "--algo", "sdp", "--n", "6", "--k", "16", "--mp", "2", "--method", "extended",
               "--inner", "a4", "--cycles", "0,1"},
              "--inner a4: the full-cube phase runs on K' = K / 2^e = 16 / 2^4 = 1 elements per "
              "node (section 4.5), and there: --k 1");
}

// Every method through the tool (n = 4, K = 16, tau = 3, (0 1)(2 3): sigma_p = 4, beta = 2):
// exit 0, every element checked, the paper's formula for that method and Theorem 1 / Corollary 4
// printed beside the schedule's count, the measured cycles exactly that count (start-ups x tau +
// element cycles + PERMUTE cycles), and where the paper's formula is exact for these sizes, that
// value: Table 3 A1 (4+2)(8 + 3) = 66, A1' 4(16 + 3) = 76, A2 4*16 + 8*3 = 88 + 4 PERMUTE, A3
// one-port 1*(64 + 4*3) = 76, n-port A1 2((3*16)/8 + 3*3) = 30, A1' 16 + 4*3 = 28, A2 rotated
// 16 + 8*3 = 40 + 4 PERMUTE, A5 (gamma 2, mu 2) 12 + 6*3 = 30; Theorem 2's A6 12 + f(S)=6 tau =
// 30; the extended A1 (data on 3 of 4 dims, (0 1 2)) 2(8 + 3) + 4(4 + 3) = 50.
TEST(SdpCli, EveryMethodPrintsItsFormulaBoundAndExactCount) {
  struct Run {
    std::vector<std::string> args;
    const char* formula;
    const char* bound;
    unsigned long long paper;  ///< the paper's exact time, 0 where it states none for this case
  };
  const std::vector<Run> runs = {
      {{"--method", "a1", "--ports", "one"}, "A1 one-port, Table 3", "Theorem 1", 66},
      {{"--method", "a1p", "--ports", "one"}, "A1' one-port, Table 3", "Theorem 1", 76},
      {{"--method", "a2", "--ports", "one"}, "A2 one-port, Table 3", "Theorem 1", 92},
      {{"--method", "a3", "--ports", "one"}, "A3 one-port (SPT), Table 3", "Theorem 1", 76},
      {{"--method", "a1", "--ports", "all"}, "A1 n-port (section 4.1", "Theorem 1", 30},
      {{"--method", "a1p", "--ports", "all"}, "A1' n-port (section 4.2.1", "Theorem 1", 28},
      {{"--method", "a2", "--ports", "all"}, "A2 n-port (section 4.3.2), Table 3", "Theorem 1", 0},
      {{"--method", "a2r"}, "A2 rotated n-port (section 4.6), Table 3", "Theorem 1", 44},
      {{"--method", "a3", "--ports", "all"}, "A3 n-port (pipelined DPT), Table 3", "Theorem 1", 0},
      {{"--method", "a4"}, "A4 n-port, Table 3", "Theorem 1", 0},
      {{"--method", "a5", "--gamma", "2"}, "A5 n-port, Table 3", "Theorem 1", 30},
      {{"--method", "a6"}, "A6 n-port, Theorem 2", "Theorem 1", 30},
      {{"--method", "best", "--ports", "one"}, "--method best chose a1", "Theorem 1", 66},
      {{"--method", "best", "--ports", "all"}, "--method best chose a1p", "Theorem 1", 28},
      {{"--method", "extended", "--mp", "3", "--inner", "a1", "--ports", "one"},
       "extended cube (section 4.5)",
       "Corollary 4",
       50},
      {{"--method", "extended", "--mp", "3", "--inner", "a4", "--ports", "all"},
       "extended cube (section 4.5)",
       "Corollary 4",
       0},
  };
  for (const Run& r : runs) {
    std::vector<std::string> args = {"run", "--algo", "sdp",   "--n", "4",
                                     "--k", "16",     "--tau", "3",   "--cycles"};
    const bool extended = r.args.front() == "--method" && r.args[1] == "extended";
    args.push_back(extended ? "0,1,2" : "0,1/2,3");
    args.insert(args.end(), r.args.begin(), r.args.end());
    const Outcome o = tool(args);
    std::string what;
    for (const std::string& a : r.args) what += a + " ";
    ASSERT_EQ(o.status, 0) << what << o.output;
    EXPECT_NE(o.output.find("verdict          PASS"), std::string::npos) << what << o.output;
    EXPECT_NE(o.output.find("(0 mismatches)"), std::string::npos) << what << o.output;
    EXPECT_NE(o.output.find(r.formula), std::string::npos) << what << o.output;
    EXPECT_NE(o.output.find(r.bound), std::string::npos) << what << o.output;
    unsigned long long cycles = 0, starts = 0, elems = 0, permutes = 0;
    const size_t c = o.output.find("cycles           ");
    const size_t s = o.output.find("schedule: ");
    ASSERT_NE(c, std::string::npos) << o.output;
    ASSERT_NE(s, std::string::npos) << o.output;
    ASSERT_EQ(std::sscanf(o.output.c_str() + c, "cycles %llu", &cycles), 1) << o.output;
    ASSERT_EQ(std::sscanf(o.output.c_str() + s,
                          "schedule: %llu start-ups, %llu element cycles, %llu PERMUTE cycles",
                          &starts, &elems, &permutes),
              3)
        << o.output;
    EXPECT_EQ(cycles, starts * 3 + elems + permutes) << what << o.output;
    if (r.paper > 0) {
      EXPECT_EQ(cycles, r.paper) << what << o.output;
    }
  }
}

}  // namespace
}  // namespace hcube

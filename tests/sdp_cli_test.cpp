// The hcube tool on stable dimension permutations (Ho & Johnsson 1988): `hcube sdp --describe`
// and `hcube run --algo sdp`, good input and bad (exit 2 and a message naming why).
#include <gtest/gtest.h>

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
  expectError(with({"--method", "a4", "--cycles", "0,3/1,4/2,5"}),
              "every storage dimension is in a mixed GSH");
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
}

}  // namespace
}  // namespace hcube

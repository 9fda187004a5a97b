// hcube tests: what every command-line test shares: running the hcube tool (HCUBE_TOOL, the path
// the test target defines) and a scratch directory of its own for each test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"

namespace hcube::test {

/// Runs `hcube args...`; status and the merged stdout and stderr.
inline ProcessResult tool(std::vector<std::string> args) {
  args.insert(args.begin(), HCUBE_TOOL);
  return runProcess(args);
}

/// A test with a scratch directory, hcube-<suite>-<pid>-<test> under the temporary directory,
/// created before the test and removed after it (the pid keeps parallel runs apart).
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("hcube-" + std::string(info->test_suite_name()) + "-" + std::to_string(::getpid()) +
            "-" + info->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  /// Writes `text` into the file `name` of the scratch directory; its path.
  std::string write(const std::string& name, const std::string& text) {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::filesystem::path dir_;
};

}  // namespace hcube::test

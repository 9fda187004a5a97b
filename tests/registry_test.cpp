// The lists described once in the library (sw/exec/hw_error_kinds.h) agree with the RTL's copy of
// them (rtl/hc_pkg.sv), which the SystemVerilog cannot include: index for index, name for name.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "base/error.h"
#include "exec/hw_errors.h"

namespace hcube {
namespace {

/// `localparam int Name = value;` of rtl/hc_pkg.sv, by name.
std::map<std::string, long> packageConstants() {
  std::ifstream in(std::string(HCUBE_SOURCE_DIR) + "/rtl/hc_pkg.sv");
  EXPECT_TRUE(in) << "cannot read rtl/hc_pkg.sv";
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  std::map<std::string, long> constants;
  const std::regex localparam(R"(localparam\s+int\s+(\w+)\s*=\s*(\d+)\s*;)");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), localparam); it != std::sregex_iterator();
       ++it) {
    constants[(*it)[1]] = std::stol((*it)[2]);
  }
  return constants;
}

TEST(Registries, HwErrorKindsAgreeWithTheRtlPackage) {
  const std::map<std::string, long> pkg = packageConstants();
  ASSERT_TRUE(pkg.count("NumErrKinds"));
  EXPECT_EQ(pkg.at("NumErrKinds"), kHwErrorKinds);
  for (int i = 0; i < kHwErrorKinds; ++i) {
    const HwErrorKindInfo& k = kHwErrorKindTable[static_cast<size_t>(i)];
    EXPECT_EQ(static_cast<int>(k.kind), i) << k.name;
    ASSERT_TRUE(pkg.count(k.rtl_name)) << "rtl/hc_pkg.sv has no localparam " << k.rtl_name;
    EXPECT_EQ(pkg.at(k.rtl_name), i) << k.rtl_name;
  }
  // Every Err* index of the package is a kind of the table (ErrCountBits is a width).
  int rtl_kinds = 0;
  for (const auto& [name, value] : pkg) {
    if (name.rfind("Err", 0) == 0 && name != "ErrCountBits") ++rtl_kinds;
  }
  EXPECT_EQ(rtl_kinds, kHwErrorKinds);
}

TEST(Registries, HwErrorNamesRoundTrip) {
  for (const HwErrorKindInfo& k : kHwErrorKindTable) {
    EXPECT_STREQ(hwErrorName(k.kind), k.name);
    EXPECT_EQ(hwErrorFromName(k.name), k.kind);
  }
  EXPECT_STREQ(hwErrorName(HwError::kLost), "lost");
  EXPECT_STREQ(hwErrorName(HwError::kOverlap), "overlap");
  EXPECT_THROW(hwErrorFromName("lostt"), Error);
}

}  // namespace
}  // namespace hcube

// The lists described once in the library (sw/exec/hw_error_kinds.h, sw/router/messages.h) agree
// with the RTL's copy of them (rtl/hc_pkg.sv), which the SystemVerilog cannot include: index for
// index, name for name, bit for bit.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "base/error.h"
#include "exec/hw_errors.h"
#include "router/messages.h"
#include "tables/table_image.h"

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

// Each routing function with a configuration bit has it under its own name in the package
// ("source" -> CfgSourceAt), and the word's other fields sit where the image writer puts them.
TEST(Registries, RoutingBitsAgreeWithTheRtlPackage) {
  const std::map<std::string, long> pkg = packageConstants();
  int with_bit = 0;
  for (const RouteKindInfo& k : kRouteKindTable) {
    if (k.rtl_config_bit == 0) continue;  // e-cube: neither bit set
    ++with_bit;
    std::string name = k.name;
    name[0] = static_cast<char>(name[0] - 'a' + 'A');
    const std::string constant = "Cfg" + name + "At";
    ASSERT_TRUE(pkg.count(constant)) << "rtl/hc_pkg.sv has no localparam " << constant;
    EXPECT_EQ(pkg.at(constant), k.rtl_config_bit) << constant;
  }
  EXPECT_EQ(with_bit, 2);  // source and adaptive
  ASSERT_TRUE(pkg.count("CfgRoutedAt") && pkg.count("CfgDepthAt") && pkg.count("CfgTauAt"));
  EXPECT_EQ(pkg.at("CfgRoutedAt"), kRouterConfig.routed_at);
  EXPECT_EQ(pkg.at("CfgDepthAt"), kRouterConfig.depth_at);
  EXPECT_EQ(pkg.at("CfgDepthBits"), kRouterConfig.depth_bits);
  EXPECT_EQ(pkg.at("CfgTauAt"), kRouterConfig.tau_at);
  // Every Cfg*At of the package is a field above or a routing function's bit.
  int cfg_fields = 0;
  for (const auto& [name, value] : pkg) {
    if (name.rfind("Cfg", 0) == 0 && name.size() > 5 && name.substr(name.size() - 2) == "At") {
      ++cfg_fields;
    }
  }
  EXPECT_EQ(cfg_fields, 3 + with_bit);
}

TEST(Registries, ChannelFieldsAgreeWithTheRtlPackage) {
  const std::map<std::string, long> pkg = packageConstants();
  const std::pair<const char*, int> fields[] = {
      {"ChOutOpAt", kChannelField.out_op_at},   {"ChOutRelAt", kChannelField.out_rel_at},
      {"ChOutIdxAt", kChannelField.out_idx_at}, {"ChInAt", kChannelField.in_at},
      {"ChInOpAt", kChannelField.in_op_at},     {"ChInRelAt", kChannelField.in_rel_at},
      {"ChInSlotAt", kChannelField.in_slot_at}};
  for (const auto& [name, at] : fields) {
    ASSERT_TRUE(pkg.count(name)) << "rtl/hc_pkg.sv has no localparam " << name;
    EXPECT_EQ(pkg.at(name), at) << name;
  }
  // Every Ch*At of the package is one of them.
  int rtl_fields = 0;
  for (const auto& [name, value] : pkg) {
    if (name.rfind("Ch", 0) == 0 && name.size() > 4 && name.substr(name.size() - 2) == "At") {
      ++rtl_fields;
    }
  }
  EXPECT_EQ(rtl_fields, 7);
  // The sides fit the channel: 6 + IdxBits + SlotBits (hc_pkg::hc_chan_bits).
  const ImageLayout l{3, 2, 8};
  EXPECT_EQ(kChannelField.in_at + l.idxBits() + kChannelField.in_slot_at + l.slotBits(),
            l.chanBits());
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

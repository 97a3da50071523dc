// Tests for interface rules: driver fields, MTU and link.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

TEST(Interfaces, WrongValuesNameTheIoctl) {
  facts::Facts f = tuned_rhel5();
  auto& eth1 = f.interfaces["eth1"];
  eth1.driver_version = text("3.119", "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1");
  eth1.mtu.value = 9000;
  const auto rs = check_host("b", f, only(&profile::Preconditions::interfaces));
  EXPECT_EQ(
      find(rs, "interfaces/eth1/driver_version").message,
      "host b: eth1 driver_version (ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1) is 3.119, profile wants 3.125g");
  const auto& mtu = find(rs, "interfaces/eth1/mtu");
  EXPECT_EQ(mtu.message, "host b: eth1 MTU (ioctl SIOCGIFMTU eth1) is 9000, profile wants 1500");
  EXPECT_EQ(mtu.fix,
            "ifconfig 'eth1' mtu 1500\n# and for the next boot:\n"
            "sed -i '/^MTU=/d' '/etc/sysconfig/network-scripts/ifcfg-eth1'\n"
            "echo MTU=1500 >> '/etc/sysconfig/network-scripts/ifcfg-eth1'");
  EXPECT_EQ(find(rs, "interfaces/eth1/driver").verdict, Verdict::kPass);
}

TEST(Interfaces, NoCarrierIsNotFixedByIfup) {
  facts::Facts f = tuned_rhel5();
  f.interfaces["eth1"].link = {"down", "ioctl SIOCGIFFLAGS eth1", "", false, "flags: UP"};
  auto rs = check_host("b", f, only(&profile::Preconditions::interfaces));
  auto r = find(rs, "interfaces/eth1/link");
  EXPECT_EQ(r.message, "host b: eth1 link (ioctl SIOCGIFFLAGS eth1) is down, profile wants up; flags: UP");
  EXPECT_THAT(r.fix, HasSubstr("no carrier: check the cable"));
  f.interfaces["eth1"].admin = text("down", "ioctl SIOCGIFFLAGS eth1");
  rs = check_host("b", f, only(&profile::Preconditions::interfaces));
  EXPECT_EQ(find(rs, "interfaces/eth1/link").fix, "ifup 'eth1'");
}

TEST(Interfaces, AMissingInterfaceIsOneFailure) {
  facts::Facts f = tuned_rhel5();
  f.interfaces["eth1"].exists = {false, "/proc/net/dev", "", false, ""};
  const auto rs = check_host("b", f, only(&profile::Preconditions::interfaces));
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].rule, "interfaces/eth1");
  EXPECT_EQ(rs[0].message, "host b: eth1 does not exist (/proc/net/dev)");
}

TEST(Interfaces, AnInterfaceWithoutEthtoolIsNotCheckable) {
  facts::Facts f = tuned_rhel5();
  f.interfaces["eth1"].driver = {std::nullopt, "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1", "Not supported",
                                 false, ""};
  const auto rs = check_host("b", f, only(&profile::Preconditions::interfaces));
  EXPECT_EQ(find(rs, "interfaces/eth1/driver").reason,
            "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1: Not supported");
}

}  // namespace
}  // namespace labgate::checks

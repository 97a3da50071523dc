// The `network = "..."` interface rule over IPv6: the interface's addresses from
// /proc/net/if_inet6, any spelling of the profile's address, and a snapshot that
// could not read them is not checkable rather than a failure.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT: the test facts helpers
using ::testing::HasSubstr;

/// The network rule's result on host a (a copy: check_host's vector is a temporary).
CheckResult network_rule(const facts::Facts& f, const profile::Preconditions& p) {
  return find(check_host("a", f, p), "interfaces/eth1/network");
}

profile::Preconditions direct_on_eth1(const std::string& address) {
  profile::Preconditions p;
  profile::InterfaceRule eth1;
  eth1.name = "eth1";
  eth1.network = "direct";
  p.interfaces = {eth1};
  p.host_use["a"].networks = {{"direct", address}};
  return p;
}

void set_v6(facts::Facts& f, std::optional<std::vector<std::string>> v) {
  auto& a = f.interfaces["eth1"].ipv6_addresses;
  a.value = std::move(v);
  a.source = "/proc/net/if_inet6";
}

TEST(NetworkAddress, AnIpv6NetworkAddressIsFoundAmongTheInterfacesAddresses) {
  facts::Facts f = tuned_rhel5();
  set_v6(f, std::vector<std::string>{"fe80::1", "fd4c:6762:0:19::1"});
  const CheckResult ok = network_rule(f, direct_on_eth1("FD4C:6762:0:19:0::1"));
  EXPECT_EQ(ok.verdict, Verdict::kPass) << ok.message;
  set_v6(f, std::vector<std::string>{"fe80::1", "fd4c:6762:0:18::1"});
  const CheckResult wrong = network_rule(f, direct_on_eth1("fd4c:6762:0:19::1"));
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
  EXPECT_EQ(wrong.message,
            "host a: eth1 address (/proc/net/if_inet6) is fe80::1 fd4c:6762:0:18::1, profile wants direct "
            "(fd4c:6762:0:19::1)");
}

TEST(NetworkAddress, NoIpv6AddressFailsAndUnreadAddressesAreNotCheckable) {
  facts::Facts f = tuned_rhel5();
  set_v6(f, std::vector<std::string>{});
  const CheckResult none = network_rule(f, direct_on_eth1("fd4c:6762:0:19::1"));
  EXPECT_EQ(none.verdict, Verdict::kFail);
  EXPECT_THAT(none.message, HasSubstr("eth1 has no IPv6 address"));
  set_v6(f, std::nullopt);
  const CheckResult unread = network_rule(f, direct_on_eth1("fd4c:6762:0:19::1"));
  EXPECT_EQ(unread.verdict, Verdict::kNotCheckable);
  // The IPv4 address of the interface says nothing about an IPv6 network.
  f.interfaces["eth1"].ipv4_address = text("198.19.0.1", "ioctl SIOCGIFADDR eth1");
  EXPECT_EQ(network_rule(f, direct_on_eth1("fd4c:6762:0:19::1")).verdict, Verdict::kNotCheckable);
}

}  // namespace
}  // namespace labgate::checks

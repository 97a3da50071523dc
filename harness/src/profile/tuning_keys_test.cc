// Tests for the tuning keys: the enterprise profile contract validates, test
// networks (a table of named addresses, `network` on tests and interfaces),
// CPU lists, and what the rules learn of each host's networks and pinned CPUs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "labgate/profile/cpu_list.h"
#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

// The contract also holds keys other rooms implement (ssh become/proxy_jump/
// ssh_config/lease_dir); those lines are left out here, so this
// proves every [preconditions] and test_address/network key of the file.
TEST(TuningKeys, TheEnterpriseProfileContractValidates) {
  std::ifstream in(LABGATE_SOURCE_DIR "/../shared/profile-enterprise.toml");
  if (!in) GTEST_SKIP() << "no ../shared beside the checkout";
  std::string line, text;
  while (std::getline(in, line)) {
    bool other_room = false;
    for (const char* k : {"become ", "proxy_jump ", "ssh_config ", "lease_dir "})
      other_room = other_room || line.rfind(k, 0) == 0;
    text += (other_room ? "" : line) + "\n";
  }
  const LoadResult r = load_from_string(text, "profile-enterprise.toml");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const Preconditions& pre = r.profile->preconditions;
  const InterfaceRule& nic = pre.interfaces.at(0);
  EXPECT_EQ(nic.network, "direct");
  EXPECT_EQ(nic.speed_mbps, 100000);
  EXPECT_EQ(nic.settings.at("coalesce").at("adaptive_rx"), "off");
  EXPECT_EQ(nic.settings.at("ring").at("rx"), "4096");
  EXPECT_EQ(nic.irq_cpus, "0-1");
  EXPECT_EQ(pre.services_enabled, (std::vector<std::string>{"tuned", "chronyd"}));
  EXPECT_TRUE(pre.cpu->test_cpus_nic_local);
  EXPECT_EQ(r.profile->find_host("a")->test_address_of("switch"), "10.20.0.11");
  EXPECT_EQ(pre.host_use.at("a").networks.at("direct"), "1.1.1.1");
}

TEST(TuningKeys, TheExampleRhel9PairSweepsItsNetworks) {
  const Profile p = load_or_throw(LABGATE_SOURCE_DIR "/profiles/example-rhel9-pair.toml");
  ASSERT_NE(p.find_test("udp_rr_64/network=direct"), nullptr);
  EXPECT_EQ(p.find_test("udp_rr_64/network=switch")->network, "switch");
  EXPECT_EQ(p.find_host("b")->test_address_of(p.find_test("udp_rr_64/network=switch")->network), "198.19.7.2");
  EXPECT_EQ(p.find_host("b")->test_address_of(""), "198.18.7.2");  // the first network
  const auto& pinned = p.preconditions.host_use.at("a").pinned;
  ASSERT_EQ(pinned.size(), 3u);
  EXPECT_EQ(pinned[0].test, "udp_rr_64/network=direct");
  EXPECT_EQ(pinned[0].cpu, 3);
  EXPECT_EQ(pinned[0].network, "direct");
}

constexpr const char* kTwoNetworks = R"toml(
[lab]
name = "n"
[hosts.a]
address = "local"
test_address = { direct = "198.18.0.1", switch = "198.19.0.1" }
[hosts.b]
address = "local"
test_address = { direct = "198.18.0.2", switch = "198.19.0.2" }
)toml";

TEST(TuningKeys, ATestWithoutNetworkOverSeveralIsAnErrorListingThem) {
  const LoadResult r = load_from_string(std::string(kTwoNetworks) + R"toml(
[[test]]
name = "rr"
kind = "tcp_rr"
from = "a"
to = "b"
)toml", "p.toml");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("test[rr].network: missing: host \"a\" has several test networks (direct, "
                        "switch); say which with network = \"direct\""));
}

TEST(TuningKeys, AnUnknownNetworkIsNamedOnTestsAndInterfaces) {
  const LoadResult r = load_from_string(std::string(kTwoNetworks) + R"toml(
[preconditions.interfaces.eth1]
network = "drect"
[[test]]
name = "rr"
kind = "tcp_rr"
from = "a"
to = "b"
network = "swtich"
)toml", "p.toml");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("preconditions.interfaces.eth1.network: \"drect\" is not a test network of "
                        "any host; known: direct, switch"));
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("test[rr].network: \"swtich\" is not a test network of host \"a\"; it has "
                        "direct, switch"));
}

TEST(TuningKeys, BadTuningValuesNameTheirKey) {
  const LoadResult r = load_from_string(std::string(kTwoNetworks) + R"toml(
[preconditions.interfaces.eth1]
link = { state = "up", speed = "fast" }
coalesce = { rx_usec = 0 }
irq_cpus = "0-"
[preconditions.cpu]
isolated = "two"
transparent_hugepage = "off"
)toml", "p.toml");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("preconditions.interfaces.eth1.link.speed: expected a speed like \"100Gbit/s\""));
  EXPECT_THAT(e, HasSubstr("rx_usec"));
  EXPECT_THAT(e, HasSubstr("preconditions.interfaces.eth1.irq_cpus: expected a CPU list"));
  EXPECT_THAT(e, HasSubstr("preconditions.cpu.isolated: expected a CPU list"));
  EXPECT_THAT(e, HasSubstr("preconditions.cpu.transparent_hugepage: expected \"never\", \"madvise\" or \"always\""));
}

TEST(TuningKeys, APlainTestAddressIsStillOneNetwork) {
  const LoadResult r = load_from_string(R"toml(
[lab]
name = "n"
[hosts.a]
address = "local"
test_address = "198.18.0.1"
)toml", "p.toml");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  EXPECT_EQ(r.profile->find_host("a")->test_address, "198.18.0.1");
  EXPECT_TRUE(r.profile->find_host("a")->networks.empty());
  EXPECT_EQ(r.profile->find_host("a")->test_address_of(""), "198.18.0.1");
  EXPECT_EQ(r.profile->find_host("a")->test_address_of("direct"), "");
}

TEST(CpuList, ParsesAndFormatsTheKernelsForm) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::set<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list(""), std::set<int>{});
  EXPECT_FALSE(parse_cpu_list("3-1"));
  EXPECT_FALSE(parse_cpu_list("a"));
  EXPECT_FALSE(parse_cpu_list("0-2000000000"));
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
}

}  // namespace
}  // namespace labgate::profile

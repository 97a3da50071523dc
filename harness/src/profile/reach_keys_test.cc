// The connection keys of issue 13 in a profile: proxy_jump checked at its line,
// ssh_config resolved like identity, and which table set each key recorded
// (explicit profile keys win over ssh_config).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"

namespace labgate::profile {
namespace {

TEST(ReachKeys, ProxyJumpAndSshConfigWithTheirOrigins) {
  const LoadResult r = load_from_string(
      "[lab]\nname = \"x\"\n[defaults.ssh]\nuser = \"perfops\"\nproxy_jump = \"perfops@bastion:22,inner\"\n"
      "ssh_config = \"cfg/ssh_config\"\n[hosts.a]\naddress = \"mdp7a\"\nport = 2200\n"
      "[hosts.b]\naddress = \"mdp7b\"\nproxy_jump = \"none\"\n",
      "/etc/lg/p.toml");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const Host& a = r.profile->hosts[0];
  EXPECT_EQ(a.ssh.proxy_jump, "perfops@bastion:22,inner");
  EXPECT_EQ(a.ssh.ssh_config, "/etc/lg/cfg/ssh_config");  // relative to the profile, like identity
  EXPECT_EQ(a.ssh.origin.at("user"), "defaults.ssh");
  EXPECT_EQ(a.ssh.origin.at("port"), "hosts.a");
  EXPECT_EQ(a.ssh.origin.count("identity"), 0u);  // unset: ssh_config's IdentityFile may supply it
  const Host& b = r.profile->hosts[1];
  EXPECT_EQ(b.ssh.proxy_jump, "none");  // a host may opt out of the default chain
  EXPECT_EQ(b.ssh.origin.at("proxy_jump"), "hosts.b");
}

TEST(ReachKeys, BadProxyJumpIsNamedAtItsLine) {
  const LoadResult r = load_from_string(
      "[lab]\nname = \"x\"\n[hosts.a]\naddress = \"h\"\nproxy_jump = \"perfops@bastion:0\"\n", "/tmp/p.toml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 5);
  EXPECT_EQ(r.errors[0].key, "hosts.a.proxy_jump");
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("jump host 1: \"0\" is not a port"));
}

}  // namespace
}  // namespace labgate::profile

// `become` and `lease_dir` in [defaults.ssh] or per host (issue 13, items 1 and 6):
// sudo is the only way to root labgate offers, and the lease lives in lease_dir,
// which defaults to probe_dir.
#include <gtest/gtest.h>

#include "labgate/profile/load.h"

namespace labgate::profile {
namespace {

LoadResult with_ssh(const std::string& defaults, const std::string& host_b = "") {
  return load_from_string("[lab]\nname = \"x\"\n[defaults.ssh]\n" + defaults +
                              "\n[hosts.a]\naddress = \"10.0.0.1\"\n[hosts.b]\naddress = \"10.0.0.2\"\n" +
                              host_b,
                          "/tmp/inline.toml");
}

TEST(Become, SudoInDefaultsReachesEveryHostAndAHostMayTurnItOff) {
  const LoadResult r = with_ssh("user = \"perfops\"\nbecome = \"sudo\"", "become = \"none\"\n");
  ASSERT_TRUE(r.profile) << r.errors.at(0).str();
  EXPECT_EQ(r.profile->find_host("a")->ssh.become, "sudo");
  EXPECT_TRUE(r.profile->find_host("a")->ssh.uses_sudo());
  EXPECT_FALSE(r.profile->find_host("b")->ssh.become);
  EXPECT_FALSE(r.profile->find_host("b")->ssh.uses_sudo());
}

TEST(Become, RootNeedsNoSudoEvenWhenAsked) {
  const LoadResult r = with_ssh("become = \"sudo\"");
  ASSERT_TRUE(r.profile) << r.errors.at(0).str();
  EXPECT_FALSE(r.profile->find_host("a")->ssh.uses_sudo());
}

TEST(Become, AnythingButSudoIsRefusedNamingTheKey) {
  for (const char* bad : {"su", "sudo -S", "doas"}) {
    const LoadResult r = with_ssh(std::string("become = \"") + bad + "\"");
    ASSERT_FALSE(r.profile) << bad;
    EXPECT_EQ(r.errors.at(0).key, "defaults.ssh.become") << bad;
    EXPECT_NE(r.errors[0].str().find("/tmp/inline.toml:4:"), std::string::npos) << r.errors[0].str();
  }
}

TEST(LeaseDir, DefaultsToProbeDirAndCanBeSetPerHost) {
  const LoadResult r = with_ssh("probe_dir = \"/var/tmp\"", "lease_dir = \"/u01/labgate\"\n");
  ASSERT_TRUE(r.profile) << r.errors.at(0).str();
  EXPECT_EQ(r.profile->find_host("a")->ssh.lease_root(), "/var/tmp");
  EXPECT_EQ(r.profile->find_host("b")->ssh.lease_root(), "/u01/labgate");
}

TEST(LeaseDir, MustBeAnAbsoluteRemoteDirectory) {
  const LoadResult r = with_ssh("lease_dir = \"~/lease\"");
  ASSERT_FALSE(r.profile);
  EXPECT_EQ(r.errors.at(0).key, "defaults.ssh.lease_dir");
}

}  // namespace
}  // namespace labgate::profile

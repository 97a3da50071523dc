// Resolution of a profile host through ssh_config files on disk: explicit
// profile keys win, aliases become HostNames, chains from either source, and
// each value names where it came from.
#include "labgate/transport/host_resolution.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

class HostResolution : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "/ssh_config_" + std::to_string(getpid());
    std::ofstream(path_) << "Host lab-a\n  HostName 198.18.12.2\n  User cfguser\n  Port 2200\n"
                            "  IdentityFile /keys/id_cfg\n  ProxyJump jump@bastion-alias:2022\n"
                            "Host bastion-alias\n  HostName 198.18.12.10\n  IdentityFile /keys/id_bastion\n"
                            "  UserKnownHostsFile /kh/bastion\n";
    host_.name = "a";
    host_.address = "lab-a";
    host_.ssh.ssh_config = path_;
    host_.ssh.known_hosts = "/kh/profile";
  }
  void TearDown() override { unlink(path_.c_str()); }
  std::string path_;
  profile::Host host_;
};

TEST_F(HostResolution, AliasTakesEverythingFromSshConfig) {
  const ResolvedHost r = resolve_host(host_);
  EXPECT_EQ(r.target.host.address, "198.18.12.2");
  EXPECT_EQ(r.target.host.ssh.user, "cfguser");
  EXPECT_EQ(r.target.host.ssh.port, 2200);
  EXPECT_EQ(r.target.host.ssh.identity, "/keys/id_cfg");
  EXPECT_EQ(r.target.origin.at("port"), "ssh_config " + path_ + ":4");
  EXPECT_EQ(r.target.origin.at("known_hosts"), "default");
  ASSERT_EQ(r.jumps.size(), 1u);
  const Endpoint& j = r.jumps[0];
  EXPECT_EQ(j.label, "jump host 1 of 1 for host a");
  EXPECT_EQ(j.host.address, "198.18.12.10");
  EXPECT_EQ(j.host.ssh.user, "jump");
  EXPECT_EQ(j.host.ssh.port, 2022);
  EXPECT_EQ(j.host.ssh.identity, "/keys/id_bastion");
  EXPECT_EQ(j.host.ssh.known_hosts, "/kh/bastion");
  EXPECT_EQ(r.jump_origin, "ssh_config " + path_ + ":6");
  EXPECT_EQ(j.target(), "jump@198.18.12.10:2022");
}

TEST_F(HostResolution, ExplicitProfileKeysWin) {
  host_.ssh.user = "perfops";
  host_.ssh.origin["user"] = "defaults.ssh";
  host_.ssh.port = 22;
  host_.ssh.origin["port"] = "hosts.a";
  host_.ssh.proxy_jump = "ops@198.18.12.11,198.18.12.12:23";
  host_.ssh.origin["proxy_jump"] = "hosts.a";
  const ResolvedHost r = resolve_host(host_);
  EXPECT_EQ(r.target.host.address, "198.18.12.2");
  EXPECT_EQ(r.target.host.ssh.user, "perfops");
  EXPECT_EQ(r.target.origin.at("user"), "profile defaults.ssh.user");
  EXPECT_EQ(r.target.host.ssh.port, 22);
  ASSERT_EQ(r.jumps.size(), 2u);
  EXPECT_EQ(r.jumps[0].target(), "ops@198.18.12.11:22");
  // A hop without a user logs in as the target's user, with the target's key.
  EXPECT_EQ(r.jumps[1].target(), "perfops@198.18.12.12:23");
  EXPECT_EQ(r.jumps[1].host.ssh.identity, "/keys/id_cfg");
  EXPECT_EQ(r.jumps[1].label, "jump host 2 of 2 for host a");
  EXPECT_EQ(r.jump_origin, "profile hosts.a.proxy_jump");
  const auto lines = describe_resolution(r);
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_NE(all.find("jump chain   ops@198.18.12.11:22 -> perfops@198.18.12.12:23 -> perfops@198.18.12.2:22"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("user         perfops (profile defaults.ssh.user)"), std::string::npos) << all;
}

TEST_F(HostResolution, NoSshConfigMeansTheProfileAlone) {
  host_.ssh.ssh_config.reset();
  host_.address = "198.18.12.2";
  const ResolvedHost r = resolve_host(host_);
  EXPECT_EQ(r.target.host.address, "198.18.12.2");
  EXPECT_EQ(r.target.host.ssh.user, "root");
  EXPECT_TRUE(r.jumps.empty());
  EXPECT_EQ(r.target.origin.at("address"), "profile hosts.a.address");
}

TEST_F(HostResolution, BadChainInSshConfigNamesTheLine) {
  std::ofstream(path_) << "Host lab-a\n  ProxyJump a,,b\n";
  try {
    resolve_host(host_);
    FAIL();
  } catch (const Failure& f) {
    EXPECT_NE(std::string(f.what()).find(path_ + ":2: jump host 2: an empty hop"), std::string::npos)
        << f.what();
  }
}

}  // namespace
}  // namespace labgate::transport

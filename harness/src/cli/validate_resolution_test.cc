// `labgate validate -v` shows what each host resolved to through ssh_config,
// and a bad ssh_config makes the profile invalid (exit 2) naming file:line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli/cli_test_util.h"

namespace labgate::cli {
using test_util::Outcome;
using test_util::run_cli;
namespace {

using ::testing::HasSubstr;

class ValidateResolution : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir() + "/validate_res_" + std::to_string(getpid()))
               .lexically_normal();
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ + "/p.toml") << "[lab]\nname = \"x\"\n[defaults.ssh]\nssh_config = \"ssh_config\"\n"
                                       "user = \"perfops\"\n[hosts.a]\naddress = \"mdp7a\"\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(ValidateResolution, VerboseShowsAliasChainAndSources) {
  std::ofstream(dir_ + "/ssh_config")
      << "Host mdp7a\n  HostName 10.1.2.3\n  User ignored\n  ProxyJump ops@bastion\n";
  const Outcome o = run_cli({"validate", "-v", dir_ + "/p.toml"});
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("address      10.1.2.3 (ssh_config " + dir_ +
                               "/ssh_config:2 (HostName for \"mdp7a\"))"));
  EXPECT_THAT(o.out, HasSubstr("user         perfops (profile defaults.ssh.user)"));
  EXPECT_THAT(o.out, HasSubstr("jump chain   ops@bastion:22 -> perfops@10.1.2.3:22 (ssh_config " + dir_ +
                               "/ssh_config:4)"));
  // Without -v only the summary.
  const Outcome quiet = run_cli({"validate", dir_ + "/p.toml"});
  EXPECT_EQ(quiet.rc, 0);
  EXPECT_THAT(quiet.out, ::testing::Not(HasSubstr("jump chain")));
}

TEST_F(ValidateResolution, BadSshConfigIsInvalidNamingTheLine) {
  std::ofstream(dir_ + "/ssh_config") << "Host mdp7a\n  Port 0\n";
  const Outcome o = run_cli({"validate", dir_ + "/p.toml"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_THAT(o.err, HasSubstr("host a: " + dir_ + "/ssh_config:2: Port \"0\" is not a port"));
  EXPECT_THAT(o.err, HasSubstr("invalid: " + dir_ + "/p.toml (1 host cannot be resolved)"));
  EXPECT_THAT(o.out, ::testing::Not(HasSubstr("ok:")));
}

}  // namespace
}  // namespace labgate::cli

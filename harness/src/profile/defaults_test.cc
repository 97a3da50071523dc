// Tests that [defaults.ssh] / [defaults.test] flow into hosts and tests, that a
// host or test overrides single keys, and how local file paths are resolved.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const std::string kInheritFixture = test_util::kProfileFixtures + "defaults-inherit.toml";

class Defaults : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* home = std::getenv("HOME");
    saved_home_ = home ? home : "";
    had_home_ = home != nullptr;
    setenv("HOME", "/home/gate", 1);
    LoadResult r = load(kInheritFixture);
    ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
    p_ = *r.profile;
  }
  void TearDown() override {
    if (had_home_)
      setenv("HOME", saved_home_.c_str(), 1);
    else
      unsetenv("HOME");
  }
  Profile p_;

 private:
  std::string saved_home_;
  bool had_home_ = false;
};

TEST_F(Defaults, HostsInheritDefaultsSsh) {
  const SshSettings& a = p_.find_host("a")->ssh;
  EXPECT_EQ(a.user, "gate");
  EXPECT_EQ(a.port, 22);
  EXPECT_TRUE(a.legacy_algorithms);
  EXPECT_FALSE(a.accept_new_host_keys);
  EXPECT_EQ(a.connect_timeout, seconds(3));
  EXPECT_EQ(a.command_timeout, seconds(90));
  EXPECT_EQ(a.probe_dir, "/var/tmp");
  EXPECT_EQ(a.passphrase_env, "LABGATE_KEY_PASSPHRASE");
}

TEST_F(Defaults, HostOverridesSingleKeys) {
  const SshSettings& b = p_.find_host("b")->ssh;
  EXPECT_EQ(b.port, 2222);
  EXPECT_FALSE(b.legacy_algorithms);
  EXPECT_TRUE(b.accept_new_host_keys);
  EXPECT_EQ(b.user, "gate");  // not overridden
  EXPECT_EQ(b.connect_timeout, seconds(3));
  EXPECT_EQ(p_.find_host("a")->ssh.port, 22);  // the override stays on b
}

TEST_F(Defaults, PathsResolveAgainstTheProfileDirAndHome) {
  const std::string dir = test_util::kSourceDir + "/tests/fixtures/profiles";
  EXPECT_EQ(p_.find_host("a")->ssh.identity, dir + "/keys/id_rsa");
  EXPECT_EQ(p_.find_host("a")->ssh.known_hosts, "/home/gate/lab/known_hosts");
  EXPECT_EQ(p_.find_host("b")->ssh.identity, "/etc/labgate/b_rsa");
  EXPECT_EQ(p_.find_host("here")->ssh.identity,
            test_util::kSourceDir + "/tests/fixtures/profiles/keys/here_rsa");
}

TEST_F(Defaults, LocalHostAndNamespace) {
  const Host* here = p_.find_host("here");
  EXPECT_TRUE(here->is_local());
  EXPECT_EQ(here->netns, "lg-a");
  EXPECT_FALSE(p_.find_host("a")->is_local());
}

TEST_F(Defaults, TestsInheritDefaultsTest) {
  const TestSpec* t = p_.find_test("inherits_all");
  EXPECT_EQ(t->duration, seconds(10));
  EXPECT_EQ(t->warmup, milliseconds(500));
  EXPECT_EQ(t->message_size, 1024u);
  EXPECT_EQ(t->cpu.client, 2);
  EXPECT_EQ(t->cpu.server, 3);
  EXPECT_EQ(t->from, "a");
  EXPECT_EQ(t->to, "b");
  EXPECT_EQ(t->rate_per_sec, 20000.0);
  EXPECT_FALSE(t->nodelay);
  EXPECT_FALSE(t->busy_poll);          // built-in default
  EXPECT_EQ(t->interval, seconds(1));  // built-in default
  EXPECT_FALSE(t->port.has_value());
  EXPECT_EQ(t->budget.size(), 4u);
  EXPECT_DOUBLE_EQ(t->find_bound(Stat::kP99_9)->limit, 1.2e6);
}

TEST_F(Defaults, TestOverridesSingleKeysAndMergesCpu) {
  const TestSpec* t = p_.find_test("overrides");
  EXPECT_EQ(t->from, "b");
  EXPECT_EQ(t->to, "a");
  EXPECT_EQ(t->duration, seconds(60));
  EXPECT_EQ(t->warmup, milliseconds(500));
  EXPECT_EQ(t->message_size, 64u);
  EXPECT_EQ(t->cpu.client, 5);
  EXPECT_EQ(t->cpu.server, 3);  // kept from the default
  EXPECT_EQ(t->interval, milliseconds(250));
  EXPECT_TRUE(t->busy_poll);
  EXPECT_EQ(t->port, 12865);
  EXPECT_EQ(t->find_bound(Stat::kDropped)->limit, 3);
}

TEST_F(Defaults, JitterIgnoresInheritedRrKeys) {
  // from/to/cpu/rate/nodelay come from [defaults.test]; they do not apply to
  // jitter, and being inherited (not written) they are not an error.
  const TestSpec* t = p_.find_test("jitter_ignores_rr_defaults");
  EXPECT_EQ(t->kind, TestKind::kJitter);
  EXPECT_EQ(t->cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(t->threshold, std::chrono::microseconds(5));
  EXPECT_EQ(t->duration, seconds(2));
}

TEST(DefaultsErrors, InheritedBadValueNamesTheDefaultAndTheTest) {
  const std::string text = R"([lab]
name = "x"
[hosts.a]
address = "local"
test_address = "127.0.0.1"
[defaults.test]
to = "z"
[[test]]
name = "t"
kind = "tcp_rr"
from = "a"
budget = { p99 = "1ms" }
)";
  LoadResult r = load_from_string(text, "/tmp/inline.toml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 7);
  EXPECT_EQ(r.errors[0].key, "test[t].to (inherited from [defaults.test])");
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("\"z\" is not a defined host; defined hosts: a"));
}

TEST(DefaultsErrors, TildeFallsBackToTheAccountsHome) {
  const char* home = std::getenv("HOME");
  const std::string saved = home ? home : "";
  setenv("HOME", "relative/not/a/home", 1);  // not absolute: the password database is used
  LoadResult r = load_from_string("[lab]\nname = \"x\"\n[hosts.a]\naddress = \"local\"\nidentity = \"~/k\"\n",
                                  "/tmp/p.toml");
  if (home) setenv("HOME", saved.c_str(), 1);
  ASSERT_TRUE(r.profile);  // falls back to the account's home directory
  EXPECT_TRUE(r.profile->hosts[0].ssh.identity->ends_with("/k"));
  EXPECT_EQ(r.profile->hosts[0].ssh.identity->front(), '/');
}

}  // namespace
}  // namespace labgate::profile

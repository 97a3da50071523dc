// Tests for the per-host rules on a tuned host (all pass) and the entry points.
#include "labgate/checks/checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT: the helpers of test_facts.h
using ::testing::HasSubstr;

TEST(CheckHost, ATunedHostPassesEveryRuleExceptTheGovernorItCannotShow) {
  const auto rs = check_host("b", tuned_rhel5(), example_rules());
  ASSERT_EQ(rs.size(), 21u);
  for (const CheckResult& r : rs) {
    if (r.rule == "cpu/governor") {
      EXPECT_EQ(r.verdict, Verdict::kNotCheckable);
      EXPECT_THAT(r.reason, HasSubstr("cpufreq is not active"));
      continue;
    }
    EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
    EXPECT_TRUE(r.fix.empty()) << r.rule;
    EXPECT_THAT(r.message, ::testing::StartsWith("host b: ")) << r.rule;
  }
  EXPECT_EQ(find(rs, "sysctl/net.ipv4.tcp_sack").message,
            "host b: /proc/sys/net/ipv4/tcp_sack is 0 as the profile wants");
  EXPECT_EQ(find(rs, "sysctl/net.ipv4.tcp_sack").test_name(), "b/sysctl/net.ipv4.tcp_sack");
}

TEST(CheckHost, RulesComeInProfileOrderWithTheNamesDashboardsRead) {
  const auto rs = check_host("a", tuned_rhel5(), example_rules());
  std::vector<std::string> names;
  for (const auto& r : rs) names.push_back(r.rule);
  EXPECT_THAT(names,
              ::testing::ElementsAre(
                  "os_release", "kernel_release", "kernel_cmdline/present/nosoftlockup",
                  "kernel_cmdline/present/intel_idle.max_cstate=0", "kernel_cmdline/present/mce=ignore_ce",
                  "kernel_cmdline/absent/quiet", "sysctl/net.ipv4.tcp_sack", "sysctl/net.ipv4.tcp_rmem",
                  "modules/tg3/loaded", "modules/tg3/version", "modules/tg3/parameters/tg3_disable_eee",
                  "modules/tg3/configured/tg3_disable_eee", "interfaces/eth1/driver",
                  "interfaces/eth1/driver_version", "interfaces/eth1/firmware_version", "interfaces/eth1/mtu",
                  "interfaces/eth1/link", "service/avahi-daemon", "cpu/hyperthreading", "cpu/max_cstate",
                  "cpu/governor"));
}

TEST(CheckAll, OnlyTheHostsThePreconditionsNameThenThePairRules) {
  const facts::Facts a = tuned_rhel5(), b = tuned_rhel5(), c = tuned_rhel5();
  profile::Preconditions p;
  p.kernel_release = "2.6.18-308.el5";
  p.same_on_all_hosts = {"kernel_release"};
  p.hosts = {"a", "c"};
  const auto rs = check_all({{"a", &a}, {"b", &b}, {"c", &c}}, p);
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].host, "a");
  EXPECT_EQ(rs[1].host, "c");
  EXPECT_EQ(rs[2].test_name(), "pair/same/kernel_release");
  const Tally t = tally(rs);
  EXPECT_EQ(t.passed, 3);
  EXPECT_EQ(t.failed + t.not_checkable, 0);
}

TEST(CheckHost, AMissingSectionIsNotCheckableNeverAPass) {
  facts::Facts f = tuned_rhel5();
  f.sections.erase("cpu");
  f.sections.erase("os");
  const auto rs = check_host("b", f, example_rules());
  EXPECT_EQ(find(rs, "os_release").verdict, Verdict::kNotCheckable);
  EXPECT_EQ(find(rs, "cpu/hyperthreading").verdict, Verdict::kNotCheckable);
  EXPECT_EQ(find(rs, "cpu/max_cstate").reason, "the snapshot has no cpu section");
}

}  // namespace
}  // namespace labgate::checks

// Tests for same_on_all_hosts: side-by-side values, expansion, not checkable.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT

TEST(Same, ADifferenceShowsBothHostsSideBySide) {
  facts::Facts a = tuned_rhel5(), b = tuned_rhel5();
  b.kernel.release = text("2.6.18-274.el5", "/proc/sys/kernel/osrelease");
  profile::Preconditions p;
  p.same_on_all_hosts = {"kernel_release", "modules.tg3.version"};
  const auto rs = check_same({{"a", &a}, {"b", &b}}, p);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].test_name(), "pair/same/kernel_release");
  EXPECT_EQ(rs[0].verdict, Verdict::kFail);
  EXPECT_EQ(rs[0].message,
            "pair: kernel_release differs: a 2.6.18-308.el5 (/proc/sys/kernel/osrelease), b 2.6.18-274.el5 "
            "(/proc/sys/kernel/osrelease)");
  ASSERT_EQ(rs[0].values.size(), 2u);
  EXPECT_EQ(rs[0].values[1].host, "b");
  EXPECT_EQ(rs[0].values[1].value, "2.6.18-274.el5");
  EXPECT_EQ(rs[1].verdict, Verdict::kPass);
  EXPECT_EQ(rs[1].message, "pair: modules.tg3.version is 3.125g on every host");
}

TEST(Same, SysctlAndParametersExpandToOneRulePerKey) {
  facts::Facts a = tuned_rhel5(), b = tuned_rhel5();
  b.sysctl["net.ipv4.tcp_sack"] = text("1", "/proc/sys/net/ipv4/tcp_sack");
  b.modules["tg3"].parameters["tg3_debug"] = text("0", "/sys/module/tg3/parameters/tg3_debug");
  profile::Preconditions p;
  p.same_on_all_hosts = {"sysctl", "modules.tg3.parameters"};
  const auto rs = check_same({{"a", &a}, {"b", &b}}, p);
  std::vector<std::string> names;
  for (const auto& r : rs) names.push_back(r.rule + "=" + to_string(r.verdict));
  EXPECT_THAT(names, ::testing::ElementsAre("pair/same/sysctl.net.ipv4.tcp_rmem=pass",
                                            "pair/same/sysctl.net.ipv4.tcp_sack=fail",
                                            "pair/same/modules.tg3.parameters.tg3_debug=fail",
                                            "pair/same/modules.tg3.parameters.tg3_disable_eee=pass"));
  EXPECT_EQ(rs[2].values[0].value, "(absent)");
}

TEST(Same, CpuPathsCompareWhatIsInForce) {
  facts::Facts a = tuned_rhel5(), b = tuned_rhel5();
  b.cpu.processor_max_cstate = text("8", "/sys/module/processor/parameters/max_cstate");
  profile::Preconditions p;
  p.same_on_all_hosts = {"cpu.max_cstate", "cpu.hyperthreading", "cpu.governor", "interfaces.eth1.mtu"};
  const auto rs = check_same({{"a", &a}, {"b", &b}}, p);
  EXPECT_EQ(rs[0].verdict, Verdict::kFail);
  EXPECT_EQ(rs[1].verdict, Verdict::kPass);
  EXPECT_EQ(rs[2].message, "pair: cpu.governor is (cpufreq inactive) on every host");
  EXPECT_EQ(rs[3].message, "pair: interfaces.eth1.mtu is 1500 on every host");
}

TEST(Same, UnknownValuesAndSingleHostsAreNotCheckable) {
  facts::Facts a = tuned_rhel5(), b = tuned_rhel5();
  b.kernel.release = denied("/proc/sys/kernel/osrelease");
  profile::Preconditions p;
  p.same_on_all_hosts = {"kernel_release", "no.such.path"};
  auto rs = check_same({{"a", &a}, {"b", &b}}, p);
  EXPECT_EQ(rs[0].verdict, Verdict::kNotCheckable);
  EXPECT_EQ(rs[0].reason, "b: /proc/sys/kernel/osrelease: Permission denied");
  EXPECT_EQ(rs[1].verdict, Verdict::kNotCheckable);
  rs = check_same({{"a", &a}}, p);
  EXPECT_EQ(rs[0].reason, "only 1 host to compare");
}

}  // namespace
}  // namespace labgate::checks

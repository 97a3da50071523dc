// Tests for the fix script: content per host, reboot reminder, and that it is
// valid sh even when profile names are hostile.
#include "labgate/checks/fix_script.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;
using ::testing::Not;

// `sh -n` parses without running anything: the script must at least be valid sh.
int sh_syntax_check(const std::string& script) {
  const std::string path = ::testing::TempDir() + "/fix_script_test.sh";
  std::ofstream(path) << script;
  return std::system(("sh -n " + path).c_str());
}

std::vector<CheckResult> before_results() {
  facts::Facts a = tuned_rhel5(), b = tuned_rhel5();
  b.sysctl["net.ipv4.tcp_sack"] = text("1", "/proc/sys/net/ipv4/tcp_sack");
  b.kernel.cmdline = text("ro root=/dev/vg00/lvol0 rhgb quiet", "/proc/cmdline");
  b.boot.kernel_args = text("ro root=/dev/vg00/lvol0 rhgb quiet", "/boot/grub/grub.conf:10");
  b.kernel.release = text("2.6.18-274.el5", "/proc/sys/kernel/osrelease");
  profile::Preconditions p = example_rules();
  p.kernel_release.reset();
  p.same_on_all_hosts = {"kernel_release"};
  return check_all({{"a", &a}, {"b", &b}}, p);
}

TEST(FixScript, OneBlockPerFailureOfThatHostAndARebootReminder) {
  const std::string s =
      fix_script("b", before_results(), "profiles/example-rhel58-pair.toml, run 20130808-1200");
  EXPECT_THAT(s, ::testing::StartsWith("#!/bin/sh\n# labgate fix script for host b\n"));
  EXPECT_THAT(
      s, HasSubstr("# [sysctl/net.ipv4.tcp_sack] host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0\n"
                   "sysctl -w 'net.ipv4.tcp_sack=0'\n"));
  EXPECT_THAT(s, HasSubstr("# [kernel_cmdline/absent/quiet]"));
  EXPECT_THAT(s, HasSubstr("grubby --update-kernel='/boot/vmlinuz-2.6.18-308.el5' --args='nosoftlockup'"));
  EXPECT_THAT(s, HasSubstr("# Also found (nothing to run here):\n"));
  EXPECT_THAT(s, HasSubstr("\n# [pair/same/kernel_release] pair: kernel_release differs: a 2.6.18-308.el5"));
  EXPECT_THAT(s, HasSubstr("# [cpu/governor] not checkable: cpufreq is not active"));
  EXPECT_THAT(s, HasSubstr("# reboot\n"));
  EXPECT_THAT(s, Not(HasSubstr("host a:")));
  EXPECT_EQ(sh_syntax_check(s), 0) << s;
}

TEST(FixScript, NothingToFixSaysSo) {
  const std::string s = fix_script("a", before_results(), "p.toml");
  EXPECT_THAT(s, HasSubstr("# Nothing to fix: every rule that could be checked on a passed.\n"));
  EXPECT_THAT(s, Not(HasSubstr("# reboot")));
  EXPECT_EQ(sh_syntax_check(s), 0);
}

TEST(FixScript, HostileNamesStayQuoted) {
  facts::Facts f = tuned_rhel5();
  const std::string evil = "x'; touch /tmp/pwned; echo '\n$(reboot)";
  f.services.units[evil] = f.services.units["avahi-daemon"];
  f.services.units[evil].runlevels.value->at(3) = "on";
  f.sysctl[evil] = text("1", "/proc/sys/x");
  profile::Preconditions p;
  p.services_disabled = {evil};
  p.sysctl = {{evil, {"0"}, {}}};
  const std::string s = fix_script("h\nrm -rf /", check_host("h\nrm -rf /", f, p), "o\nrm -rf /");
  EXPECT_THAT(s, HasSubstr("chkconfig 'x'\\''; touch /tmp/pwned; echo '\\''\n$(reboot)' off"));
  EXPECT_THAT(s, Not(HasSubstr("\nrm -rf /")));
  EXPECT_EQ(sh_syntax_check(s), 0) << s;
}

}  // namespace
}  // namespace labgate::checks

// Tests for sysctl rules: numbers, multi-field strings, missing keys, persistence.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

TEST(Sysctl, TheSeedsMessageAndFix) {
  facts::Facts f = tuned_rhel5();
  f.sysctl["net.ipv4.tcp_sack"] = text("1", "/proc/sys/net/ipv4/tcp_sack");
  f.sysctl_conf.erase("net.ipv4.tcp_sack");
  f.sysctl_conf["net.ipv4.tcp_sack"] = {std::nullopt, "/etc/sysctl.conf", "", false,
                                        "not set in any sysctl file"};
  const auto rs = check_host("b", f, only(&profile::Preconditions::sysctl));
  const auto& r = find(rs, "sysctl/net.ipv4.tcp_sack");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.message, "host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0");
  EXPECT_EQ(r.expected, "0");
  EXPECT_EQ(r.found, "1");
  EXPECT_EQ(r.source, "/proc/sys/net/ipv4/tcp_sack");
  EXPECT_EQ(r.fix,
            "sysctl -w 'net.ipv4.tcp_sack=0'\n# and for the next boot:\necho 'net.ipv4.tcp_sack = 0' >> "
            "/etc/sysctl.conf");
  EXPECT_THAT(r.notes, ::testing::ElementsAre(HasSubstr("not set in /etc/sysctl.conf")));
}

TEST(Sysctl, MultiFieldStringsCompareFieldByField) {
  facts::Facts f = tuned_rhel5();
  f.sysctl["net.ipv4.tcp_rmem"] = text("4096 87380 4194304", "/proc/sys/net/ipv4/tcp_rmem");
  f.sysctl_conf["net.ipv4.tcp_rmem"] = text("4096 87380 4194304", "/etc/sysctl.conf:12");
  const auto rs = check_host("a", f, only(&profile::Preconditions::sysctl));
  const auto& r = find(rs, "sysctl/net.ipv4.tcp_rmem");
  EXPECT_EQ(
      r.message,
      "host a: /proc/sys/net/ipv4/tcp_rmem is 4096 87380 4194304, profile wants 4096 87380 16777216 (field 3 "
      "differs)");
  // The line that sets it is replaced in place, by its line number.
  EXPECT_THAT(r.fix, HasSubstr("sysctl -w 'net.ipv4.tcp_rmem=4096 87380 16777216'\n"));
  EXPECT_THAT(r.fix,
              HasSubstr("sed -i '12s/.*/net\\.ipv4\\.tcp_rmem = 4096 87380 16777216/' '/etc/sysctl.conf'"));
  // Numbers compare as numbers; whitespace is not a difference.
  f.sysctl["net.ipv4.tcp_rmem"] = text("4096  087380 16777216", "/proc/sys/net/ipv4/tcp_rmem");
  EXPECT_EQ(
      find(check_host("a", f, only(&profile::Preconditions::sysctl)), "sysctl/net.ipv4.tcp_rmem").verdict,
      Verdict::kPass);
  f.sysctl["net.ipv4.tcp_rmem"] = text("4096 87380", "/proc/sys/net/ipv4/tcp_rmem");
  EXPECT_THAT(
      find(check_host("a", f, only(&profile::Preconditions::sysctl)), "sysctl/net.ipv4.tcp_rmem").message,
      HasSubstr("(field 3 differs)"));
}

TEST(Sysctl, AKeyTheKernelLacksFailsAndAnUnreadableOneIsNotCheckable) {
  facts::Facts f = tuned_rhel5();
  f.sysctl["net.ipv4.tcp_sack"] = absent("/proc/sys/net/ipv4/tcp_sack");
  f.sysctl["net.ipv4.tcp_rmem"] = denied("/proc/sys/net/ipv4/tcp_rmem");
  const auto rs = check_host("a", f, only(&profile::Preconditions::sysctl));
  EXPECT_EQ(find(rs, "sysctl/net.ipv4.tcp_sack").message,
            "host a: /proc/sys/net/ipv4/tcp_sack does not exist: this kernel has no net.ipv4.tcp_sack");
  EXPECT_EQ(find(rs, "sysctl/net.ipv4.tcp_rmem").verdict, Verdict::kNotCheckable);
  f.sysctl.erase("net.ipv4.tcp_sack");
  EXPECT_EQ(
      find(check_host("a", f, only(&profile::Preconditions::sysctl)), "sysctl/net.ipv4.tcp_sack").reason,
      "the snapshot does not report net.ipv4.tcp_sack");
}

TEST(Sysctl, ALivePassThatTheNextBootLosesCarriesANote) {
  facts::Facts f = tuned_rhel5();
  f.sysctl_conf["net.ipv4.tcp_sack"] = text("1", "/etc/sysctl.conf:38");
  const auto rs = check_host("a", f, only(&profile::Preconditions::sysctl));
  const auto& r = find(rs, "sysctl/net.ipv4.tcp_sack");
  EXPECT_EQ(r.verdict, Verdict::kPass);
  EXPECT_THAT(r.notes, ::testing::ElementsAre("the next boot changes it: /etc/sysctl.conf:38 sets 1"));
}

}  // namespace
}  // namespace labgate::checks

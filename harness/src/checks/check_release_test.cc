// Tests for os_release, kernel_release and kernel_cmdline.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

profile::Preconditions cmdline_only() {
  profile::Preconditions p;
  p.kernel_cmdline = profile::CmdlineRule{{"nosoftlockup", "intel_idle.max_cstate=0"}, {"quiet"}};
  return p;
}

TEST(Release, ModernHostsAreComparedByPrettyName) {
  facts::Facts f = tuned_rhel5();
  f.os.redhat_release = absent("/etc/redhat-release");
  f.os.pretty_name = text("Debian GNU/Linux 12 (bookworm)", "/etc/os-release:1");
  profile::Preconditions p;
  p.os_release = "Red Hat Enterprise Linux Server release 5.8 (Tikanga)";
  const auto rs = check_host("a", f, p);
  const auto& r = rs.at(0);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(
      r.message,
      "host a: /etc/os-release:1 is Debian GNU/Linux 12 (bookworm), profile wants Red Hat Enterprise Linux "
      "Server release 5.8 (Tikanga)");
}

TEST(Release, AnotherKernelFailsAndSaysWhetherTheDefaultEntryBootsTheRightOne) {
  facts::Facts f = tuned_rhel5();
  f.kernel.release = text("2.6.18-274.el5", "/proc/sys/kernel/osrelease");
  profile::Preconditions p;
  p.kernel_release = "2.6.18-308.el5";
  auto r = check_host("b", f, p).at(0);
  EXPECT_EQ(r.message, "host b: /proc/sys/kernel/osrelease is 2.6.18-274.el5, profile wants 2.6.18-308.el5");
  EXPECT_THAT(r.fix, HasSubstr("already boots /vmlinuz-2.6.18-308.el5: reboot"));
  EXPECT_TRUE(r.needs_reboot);
  f.boot.kernel_image = text("/vmlinuz-2.6.18-274.el5", "/boot/grub/grub.conf:10");
  r = check_host("b", f, p).at(0);
  EXPECT_THAT(r.fix, HasSubstr("grubby --set-default='/boot/vmlinuz-2.6.18-308.el5'"));
}

TEST(Cmdline, MissingArgumentsFailWithTheGrubLineThatAddsThem) {
  facts::Facts f = tuned_rhel5();
  f.kernel.cmdline = text("ro root=/dev/vg00/lvol0 rhgb quiet", "/proc/cmdline");
  f.boot.kernel_args = f.kernel.cmdline;
  f.boot.kernel_args.source = "/boot/grub/grub.conf:10";
  const auto rs = check_host("b", f, cmdline_only());
  const auto& r = find(rs, "kernel_cmdline/present/nosoftlockup");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.message, "host b: /proc/cmdline lacks nosoftlockup, profile wants it present");
  EXPECT_EQ(r.found, "(absent)");
  EXPECT_EQ(r.fix,
            "# /boot/grub/grub.conf:10 (the default entry) should read:\n"
            "#   kernel /vmlinuz-2.6.18-308.el5 ro root=/dev/vg00/lvol0 rhgb quiet nosoftlockup\n"
            "grubby --update-kernel='/boot/vmlinuz-2.6.18-308.el5' --args='nosoftlockup'");
  EXPECT_TRUE(r.needs_reboot);
  const auto& quiet = find(rs, "kernel_cmdline/absent/quiet");
  EXPECT_EQ(quiet.message, "host b: /proc/cmdline has quiet, profile wants it absent");
  EXPECT_THAT(quiet.fix, HasSubstr("rhgb\ngrubby"));
  EXPECT_THAT(quiet.fix, HasSubstr("--remove-args='quiet'"));
}

TEST(Cmdline, AnotherValueOfTheSameKeyIsShown) {
  facts::Facts f = tuned_rhel5();
  f.kernel.cmdline = text("ro nosoftlockup intel_idle.max_cstate=1", "/proc/cmdline");
  f.boot.kernel_args = text("ro root=/dev/vg00/lvol0 rhgb nosoftlockup intel_idle.max_cstate=1 mce=ignore_ce",
                            "/boot/grub/grub.conf:10");
  const auto rs = check_host("b", f, cmdline_only());
  const auto& r = find(rs, "kernel_cmdline/present/intel_idle.max_cstate=0");
  EXPECT_EQ(r.found, "intel_idle.max_cstate=1");
  EXPECT_EQ(r.message,
            "host b: /proc/cmdline has intel_idle.max_cstate=1, profile wants intel_idle.max_cstate=0");
  EXPECT_THAT(r.fix, HasSubstr("#   kernel /vmlinuz-2.6.18-308.el5 ro root=/dev/vg00/lvol0 rhgb nosoftlockup "
                               "mce=ignore_ce intel_idle.max_cstate=0\n"));
}

TEST(Cmdline, TheRunningLineDecidesAndTheNextBootIsReported) {
  facts::Facts f = tuned_rhel5();
  // grub.conf was edited but the host not rebooted: still failing, fix is a reboot.
  f.kernel.cmdline = text("ro root=/dev/vg00/lvol0 rhgb", "/proc/cmdline");
  auto r = find(check_host("b", f, cmdline_only()), "kernel_cmdline/present/nosoftlockup");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.fix,
            "# /boot/grub/grub.conf:10 (the default entry) already has nosoftlockup: reboot to apply it.");
  EXPECT_THAT(
      r.notes,
      ::testing::ElementsAre(
          "the next boot changes this: /boot/grub/grub.conf:10 (the default entry) has nosoftlockup"));
  // Running fine, but grub.conf lost it: a pass that warns.
  f = tuned_rhel5();
  f.boot.kernel_args = text("ro root=/dev/vg00/lvol0 rhgb", "/boot/grub/grub.conf:10");
  r = find(check_host("b", f, cmdline_only()), "kernel_cmdline/present/nosoftlockup");
  EXPECT_EQ(r.verdict, Verdict::kPass);
  EXPECT_THAT(
      r.notes,
      ::testing::ElementsAre(
          "the next boot changes this: /boot/grub/grub.conf:10 (the default entry) lacks nosoftlockup"));
}

TEST(Cmdline, AbsentMatchesTheKeyWithAnyValue) {
  facts::Facts f = tuned_rhel5();
  f.kernel.cmdline = text("ro quiet=1", "/proc/cmdline");
  const auto rs = check_host("b", f, cmdline_only());
  EXPECT_EQ(find(rs, "kernel_cmdline/absent/quiet").found, "quiet=1");
}

TEST(Cmdline, Grub2HostsGetTheirOwnFix) {
  facts::Facts f = tuned_rhel5();
  f.kernel.cmdline = text("BOOT_IMAGE=/vmlinuz ro quiet", "/proc/cmdline");
  f.boot = {};
  f.boot.loader = text("grub2", "/etc/default/grub");
  f.boot.kernel_args = text("quiet", "/etc/default/grub:5,6");
  f.os.id = text("debian", "/etc/os-release:6");
  auto r = find(check_host("b", f, cmdline_only()), "kernel_cmdline/present/nosoftlockup");
  EXPECT_EQ(r.fix,
            "# In /etc/default/grub (/etc/default/grub:5,6), GRUB_CMDLINE_LINUX: add nosoftlockup;\n"
            "# then regenerate the boot menu:\nupdate-grub");
  f.os.id = text("rhel", "/etc/os-release:6");
  r = find(check_host("b", f, cmdline_only()), "kernel_cmdline/present/nosoftlockup");
  EXPECT_EQ(r.fix, "grubby --update-kernel=ALL --args='nosoftlockup'");
}

TEST(Cmdline, UnreadableIsNotCheckable) {
  facts::Facts f = tuned_rhel5();
  f.kernel.cmdline = denied("/proc/cmdline");
  const auto rs = check_host("b", f, cmdline_only());
  const auto& r = find(rs, "kernel_cmdline/absent/quiet");
  EXPECT_EQ(r.verdict, Verdict::kNotCheckable);
  EXPECT_EQ(r.reason, "/proc/cmdline: Permission denied");
}

}  // namespace
}  // namespace labgate::checks

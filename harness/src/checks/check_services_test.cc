// Tests for services disabled: SysV runlevels and locks, xinetd, systemd.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT

profile::Preconditions services(std::vector<std::string> names) {
  profile::Preconditions p;
  p.services_disabled = std::move(names);
  return p;
}

facts::ServiceFacts sysv_on(const std::string& name, bool running) {
  facts::ServiceFacts s;
  s.kind = "sysv";
  s.runlevels = {std::vector<std::optional<std::string>>{"off", "off", "off", "on", "on", "on", "off"},
                 "/etc/rc.d/rc[0-6].d", "", false, ""};
  for (int rl = 0; rl < 7; ++rl)
    s.links.push_back("/etc/rc.d/rc" + std::to_string(rl) + ".d/" + (rl >= 3 && rl <= 5 ? "S98" : "K02") +
                      name);
  s.running = running ? facts::Bool{true, "/var/lock/subsys/" + name, "", false, "lock file present"}
                      : facts::Bool{false, "/proc", "", false, ""};
  return s;
}

TEST(Services, SysvOnAndRunningFailsWithChkconfigAndService) {
  facts::Facts f = tuned_rhel5();
  f.services.units["avahi-daemon"] = sysv_on("avahi-daemon", true);
  const auto rs = check_host("a", f, services({"avahi-daemon"}));
  EXPECT_EQ(rs[0].message,
            "host a: avahi-daemon is on in runlevels 3 4 5 (/etc/rc.d/rc3.d/S98avahi-daemon) and running "
            "(/var/lock/subsys/avahi-daemon), profile wants it off and stopped");
  EXPECT_EQ(rs[0].fix, "chkconfig 'avahi-daemon' off; service 'avahi-daemon' stop");
  EXPECT_EQ(rs[0].found, "on in 3 4 5, running");
  EXPECT_EQ(rs[0].test_name(), "a/service/avahi-daemon");
}

TEST(Services, EnabledButStoppedOrDisabledButRunningEachFail) {
  facts::Facts f = tuned_rhel5();
  f.services.units["cups"] = sysv_on("cups", false);
  auto rs = check_host("a", f, services({"cups"}));
  EXPECT_EQ(rs[0].fix, "chkconfig 'cups' off");
  f.services.units["cups"].runlevels.value = std::vector<std::optional<std::string>>(7, "off");
  f.services.units["cups"].running = {true, "/proc/3362/stat", "", false, "process 3362 is named cups"};
  rs = check_host("a", f, services({"cups"}));
  EXPECT_EQ(rs[0].message, "host a: cups is running (/proc/3362/stat), profile wants it off and stopped");
  EXPECT_EQ(rs[0].fix, "service 'cups' stop");
}

TEST(Services, NotInstalledPassesAndXinetdIsJudgedByItsDisableLine) {
  facts::Facts f = tuned_rhel5();
  f.services.units["hidd"] = {"absent", {}, {}, {}, text("not-found", "/etc/rc.d/init.d"), "", {}, {}};
  f.services.units["hidd"].enabled.note = "no rc link, no init script, no xinetd file";
  facts::ServiceFacts rsync;
  rsync.kind = "xinetd";
  rsync.enabled = text("on", "/etc/xinetd.d/rsync:4");
  f.services.units["rsync"] = rsync;
  const auto rs = check_host("a", f, services({"hidd", "rsync"}));
  EXPECT_EQ(rs[0].verdict, Verdict::kPass);
  EXPECT_EQ(rs[0].message, "host a: hidd is not installed (no rc link, no init script, no xinetd file)");
  EXPECT_EQ(rs[1].message,
            "host a: rsync (xinetd, /etc/xinetd.d/rsync:4) is on, profile wants disabled, not running");
  EXPECT_EQ(rs[1].fix, "chkconfig 'rsync' off");
}

TEST(Services, SystemdUnitsDisableNowOrMaskWhenAVendorWantsThem) {
  facts::Facts f = tuned_rhel5();
  f.services.init = text("systemd", "/proc/1/stat");
  facts::ServiceFacts avahi;
  avahi.kind = "systemd";
  avahi.unit = "avahi-daemon.service";
  avahi.enabled = text("enabled", "/etc/systemd/system/multi-user.target.wants/avahi-daemon.service");
  avahi.running = {true, "/sys/fs/cgroup/system.slice/avahi-daemon.service/cgroup.procs", "", false, ""};
  f.services.units["avahi-daemon"] = avahi;
  facts::ServiceFacts logind = avahi;
  logind.unit = "systemd-logind.service";
  logind.enabled = text("enabled", "/usr/lib/systemd/system/multi-user.target.wants/systemd-logind.service");
  f.services.units["systemd-logind"] = logind;
  facts::ServiceFacts cups = avahi;
  cups.unit = "cups.service";
  cups.enabled = text("masked", "/etc/systemd/system/cups.service");
  cups.running = {false, "/proc", "", false, ""};
  f.services.units["cups"] = cups;
  const auto rs = check_host("a", f, services({"avahi-daemon", "systemd-logind", "cups"}));
  EXPECT_EQ(rs[0].message,
            "host a: avahi-daemon.service is enabled "
            "(/etc/systemd/system/multi-user.target.wants/avahi-daemon.service) "
            "and active (/sys/fs/cgroup/system.slice/avahi-daemon.service/cgroup.procs), profile wants it "
            "disabled and "
            "inactive");
  EXPECT_EQ(rs[0].fix, "systemctl disable --now 'avahi-daemon.service'");
  EXPECT_EQ(rs[1].fix, "systemctl mask --now 'systemd-logind.service'");
  EXPECT_EQ(rs[2].verdict, Verdict::kPass);
  EXPECT_EQ(rs[2].found, "masked, inactive");
}

TEST(Services, UnknownRunningStateIsNotCheckable) {
  facts::Facts f = tuned_rhel5();
  f.services.units["avahi-daemon"].running = {std::nullopt, "/proc", "Permission denied", false, ""};
  const auto rs = check_host("a", f, services({"avahi-daemon", "not-asked"}));
  EXPECT_EQ(rs[0].verdict, Verdict::kNotCheckable);
  EXPECT_EQ(rs[1].reason, "the snapshot does not report service not-asked");
}

}  // namespace
}  // namespace labgate::checks

// A modern systemd host (tests/fixtures/systemd/root) through the real probe:
// the systemd, GRUB 2, cpufreq and intel_idle branches of the rules.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/checks/checks.h"
#include "labgate/profile/load.h"
#include "probe_runner.h"

namespace labgate::facts_fixture {
namespace {

using checks::CheckResult;
using checks::Verdict;
using ::testing::HasSubstr;

constexpr const char* kProfile = R"toml(
[lab]
name = "modern"
[hosts.m]
address = "local"
[preconditions]
os_release = "Debian GNU/Linux 12 (bookworm)"
kernel_cmdline = { present = ["nosoftlockup"], absent = ["quiet"] }
[preconditions.sysctl]
"net.ipv4.tcp_sack" = 0
[preconditions.modules.tg3]
loaded = true
version = "3.137"
configured = { tg3_disable_eee = "1" }
[preconditions.interfaces.ens1f0]
driver = "tg3"
mtu = 1500
link = "up"
[preconditions.services]
disabled = ["avahi-daemon", "cron", "cups", "bluetooth", "hidd"]
[preconditions.cpu]
hyperthreading = false
max_cstate = 1
governor = "performance"
)toml";

const std::vector<CheckResult>& results() {
  static const std::vector<CheckResult> rs = [] {
    const profile::LoadResult loaded = profile::load_from_string(kProfile, "modern.toml");
    if (!loaded.profile) throw std::runtime_error("modern.toml: " + loaded.errors.at(0).str());
    static const profile::Preconditions pre = loaded.profile->preconditions;
    static const facts::Facts f = facts_of_root(LABGATE_SOURCE_DIR "/tests/fixtures/systemd/root", pre);
    return checks::check_host("m", f, pre);
  }();
  return rs;
}

const CheckResult& systemd_result(const std::string& rule) {
  for (const CheckResult& r : results())
    if (r.rule == rule) return r;
  throw std::runtime_error("no result " + rule);
}

TEST(SystemdHost, ServicesAreJudgedByUnitLinksAndCgroups) {
  EXPECT_EQ(systemd_result("service/avahi-daemon").message,
            "host m: avahi-daemon.service is enabled "
            "(/etc/systemd/system/multi-user.target.wants/avahi-daemon.service) "
            "and active (/sys/fs/cgroup/system.slice/avahi-daemon.service/cgroup.procs), profile wants it "
            "disabled and "
            "inactive");
  EXPECT_EQ(systemd_result("service/avahi-daemon").fix, "systemctl disable --now 'avahi-daemon.service'");
  EXPECT_EQ(systemd_result("service/cron").fix,
            "systemctl disable 'cron.service'");  // enabled, its cgroup empty
  EXPECT_EQ(systemd_result("service/cups").found, "masked, inactive");
  EXPECT_EQ(systemd_result("service/bluetooth").verdict, Verdict::kPass);
  EXPECT_EQ(systemd_result("service/hidd").found, "not installed");
}

TEST(SystemdHost, TheRunningCmdlineDecidesAndGrub2IsTheNextBoot) {
  const CheckResult& r = systemd_result("kernel_cmdline/present/nosoftlockup");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.notes, ::testing::ElementsAre("the next boot changes this: /etc/default/grub:5,6 (GRUB 2 "
                                              "defaults) has nosoftlockup"));
  EXPECT_EQ(systemd_result("kernel_cmdline/absent/quiet").verdict, Verdict::kFail);
  EXPECT_EQ(systemd_result("os_release").verdict, Verdict::kPass);
}

TEST(SystemdHost, SysctlLiveFailsWhileSysctlDAlreadyHasTheFix) {
  const CheckResult& r = systemd_result("sysctl/net.ipv4.tcp_sack");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.fix, HasSubstr("# /etc/sysctl.d/90-latency.conf:1 already sets it for the next boot."));
}

TEST(SystemdHost, InTreeTg3HasNoVersionAndTheModprobeDOptionCounts) {
  EXPECT_EQ(systemd_result("modules/tg3/version").message,
            "host m: /sys/module/tg3/version does not exist (a driver built without a version)");
  EXPECT_EQ(systemd_result("modules/tg3/configured/tg3_disable_eee").verdict, Verdict::kPass);
  EXPECT_EQ(systemd_result("modules/tg3/configured/tg3_disable_eee").source, "/etc/modprobe.d/tg3.conf:2");
}

TEST(SystemdHost, InterfaceWithoutCarrierAndAJumboMtu) {
  EXPECT_EQ(systemd_result("interfaces/ens1f0/mtu").found, "9000");
  EXPECT_THAT(systemd_result("interfaces/ens1f0/link").fix, HasSubstr("no carrier"));
  EXPECT_EQ(systemd_result("interfaces/ens1f0/driver").verdict, Verdict::kPass);
}

TEST(SystemdHost, CpuHyperThreadingIntelIdleAndOneCpuOnPowersave) {
  EXPECT_EQ(systemd_result("cpu/hyperthreading").found, "on");
  EXPECT_EQ(systemd_result("cpu/max_cstate").source, "/sys/module/intel_idle/parameters/max_cstate");
  EXPECT_EQ(systemd_result("cpu/max_cstate").found, "9");
  EXPECT_EQ(systemd_result("cpu/governor").message,
            "host m: cpufreq governor is not performance on cpu3 powersave "
            "(/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor)");
}

}  // namespace
}  // namespace labgate::facts_fixture

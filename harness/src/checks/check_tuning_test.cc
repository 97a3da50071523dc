// Tests for the tuning rules on facts built in code: what the recorded trees
// do not show (RHEL 6's THP path, a NUMA node of -1, a wrong network address,
// idle states and cpufreq ranges), services that must run, and pair rules over
// the new facts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

facts::Facts systemd_host() {
  facts::Facts f = tuned_rhel5();
  f.services.init = text("systemd", "/proc/1/stat");
  f.boot.loader = text("grub2", "/etc/default/grub");
  f.boot.kernel_args = text("ro", "/etc/default/grub:3");
  f.os.id = text("rhel", "/etc/os-release:3");
  return f;
}

profile::Preconditions cpu_rule() {
  profile::Preconditions p;
  p.cpu = profile::CpuRule{};
  return p;
}

TEST(Tuning, Rhel6TransparentHugepagesAreFixedInRcLocal) {
  facts::Facts f = tuned_rhel5();
  f.cpu.transparent_hugepage = text("always", "/sys/kernel/mm/redhat_transparent_hugepage/enabled");
  profile::Preconditions p = cpu_rule();
  p.cpu->transparent_hugepage = "never";
  const auto rs = check_host("a", f, p);
  const auto& r = find(rs, "cpu/transparent_hugepage");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.fix,
            "echo never > /sys/kernel/mm/redhat_transparent_hugepage/enabled\n# and for every boot:\n"
            "# the echo above in /etc/rc.d/rc.local (RHEL 6 has no boot argument for it)");
}

TEST(Tuning, IsolationFixesFollowTheOsGeneration) {
  profile::Preconditions p = cpu_rule();
  p.cpu->isolated = "2-15";
  facts::Facts f = systemd_host();
  f.cpu.isolated = text("", "/sys/devices/system/cpu/isolated");
  auto r = find(check_host("a", f, p), "cpu/isolated");
  EXPECT_EQ(r.found, "(none)");
  EXPECT_THAT(r.fix, HasSubstr("grubby --update-kernel=ALL --args='isolcpus=2-15'"));
  EXPECT_THAT(r.fix, HasSubstr("tuned-adm profile cpu-partitioning"));
  f = tuned_rhel5();
  f.cpu.isolated = text("2-7", "/proc/cmdline");
  r = find(check_host("a", f, p), "cpu/isolated");
  EXPECT_THAT(r.fix, HasSubstr("grubby --update-kernel='/boot/vmlinuz-2.6.18-308.el5' --args='isolcpus=2-15'"));
  EXPECT_THAT(r.fix, ::testing::Not(HasSubstr("tuned")));
}

TEST(Tuning, ServicesThatMustRun) {
  profile::Preconditions p;
  p.services_enabled = {"tuned"};
  facts::Facts f = systemd_host();
  facts::ServiceFacts tuned;
  tuned.kind = "systemd";
  tuned.unit = "tuned.service";
  tuned.enabled = text("disabled", "/usr/lib/systemd/system/tuned.service");
  tuned.running = {false, "/sys/fs/cgroup/system.slice/tuned.service/cgroup.procs", "", false, ""};
  f.services.units["tuned"] = tuned;
  auto r = find(check_host("a", f, p), "service_enabled/tuned");
  EXPECT_EQ(r.found, "not enabled, not running");
  EXPECT_EQ(r.fix, "systemctl enable --now 'tuned.service'");
  f = tuned_rhel5();
  facts::ServiceFacts ntpd;
  ntpd.kind = "sysv";
  ntpd.runlevels = {std::vector<std::optional<std::string>>{"off", "off", "on", "on", "on", "on", "off"},
                    "/etc/rc.d/rc[0-6].d", "", false, ""};
  ntpd.running = {true, "/var/lock/subsys/ntpd", "", false, ""};
  f.services.units["ntpd"] = ntpd;
  p.services_enabled = {"ntpd"};
  EXPECT_EQ(find(check_host("a", f, p), "service_enabled/ntpd").verdict, Verdict::kPass);
  f.services.units.erase("ntpd");
  p.services_enabled = {"ntpd"};
  EXPECT_EQ(find(check_host("a", f, p), "service_enabled/ntpd").verdict, Verdict::kNotCheckable);
}

TEST(Tuning, NoProximityInformationIsNotAMismatch) {
  facts::Facts f = tuned_rhel5();
  f.interfaces["eth1"].numa_node = {-1, "/sys/class/net/eth1/device/numa_node", "", false, ""};
  profile::Preconditions p;
  profile::InterfaceRule eth1;
  eth1.name = "eth1";
  eth1.numa_node = 0;
  p.interfaces = {eth1};
  const auto rs = check_host("a", f, p);
  const auto& r = find(rs, "interfaces/eth1/numa_node");
  EXPECT_EQ(r.verdict, Verdict::kNotCheckable);
  EXPECT_EQ(r.reason,
            "/sys/class/net/eth1/device/numa_node is -1: the firmware gives no proximity information, so no "
            "node can be told");
}

TEST(Tuning, AnInterfaceMustHoldItsNetworksAddress) {
  facts::Facts f = tuned_rhel5();
  f.interfaces["eth1"].ipv4_address = text("198.19.0.1", "ioctl SIOCGIFADDR eth1");
  profile::Preconditions p;
  profile::InterfaceRule eth1;
  eth1.name = "eth1";
  eth1.network = "direct";
  p.interfaces = {eth1};
  p.host_use["a"].networks = {{"direct", "198.18.0.1"}, {"switch", "198.19.0.1"}};
  const auto rs = check_host("a", f, p);
  const auto& r = find(rs, "interfaces/eth1/network");
  EXPECT_EQ(r.message,
            "host a: eth1 address (ioctl SIOCGIFADDR eth1) is 198.19.0.1, profile wants direct (198.18.0.1)");
}

TEST(Tuning, IdleStatesAndTheCpufreqRangeSayWhatTheLimitCannot) {
  facts::Facts f = systemd_host();
  f.cpu.cpuidle_driver = text("haltpoll", "/sys/devices/system/cpu/cpuidle/current_driver");
  f.cpu.cstates["cpu0"] = text("POLL C1", "/sys/devices/system/cpu/cpu0/cpuidle");
  f.cpu.cstates["cpu5"] = text("POLL C1 C6", "/sys/devices/system/cpu/cpu5/cpuidle");
  profile::Preconditions p = cpu_rule();
  p.cpu->max_cstate = 1;
  auto r = find(check_host("a", f, p), "cpu/max_cstate");
  EXPECT_EQ(r.message, "host a: cpu5 may still enter C6 (/sys/devices/system/cpu/cpu5/cpuidle), profile wants at most C1");
  f.cpu.cstates["cpu5"] = text("POLL C1", "/sys/devices/system/cpu/cpu5/cpuidle");
  EXPECT_EQ(find(check_host("a", f, p), "cpu/max_cstate").verdict, Verdict::kPass);

  p.cpu->max_cstate.reset();
  p.cpu->governor = "performance";
  f.cpu.cpufreq = {true, "/sys/devices/system/cpu/cpu*/cpufreq", "", false, ""};
  f.cpu.governors["cpu0"] = text("performance", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  f.cpu.freq_range["cpu0"] = text("800000 3600000", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_{min,max}_freq");
  r = find(check_host("a", f, p), "cpu/governor");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.message, HasSubstr("cpufreq may still scale: cpu0 800000-3600000 kHz"));
  f.cpu.freq_range["cpu0"] = text("3600000 3600000", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_{min,max}_freq");
  EXPECT_EQ(find(check_host("a", f, p), "cpu/governor").verdict, Verdict::kPass);
}

TEST(Tuning, PairRulesCompareTheNewFacts) {
  facts::Facts a = tuned_rhel5(), b = tuned_rhel5();
  a.interfaces["eth1"].coalesce["rx_usecs"] = text("0", "ioctl SIOCETHTOOL ETHTOOL_GCOALESCE eth1");
  b.interfaces["eth1"].coalesce["rx_usecs"] = text("20", "ioctl SIOCETHTOOL ETHTOOL_GCOALESCE eth1");
  a.cpu.isolated = b.cpu.isolated = text("2-15", "/sys/devices/system/cpu/isolated");
  a.interfaces["eth1"].channels["combined"] = {std::nullopt, "ioctl SIOCETHTOOL ETHTOOL_GCHANNELS eth1",
                                               "Not supported", false, ""};
  b.interfaces["eth1"].channels = a.interfaces["eth1"].channels;
  profile::Preconditions p;
  p.same_on_all_hosts = {"interfaces.eth1.coalesce", "cpu.isolated", "interfaces.eth1.channels"};
  const auto rs = check_same({{"a", &a}, {"b", &b}}, p);
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].message,
            "pair: interfaces.eth1.coalesce differs: a rx_usecs=0 (ioctl SIOCETHTOOL ETHTOOL_GCOALESCE eth1), "
            "b rx_usecs=20 (ioctl SIOCETHTOOL ETHTOOL_GCOALESCE eth1)");
  EXPECT_EQ(rs[1].verdict, Verdict::kPass);
  EXPECT_EQ(rs[2].verdict, Verdict::kNotCheckable);
  EXPECT_THAT(rs[2].reason, HasSubstr("combined: Not supported"));
}

}  // namespace
}  // namespace labgate::checks

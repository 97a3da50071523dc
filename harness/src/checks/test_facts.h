// Test helpers: facts and profile rules built in code, shaped like the RHEL 5.8
// pair of the seed, so each rule test states only what it changes.
#pragma once

#include <string>

#include "labgate/checks/checks.h"

namespace labgate::checks::testing {

inline facts::Text text(const std::string& v, const std::string& source) {
  return {v, source, "", false, ""};
}
inline facts::Text absent(const std::string& source) {
  return {std::nullopt, source, "No such file or directory", true, ""};
}
inline facts::Text denied(const std::string& source) {
  return {std::nullopt, source, "Permission denied", false, ""};
}

/// A RHEL 5.8 host after the seed's tuning, as the facts probe reports it.
inline facts::Facts tuned_rhel5() {
  facts::Facts f;
  f.schema = facts::kSchema;
  f.sections = {"os", "kernel", "boot", "sysctl", "sysctl_conf", "modules", "interfaces", "services", "cpu"};
  f.os.redhat_release = text("Red Hat Enterprise Linux Server release 5.8 (Tikanga)", "/etc/redhat-release");
  f.kernel.release = text("2.6.18-308.el5", "/proc/sys/kernel/osrelease");
  f.kernel.cmdline = text("ro root=/dev/vg00/lvol0 rhgb nosoftlockup intel_idle.max_cstate=0 mce=ignore_ce",
                          "/proc/cmdline");
  f.boot.loader = text("grub-legacy", "/boot/grub/grub.conf");
  f.boot.kernel_image = text("/vmlinuz-2.6.18-308.el5", "/boot/grub/grub.conf:10");
  f.boot.kernel_args = text(*f.kernel.cmdline.value, "/boot/grub/grub.conf:10");
  f.sysctl["net.ipv4.tcp_sack"] = text("0", "/proc/sys/net/ipv4/tcp_sack");
  f.sysctl["net.ipv4.tcp_rmem"] = text("4096 87380 16777216", "/proc/sys/net/ipv4/tcp_rmem");
  f.sysctl_conf["net.ipv4.tcp_sack"] = text("0", "/etc/sysctl.conf:38");
  f.sysctl_conf["net.ipv4.tcp_rmem"] = text("4096 87380 16777216", "/etc/sysctl.conf:47");
  facts::ModuleFacts tg3;
  tg3.loaded = {true, "/proc/modules", "", false, ""};
  tg3.version = text("3.125g", "/sys/module/tg3/version");
  tg3.parameters["tg3_disable_eee"] = text("1", "/sys/module/tg3/parameters/tg3_disable_eee");
  tg3.configured["tg3_disable_eee"] = text("1", "/etc/modprobe.conf:9");
  f.modules["tg3"] = tg3;
  facts::InterfaceFacts eth1;
  eth1.exists = {true, "/proc/net/dev", "", false, ""};
  eth1.driver = text("tg3", "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1");
  eth1.driver_version = text("3.125g", "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1");
  eth1.firmware_version = text("5719-v1.31 NCSI v1.1.15.0", "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1");
  eth1.mtu = {1500, "ioctl SIOCGIFMTU eth1", "", false, ""};
  eth1.admin = text("up", "ioctl SIOCGIFFLAGS eth1");
  eth1.link = text("up", "ioctl SIOCGIFFLAGS eth1");
  f.interfaces["eth1"] = eth1;
  f.services.init = text("sysv", "/proc/1/stat");
  facts::ServiceFacts avahi;
  avahi.kind = "sysv";
  avahi.runlevels = {std::vector<std::optional<std::string>>(7, "off"), "/etc/rc.d/rc[0-6].d", "", false, ""};
  for (int rl = 0; rl < 7; ++rl)
    avahi.links.push_back("/etc/rc.d/rc" + std::to_string(rl) + ".d/K02avahi-daemon");
  avahi.running = {false, "/proc", "", false, "no /var/lock/subsys/avahi-daemon"};
  f.services.units["avahi-daemon"] = avahi;
  f.cpu.hyperthreading = {false, "/proc/cpuinfo", "", false, "siblings 8, cpu cores 8 per package"};
  f.cpu.intel_idle_max_cstate = absent("/sys/module/intel_idle/parameters/max_cstate");
  f.cpu.processor_max_cstate = text("0", "/sys/module/processor/parameters/max_cstate");
  f.cpu.cpuidle_driver = absent("/sys/devices/system/cpu/cpuidle/current_driver");
  f.cpu.cpufreq = {false, "/sys/devices/system/cpu/cpu*/cpufreq", "", false, ""};
  return f;
}

/// The example profile's rules, reduced to one of each kind.
inline profile::Preconditions example_rules() {
  profile::Preconditions p;
  p.os_release = "Red Hat Enterprise Linux Server release 5.8 (Tikanga)";
  p.kernel_release = "2.6.18-308.el5";
  p.kernel_cmdline =
      profile::CmdlineRule{{"nosoftlockup", "intel_idle.max_cstate=0", "mce=ignore_ce"}, {"quiet"}};
  p.sysctl = {{"net.ipv4.tcp_sack", {"0"}, {}}, {"net.ipv4.tcp_rmem", {"4096", "87380", "16777216"}, {}}};
  profile::ModuleRule tg3;
  tg3.name = "tg3";
  tg3.loaded = true;
  tg3.version = "3.125g";
  tg3.parameters = {{"tg3_disable_eee", "1"}};
  tg3.configured = {{"tg3_disable_eee", "1"}};
  p.modules = {tg3};
  profile::InterfaceRule eth1;
  eth1.name = "eth1";
  eth1.driver = "tg3";
  eth1.driver_version = "3.125g";
  eth1.firmware_version = "5719-v1.31 NCSI v1.1.15.0";
  eth1.mtu = 1500;
  eth1.link = "up";
  p.interfaces = {eth1};
  p.services_disabled = {"avahi-daemon"};
  p.cpu = profile::CpuRule{};
  p.cpu->hyperthreading = false;
  p.cpu->max_cstate = 0;
  p.cpu->governor = "performance";
  return p;
}

/// Only one family of the example rules, e.g. only(&profile::Preconditions::sysctl).
template <class M>
profile::Preconditions only(M profile::Preconditions::*member) {
  profile::Preconditions p;
  p.*member = example_rules().*member;
  return p;
}

/// The single result named `rule` (test fails loudly if absent).
inline const CheckResult& find(const std::vector<CheckResult>& rs, const std::string& rule) {
  for (const CheckResult& r : rs)
    if (r.rule == rule) return r;
  static CheckResult none;
  none.rule = "(no result named " + rule + ")";
  none.message = none.rule;
  return none;
}

}  // namespace labgate::checks::testing

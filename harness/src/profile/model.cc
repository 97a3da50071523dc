// Small queries on the profile model: positions, look-ups, rule counts, and the
// fact paths same_on_all_hosts may compare.
#include <algorithm>

#include "labgate/profile/load.h"

namespace labgate::profile {

std::string SourcePos::str() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string ProfileError::str() const { return pos.str() + ": " + message; }

std::string Host::test_address_of(const std::string& network) const {
  if (network.empty()) return test_address;
  for (const TestNetwork& n : networks)
    if (n.name == network) return n.address;
  return "";
}

std::vector<std::string> Host::network_names() const {
  std::vector<std::string> out;
  for (const TestNetwork& n : networks) out.push_back(n.name);
  return out;
}

const Host* Profile::find_host(const std::string& name) const {
  for (const Host& h : hosts)
    if (h.name == name) return &h;
  return nullptr;
}

const TestSpec* Profile::find_test(const std::string& name) const {
  for (const TestSpec& t : tests)
    if (t.name == name) return &t;
  return nullptr;
}

int Preconditions::rule_count() const {
  auto count = [](const auto& opt) { return opt ? 1 : 0; };
  int n = count(os_release) + count(kernel_release) + static_cast<int>(same_on_all_hosts.size()) +
          static_cast<int>(sysctl.size()) + static_cast<int>(services_disabled.size());
  if (kernel_cmdline) n += static_cast<int>(kernel_cmdline->present.size() + kernel_cmdline->absent.size());
  for (const ModuleRule& m : modules)
    n += count(m.loaded) + count(m.version) + static_cast<int>(m.parameters.size() + m.configured.size());
  n += static_cast<int>(services_enabled.size());
  for (const InterfaceRule& i : interfaces) {
    n += count(i.driver) + count(i.driver_version) + count(i.firmware_version) + count(i.link) + count(i.mtu) +
         count(i.speed_mbps) + count(i.duplex) + count(i.numa_node) + count(i.irq_cpus) + count(i.network);
    for (const auto& [group, fields] : i.settings) n += static_cast<int>(fields.size());
    if (const auto& m = i.multicast)
      n += count(m->flag) + count(m->route) + count(m->rp_filter) + count(m->force_igmp_version) +
           count(m->igmp_max_memberships);
  }
  if (cpu)
    n += count(cpu->hyperthreading) + count(cpu->max_cstate) + count(cpu->governor) + count(cpu->isolated) +
         count(cpu->nohz_full) + count(cpu->clocksource) + count(cpu->transparent_hugepage) +
         count(cpu->tuned_profile) + (cpu->test_cpus_isolated ? 1 : 0) + (cpu->test_cpus_nic_local ? 1 : 0);
  if (clock) n += count(clock->synchronized) + count(clock->max_error) + count(clock->source);
  n += static_cast<int>(bios.size()) + (buffers_cover_bdp ? 1 : 0);
  return n;
}

const std::vector<std::string>& same_on_all_hosts_paths() {
  static const std::vector<std::string> kPaths{"kernel_release",
                                               "os_release",
                                               "kernel_cmdline",
                                               "sysctl",
                                               "modules.<m>.version",
                                               "modules.<m>.parameters",
                                               "interfaces.<if>.driver_version",
                                               "interfaces.<if>.firmware_version",
                                               "interfaces.<if>.mtu",
                                               "interfaces.<if>.driver",
                                               "interfaces.<if>.coalesce",
                                               "interfaces.<if>.ring",
                                               "interfaces.<if>.channels",
                                               "interfaces.<if>.offload",
                                               "interfaces.<if>.pause",
                                               "interfaces.<if>.numa_node",
                                               "interfaces.<if>.irq_cpus",
                                               "cpu.max_cstate",
                                               "cpu.governor",
                                               "cpu.hyperthreading",
                                               "cpu.isolated",
                                               "cpu.nohz_full",
                                               "cpu.clocksource",
                                               "cpu.transparent_hugepage",
                                               "cpu.tuned_profile"};
  return kPaths;
}

const std::vector<SettingField>& interface_setting_fields() {
  static const std::vector<SettingField> kFields{
      {"coalesce", "rx_usecs", false},   {"coalesce", "rx_frames", false},  {"coalesce", "tx_usecs", false},
      {"coalesce", "tx_frames", false},  {"coalesce", "adaptive_rx", true}, {"coalesce", "adaptive_tx", true},
      {"ring", "rx", false},             {"ring", "tx", false},             {"channels", "combined", false},
      {"channels", "rx", false},         {"channels", "tx", false},         {"channels", "other", false},
      {"offload", "rx", true},           {"offload", "tx", true},           {"offload", "sg", true},
      {"offload", "tso", true},          {"offload", "gso", true},          {"offload", "gro", true},
      {"offload", "lro", true},          {"pause", "autoneg", true},        {"pause", "rx", true},
      {"pause", "tx", true}};
  return kFields;
}

bool is_known_fact_path(const std::string& path) {
  for (const std::string& pattern : same_on_all_hosts_paths()) {
    const std::size_t open = pattern.find('<');
    if (open == std::string::npos) {
      if (path == pattern) return true;
      continue;
    }
    // "<prefix><name><suffix>" with a non-empty name (interface names may hold dots).
    const std::string prefix = pattern.substr(0, open);
    const std::string suffix = pattern.substr(pattern.find('>') + 1);
    if (path.size() > prefix.size() + suffix.size() && path.starts_with(prefix) && path.ends_with(suffix))
      return true;
  }
  return false;
}

}  // namespace labgate::profile

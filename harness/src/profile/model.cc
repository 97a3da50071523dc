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
  for (const InterfaceRule& i : interfaces)
    n += count(i.driver) + count(i.driver_version) + count(i.firmware_version) + count(i.link) + count(i.mtu);
  if (cpu) n += count(cpu->hyperthreading) + count(cpu->max_cstate) + count(cpu->governor);
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
                                               "cpu.max_cstate",
                                               "cpu.governor",
                                               "cpu.hyperthreading"};
  return kPaths;
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

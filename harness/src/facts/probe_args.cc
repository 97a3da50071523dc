// The facts probe's arguments for a profile's preconditions (see probe_args.h).
#include "labgate/facts/probe_args.h"

#include <set>

namespace labgate::facts {
namespace {

// "modules.tg3.version" -> "tg3"; "" when `path` does not start with `prefix.`.
std::string middle(const std::string& path, const std::string& prefix) {
  if (path.rfind(prefix + ".", 0) != 0) return "";
  const std::string rest = path.substr(prefix.size() + 1);
  const auto dot = rest.rfind('.');
  return dot == std::string::npos ? "" : rest.substr(0, dot);
}

}  // namespace

std::vector<std::string> probe_arguments(const profile::Preconditions& pre, const std::string& root) {
  // os and kernel are always gathered: they name the host in every report.
  std::set<std::string> sections{"os", "kernel"};
  std::set<std::string> modules, ifaces;
  std::vector<std::string> args;
  if (!root.empty()) args.insert(args.end(), {"--root", root});

  if (pre.kernel_cmdline) sections.insert("boot");  // to tell when the next boot differs
  if (!pre.sysctl.empty()) sections.insert("sysctl");
  for (const auto& m : pre.modules) modules.insert(m.name);
  for (const auto& i : pre.interfaces) ifaces.insert(i.name);
  std::vector<std::string> mcast_sysctls;
  for (const auto& i : pre.interfaces) {
    if (!i.multicast) continue;
    for (const char* k : {"rp_filter", "force_igmp_version"})
      for (const std::string& dev : {std::string("all"), i.name})
        mcast_sysctls.push_back("net.ipv4.conf." + dev + "." + k);
    mcast_sysctls.push_back("net.ipv4.igmp_max_memberships");
  }
  if (!mcast_sysctls.empty()) sections.insert("sysctl");
  if (!pre.services_disabled.empty() || !pre.services_enabled.empty()) sections.insert({"services", "processes"});
  bool all_ifaces = false;
  if (pre.cpu) {
    sections.insert("cpu");
    // Fixes for isolcpus/nohz_full/clocksource name the boot loader's line.
    if (pre.cpu->isolated || pre.cpu->nohz_full || pre.cpu->clocksource || pre.cpu->transparent_hugepage)
      sections.insert("boot");
    // The NIC of a test is whichever interface holds its test address.
    all_ifaces = pre.cpu->test_cpus_isolated || pre.cpu->test_cpus_nic_local;
    if (pre.cpu->tuned_profile) sections.insert({"services", "processes"});
  }
  // Which daemon disciplines the clock is told by its process too.
  if (pre.clock) sections.insert({"clock", "processes"});
  for (const std::string& p : pre.same_on_all_hosts) {
    if (p == "kernel_cmdline") sections.insert("boot");
    if (p.rfind("cpu.", 0) == 0) sections.insert("cpu");
    if (const std::string m = middle(p, "modules"); !m.empty()) modules.insert(m);
    if (const std::string i = middle(p, "interfaces"); !i.empty()) ifaces.insert(i);
  }
  if (!modules.empty()) sections.insert("modules");
  if (!ifaces.empty() || all_ifaces) sections.insert("interfaces");

  std::string list;
  for (const std::string& s : sections) list += (list.empty() ? "" : ",") + s;
  args.insert(args.end(), {"--sections", list});
  for (const auto& s : pre.sysctl) args.insert(args.end(), {"--sysctl", s.key});
  for (const std::string& s : std::set<std::string>(mcast_sysctls.begin(), mcast_sysctls.end()))
    args.insert(args.end(), {"--sysctl", s});
  for (const std::string& m : modules) args.insert(args.end(), {"--module", m});
  for (const std::string& i : ifaces) args.insert(args.end(), {"--iface", i});
  if (all_ifaces) args.push_back("--all-interfaces");
  for (const std::string& s : pre.services_disabled) args.insert(args.end(), {"--service", s});
  for (const std::string& s : pre.services_enabled) args.insert(args.end(), {"--service", s});
  if (pre.cpu && pre.cpu->tuned_profile) args.insert(args.end(), {"--service", "tuned"});
  return args;
}

}  // namespace labgate::facts

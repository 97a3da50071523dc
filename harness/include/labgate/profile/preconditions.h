// The [preconditions] part of a profile: what each host's environment must be
// (release, kernel command line, sysctls, modules, interfaces, services, CPU).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/source_pos.h"

namespace labgate::profile {

/// A sysctl value: either a number or a whitespace-separated multi-field string.
struct SysctlExpectation {
  std::string key;
  std::vector<std::string> fields;  ///< "4096 87380 16777216" -> 3 fields; 0 -> {"0"}
  SourcePos pos;
};

/// [preconditions.modules.NAME]
struct ModuleRule {
  std::string name;
  std::optional<bool> loaded;
  std::optional<std::string> version;
  std::map<std::string, std::string> parameters;  ///< live /sys/module/<m>/parameters
  std::map<std::string, std::string> configured;  ///< `options` in modprobe config
  SourcePos pos;
};

/// [preconditions.interfaces.NAME]
struct InterfaceRule {
  std::string name;
  std::optional<std::string> driver, driver_version, firmware_version, link;  ///< link: "up" or "down"
  std::optional<int> mtu;
  SourcePos pos;
};

/// [preconditions.cpu]: what the OS can see of the BIOS power settings.
struct CpuRule {
  std::optional<bool> hyperthreading;
  std::optional<int> max_cstate;
  std::optional<std::string> governor;
};

/// One [preconditions.bios] rule: a BIOS (HP RBSU) setting as HP's `conrep -s`
/// names it, e.g. Intel_Hyperthreading = "Disabled". Hosts without conrep report
/// these rules as not checkable, never as passed.
struct BiosExpectation {
  std::string name;   ///< conrep's section name, "HP_Power_Profile"
  std::string value;  ///< the section's text, "Maximum_Performance"
  SourcePos pos;
};

/// kernel_cmdline = { present = [...], absent = [...] }: whole words of /proc/cmdline.
struct CmdlineRule {
  std::vector<std::string> present;
  std::vector<std::string> absent;
};

struct Preconditions {
  std::vector<std::string> hosts;  ///< empty = every host
  std::optional<std::string> os_release, kernel_release;
  std::optional<CmdlineRule> kernel_cmdline;
  std::vector<std::string> same_on_all_hosts;  ///< fact paths, e.g. "modules.tg3.version"
  std::vector<SysctlExpectation> sysctl;
  std::vector<ModuleRule> modules;
  std::vector<InterfaceRule> interfaces;
  std::vector<std::string> services_disabled;
  std::optional<CpuRule> cpu;
  std::vector<BiosExpectation> bios;  ///< [preconditions.bios], in file order
  /// buffers_cover_bdp = true: net.core.rmem_max/wmem_max and the tcp_rmem/tcp_wmem
  /// maxima must each hold the bandwidth-delay product measured between the hosts.
  bool buffers_cover_bdp = false;
  SourcePos buffers_cover_bdp_pos;

  /// How many rules this is (each becomes one test case per host): one per
  /// scalar expectation, cmdline word, sysctl, module/interface field, service,
  /// BIOS setting, and buffers_cover_bdp.
  int rule_count() const;
};

/// The fact paths `same_on_all_hosts` accepts; <m> is a module, <if> an interface.
const std::vector<std::string>& same_on_all_hosts_paths();

/// True when `path` matches one of same_on_all_hosts_paths() (with a non-empty
/// module or interface name in place of <m> / <if>).
bool is_known_fact_path(const std::string& path);

}  // namespace labgate::profile

// The [preconditions] part of a profile: what each host's environment must be
// (release, kernel command line, sysctls, modules, interfaces, services, CPU).
#pragma once

#include <chrono>
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

/// multicast = { ... } of an interface: what a subscriber on it needs.
struct MulticastRule {
  std::optional<bool> flag;                       ///< IFF_MULTICAST
  std::optional<bool> route;                      ///< 224.0.0.0/4 leaves by this interface
  std::optional<std::string> rp_filter;           ///< "off", "loose" or "strict": no stricter than this
  std::optional<int> force_igmp_version;          ///< 0 (none), 1, 2 or 3
  std::optional<long long> igmp_max_memberships;  ///< at least this many groups per socket
};

/// [preconditions.interfaces.NAME]
struct InterfaceRule {
  std::string name;
  std::optional<std::string> driver, driver_version, firmware_version, link;  ///< link (state): "up" or "down"
  std::optional<int> mtu;
  SourcePos pos;
  /// link = { state, speed = "100Gbit/s", duplex = "full" } (link = "up" is the state alone).
  std::optional<long long> speed_mbps;
  std::optional<std::string> duplex;
  /// coalesce / ring / channels / offload / pause = { field = value }: group ->
  /// field -> value as the facts show it (decimal, or "on"/"off" for switches).
  std::map<std::string, std::map<std::string, std::string>> settings;
  std::optional<int> numa_node;         ///< the NIC's PCI device's NUMA node
  std::optional<std::string> irq_cpus;  ///< CPU list every IRQ of the NIC may fire on ("0-1")
  std::optional<std::string> network;   ///< the test network whose address this interface holds
  std::optional<MulticastRule> multicast;
};

/// The fields each settings group of an interface rule accepts, and whether
/// each is a switch (bool) or a number.
struct SettingField {
  const char* group;
  const char* field;
  bool is_switch;
};
const std::vector<SettingField>& interface_setting_fields();

/// [preconditions.cpu]: what the OS can see of the BIOS power settings, and
/// the kernel's CPU isolation and latency knobs.
struct CpuRule {
  std::optional<bool> hyperthreading;
  std::optional<int> max_cstate;
  std::optional<std::string> governor;
  std::optional<std::string> isolated;              ///< CPU list, /sys/devices/system/cpu/isolated
  std::optional<std::string> nohz_full;             ///< CPU list, /sys/devices/system/cpu/nohz_full
  std::optional<std::string> clocksource;           ///< "tsc"
  std::optional<std::string> transparent_hugepage;  ///< "never", "madvise" or "always"
  std::optional<std::string> tuned_profile;         ///< tuned's active profile
  bool test_cpus_isolated = false;   ///< every CPU a test pins to is isolated and takes no NIC IRQ
  bool test_cpus_nic_local = false;  ///< ... and sits on the NUMA node of the test's NIC
};

/// [preconditions.clock]: the system clock follows UTC within a bound, as
/// MiFID II RTS 25 asks of trading servers (100 us for high-frequency trading).
struct ClockRule {
  std::optional<bool> synchronized;               ///< the kernel (and the daemon, where read) says so
  std::optional<std::chrono::nanoseconds> max_error;  ///< the daemon's error bound, else the kernel's maxerror
  std::optional<std::string> source;              ///< "chrony", "ntpd", "ptp4l" or "any": who disciplines it
  SourcePos pos, synchronized_pos, max_error_pos, source_pos;
};

/// A CPU a test pins to on a host, for the test_cpus_* rules.
struct PinnedCpu {
  std::string test;     ///< the test's (case's) name
  int cpu = 0;
  std::string network;  ///< the network the test runs over ("" = the host's only one)
};

/// What the rules need from the rest of the profile about one host: its test
/// networks (name -> address) and the CPUs its tests pin to. Filled by the loader.
struct HostUse {
  std::map<std::string, std::string> networks;
  std::vector<PinnedCpu> pinned;
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
  std::vector<std::string> services_enabled;  ///< enabled at boot and running
  std::optional<CpuRule> cpu;
  std::optional<ClockRule> clock;
  std::vector<BiosExpectation> bios;  ///< [preconditions.bios], in file order
  /// buffers_cover_bdp = true: net.core.rmem_max/wmem_max and the tcp_rmem/tcp_wmem
  /// maxima must each hold the bandwidth-delay product measured between the hosts.
  bool buffers_cover_bdp = false;
  SourcePos buffers_cover_bdp_pos;
  std::map<std::string, HostUse> host_use;  ///< host -> its networks and pinned CPUs (derived)

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

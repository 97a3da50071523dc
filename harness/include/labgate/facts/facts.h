// The facts model: one host's configuration as the facts probe reported it,
// typed, every value with the path (or ioctl) it was read from.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace labgate::facts {

/// The snapshot format this harness reads (probes/facts/facts.c FX_SCHEMA).
inline constexpr const char* kSchema = "labgate.facts/1";

/// One value read on a host. `value` is empty when it could not be read; then
/// `error` says why and `missing` tells "does not exist" from "could not read".
template <class T>
struct Fact {
  std::optional<T> value;
  std::string source;  ///< "/proc/sys/net/ipv4/tcp_sack", "ioctl SIOCGIFMTU eth1", "/etc/modprobe.conf:9"
  std::string error;   ///< empty when the value was read
  bool missing = false;
  std::string note;  ///< how a derived value was obtained, or why there is none

  /// The value, or `fallback` when there is none.
  T value_or(T fallback) const { return value ? *value : fallback; }
};

using Text = Fact<std::string>;
using Int = Fact<long long>;
using Bool = Fact<bool>;

struct OsFacts {
  Text redhat_release;  ///< first line of /etc/redhat-release (RHEL)
  Text pretty_name;     ///< PRETTY_NAME of /etc/os-release
  Text id, version_id;
  /// What `os_release` is compared with: redhat-release where it exists
  /// (RHEL 5 has no os-release), else os-release's PRETTY_NAME.
  const Text& release() const { return redhat_release.value ? redhat_release : pretty_name; }
};

struct KernelFacts {
  Text release;  ///< /proc/sys/kernel/osrelease
  Text version;  ///< /proc/sys/kernel/version
  Text cmdline;  ///< /proc/cmdline, whitespace collapsed: what the running kernel got
};

/// What the next boot uses: GRUB legacy's default entry, or GRUB 2's defaults.
struct BootFacts {
  Text loader;         ///< "grub-legacy", "grub2", or no value
  Int default_entry;   ///< `default=N` (grub-legacy)
  Text default_title;  ///< the Nth `title`
  Text kernel_image;   ///< "/vmlinuz-2.6.18-308.el5"
  Text kernel_args;    ///< arguments on that kernel line (or GRUB_CMDLINE_LINUX*)
};

struct ModuleFacts {
  Bool loaded;                             ///< in /proc/modules (or built in)
  Text version;                            ///< /sys/module/<m>/version
  std::map<std::string, Text> parameters;  ///< /sys/module/<m>/parameters/<p>
  std::map<std::string, Text> configured;  ///< `options <m> p=v` for the next load
};

/// A group of NIC settings read by one ETHTOOL_G* ioctl: field -> value as
/// text (numbers in decimal, switches "on"/"off"), so rules and pair rules
/// compare them alike. A field the kernel or driver cannot report has no value
/// and the ioctl's error ("Not supported") or the recording's note.
using Settings = std::map<std::string, Text>;

struct InterfaceFacts {
  Bool exists;                                         ///< listed in /proc/net/dev
  Text driver, driver_version, firmware_version, bus;  ///< ETHTOOL_GDRVINFO
  Int speed_mbps;                                      ///< ETHTOOL_GSET
  Text duplex;                                         ///< ETHTOOL_GSET: "full"/"half"
  Int mtu;
  Text admin;  ///< "up"/"down": IFF_UP
  Text link;   ///< "up" when IFF_UP and IFF_RUNNING (carrier)
  Text ipv4_address;
  /// /proc/net/if_inet6, every scope, as inet_ntop prints them (absent from
  /// facts recorded before IPv6 was read: then not known).
  Fact<std::vector<std::string>> ipv6_addresses;
  Bool multicast;        ///< IFF_MULTICAST
  Bool multicast_route;  ///< 224.0.0.0/4 leaves by this interface (/proc/net/route; the note names the route)
  Settings coalesce;  ///< ETHTOOL_GCOALESCE: rx_usecs, rx_frames, tx_usecs, tx_frames, adaptive_rx/tx
  Settings ring;      ///< ETHTOOL_GRINGPARAM: rx, tx, rx_max, tx_max
  Settings channels;  ///< ETHTOOL_GCHANNELS (2.6.37+): combined, rx, tx, other, max_combined
  Settings offload;   ///< ETHTOOL_GRXCSUM/GTXCSUM/GSG/GTSO/GGSO/GGRO (2.6.30+)/GFLAGS LRO (2.6.24+)
  Settings pause;     ///< ETHTOOL_GPAUSEPARAM, the configured setting: autoneg, rx, tx
  Int numa_node;      ///< /sys/class/net/<if>/device/numa_node; -1: no proximity information
  /// The IRQ numbers of the NIC: its PCI device's msi_irqs, or /proc/interrupts
  /// lines named after the interface (the source says which).
  Fact<std::vector<std::string>> irqs;
  std::map<std::string, Text> irq_affinity;  ///< IRQ -> CPU list (effective, list or hex mask)
  std::map<std::string, Bool> irq_managed;   ///< IRQ -> kernel-managed affinity (debugfs), or unknown

  /// The settings group named "coalesce", "ring", "channels", "offload" or "pause"; nullptr otherwise.
  const Settings* settings(const std::string& group) const;
};

/// A service as the init system sees it.
struct ServiceFacts {
  std::string kind;  ///< "sysv", "xinetd", "systemd", or "absent" (nothing names it)
  /// sysv: "on"/"off"/no link for runlevels 0..6, and the link paths.
  Fact<std::vector<std::optional<std::string>>> runlevels;
  std::vector<std::optional<std::string>> links;
  Bool installed;  ///< sysv: the init script exists
  /// xinetd: "on"/"off"; systemd: "enabled"/"disabled"/"masked"; absent: "not-found".
  Text enabled;
  std::string unit;  ///< systemd unit name
  Text unit_file;
  Bool running;  ///< the source says what it rests on (lock file, cgroup, process)
};

struct ServicesFacts {
  Text init;             ///< "sysv", "systemd" or "other" (from PID 1's name)
  Int default_runlevel;  ///< /etc/inittab initdefault (SysV)
  std::map<std::string, ServiceFacts> units;
};

struct ProcessFacts {
  long long pid = 0;
  std::string comm, argv0, source;
};

struct CpuFacts {
  Text model;
  Int logical_cpus, sockets, cores, threads_per_core;
  Bool hyperthreading;
  Text intel_idle_max_cstate;             ///< /sys/module/intel_idle/parameters/max_cstate
  Text processor_max_cstate;              ///< /sys/module/processor/parameters/max_cstate
  Text cpuidle_driver;                    ///< /sys/devices/system/cpu/cpuidle/current_driver (2.6.24+)
  Bool cpufreq;                           ///< any CPU has a cpufreq directory
  std::map<std::string, Text> governors;  ///< "cpu0" -> scaling_governor
  Text clocksource;                       ///< sysfs from 2.6.21 (x86_64); RHEL 5 has none
  Text online;                            ///< /sys/devices/system/cpu/online, a CPU list
  Text isolated;   ///< /sys/devices/system/cpu/isolated, else isolcpus= (the note says so)
  Text nohz_full;  ///< /sys/devices/system/cpu/nohz_full, else nohz_full=
  std::map<std::string, Text> nodes;       ///< "node0" -> its CPU list
  std::map<std::string, Text> cstates;     ///< "cpu0" -> idle states not disabled ("POLL C1 C1E")
  std::map<std::string, Text> freq_range;  ///< "cpu0" -> "min max" kHz of cpufreq's scaling range
  Text transparent_hugepage;               ///< the chosen mode: "never", "madvise", "always"
  Text tuned_profile;                      ///< tuned's active profile
};

/// One time daemon's own report, read by labgate's clock step beside the probe
/// (the probe never starts programs): the client's output and what it says.
struct ClockDaemonReport {
  std::string daemon;   ///< "chrony", "ntpd" or "ptp4l"
  std::string command;  ///< "chronyc -c tracking"
  int exit_status = 0;  ///< 127: the client is not installed; -1: the step itself failed
  std::string output;   ///< what the client printed (stdout, then stderr)
  bool read = false;    ///< a report came back and was understood
  std::string not_read;  ///< why not: "chronyc is not installed", "chronyc: 506 Cannot talk to daemon"
  std::optional<bool> synchronized;
  std::string state;  ///< "leap status Normal, reference 198.18.254.1 (stratum 2)"
  /// How far from its reference the daemon says the clock may be, and how that was worked out.
  std::optional<double> error_bound_us;
  std::string bound;
};

/// The system clock's synchronisation: the kernel's view (adjtimex, from the
/// probe) and each time daemon's report (the clock step, when the profile has
/// [preconditions.clock]).
struct ClockFacts {
  Bool synchronized;  ///< adjtimex did not return TIME_ERROR (STA_UNSYNC, STA_CLOCKERR clear)
  Int status, state;  ///< the status word and adjtimex's return value
  Int maxerror_us, esterror_us;
  bool daemons_asked = false;  ///< the clock step ran (its reports may still be "not read")
  std::vector<ClockDaemonReport> daemons;
};

/// One host's snapshot.
struct Facts {
  std::string schema, probe, root;
  std::set<std::string> sections;  ///< top-level members present ("sysctl", "cpu", ...)
  Text hostname;
  OsFacts os;
  KernelFacts kernel;
  BootFacts boot;
  std::map<std::string, Text> sysctl;       ///< live, from /proc/sys
  std::map<std::string, Text> sysctl_conf;  ///< set for boot in sysctl.conf / sysctl.d
  Fact<std::vector<std::string>> loaded_modules;
  std::map<std::string, ModuleFacts> modules;
  std::map<std::string, InterfaceFacts> interfaces;
  ServicesFacts services;
  std::vector<ProcessFacts> processes;
  bool processes_truncated = false;
  CpuFacts cpu;
  ClockFacts clock;

  /// True when the probe reported this top-level section.
  bool has(const std::string& section) const { return sections.count(section) > 0; }
};

}  // namespace labgate::facts

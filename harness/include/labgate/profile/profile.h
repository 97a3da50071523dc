// The typed profile model: what a user's TOML says, checked and with defaults
// applied. Everything downstream reads these structs, never the TOML.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace labgate::profile {

using Nanos = std::chrono::nanoseconds;

/// Where a value came from, for error messages downstream ("profile.toml:42:3").
struct SourcePos {
  std::string file;
  int line = 0;
  int column = 0;
  std::string str() const;
};

/// [defaults.ssh] merged with a host's own keys.
struct SshSettings {
  std::string user = "root";
  int port = 22;
  std::optional<std::string> identity;   ///< path (~ expanded); unset = ssh-agent
  std::string known_hosts = "~/.ssh/known_hosts";
  std::optional<std::string> passphrase_env;  ///< env var holding the key passphrase
  bool legacy_algorithms = false;
  bool accept_new_host_keys = false;     ///< loud, explicit first-contact only
  Nanos connect_timeout = std::chrono::seconds(10);
  Nanos command_timeout = std::chrono::seconds(300);
  std::string probe_dir = "/tmp";
};

struct Host {
  std::string name;           ///< the key under [hosts]
  std::string address;        ///< management address for SSH, or "local"
  std::string test_address;   ///< interconnect address the probes measure
  std::optional<std::string> netns;  ///< lab only: run "local" commands inside this namespace
  SshSettings ssh;
  SourcePos pos;
};

/// A sysctl value: either a number or a whitespace-separated multi-field string.
struct SysctlExpectation {
  std::string key;
  std::vector<std::string> fields;  ///< "4096 87380 16777216" -> 3 fields; 0 -> {"0"}
  SourcePos pos;
};

struct ModuleRule {
  std::string name;
  std::optional<bool> loaded;
  std::optional<std::string> version;
  std::map<std::string, std::string> parameters;  ///< live /sys/module/<m>/parameters
  std::map<std::string, std::string> configured;  ///< `options` in modprobe config
  SourcePos pos;
};

struct InterfaceRule {
  std::string name;
  std::optional<std::string> driver, driver_version, firmware_version, link;
  std::optional<int> mtu;
  SourcePos pos;
};

struct CpuRule {
  std::optional<bool> hyperthreading;
  std::optional<int> max_cstate;
  std::optional<std::string> governor;
};

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
};

enum class TestKind { kTcpRr, kUdpRr, kTcpStream, kUdpStream, kJitter };
enum class Tool { kBuiltin, kNetperf, kSockperf, kIperf3 };

const char* to_string(TestKind k);
const char* to_string(Tool t);

/// The statistics a budget may bound.
enum class Stat {
  kP50, kP90, kP99, kP99_9, kP99_99, kMax, kMean, kStddev,
  kDropped, kMinThroughput, kMaxLoss
};
const char* to_string(Stat s);

/// One bound: latency stats in ns, dropped as a count, throughput in bit/s,
/// loss as a fraction (0.001 for "0.1%"). min_throughput is a floor, the rest ceilings.
struct Bound {
  Stat stat;
  double limit;
  SourcePos pos;
};

struct CpuPlacement {
  std::optional<int> client;
  std::optional<int> server;
};

struct TestSpec {
  std::string name;
  TestKind kind = TestKind::kTcpRr;
  Tool tool = Tool::kBuiltin;
  std::string from, to;          ///< rr/stream kinds
  std::vector<std::string> on;   ///< jitter: hosts to run on
  std::vector<int> cpus;         ///< jitter: CPUs to spin on
  Nanos duration = std::chrono::seconds(120);
  Nanos warmup = std::chrono::seconds(2);
  std::uint64_t message_size = 64;
  CpuPlacement cpu;
  std::optional<double> rate_per_sec;   ///< open-loop send rate; unset = closed loop
  std::vector<Bound> budget;
  SourcePos pos;
};

struct Profile {
  std::string path;
  std::string lab_name;
  std::string description;
  std::vector<Host> hosts;   ///< in file order
  Preconditions preconditions;
  std::vector<TestSpec> tests;

  const Host* find_host(const std::string& name) const;
};

}  // namespace labgate::profile

// The typed profile model: what a user's TOML says, checked and with defaults
// applied. Everything downstream reads these structs, never the TOML.
// Loading and validation: labgate/profile/load.h.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/preconditions.h"
#include "labgate/profile/source_pos.h"
#include "labgate/profile/run_overrides.h"
#include "labgate/profile/test_spec.h"

namespace labgate::profile {

/// [defaults.ssh] merged with a host's own keys. Paths are resolved: `~` is
/// $HOME, a relative path is relative to the profile file's directory.
struct SshSettings {
  std::string user = "root";
  int port = 22;
  std::optional<std::string> identity;  ///< private key file; unset = ssh-agent
  std::string known_hosts = "~/.ssh/known_hosts";
  std::optional<std::string> passphrase_env;  ///< env var holding the key passphrase
  std::optional<std::string> password_env;    ///< env var holding a login password
  bool legacy_algorithms = false;             ///< allow what OpenSSH 4.3 (RHEL 5) offers
  bool accept_new_host_keys = false;          ///< loud, explicit first-contact only
  Nanos connect_timeout = std::chrono::seconds(10);
  Nanos command_timeout = std::chrono::seconds(300);
  std::string probe_dir = "/tmp";  ///< remote, absolute; the run's dir goes below it
  /// Remote, absolute: where the lab lease lives; unset = probe_dir.
  std::optional<std::string> lease_dir;
  /// "sudo": what needs root runs through `sudo -n` (never a password prompt);
  /// unset: nothing is run as root beyond what the login user may do.
  std::optional<std::string> become;

  /// lease_dir, or probe_dir when it is not set.
  const std::string& lease_root() const { return lease_dir ? *lease_dir : probe_dir; }
  /// True when root work goes through sudo: `become = "sudo"` and a login user
  /// other than root (root needs no sudo).
  bool uses_sudo() const { return become && *become == "sudo" && user != "root"; }
  /// Jump hosts in order (OpenSSH ProxyJump syntax, "user@host:port,host2"), as written.
  std::optional<std::string> proxy_jump;
  /// Opt-in OpenSSH client config (absolute path) consulted for Host aliases.
  std::optional<std::string> ssh_config;
  /// Where each explicitly written SSH key came from ("defaults.ssh" or "hosts.a"):
  /// explicit keys win over ssh_config, and `validate -v` names the source.
  std::map<std::string, std::string> origin;
};

/// One named test network of a host: test_address = { direct = "1.1.1.1" }.
struct TestNetwork {
  std::string name;
  std::string address;
};

struct Host {
  std::string name;                  ///< the key under [hosts]
  std::string address;               ///< management address for SSH, or "local"
  /// Interconnect address the probes measure ("" if never measured); with
  /// several networks, the first one's (use test_address_of to pick one).
  std::string test_address;
  std::vector<TestNetwork> networks;  ///< test_address as a table, in file order; empty for a plain string
  /// test_address was written (even when refused): validate then says what is
  /// wrong with it, never also that it is missing.
  bool test_address_given = false;
  std::optional<std::string> netns;  ///< lab only: run "local" commands inside this namespace
  SshSettings ssh;
  SourcePos pos;

  /// The test address on `network`; "" (or no network named) gives test_address.
  /// Empty when the host has no such network.
  std::string test_address_of(const std::string& network) const;
  /// The names of its test networks (empty for a plain test_address).
  std::vector<std::string> network_names() const;

  /// address = "local": commands run on this machine, not over SSH.
  bool is_local() const { return address == "local"; }
};

struct Profile {
  std::string path;
  std::string lab_name;  ///< names the lease on the targets and the results folder
  std::string description;
  Nanos lease_wait = std::chrono::seconds(60);  ///< how long to wait for another run's lease
  std::vector<Host> hosts;                      ///< in file order
  Preconditions preconditions;
  std::vector<TestSpec> tests;  ///< in file order
  /// Command-line overrides applied while loading (labgate run --duration ...), with
  /// what they replaced; empty when the profile is as written.
  std::vector<AppliedOverride> overrides;

  const Host* find_host(const std::string& name) const;
  const TestSpec* find_test(const std::string& name) const;
};

}  // namespace labgate::profile

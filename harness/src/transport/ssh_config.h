// The subset of OpenSSH's client config that labgate follows when a profile opts
// in with `ssh_config = "PATH"`: Host blocks (patterns, negation) and HostName,
// User, Port, IdentityFile, ProxyJump, UserKnownHostsFile. libssh's own config
// processing stays off (it would also follow ProxyCommand and run `ssh -W`), so
// what is read is exactly this, each value with the file:line it came from.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace labgate::transport {

struct SshConfigValue {
  std::string value;
  std::string origin;  ///< "PATH:LINE"
};

/// What the config says for one name; OpenSSH's rule: the first value obtained wins.
struct SshConfigEntry {
  std::optional<SshConfigValue> hostname, user, port, identity_file, proxy_jump, user_known_hosts_file;
  std::vector<std::string> notes;  ///< what was seen but not followed (Include, Match, ProxyCommand)
};

class SshConfig {
 public:
  /// Reads PATH; throws Failure(kUsageError) naming the file (and line) when it
  /// cannot be read or a value is malformed.
  static SshConfig load(const std::string& path);
  static SshConfig parse(std::istream& in, const std::string& path);

  /// The settings for `name` (an alias or address), with %h and ~ expanded.
  SshConfigEntry lookup(const std::string& name) const;

 private:
  struct Line {
    int line;
    std::string key;    ///< lowercased keyword
    std::string first;  ///< its first argument (the only one labgate uses), unquoted
  };
  struct Block {
    std::vector<std::string> patterns;  ///< empty: applies to every host (before the first Host)
    bool match_block = false;           ///< a Match block: not evaluated, never applied
    int line = 0;
    std::vector<Line> lines;
  };
  std::string path_;
  std::vector<Block> blocks_;
};

/// OpenSSH's Host matching: any pattern matches and no negated one does.
bool ssh_config_host_matches(const std::vector<std::string>& patterns, const std::string& name);

}  // namespace labgate::transport

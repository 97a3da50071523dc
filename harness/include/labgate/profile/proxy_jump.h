// OpenSSH ProxyJump syntax ("[user@]host[:port],..."), parsed for the profile
// loader (to reject a bad value at its line) and for ssh_config's ProxyJump.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::profile {

struct JumpHop {
  std::optional<std::string> user;  ///< unset: ssh_config's User for the hop, else the target's user
  std::string host;                 ///< name, alias or address (IPv6 without its brackets)
  std::optional<int> port;          ///< unset: ssh_config's Port for the hop, else 22
};

struct ParsedJumps {
  std::vector<JumpHop> hops;
  std::string error;  ///< empty when the value is valid
};

/// Parses "perfops@bastion:22,host2"; "none" (as in OpenSSH) is an empty chain.
/// ssh:// URIs (OpenSSH 8.0+) are accepted too: "ssh://user@host:port".
ParsedJumps parse_proxy_jump(std::string_view value);

/// "user@host:port" as a user reads it; the user part only if known.
std::string describe_hop(const JumpHop& hop);

}  // namespace labgate::profile

// The test addresses a run uses: a host name in test_address is resolved on the
// host it belongs to (where the probe or tool binds it), never on the machine
// running labgate, and every step then gets the numeric address.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"

namespace labgate::gate {

/// One name resolved for the run: `host`'s `key` ("test_address" or
/// "test_address.direct") was `name` and is `address` on that host.
struct ResolvedName {
  std::string host;
  std::string key;
  std::string name;
  std::string address;
};

/// The command that resolves `name` on a host, as getaddrinfo there would
/// (its /etc/hosts, DNS and gai.conf order): `getent ahosts NAME`.
std::vector<std::string> resolve_command(const std::string& name);

/// The first address of `getent ahosts` output, if it is a numeric IPv4 or IPv6 address.
std::optional<std::string> first_ahosts_address(const std::string& out);

/// `h` with every name among its test addresses replaced by what `t` (that host)
/// resolves it to; each one is appended to `resolved`. Throws
/// Failure(kCouldNotRun) naming the host, the key and what getent said when a
/// name does not resolve there.
profile::Host resolve_test_addresses(const profile::Host& h, transport::Transport& t,
                                     std::vector<ResolvedName>& resolved);

}  // namespace labgate::gate

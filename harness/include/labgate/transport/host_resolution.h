// What one host of a profile resolves to before any packet is sent: address,
// port, user, identity, known_hosts and the jump chain, each value with where it
// came from (the profile's table, the opt-in ssh_config's file:line, or the
// default). Explicit profile keys win over ssh_config.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"

namespace labgate::transport {

/// One SSH endpoint (a jump hop or the target), as a Host the connection code
/// uses; origin maps "address", "port", "user", "identity", "known_hosts" to
/// their source.
struct Endpoint {
  profile::Host host;
  std::map<std::string, std::string> origin;
  std::string label;  ///< "host a" or "jump host 1 of 2"
  /// "perfops@198.18.0.2:22"
  std::string target() const;
};

struct ResolvedHost {
  std::vector<Endpoint> jumps;  ///< in order: the first is reached directly
  Endpoint target;
  std::string jump_origin;         ///< where the chain came from ("" if none)
  std::vector<std::string> notes;  ///< ssh_config lines seen but not followed
};

/// Resolves `h`; throws Failure(kUsageError) naming the ssh_config file:line or
/// profile key when a value cannot be used.
ResolvedHost resolve_host(const profile::Host& h);

/// The lines `labgate validate -v` and `labgate keyscan` print for a host.
std::vector<std::string> describe_resolution(const ResolvedHost& r);

}  // namespace labgate::transport

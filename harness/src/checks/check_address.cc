// Whether an interface holds a test address, for the IPv4 and IPv6 families alike.
#include "labgate/profile/test_address.h"
#include "rules.h"

namespace labgate::checks::internal {

AddressOnNic address_on(const facts::InterfaceFacts& i, const std::string& address) {
  AddressOnNic a;
  if (!profile::is_ipv6(address)) {
    a.family = "IPv4";
    a.source = i.ipv4_address.source;
    if (i.ipv4_address.value) {
      a.found = *i.ipv4_address.value;
      a.holds = *i.ipv4_address.value == address;
    } else if (i.ipv4_address.error.empty()) {
      a.found = "(none)";
      a.holds = false;
    }
    return a;
  }
  a.family = "IPv6";
  a.source = i.ipv6_addresses.source.empty() ? "/proc/net/if_inet6" : i.ipv6_addresses.source;
  if (!i.ipv6_addresses.value) return a;  // not read (or a snapshot from before IPv6 was read)
  a.holds = false;
  const std::string want = profile::canonical_address(address);
  for (const std::string& have : *i.ipv6_addresses.value) {
    a.found += (a.found.empty() ? "" : " ") + have;
    if (profile::canonical_address(have) == want) a.holds = true;
  }
  if (a.found.empty()) a.found = "(none)";
  return a;
}

}  // namespace labgate::checks::internal

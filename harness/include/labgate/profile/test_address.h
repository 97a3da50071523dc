// What a test (interconnect) address is: a numeric IPv4 or IPv6 address the
// probes and tools take as it is, or a host name that is resolved on the host it
// belongs to (never on the machine running labgate). Pure.
#pragma once

#include <optional>
#include <string>

namespace labgate::profile {

enum class AddressKind { kIpv4, kIpv6, kName };

/// The kind of `text`, or nullopt with `*why` filled when it is none of them
/// (an IPv4 address with a missing or too large part, a link-local IPv6 address,
/// which needs an interface scope, a name with characters a host name cannot have).
std::optional<AddressKind> classify_address(const std::string& text, std::string* why);

/// True for a numeric IPv6 address ("fd00::2").
bool is_ipv6(const std::string& address);

/// The canonical text of a numeric address (RFC 5952 for IPv6: "fd00:0::02" ->
/// "fd00::2"); other text unchanged. Two spellings of one address compare equal after it.
std::string canonical_address(const std::string& address);

/// "fd00::2" -> "[fd00::2]"; IPv4 and names unchanged: for "address:port" text.
std::string bracketed(const std::string& address);

}  // namespace labgate::profile

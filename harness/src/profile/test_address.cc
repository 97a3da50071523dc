// Telling numeric IPv4, numeric IPv6 and host-name test addresses apart.
#include "labgate/profile/test_address.h"

#include <arpa/inet.h>

#include <algorithm>

namespace labgate::profile {

namespace {

bool digits_and_dots(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

/// RFC 1123 host name: labels of letters, digits and inner hyphens, at most 63
/// characters each and 253 in all. Nothing a shell or an option parser could
/// take for something else (no leading '-', no spaces, quotes or '$').
bool host_name(const std::string& s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t dot = std::min(s.find('.', start), s.size());
    const std::string label = s.substr(start, dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
    for (char c : label)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'))
        return false;
    start = dot + 1;
  }
  return true;
}

}  // namespace

std::optional<AddressKind> classify_address(const std::string& text, std::string* why) {
  in_addr a4{};
  in6_addr a6{};
  if (inet_pton(AF_INET, text.c_str(), &a4) == 1) return AddressKind::kIpv4;
  if (inet_pton(AF_INET6, text.c_str(), &a6) == 1) {
    if (a6.s6_addr[0] == 0xfe && (a6.s6_addr[1] & 0xc0) == 0x80) {
      *why =
          "a link-local IPv6 address needs an interface scope the peer cannot share; give the interconnect a "
          "ULA (fd00::/8) or global address";
      return std::nullopt;
    }
    return AddressKind::kIpv6;
  }
  if (text.find(':') != std::string::npos || text.find('%') != std::string::npos) {
    *why = "not a numeric IPv6 address (write it without brackets, port or %scope, like \"fd00::2\")";
    return std::nullopt;
  }
  if (digits_and_dots(text)) {
    *why = "not a numeric IPv4 address (four parts of 0..255, like \"192.168.1.1\")";
    return std::nullopt;
  }
  if (!host_name(text)) {
    *why = "not an address or a host name (letters, digits, '-' and '.', like \"ic-b.lab\")";
    return std::nullopt;
  }
  return AddressKind::kName;
}

bool is_ipv6(const std::string& address) {
  in6_addr a6{};
  return inet_pton(AF_INET6, address.c_str(), &a6) == 1;
}

std::string canonical_address(const std::string& address) {
  in6_addr a6{};
  char buf[INET6_ADDRSTRLEN];
  if (inet_pton(AF_INET6, address.c_str(), &a6) == 1 && inet_ntop(AF_INET6, &a6, buf, sizeof buf)) return buf;
  return address;
}

std::string bracketed(const std::string& address) { return is_ipv6(address) ? "[" + address + "]" : address; }

}  // namespace labgate::profile

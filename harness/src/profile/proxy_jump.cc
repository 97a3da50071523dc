// Parsing OpenSSH's ProxyJump syntax: comma-separated [user@]host[:port] hops.
#include "labgate/profile/proxy_jump.h"

#include <algorithm>
#include <charconv>

namespace labgate::profile {
namespace {

bool bad_char(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' || c == '\''; }

std::string parse_one(std::string_view s, JumpHop& hop) {
  if (s.rfind("ssh://", 0) == 0) s.remove_prefix(6);
  if (s.empty()) return "an empty hop (two commas, or a comma at an end)";
  if (const auto at = s.rfind('@'); at != std::string_view::npos) {
    if (at == 0) return "\"" + std::string(s) + "\": an empty user before '@'";
    hop.user = std::string(s.substr(0, at));
    s.remove_prefix(at + 1);
  }
  std::optional<std::string_view> port;  // set when a ':' introduces one
  if (!s.empty() && s[0] == '[') {       // [IPv6]:port, as OpenSSH writes it
    const auto close = s.find(']');
    if (close == std::string_view::npos) return "\"" + std::string(s) + "\": '[' without ']'";
    hop.host = std::string(s.substr(1, close - 1));
    s.remove_prefix(close + 1);
    if (!s.empty()) {
      if (s[0] != ':') return "\"" + std::string(s) + "\": expected ':port' after ']'";
      port = s.substr(1);
    }
  } else if (std::count(s.begin(), s.end(), ':') == 1) {
    const auto colon = s.find(':');
    hop.host = std::string(s.substr(0, colon));
    port = s.substr(colon + 1);
  } else {
    hop.host = std::string(s);  // a bare IPv6 address has several ':' and no port
  }
  if (hop.host.empty()) return "a hop without a host name";
  if (std::any_of(hop.host.begin(), hop.host.end(), bad_char) ||
      (hop.user && std::any_of(hop.user->begin(), hop.user->end(), bad_char)))
    return "\"" + hop.host + "\": a host or user name may not hold spaces, '/' or quotes";
  if (port) {
    int p = 0;
    const auto [end, ec] = std::from_chars(port->data(), port->data() + port->size(), p);
    if (port->empty() || ec != std::errc{} || end != port->data() + port->size() || p < 1 || p > 65535)
      return "\"" + std::string(*port) + "\" is not a port (1-65535)";
    hop.port = p;
  }
  return "";
}

}  // namespace

ParsedJumps parse_proxy_jump(std::string_view value) {
  ParsedJumps out;
  if (value == "none") return out;
  if (value.empty()) {
    out.error = "empty; write \"user@host:port\" (comma-separated for several hops) or \"none\"";
    return out;
  }
  std::size_t start = 0;
  while (true) {
    const auto comma = value.find(',', start);
    const std::string_view part =
        value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    JumpHop hop;
    if (std::string e = parse_one(part, hop); !e.empty()) {
      out.error = "jump host " + std::to_string(out.hops.size() + 1) + ": " + e +
                  "; expected OpenSSH ProxyJump syntax like \"perfops@bastion:22,host2\"";
      out.hops.clear();
      return out;
    }
    out.hops.push_back(std::move(hop));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string describe_hop(const JumpHop& hop) {
  std::string host = hop.host.find(':') != std::string::npos ? "[" + hop.host + "]" : hop.host;
  return (hop.user ? *hop.user + "@" : "") + host + (hop.port ? ":" + std::to_string(*hop.port) : "");
}

}  // namespace labgate::profile

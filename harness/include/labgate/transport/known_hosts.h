// known_hosts as OpenSSH reads it: plain and hashed (|1|salt|hash) host
// patterns with wildcards and negation, and the @revoked and @cert-authority
// markers that libssh 0.10's ssh_session_is_known_server ignores. Pure logic on
// the file's text, so every rule is shown by unit tests; ssh_connection.cc
// hands it the server's key.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace labgate::transport {

/// The server's host key as a user checks and records it.
struct HostKeyInfo {
  std::string type;         ///< "ssh-ed25519"
  std::string fingerprint;  ///< "SHA256:..."
  std::string base64;       ///< the key blob
  std::string name;         ///< as filed in known_hosts: "addr" or "[addr]:port"
  std::string line() const { return name + " " + type + " " + base64; }
};

struct KnownHostsLine {
  enum class Marker { kNone, kRevoked, kCertAuthority };
  int line = 0;  ///< 1-based line number in the file
  Marker marker = Marker::kNone;
  std::string patterns;  ///< "host1,[host2]:2222,*.lab,!x" or "|1|salt|hash"
  std::string key_type;  ///< "ssh-ed25519", "ssh-rsa", ...
  std::string key_base64;
};

/// Every well-formed entry; comments, blank and malformed lines are skipped as
/// OpenSSH skips them.
std::vector<KnownHostsLine> parse_known_hosts(std::istream& in);

/// The name a host is filed under: "host" on port 22, "[host]:port" otherwise.
std::string known_hosts_name(const std::string& host, int port);

/// OpenSSH's match_pattern: only '*' and '?' are wildcards ('[' is literal, as in
/// "[host]:2222"), compared case-insensitively. Shared with ssh_config's Host lines.
bool wildcard_match(const std::string& pattern, const std::string& name);

/// Whether `name` (as from known_hosts_name) matches a line's pattern list:
/// hashed entries, '*' and '?' wildcards, and '!' negation (a negated match wins).
bool host_patterns_match(const std::string& patterns, const std::string& name);

enum class HostKeyStatus {
  kOk,                 ///< a plain entry holds exactly this key
  kRevoked,            ///< a @revoked entry holds this key: never accepted, never written
  kChanged,            ///< an entry of the same type holds another key
  kOther,              ///< entries exist for the host, of other key types only
  kCertAuthorityOnly,  ///< only a @cert-authority entry vouches for the host (not supported)
  kUnknown,            ///< nothing about the host
};

struct HostKeyVerdict {
  HostKeyStatus status = HostKeyStatus::kUnknown;
  int line = 0;  ///< the deciding line (the revoking, matching or conflicting one), 0 if none
};

/// OpenSSH's order: a revoked key is refused whatever else the file says; then an
/// exact plain match; then a same-type mismatch; then other types; then a CA line.
HostKeyVerdict check_host_key(const std::vector<KnownHostsLine>& lines, const std::string& name,
                              const std::string& key_type, const std::string& key_base64);

/// check_host_key on a file; a missing or unreadable file knows no host.
HostKeyVerdict check_host_key_file(const std::string& path, const std::string& name,
                                   const std::string& key_type, const std::string& key_base64);

/// Appends one line to the file (created 0600 with its directory 0700 if missing).
/// Returns "" or why not.
std::string append_known_hosts_line(const std::string& path, const std::string& line);

}  // namespace labgate::transport

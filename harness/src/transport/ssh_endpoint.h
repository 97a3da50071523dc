// One SSH endpoint's session set-up, shared by the target connection, each jump
// hop and `labgate keyscan`: libssh options (config processing off, so libssh
// never runs `ssh -W` for a ProxyJump), the host key as known_hosts.h judges it,
// and the login. `who` prefixes every message ("jump host 1 of 2 (u@h:22)").
#pragma once

#include <libssh/libssh.h>

#include <chrono>
#include <functional>
#include <string>

#include "labgate/profile/profile.h"
#include "labgate/transport/known_hosts.h"

namespace labgate::transport {

/// The key the server of a connected session presented. Throws on a session without one.
HostKeyInfo server_host_key(ssh_session s, const profile::Host& h, const std::string& who);

/// Refuses (Failure kCouldNotRun) a key known_hosts does not vouch for: revoked,
/// changed, of another type, vouched for only by a @cert-authority line, or
/// unknown (unless accept_new_host_keys, which records a first key loudly).
void verify_host_key(ssh_session s, const profile::Host& h, const std::string& who);

/// Logs in by key file, agent or password env as the profile says.
void authenticate(ssh_session s, const profile::Host& h, const std::string& who);

/// A new session to `h`: over `fd` (a socket pair end from a jump host; the
/// session owns it) or, with fd < 0, by TCP to h.address. `check_key` judges the
/// host key (verify_host_key for a run); `login` false stops after the key
/// exchange (keyscan's target). Throws Failure naming `who`.
ssh_session open_endpoint(const profile::Host& h, const std::string& who, int fd,
                          const std::function<void(ssh_session)>& check_key, bool login);

/// Sets keepalive and TCP_USER_TIMEOUT on a session's TCP socket (no-op on a socket pair).
void tune_socket(ssh_session s, std::chrono::seconds dead_after);

/// libssh's name getters return NULL for what they do not name (the kex of an
/// OpenSSH 4.3 server): never hand NULL to a formatter.
inline const char* or_unknown(const char* s) { return s ? s : "(unknown)"; }

/// `~/` is $HOME.
std::string expand_home(const std::string& path);

}  // namespace labgate::transport

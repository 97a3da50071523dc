// `-vv`: libssh's own protocol log, routed into labgate's log (stderr and the
// run's labgate.log), for diagnosing a server labgate cannot talk to.
#pragma once

namespace labgate::transport {

/// Installs a libssh log callback at SSH_LOG_PROTOCOL; call before any session exists.
void enable_libssh_log();

}  // namespace labgate::transport

// `-vv`: libssh's own protocol log, routed into labgate's log, for diagnosing a
// server labgate cannot talk to. In `labgate run` the SSH work happens in suite
// child processes, which inherit the request through the environment and
// append to the run's labgate.log themselves.
#pragma once

namespace labgate::transport {

/// Installs a libssh log callback at SSH_LOG_PROTOCOL (messages go to spdlog at
/// debug level) and exports LABGATE_LIBSSH_LOG=1 for child processes. Call
/// before any session exists.
void enable_libssh_log();

/// In a process started with LABGATE_LIBSSH_LOG=1 (a suite child of `labgate -vv
/// run`): installs the callback, writing to $LABGATE_RUN_DIR/labgate.log when
/// that is set. Idempotent; SshConnection calls it before its first session.
void enable_libssh_log_from_env();

}  // namespace labgate::transport

// Housekeeping over SSH that must work even while another channel is stuck:
// killing a remote process group over a second channel, and what to do when
// the connection drops under a running command.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ssh_connection.h"

namespace labgate::transport {

/// Runs a short command (kill, rm) on a fresh channel of `conn`; true if it
/// ended with status 0 within `limit`. Never throws.
bool run_control(SshConnection& conn, const std::vector<std::string>& argv, std::chrono::milliseconds limit);

/// Stops process group `pgid` on the host: SIGTERM, SIGKILL after `grace`.
bool kill_remote_group(SshConnection& conn, long pgid, std::chrono::milliseconds grace);

/// After the session died under `command`: reconnects once (bounded by the
/// connect timeout) to kill the command's process group, then throws
/// Failure(kCouldNotRun) naming host, command, how long it ran and the cause.
/// `generation` is the session the command ran on: when another thread has
/// already replaced it, the new session is left alone (other channels use it).
[[noreturn]] void fail_after_drop(SshConnection& conn, std::optional<long> pgid, const std::string& command,
                                  const std::string& why, std::chrono::nanoseconds elapsed,
                                  int generation = -1);

/// "1.25s", for messages.
std::string format_seconds(std::chrono::nanoseconds d);

}  // namespace labgate::transport

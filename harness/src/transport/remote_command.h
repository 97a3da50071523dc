// The command line a remote login shell runs for every labgate command: it tells
// the harness the process-group id (so a timeout or stop can kill the whole group
// over a second channel: closing an SSH channel kills nothing on the host), then
// execs the program so the group leader is the program itself.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::transport {

/// Wraps argv for a POSIX login shell. sshd makes each session's shell a session
/// and process-group leader (setsid), so its $$ is the group id, and `exec`
/// keeps that pid for the program. With `pgid_file`, the id is also appended there.
std::string wrap_remote_command(const std::vector<std::string>& argv,
                                const std::optional<std::string>& pgid_file = std::nullopt);

/// argv that stops process group `pgid`: SIGTERM, then SIGKILL if it is still
/// there after `grace`. Exits 0 whether or not the group existed.
std::vector<std::string> kill_group_argv(long pgid, std::chrono::milliseconds grace);

/// Removes the wrapper's pgid announcement from a stderr stream fed in chunks,
/// wherever it falls (a noisy .bashrc may print before it), and keeps the id.
class PgidMarkerFilter {
 public:
  /// Returns the part of `chunk` that belongs to the program's stderr.
  std::string feed(std::string_view chunk);
  /// Flushes anything held back waiting for a line end (call at EOF).
  std::string finish();
  /// The announced process-group id, once seen.
  std::optional<long> pgid() const { return pgid_; }

 private:
  std::string pending_;  // bytes held until we know whether they are the marker
  std::optional<long> pgid_;
  bool done_ = false;  // marker seen or given up on: pass everything through
};

}  // namespace labgate::transport

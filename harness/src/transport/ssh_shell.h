// labgate's one /bin/sh per host (issue 23): started once over one channel
// (one start of the account's login shell, however slow its ~/.bashrc), then
// sent each short command as a framed request on its stdin (shell_protocol.h),
// one at a time. A shell that ends (killed, or ended by a command) is started
// again once, saying so; after a second loss, and where the server refuses the
// channel, it is not used and commands take channels of their own as before.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "labgate/transport/transport.h"
#include "shell_protocol.h"
#include "ssh_connection.h"
#include "ssh_exec.h"

namespace labgate::transport {

class SshShell {
 public:
  explicit SshShell(std::shared_ptr<SshConnection> conn) : conn_(std::move(conn)) {}
  ~SshShell();
  SshShell(const SshShell&) = delete;
  SshShell& operator=(const SshShell&) = delete;

  /// Runs argv in the shell as SshTransport::run would on a channel of its own
  /// (same result, same Failures); nullopt when the shell cannot be used, so the
  /// caller runs it on a channel of its own. sshd may take `relay_limit` to pass
  /// the request on (as it may to open a channel), the command `timeout` after.
  std::optional<RunResult> run(const std::vector<std::string>& argv, const RunOptions& options, Nanos timeout,
                               Nanos relay_limit);
  /// A short housekeeping command (a kill) with `limit`, only if the shell is
  /// running and idle now (never waits for it): whether it succeeded, or nullopt
  /// and the caller takes a channel of its own. The caller may hold the
  /// connection's lock (SshConnection::run_in_idle_shell).
  std::optional<bool> run_if_idle(const std::vector<std::string>& argv, std::chrono::milliseconds limit);
  /// False once the shell was given up (lost twice, or no channel for it).
  bool usable() const { return !given_up_; }
  /// How many times the shell was started (1 in a run where it never ended).
  int starts() const { return starts_; }
  /// What the login shell printed on stdout before the shell's frame, once the
  /// shell runs on the connection's current session (nullopt before): the same
  /// test sftp_unusable() would otherwise spend a channel on.
  std::optional<std::string> login_noise();
  /// Closes the shell if no command runs in it (called with the connection's
  /// lock held, when sshd's MaxSessions refuses another channel); true if it did.
  /// It is started again, silently, when next needed.
  bool close_if_idle();

 private:
  // run() once mutex_ is held: sshd may take `relay_limit` to pass the request
  // on (shell_deadline.h), the command `timeout` from the shell's acknowledgement.
  std::optional<RunResult> run_locked(const std::vector<std::string>& argv, const RunOptions& options,
                                      Nanos timeout, Nanos relay_limit);
  // Starts the shell (conn's lock held); false when it cannot be used.
  bool start(std::unique_lock<std::recursive_mutex>& lock);
  // The shell ended or must go: stop its process group, forget it.
  void drop(bool kill_group);

  std::shared_ptr<SshConnection> conn_;
  std::mutex mutex_;               // one request at a time
  std::atomic<bool> busy_{false};  // a request (or the shell's start) is under way
  std::unique_ptr<SshExec> exec_;
  std::string token_;
  long next_id_ = 0;
  int starts_ = 0;
  bool lost_before_ = false;  // it ended once already: the next loss gives up
  std::atomic<bool> given_up_{false};
  ShellReply* reply_ = nullptr;  // the request in flight, fed by exec_'s sinks
};

}  // namespace labgate::transport

// Second-channel kills and connection-drop handling for SSH (see ssh_control.h).
#include "ssh_control.h"

#include <spdlog/spdlog.h>

#include <cstdio>

#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"
#include "remote_command.h"
#include "ssh_exec.h"

namespace labgate::transport {

std::string format_seconds(std::chrono::nanoseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fs", std::chrono::duration<double>(d).count());
  return buf;
}

bool run_control(SshConnection& conn, const std::vector<std::string>& argv, std::chrono::milliseconds limit) {
  std::unique_lock lock(conn.mutex());
  // labgate's shell, if idle: no channel to open, no login shell to start (issue 23).
  if (const auto ok = conn.run_in_idle_shell(argv, limit)) return *ok;
  try {
    // sshd's answer is waited for as long as any step's (command_timeout): a kill
    // or clean-up given up on while sshd is briefly stopped leaves a process behind.
    auto exec = SshExec::open(conn, wrap_remote_command(argv), shell_join(argv), 64 * 1024,
                              channel_wait_for(conn, conn.host().ssh.command_timeout, &lock, false));
    SshExec& ex = *exec;
    ex.send_input("");
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!ex.pump(std::chrono::milliseconds(100))) {
      if (std::chrono::steady_clock::now() >= deadline) {
        spdlog::warn("{}: housekeeping command `{}` did not finish within {}", conn.who(), shell_join(argv),
                     format_seconds(limit));
        return false;
      }
    }
    ex.collect_status();
    RunResult r;
    ex.fill(r);
    if (!r.ok()) spdlog::warn("{}: `{}` failed: {} {}", conn.who(), shell_join(argv), r.describe(), r.err);
    return r.ok();
  } catch (const ConnectionLost& lost) {
    conn.mark_broken(lost.why);
    spdlog::warn("{}: connection lost during `{}`: {}", conn.who(), shell_join(argv), lost.why);
  } catch (const ChannelRefused& refused) {
    // A process whose channel holds the server's only slot (MaxSessions 1) is
    // still stopped: sshd keeps that slot until the process exits, so the kill
    // goes over a connection of its own, opened for it and closed after.
    conn.say_refused(refused.what(), "labgate runs `" + shell_join(argv) + "` over a connection of its own");
    try {
      SshConnection own(conn.host());
      own.refusal_already_said();
      return run_control(own, argv, limit);
    } catch (const std::exception& e) {
      spdlog::warn("{}: cannot run `{}` over a connection of its own either: {}", conn.who(), shell_join(argv),
                   e.what());
    }
  } catch (const std::exception& e) {
    spdlog::warn("{}: cannot run `{}`: {}", conn.who(), shell_join(argv), e.what());
  }
  return false;
}

bool kill_remote_group(SshConnection& conn, long pgid, std::chrono::milliseconds grace) {
  return run_control(conn, kill_group_argv(pgid, grace), grace + std::chrono::seconds(5));
}

void fail_after_drop(SshConnection& conn, std::optional<long> pgid, const std::string& command,
                     const std::string& why, std::chrono::nanoseconds elapsed, int generation) {
  {
    std::lock_guard lock(conn.mutex());
    if (generation < 0 || generation == conn.generation()) conn.mark_broken(why);
  }
  std::string cleanup;
  if (pgid) {
    // Closing a channel kills nothing on the host; if sshd is still there (a
    // network blip rather than a dead server), reconnect once and stop the group.
    try {
      std::lock_guard lock(conn.mutex());
      conn.session();
      cleanup = kill_remote_group(conn, *pgid, std::chrono::milliseconds(1000))
                    ? "; reconnected and stopped its process group " + std::to_string(*pgid)
                    : "; reconnected but could not stop its process group " + std::to_string(*pgid);
    } catch (const std::exception& e) {
      cleanup =
          "; could not reconnect to stop process group " + std::to_string(*pgid) + " (" + e.what() + ")";
    }
  }
  throw Failure(ExitCode::kCouldNotRun, conn.who() + ": connection lost while running `" + command +
                                            "` (after " + format_seconds(elapsed) + "): " + why + cleanup);
}

}  // namespace labgate::transport

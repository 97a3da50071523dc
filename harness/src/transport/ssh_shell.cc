// labgate's one /bin/sh per host (see ssh_shell.h).
#include "ssh_shell.h"

#include <spdlog/spdlog.h>

#include <random>

#include "labgate/transport/interrupt.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "remote_command.h"
#include "server_wait.h"
#include "shell_deadline.h"
#include "ssh_control.h"

namespace labgate::transport {

namespace {
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// sshd never passed a request on to the shell within its limit: the server is
// not answering, so another channel for the same request would wait as long.
class NotPassedOn : public Failure {
 public:
  using Failure::Failure;
};

std::string new_token() {
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string t;
  for (int i = 0; i < 16; ++i) t += kHex[rd() & 15];
  return t;
}
}  // namespace

SshShell::~SshShell() {
  std::lock_guard lock(mutex_);
  if (!exec_) return;
  try {
    std::lock_guard conn_lock(conn_->mutex());
    // EOF on its stdin: the shell ends by itself once its last command has.
    if (exec_->session_holds_channel()) exec_->write_input("exit\n");
    exec_->close();
  } catch (const std::exception& e) {
    spdlog::debug("{}: closing labgate's shell: {}", conn_->who(), e.what());
  }
  exec_.reset();
}

bool SshShell::start(std::unique_lock<std::recursive_mutex>& lock) {
  token_ = new_token();
  try {
    exec_ = SshExec::open(*conn_, wrap_remote_command({"/bin/sh"}), "/bin/sh (labgate's shell)",
                          kDefaultOutputLimit,
                          channel_wait_for(*conn_, conn_->host().ssh.command_timeout, &lock, true));
  } catch (const ChannelRefused& refused) {
    // MaxSessions below what a kept shell needs beside a probe: channels of their own, as before.
    spdlog::debug("{}: no channel for labgate's shell ({}); commands take channels of their own",
                  conn_->who(), refused.what());
    given_up_ = true;
    return false;
  }
  exec_->stream_to(
      [this](std::string_view d) {
        if (reply_) reply_->feed_out(d);
      },
      [this](std::string_view d) {
        if (reply_) reply_->feed_err(d);
      });
  ++starts_;
  // The SFTP channel's open, sent just before this one's, has been answered
  // meanwhile: sftp-server is asked for now, without waiting (issue 23).
  conn_->nudge_sftp_ahead();
  return true;
}

std::optional<std::string> SshShell::login_noise() {
  std::lock_guard lock(mutex_);
  std::lock_guard conn_lock(conn_->mutex());
  if (!exec_ || !exec_->session_holds_channel() || !exec_->framed()) return std::nullopt;
  return exec_->login_noise();
}

bool SshShell::close_if_idle() {
  // busy_ first: the thread starting the shell may be the one asking for room.
  if (busy_ || !mutex_.try_lock()) return false;
  std::lock_guard lock(mutex_, std::adopt_lock);
  if (!exec_) return false;
  try {
    if (exec_->session_holds_channel()) exec_->write_input("exit\n");
  } catch (const ConnectionLost&) {
    // Gone already: closing it is all that is left.
  }
  exec_->close();
  exec_.reset();
  return true;
}

void SshShell::drop(bool kill_group) {
  if (!exec_) return;
  const auto pgid = exec_->pgid();
  exec_->close();
  exec_.reset();
  if (kill_group && pgid) kill_remote_group(*conn_, *pgid, milliseconds(1000));
}

std::optional<RunResult> SshShell::run(const std::vector<std::string>& argv, const RunOptions& options,
                                       Nanos timeout, Nanos relay_limit) {
  if (options.input.find('\0') != std::string::npos) return std::nullopt;  // a shell word cannot hold it
  std::lock_guard shell_lock(mutex_);
  return run_locked(argv, options, timeout, relay_limit);
}

std::optional<bool> SshShell::run_if_idle(const std::vector<std::string>& argv, milliseconds limit) {
  // busy_ first, as close_if_idle: the caller may hold the connection's lock
  // while another thread's request waits for it.
  if (busy_ || !mutex_.try_lock()) return std::nullopt;
  std::lock_guard shell_lock(mutex_, std::adopt_lock);
  {
    std::lock_guard conn_lock(conn_->mutex());
    // Not worth starting (or starting again) a shell for: a channel does it.
    if (given_up_ || !exec_ || !exec_->session_holds_channel()) return std::nullopt;
  }
  RunOptions o;
  o.during_interrupt = true;  // kills and clean-ups run on regardless
  o.output_limit = 64 * 1024;
  try {
    // A stopped sshd is waited for as long as any step's channel open
    // (command_timeout); `limit` is the kill's own, from the acknowledgement.
    const auto r = run_locked(argv, o, limit, answer_limit(limit, conn_->host().ssh.command_timeout));
    if (!r) return std::nullopt;
    if (r->timed_out) {
      spdlog::warn("{}: housekeeping command `{}` did not finish within {} ms", conn_->who(), shell_join(argv),
                   limit.count());
    } else if (!r->ok()) {
      spdlog::warn("{}: `{}` failed: {} {}", conn_->who(), shell_join(argv), r->describe(), r->err);
    }
    return r->ok();
  } catch (const NotPassedOn& e) {
    spdlog::warn("{}", e.what());
    return false;
  } catch (const std::exception& e) {
    // The shell ended under it, or the connection did: the caller's own channel
    // tries once more and reports what it meets.
    spdlog::debug("{}: `{}` in labgate's shell: {}", conn_->who(), shell_join(argv), e.what());
    return std::nullopt;
  }
}

std::optional<RunResult> SshShell::run_locked(const std::vector<std::string>& argv, const RunOptions& options,
                                              Nanos timeout, Nanos relay_limit) {
  if (given_up_) return std::nullopt;
  busy_ = true;
  struct NotBusy {
    std::atomic<bool>& b;
    ~NotBusy() { b = false; }
  } not_busy{busy_};
  const std::string cmd = shell_join(argv);
  std::unique_lock lock(conn_->mutex());
  try {
    if (exec_ && !exec_->session_holds_channel()) exec_.reset();  // its session was replaced
    if (exec_) {
      exec_->pump(milliseconds(0));
      if (exec_->at_eof()) {
        // Ended while idle (killed on the host): started again once, said.
        const bool again = !lost_before_;
        spdlog::warn("{}: labgate's shell on this host ended while idle (killed?); {}", conn_->who(),
                     again ? "starting it again (once)" : "each command now takes a channel of its own");
        drop(false);
        if (!again) {
          given_up_ = true;
          return std::nullopt;
        }
        lost_before_ = true;
      }
    }
    if (!exec_ && !start(lock)) return std::nullopt;
    ShellReply reply(token_, ++next_id_, options.output_limit);
    reply_ = &reply;
    struct Unhook {
      ShellReply*& r;
      ~Unhook() { r = nullptr; }
    } unhook{reply_};
    ShellDeadline deadline(Clock::now(), relay_limit, timeout);
    exec_->write_input(shell_request(token_, next_id_, argv, options.input));
    RunResult r;
    for (;;) {
      exec_->pump(milliseconds(0));
      if (reply.started() && !deadline.is_acknowledged()) {
        deadline.acknowledged(Clock::now());
        if (deadline.relay_was_slow())
          spdlog::warn(
              "{}: sshd took {} to pass `{}` to labgate's shell (a stopped, swapping or overloaded server?); "
              "labgate waited, within the step's timeout",
              conn_->who(), format_seconds(*deadline.relay_time()), excerpt(cmd, 120));
      }
      if (reply.done()) break;
      if (reply.overflowed()) {
        drop(true);
        throw Failure(ExitCode::kCouldNotRun,
                      conn_->who() + ": `" + cmd + "` wrote more than " + format_size(options.output_limit) +
                          " to " + reply.overflowed_stream() + "; stopped it (output limit per stream)");
      }
      if (exec_->at_eof()) {
        const bool again = !lost_before_;
        lost_before_ = true;
        if (!again) given_up_ = true;
        drop(false);
        spdlog::warn(
            "{}: labgate's shell on this host ended while running `{}` (killed, or the command ended "
            "it); {}",
            conn_->who(), cmd,
            again ? "it is started again for the next command (once)"
                  : "each command now takes a channel of its own");
        throw Failure(ExitCode::kCouldNotRun,
                      conn_->who() + ": `" + cmd + "` did not finish: labgate's shell running it ended");
      }
      if (!options.during_interrupt && pending_interrupt()) {
        drop(true);
        throw_if_interrupted("running `" + cmd + "` on " + conn_->who());
      }
      if (deadline.expired(Clock::now())) {
        if (!deadline.is_acknowledged()) {
          // The shell never read it: closing its channel ends it (EOF on its stdin).
          drop(false);
          throw NotPassedOn(ExitCode::kCouldNotRun,
                            conn_->who() + ": cannot run `" + cmd +
                                "`: sshd did not pass it to labgate's shell within " +
                                format_seconds(relay_limit) +
                                " (the TCP connection is up: sshd stopped, swapping or overloaded?)");
        }
        // The shell is busy with it: stop the shell's whole group (it and the
        // command); the next command starts a new shell.
        drop(true);
        r.timed_out = true;
        r.duration = deadline.command_time(Clock::now());
        return r;
      }
      if (!conn_->keepalive_if_idle()) throw ConnectionLost{ssh_get_error(conn_->session())};
      wait_unlocked(lock, *conn_, milliseconds(20));
    }
    r = reply.result();
    r.duration = deadline.command_time(Clock::now());
    // Round trips per step are counted with -v (issue 23).
    spdlog::debug("{}: `{}` in labgate's shell: {} ms", conn_->who(), excerpt(cmd, 120),
                  std::chrono::duration_cast<milliseconds>(r.duration).count());
    return r;
  } catch (const ConnectionLost& lost) {
    const auto pgid = exec_ ? exec_->pgid() : std::nullopt;
    const int generation = exec_ ? exec_->generation() : -1;
    exec_.reset();
    lock.unlock();
    fail_after_drop(*conn_, pgid, cmd + " (in labgate's shell)", lost.why, Nanos(0), generation);
  }
}

}  // namespace labgate::transport

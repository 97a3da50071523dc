// One remote command on one SSH channel (see ssh_exec.h).
#include "ssh_exec.h"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "labgate/transport/interrupt.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "ssh_control.h"

namespace labgate::transport {

ServerWait channel_wait_for(SshConnection& conn, std::chrono::nanoseconds limit,
                            std::unique_lock<std::recursive_mutex>* lock, bool interruptible) {
  ServerWait w;
  w.limit = limit;
  w.pause = [&conn, lock, interruptible](std::chrono::milliseconds d) {
    if (interruptible) throw_if_interrupted("waiting for sshd to answer on " + conn.who());
    conn.keepalive_if_idle();  // a link that died meanwhile fails the next attempt
    if (lock) {
      wait_unlocked(*lock, conn, std::max(d, std::chrono::milliseconds(1)));
    } else {
      std::this_thread::sleep_for(d);
    }
  };
  return w;
}

namespace {
// One blocking libssh request's return value as channel_wait sees it.
ServerAnswer answer_of(int rc, ssh_session s) {
  if (rc == SSH_OK) return ServerAnswer::kDone;
  // SSH_AGAIN from a blocking call: libssh's own wait (the session timeout)
  // ended before the server answered; the request is still pending.
  if (rc == SSH_AGAIN && ssh_is_connected(s)) return ServerAnswer::kNoAnswerYet;
  return ServerAnswer::kFailed;
}

void say_slow(SshConnection& conn, const std::string& request, const WaitOutcome& w) {
  spdlog::warn(
      "{}: sshd took {} to {} (asked {} times; a stopped, swapping or overloaded server?); "
      "labgate waited, within the step's timeout",
      conn.who(), format_seconds(w.waited), request, w.attempts);
}
}  // namespace

ssh_channel open_session_channel(SshConnection& conn, const ServerWait& wait, const std::string& what) {
  ssh_session s = conn.session();
  ssh_channel channel = ssh_channel_new(s);
  if (!channel) throw ConnectionLost{std::string("cannot create a channel: ") + ssh_get_error(s), true};
  return finish_session_channel(conn, channel, wait, what);
}

ssh_channel finish_session_channel(SshConnection& conn, ssh_channel channel, const ServerWait& wait,
                                   const std::string& what) {
  ssh_session s = conn.session();
  WaitOutcome w;
  try {
    w = wait_for_answer([&] { return answer_of(ssh_channel_open_session(channel), s); }, wait);
  } catch (...) {  // interrupted while sshd had not answered
    ssh_channel_free(channel);
    throw;
  }
  if (w.last == ServerAnswer::kDone) {
    if (w.was_slow()) say_slow(conn, "open a session channel for " + what, w);
    return channel;
  }
  const std::string why = ssh_get_error(s);
  // Still pending on the server: sshd may open it later, on a channel labgate
  // no longer knows; nothing runs on it, and the session stays usable.
  ssh_channel_free(channel);
  if (w.last == ServerAnswer::kNoAnswerYet)
    throw Failure(ExitCode::kCouldNotRun,
                  conn.who() + ": cannot " + what + ": " + describe_no_answer("open a session channel", w));
  throw ConnectionLost{"cannot open a session channel: " + (why.empty() ? "no reason given by libssh" : why),
                       true};
}

SshExec::SshExec(SshConnection& conn, const std::string& remote_line, std::string command,
                 std::size_t output_limit, const ServerWait& wait)
    : conn_(conn),
      command_(std::move(command)),
      out_(output_limit),
      err_(output_limit),
      generation_(conn.generation()) {
  channel_ = open_session_channel(conn_, wait, "run `" + excerpt(command_, 120) + "`");
  generation_ = conn_.generation();
  std::memset(&callbacks_, 0, sizeof callbacks_);
  callbacks_.userdata = this;
  callbacks_.channel_exit_status_function = &SshExec::on_exit_status;
  callbacks_.channel_exit_signal_function = &SshExec::on_exit_signal;
  ssh_callbacks_init(&callbacks_);
  ssh_set_channel_callbacks(channel_, &callbacks_);
  ssh_session s = conn_.session();
  WaitOutcome w;
  try {
    w = wait_for_answer([&] { return answer_of(ssh_channel_request_exec(channel_, remote_line.c_str()), s); },
                        wait);
  } catch (...) {  // interrupted: no destructor runs for a throwing constructor
    close();
    throw;
  }
  if (w.last == ServerAnswer::kDone) {
    if (w.was_slow()) say_slow(conn_, "start `" + excerpt(command_, 120) + "`", w);
    return;
  }
  const std::string why = ssh_get_error(s);
  close();
  if (w.last == ServerAnswer::kNoAnswerYet)
    throw Failure(ExitCode::kCouldNotRun, conn_.who() + ": cannot run `" + command_ +
                                              "`: " + describe_no_answer("answer the request to run it", w));
  // A "no" (CHANNEL_FAILURE) on a live session: sshd could not start it (no
  // process slot, fork failed); nothing ran.
  const bool refused = ssh_is_connected(s) && why.find("Channel request exec failed") != std::string::npos;
  throw ConnectionLost{"the server refused to run the command: " + why, refused, refused};
}

SshExec::~SshExec() { close(); }

std::optional<std::string> explain_channel_refusal(const std::string& libssh_error) {
  // OpenSSH refuses a session channel over MaxSessions with the text "open
  // failed" (reason 1 or 2 depending on where it stops it); libssh reports
  // "Channel opening failure: channel N error (2) open failed".
  const bool refused = libssh_error.find("Channel opening failure") != std::string::npos &&
                       libssh_error.find("open failed") != std::string::npos;
  if (!refused && libssh_error.find("administratively prohibited") == std::string::npos) return std::nullopt;
  return "the server refused another session channel on this connection (" + libssh_error +
         "): its sshd_config MaxSessions is below what labgate needs at once (a command, the SFTP channel, "
         "the lab lease's heartbeat, and a second channel to stop a process group: at least 4; OpenSSH's "
         "default is 10)";
}

bool make_room_for_a_channel(SshConnection& conn, int attempt, bool keep_sftp) {
  constexpr int kRetries = 5;  // 20 + 40 + 80 + 160 + 320 ms at most
  if (attempt >= kRetries) return false;
  if (!keep_sftp && conn.close_sftp())
    spdlog::debug("{}: closed the idle SFTP channel to free a session slot", conn.who());
  // labgate's shell is started again when next needed (its commands hold nothing between them).
  if (conn.close_idle_shell())
    spdlog::debug("{}: closed labgate's idle shell to free a session slot", conn.who());
  std::this_thread::sleep_for(std::chrono::milliseconds(20 << attempt));
  return true;
}

std::unique_ptr<SshExec> SshExec::open(SshConnection& conn, const std::string& remote_line,
                                       const std::string& command, std::size_t output_limit,
                                       const ServerWait& wait) {
  // A clean-up or lease release right after the last command was refused so on
  // MaxSessions 1, and left the lease behind: see make_room_for_a_channel.
  const auto t0 = wait.now();
  int refused_exec = 0;
  std::chrono::milliseconds backoff{50};
  for (int attempt = 0;; ++attempt) {
    try {
      ServerWait left = wait;
      left.limit = std::max(std::chrono::nanoseconds(0), wait.limit - (wait.now() - t0));
      return std::make_unique<SshExec>(conn, remote_line, command, output_limit, left);
    } catch (const ConnectionLost& lost) {
      if (!lost.nothing_started) throw;
      if (lost.exec_refused) {
        // Under load sshd may fail to fork the command's shell; a moment later it can.
        ++refused_exec;
        if (wait.now() - t0 + backoff < wait.limit) {
          if (wait.pause) wait.pause(backoff);
          backoff = std::min(backoff * 2, std::chrono::milliseconds(1000));
          continue;
        }
        throw Failure(ExitCode::kCouldNotRun, conn.who() + ": cannot run `" + command + "`: " + lost.why +
                                                  " (refused " + std::to_string(refused_exec) +
                                                  " times within " + format_seconds(wait.now() - t0) +
                                                  "; can sshd start processes: ulimit -u, memory?)");
      }
      // A refusal is not a dead session: reconnecting would cut the channels that
      // are open (a running server) and be refused again. Name it.
      if (auto why = explain_channel_refusal(lost.why)) {
        if (make_room_for_a_channel(conn, attempt, false)) continue;
        throw ChannelRefused(ExitCode::kCouldNotRun, conn.who() + ": cannot run `" + command + "`: " + *why);
      }
      conn.mark_broken(lost.why);
      return std::make_unique<SshExec>(conn, remote_line, command, output_limit, wait);
    }
  }
}

void SshExec::on_exit_status(ssh_session, ssh_channel, int status, void* self) {
  static_cast<SshExec*>(self)->exit_status_ = status;
}

void SshExec::on_exit_signal(ssh_session, ssh_channel, const char* sig, int, const char*, const char*,
                             void* self) {
  static_cast<SshExec*>(self)->signal_ = sig ? sig : "?";
}

void SshExec::send_input(const std::string& input) {
  if (!input.empty() && ssh_channel_write(channel_, input.data(), static_cast<uint32_t>(input.size())) < 0) {
    throw ConnectionLost{std::string("writing stdin failed: ") + ssh_get_error(conn_.session())};
  }
  ssh_channel_send_eof(channel_);
}

void SshExec::write_input(std::string_view data) {
  while (!data.empty()) {
    const int n = ssh_channel_write(channel_, data.data(), static_cast<uint32_t>(data.size()));
    if (n < 0) throw ConnectionLost{std::string("writing stdin failed: ") + ssh_get_error(conn_.session())};
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

bool SshExec::read_available() {
  char buf[32768];
  bool got = false;
  for (int stream = 0; stream < 2; ++stream) {
    for (;;) {
      const int n = ssh_channel_read_nonblocking(channel_, buf, sizeof buf, stream);
      if (n == SSH_ERROR) throw ConnectionLost{ssh_get_error(conn_.session())};
      if (n <= 0) break;  // 0: nothing now; SSH_EOF: that stream is done
      got = true;
      const std::string_view chunk(buf, static_cast<size_t>(n));
      if (stream == 0) {
        const std::string text = frame_.feed(chunk);
        if (out_sink_ && !text.empty()) {
          out_sink_(text);
        } else {
          out_.append(text);
        }
      } else {
        const std::string text = marker_.feed(chunk);
        if (err_sink_ && !text.empty()) {
          err_sink_(text);
        } else {
          err_.append(text);
        }
      }
    }
  }
  return got;
}

bool SshExec::pump(std::chrono::milliseconds max_wait) {
  if (eof_) return true;
  if (!channel_) throw ConnectionLost{"channel already closed"};
  if (!session_holds_channel()) {
    throw ConnectionLost{conn_.broken_reason().empty() ? "session was reset" : conn_.broken_reason()};
  }
  const auto deadline = std::chrono::steady_clock::now() + max_wait;
  for (;;) {
    const bool got = read_available();
    if (ssh_channel_is_eof(channel_)) {
      err_.append(marker_.finish());
      out_.append(frame_.finish());
      eof_ = true;
      return true;
    }
    if (!ssh_is_connected(conn_.session())) throw ConnectionLost{ssh_get_error(conn_.session())};
    if (got) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    if (!conn_.keepalive_if_idle()) throw ConnectionLost{ssh_get_error(conn_.session())};
    // Sleep on the socket; short slices keep an eye on data libssh already holds.
    pollfd p{ssh_get_fd(conn_.session()), POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    poll(&p, 1, static_cast<int>(std::min<long long>(left, 50)));
  }
}

void wait_unlocked(std::unique_lock<std::recursive_mutex>& lock, SshConnection& conn,
                   std::chrono::milliseconds max_wait) {
  pollfd p{conn.socket_fd(), POLLIN, 0};
  lock.unlock();
  // Another thread may read our channel's data off the socket meanwhile (libssh
  // buffers it for us): the slice bounds how long that can go unnoticed.
  if (p.fd >= 0) {
    poll(&p, 1, static_cast<int>(max_wait.count()));
  } else {
    std::this_thread::sleep_for(max_wait);
  }
  lock.lock();
}

void SshExec::collect_status() {
  if (!channel_) return;
  if (!session_holds_channel()) return close();
  if (exit_status_ < 0 && signal_.empty()) {
    // Blocks (session timeout) until exit-status, exit-signal or close arrives.
    ssh_channel_get_exit_status(channel_);
  }
  close();
}

void SshExec::close() {
  if (!channel_) return;
  // A session that was dropped (mark_broken, disconnect) or replaced took its
  // channels with it: ssh_free frees them, so the pointer must not be touched.
  if (session_holds_channel()) {
    // The callbacks point at this object: unhook them before anything can
    // deliver a late exit-status to a destroyed SshExec.
    ssh_remove_channel_callbacks(channel_, &callbacks_);
    if (ssh_channel_is_open(channel_)) ssh_channel_close(channel_);
    ssh_channel_free(channel_);
  }
  channel_ = nullptr;
}

void SshExec::fill(RunResult& r) {
  r.out = std::move(out_.text());
  r.err = std::move(err_.text());
  r.exit_status = signal_.empty() ? exit_status_ : -1;
  r.signal = signal_;
}

}  // namespace labgate::transport

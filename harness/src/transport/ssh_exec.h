// One remote command on one SSH channel: open, exec the wrapped command line,
// feed stdin, and pump stdout and stderr (bounded) until EOF on both. OpenSSH 4.3
// sends exit-status before the last output, so completion is "both streams at
// EOF", never "exit status seen".
#pragma once

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "capture.h"
#include "labgate/transport/transport.h"
#include "labgate/util/exit_code.h"
#include "remote_command.h"
#include "server_wait.h"
#include "ssh_connection.h"

namespace labgate::transport {

/// Thrown by SshExec when the session fails under it (caught inside the transport
/// and turned into a Failure that names host and command).
struct ConnectionLost {
  std::string why;
  bool nothing_started = false;  ///< lost before the exec request: the command never ran
  /// The server answered the exec request with a no (it could not fork, say):
  /// the command never ran and the session is fine, so it may be asked again.
  bool exec_refused = false;
};

/// How a step on `conn` waits for sshd to answer its channel requests: up to
/// `limit`, keeping the connection alive between attempts and, with `lock`
/// (holding conn.mutex()), letting other threads use it meanwhile. When
/// `interruptible`, a pending SIGINT/SIGTERM ends the wait (throw_if_interrupted)
/// between attempts; a clean-up or a kill waits on regardless.
ServerWait channel_wait_for(SshConnection& conn, std::chrono::nanoseconds limit,
                            std::unique_lock<std::recursive_mutex>* lock, bool interruptible);

/// Opens a session channel on `conn` (the caller holds conn.mutex()), asking
/// again while sshd has not answered, up to `wait`'s limit (a server slow to
/// answer is said as a warning naming `what`). Throws ConnectionLost
/// (nothing_started) when the session broke or the server refused it, Failure
/// naming the host when it never answered.
ssh_channel open_session_channel(SshConnection& conn, const ServerWait& wait, const std::string& what);
/// The same for a channel whose open was already sent (SshConnection's SFTP
/// channel opened beside the shell's): waits for sshd's answer, if it has not
/// come yet; frees `channel` when it throws.
ssh_channel finish_session_channel(SshConnection& conn, ssh_channel channel, const ServerWait& wait,
                                   const std::string& what);

/// For a channel-open failure: names sshd's MaxSessions when the server refused
/// the channel (rather than the session being dead); nullopt otherwise.
std::optional<std::string> explain_channel_refusal(const std::string& libssh_error);

/// After a channel refusal: whether to try again, having made room. Under a low
/// MaxSessions a refusal can be ours to lift: the idle SFTP channel holds a slot
/// (closed here unless `keep_sftp`; reopened when next needed), so does labgate's
/// idle shell (closed; started again when next needed), and OpenSSH frees
/// a slot only once it has closed a channel on its side, a moment after we closed
/// it. So it waits 20, 40, 80, 160, 320 ms for attempts 0..4, then says no.
bool make_room_for_a_channel(SshConnection& conn, int attempt, bool keep_sftp);

/// The server still refused the channel after make_room_for_a_channel: its
/// MaxSessions is below what is open on this connection. Callers with a second
/// connection to turn to catch this; its message names the cause for the rest.
class ChannelRefused : public Failure {
 public:
  using Failure::Failure;
};

/// Waits up to `max_wait` for the session's socket to become readable with the
/// connection's lock released (`lock` holds conn.mutex(); it is held again on
/// return): while one channel waits for a long command, another thread's
/// channel on the same connection (the lease heartbeat, a counter snapshot)
/// runs. A lock held recursively stays held, and the wait is as before.
void wait_unlocked(std::unique_lock<std::recursive_mutex>& lock, SshConnection& conn,
                   std::chrono::milliseconds max_wait);

class SshExec {
 public:
  /// Opens a channel on `conn` (the caller holds conn.mutex()) and starts
  /// `remote_line`. `command` is the readable form for messages.
  /// sshd's answers to the open and the exec request are waited for as `wait` says.
  SshExec(SshConnection& conn, const std::string& remote_line, std::string command, std::size_t output_limit,
          const ServerWait& wait);
  /// As the constructor, but if the session turns out dead before the command
  /// was sent (an idle session whose server restarted, or a NAT that forgot it),
  /// reconnects once and tries again: the command never ran, so that is safe.
  /// An exec the server refused (it could not fork) is asked again on a new
  /// channel within `wait`'s limit.
  static std::unique_ptr<SshExec> open(SshConnection& conn, const std::string& remote_line,
                                       const std::string& command, std::size_t output_limit,
                                       const ServerWait& wait);
  ~SshExec();
  SshExec(const SshExec&) = delete;
  SshExec& operator=(const SshExec&) = delete;

  /// Streams stderr lines to `sink` as they arrive (see RunOptions::on_stderr_line).
  void on_stderr_line(std::function<void(std::string_view)> sink) { err_.on_line(std::move(sink)); }
  /// The same for stdout (RunOptions::on_stdout_line).
  void on_stdout_line(std::function<void(std::string_view)> sink) { out_.on_line(std::move(sink)); }
  /// Writes stdin and sends EOF (always, so a command reading stdin ends).
  void send_input(const std::string& input);
  /// Writes to stdin and keeps it open (labgate's shell reads its requests there).
  void write_input(std::string_view data);
  /// From now on, what arrives on stdout (after the wrapper's frame) and stderr
  /// (without the pgid announcement) goes to these instead of being kept.
  void stream_to(std::function<void(std::string_view)> out, std::function<void(std::string_view)> err) {
    out_sink_ = std::move(out);
    err_sink_ = std::move(err);
  }
  /// Reads what is available, waiting up to `max_wait` for more; returns true
  /// once both streams are at EOF. Throws ConnectionLost.
  bool pump(std::chrono::milliseconds max_wait);
  /// True once either stream passed the output limit.
  bool overflowed() const { return out_.overflowed() || err_.overflowed(); }
  /// Which stream overflowed, for messages.
  const char* overflowed_stream() const { return out_.overflowed() ? "stdout" : "stderr"; }
  bool at_eof() const { return eof_; }
  /// False once the session this channel was opened on was dropped or replaced:
  /// ssh_free freed the channel with it, so channel_ must not be touched.
  bool session_holds_channel() const { return conn_.connected() && conn_.generation() == generation_; }
  std::size_t output_limit() const { return out_.limit(); }
  /// Bounds each stream by `limit` instead, while nothing was captured yet (a
  /// spare channel given a program whose caller asked for another limit);
  /// false, and nothing changed, once something was.
  bool relimit(std::size_t limit) {
    if (out_.total() || err_.total()) return false;
    out_ = Capture(limit);
    err_ = Capture(limit);
    return true;
  }
  /// After EOF: waits (session timeout) for exit-status or exit-signal and closes.
  void collect_status();
  /// Closes the channel without waiting for anything more.
  void close();
  /// Moves the captured output and status into `r`.
  void fill(RunResult& r);

  std::optional<long> pgid() const { return marker_.pgid(); }
  /// What the login shell printed on stdout before the command's frame (a
  /// banner from ~/.bashrc): never part of the result, but it breaks SFTP.
  const std::string& login_noise() const { return frame_.noise(); }
  /// True once the wrapper's stdout frame was seen (the login shell ran it).
  bool framed() const { return frame_.framed(); }
  const std::string& command() const { return command_; }
  /// A spare channel (ssh_spare.h) takes the name of the command it was given.
  void rename(std::string command) { command_ = std::move(command); }
  const std::string& stdout_text() { return out_.text(); }
  /// The session generation this channel belongs to.
  int generation() const { return generation_; }

 private:
  static void on_exit_status(ssh_session, ssh_channel, int status, void* self);
  static void on_exit_signal(ssh_session, ssh_channel, const char* sig, int core, const char* msg,
                             const char* lang, void* self);
  bool read_available();

  SshConnection& conn_;
  ssh_channel channel_ = nullptr;
  std::string command_;
  Capture out_, err_;
  std::function<void(std::string_view)> out_sink_, err_sink_;
  PgidMarkerFilter marker_;
  StdoutFrameFilter frame_;
  bool eof_ = false;
  int exit_status_ = -1;
  std::string signal_;
  int generation_;
  struct ssh_channel_callbacks_struct callbacks_;
};

}  // namespace labgate::transport

// One SSH session to one host, reused for every command of a run: connects on
// first use (through its jump hosts, if any), verifies the host key against the profile's known_hosts, logs
// in by key file or agent, and reconnects after a drop. Not thread-safe by itself: callers hold mutex()
// around every use of session().
#pragma once

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"
#include "labgate/transport/host_resolution.h"

namespace labgate::transport {

class JumpChain;

class SshConnection {
 public:
  explicit SshConnection(profile::Host host);
  ~SshConnection();
  SshConnection(const SshConnection&) = delete;
  SshConnection& operator=(const SshConnection&) = delete;

  /// A connected, verified, authenticated session; connects or reconnects as
  /// needed. Throws Failure(kCouldNotRun) with a message naming host and cause.
  ssh_session session();
  /// The session's SFTP subsystem, opened on first use and kept with the session.
  sftp_session sftp();
  /// Sends the SFTP channel's open now and returns without waiting for it
  /// (issue 23: its round trip rides beside the shell's channel, opened next);
  /// nudge_sftp_ahead() then asks for sftp-server on it, without the version
  /// exchange: sshd starts it through the account's login shell (~350 ms with
  /// a slow ~/.bashrc), which then runs beside the run's other steps instead of
  /// before the first file operation; sftp() later waits for what is still
  /// pending and exchanges versions on it. Nothing is read from it before
  /// sftp(), so a login shell that prints a banner cannot be mistaken for SFTP:
  /// the caller closes it (close_sftp) once that is known. Never throws: what
  /// went wrong is met again, and reported, by sftp().
  void open_sftp_ahead();
  /// Once sshd has confirmed that channel (it answers while the caller waits
  /// for another request, e.g. the shell's start): sends the subsystem request
  /// without waiting for its answer. Cheap and harmless to call at any time.
  void nudge_sftp_ahead();
  /// Closes the SFTP channel if one is open (the next sftp() opens a new one),
  /// freeing its session slot for a server with a low MaxSessions. Call with
  /// mutex() held and no SFTP file open. Returns whether there was one.
  bool close_sftp();
  /// Says once per connection (a warning; later ones at debug level) that the
  /// server refused a channel for its MaxSessions and what labgate did instead.
  void say_refused(const std::string& why, const std::string& instead);
  /// What frees the slot of labgate's idle shell on this connection (set by the
  /// transport that owns it); close_idle_shell() is false when there is none.
  void set_idle_shell_closer(std::function<bool()> closer) { idle_shell_closer_ = std::move(closer); }
  bool close_idle_shell() { return idle_shell_closer_ && idle_shell_closer_(); }
  /// What runs a short housekeeping command (a kill) in labgate's shell on this
  /// connection when that shell is idle (set by the transport that owns it):
  /// nullopt when it cannot, and the command takes a channel of its own.
  using ShellControl =
      std::function<std::optional<bool>(const std::vector<std::string>& argv, std::chrono::milliseconds limit)>;
  void set_shell_control(ShellControl control) { shell_control_ = std::move(control); }
  std::optional<bool> run_in_idle_shell(const std::vector<std::string>& argv, std::chrono::milliseconds limit) {
    return shell_control_ ? shell_control_(argv, limit) : std::nullopt;
  }
  /// For a connection opened because another one was refused: already said.
  void refusal_already_said() { refusal_said_ = true; }
  /// Bumped whenever the SFTP session goes (closed or with the session), so an
  /// SFTP file knows its session is gone.
  int sftp_epoch() const { return sftp_epoch_; }
  /// Drops the session after an I/O error; the next session() reconnects.
  void mark_broken(const std::string& why);
  /// True while a session is up and not known to be broken.
  bool connected() const { return session_ != nullptr; }
  /// The session's socket, or -1 when there is none (never connects).
  int socket_fd() const { return session_ ? ssh_get_fd(session_) : -1; }
  /// Bumped on every new session, so a channel knows its session is gone.
  int generation() const { return generation_; }
  /// Why the last session ended ("" if it has not).
  const std::string& broken_reason() const { return broken_reason_; }

  /// Sends an SSH_MSG_IGNORE if nothing was sent for a while: on a dead link the
  /// unacknowledged bytes make TCP_USER_TIMEOUT fail the socket, so a wait for a
  /// quiet command still notices the drop. Returns false if sending failed.
  bool keepalive_if_idle();

  const profile::Host& host() const { return host_; }
  /// "host a (root@198.18.0.2:22)" (with " via u@bastion:22" behind jump hosts),
  /// the prefix of every message about this host.
  std::string who() const;
  std::recursive_mutex& mutex() { return mutex_; }

  /// How often keepalives go out while waiting, and how long unacknowledged data
  /// may sit before the kernel gives up on the connection.
  static constexpr std::chrono::seconds kKeepaliveInterval{5};
  static constexpr std::chrono::seconds kDeadAfter{20};

 private:
  void connect();
  // One attempt: through the jump chain (left in `chain`) to the target, verified and logged in.
  ssh_session connect_once(std::unique_ptr<JumpChain>& chain);
  void disconnect();
  // The SFTP channel with sftp-server asked for (one bounded retry when sshd
  // refuses the subsystem while the session is up, said); throws Failure.
  // `pending`: a channel whose open (and perhaps subsystem request) was sent
  // ahead; its answers are waited for here.
  sftp_session open_sftp_channel(std::chrono::nanoseconds limit, ssh_channel pending = nullptr);
  // One libssh call on the session without blocking (SSH_AGAIN: sent, not answered).
  int without_blocking(const std::function<int()>& call);

  profile::Host host_;
  ResolvedHost resolved_;      ///< host_ through ssh_config: address, login, jump chain
  std::string resolve_error_;  ///< why resolution failed (reported on connect)
  std::unique_ptr<JumpChain> chain_;
  ssh_session session_ = nullptr;
  sftp_session sftp_ = nullptr;
  sftp_session sftp_ahead_ = nullptr;  // open_sftp_ahead's, versions not yet exchanged
  ssh_channel sftp_opening_ = nullptr;  // open_sftp_ahead's channel, open (or subsystem) not yet answered
  bool sftp_requested_ = false;         // the subsystem request was sent on it
  int sftp_epoch_ = 0;
  bool refusal_said_ = false;
  std::function<bool()> idle_shell_closer_;
  ShellControl shell_control_;
  int generation_ = 0;
  std::string broken_reason_;
  std::chrono::steady_clock::time_point last_sent_{};
  std::recursive_mutex mutex_;
};

/// Turns libssh's connect error into what a user needs: for an algorithm
/// mismatch, which class did not match and that `legacy_algorithms = true` fixes
/// it (OpenSSH 4.3 on RHEL 5 offers only SHA-1 era algorithms). `server_banner`
/// (the server's identification string, empty if none arrived) explains a
/// connection the server closed during key exchange. Exposed for tests.
std::string explain_connect_error(const std::string& libssh_error, bool legacy_algorithms,
                                  const std::string& server_banner = "");

}  // namespace labgate::transport

// One host's SSH connection: resolved through ssh_config, reached through its jump
// chain if any, set up by ssh_endpoint.cc, dropped and remade after a break.
#include "ssh_connection.h"

#include <spdlog/spdlog.h>

#include <regex>
#include <thread>

#include "connect_retry.h"
#include "jump_chain.h"
#include "labgate/transport/libssh_log.h"
#include "labgate/util/exit_code.h"
#include "ssh_endpoint.h"
#include "ssh_exec.h"

namespace labgate::transport {

namespace {
// A server that sent its banner and then closed before agreeing on algorithms.
// An old OpenSSH that finds nothing in common closes at once, and libssh may read
// the close before the server's offer, reporting only "Socket error: Success" (seen
// with OpenSSH 4.3p2 on a loaded machine); the banner still says what it is.
std::string explain_closed_during_kex(const std::string& libssh_error, bool legacy_algorithms,
                                      const std::string& banner) {
  std::string msg = libssh_error + ": the server (" + banner +
                    ") closed the connection during key exchange, usually because it found no "
                    "algorithm in common (its log says which: \"no matching ...\")";
  static const std::regex kOpenSsh(R"(OpenSSH_(\d+)\.(\d+))");
  std::smatch v;
  // rsa-sha2 host key signatures and SHA-2 key exchange groups arrived in OpenSSH 7.2.
  const bool old_openssh = std::regex_search(banner, v, kOpenSsh) &&
                           (std::stoi(v[1]) < 7 || (std::stoi(v[1]) == 7 && std::stoi(v[2]) < 2));
  if (old_openssh && !legacy_algorithms)
    msg +=
        ". OpenSSH before 7.2 offers only SHA-1 era algorithms; set `legacy_algorithms = true` "
        "for this host in the profile";
  return msg;
}
}  // namespace

std::string explain_connect_error(const std::string& libssh_error, bool legacy_algorithms,
                                  const std::string& server_banner) {
  // libssh 0.10: "kex error : no match for method <what>: server [<list>], client [<list>]"
  static const std::regex kNoMatch(R"(no match for method ([^:]+): server \[([^\]]*)\])");
  std::smatch m;
  if (!std::regex_search(libssh_error, m, kNoMatch)) {
    if (!server_banner.empty() && (libssh_error.find("Socket error") != std::string::npos ||
                                   libssh_error.find("disconnected") != std::string::npos))
      return explain_closed_during_kex(libssh_error, legacy_algorithms, server_banner);
    // connect(2) on a blackholed or unroutable address: say what it means.
    for (const char* e : {"Invalid argument", "Network is unreachable", "No route to host"})
      if (libssh_error.find(e) != std::string::npos)
        return libssh_error +
               " (no route to that address from here: check it, and whether the host is reached "
               "through a bastion, which proxy_jump names)";
    return libssh_error;
  }
  const std::string what = m[1];
  std::string cls = what;
  if (what.find("kex") != std::string::npos)
    cls = "key exchange (KexAlgorithms)";
  else if (what.find("host key") != std::string::npos)
    cls = "host key (HostKeyAlgorithms)";
  else if (what.find("encryption") != std::string::npos)
    cls = "cipher (Ciphers)";
  else if (what.find("mac") != std::string::npos)
    cls = "MAC (MACs)";
  else if (what.find("compression") != std::string::npos)
    cls = "compression";
  std::string msg = "no common " + cls + " algorithm: the server offers only [" + std::string(m[2]) + "]";
  if (!legacy_algorithms) {
    msg +=
        ". This looks like an old server (e.g. OpenSSH 4.3 on RHEL 5); set "
        "`legacy_algorithms = true` for this host in the profile to allow what it needs";
  } else {
    msg += ", which not even `legacy_algorithms = true` allows";
  }
  return msg;
}

SshConnection::SshConnection(profile::Host host) : host_(std::move(host)) {
  enable_libssh_log_from_env();  // a suite child of `labgate -vv run`
  // Resolved once: a bad ssh_config is reported at the first connect, naming its line.
  try {
    resolved_ = resolve_host(host_);
  } catch (const Failure& f) {
    resolve_error_ = f.what();
    resolved_.target.host = host_;
  }
}

SshConnection::~SshConnection() { disconnect(); }

std::string SshConnection::who() const {
  std::string via;
  for (const Endpoint& e : resolved_.jumps) via += (via.empty() ? " via " : ", ") + e.target();
  return "host " + host_.name + " (" + resolved_.target.target() + via + ")";
}

ssh_session SshConnection::session() {
  if (!session_) connect();
  return session_;
}

void SshConnection::mark_broken(const std::string& why) {
  broken_reason_ = why;
  disconnect();
}

sftp_session SshConnection::open_sftp_channel(std::chrono::nanoseconds limit, ssh_channel pending) {
  ssh_session s = session();
  for (int attempt = 0;; ++attempt) {
    ssh_channel ch = nullptr;
    try {
      const ServerWait wait = channel_wait_for(*this, limit, nullptr, false);
      ch = pending ? finish_session_channel(*this, pending, wait, "start SFTP")
                   : open_session_channel(*this, wait, "start SFTP");
      pending = nullptr;  // a retry opens a new one
    } catch (const ConnectionLost& lost) {
      if (!ssh_is_connected(s)) {
        mark_broken(lost.why);
        could_not_run(who() + ": connection lost before SFTP could start: " + lost.why);
      }
      // sshd's MaxSessions: open_sftp (ssh_sftp.cc) reads the refusal in this message.
      could_not_run(who() + ": cannot open the SFTP channel: " + lost.why);
    }
    if (ssh_channel_request_sftp(ch) == SSH_OK) {
      sftp_session sf = sftp_new_channel(s, ch);
      if (sf) return sf;
    }
    const std::string why = ssh_get_error(s);
    ssh_channel_free(ch);
    if (!ssh_is_connected(s)) {
      mark_broken(why);
      could_not_run(who() + ": connection lost before SFTP could start: " + why);
    }
    // Under load sshd may fail to start the subsystem's process (fork, the
    // login shell); a moment later it can, as for a command (SshExec::open).
    if (attempt == 0) {
      spdlog::warn("{}: sshd did not start SFTP ({}); asking once more", who(), why);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    could_not_run(who() +
                  ": the server's SFTP subsystem does not answer (is `Subsystem sftp` configured in "
                  "sshd_config?): " +
                  why + " (asked twice)");
  }
}

int SshConnection::without_blocking(const std::function<int()>& call) {
  ssh_set_blocking(session_, 0);
  const int rc = call();
  ssh_set_blocking(session_, 1);
  return rc;
}

void SshConnection::open_sftp_ahead() {
  if (sftp_ || sftp_ahead_ || sftp_opening_ || !connected()) return;
  ssh_channel ch = ssh_channel_new(session_);
  if (!ch) return;
  // Sent now; sshd's answer is read while the shell's own channel is opened.
  const int rc = without_blocking([&] { return ssh_channel_open_session(ch); });
  if (rc == SSH_ERROR) {
    spdlog::debug("{}: SFTP not opened ahead: {}", who(), ssh_get_error(session_));
    ssh_channel_free(ch);
    return;
  }
  sftp_opening_ = ch;
  sftp_requested_ = false;
  nudge_sftp_ahead();
}

void SshConnection::nudge_sftp_ahead() {
  if (!sftp_opening_ || sftp_requested_ || !session_) return;
  const int opened = without_blocking([&] { return ssh_channel_open_session(sftp_opening_); });
  if (opened == SSH_AGAIN) return;  // not answered yet: the next nudge, or sftp(), sees it
  int asked = SSH_ERROR;
  if (opened == SSH_OK) asked = without_blocking([&] { return ssh_channel_request_sftp(sftp_opening_); });
  if (asked == SSH_ERROR) {
    // Refused (MaxSessions, no subsystem): sftp() meets it again and says so.
    spdlog::debug("{}: SFTP not opened ahead: {}", who(), ssh_get_error(session_));
    ssh_channel_free(sftp_opening_);
    sftp_opening_ = nullptr;
    return;
  }
  sftp_requested_ = true;
}

sftp_session SshConnection::sftp() {
  ssh_session s = session();
  if (sftp_) return sftp_;
  const auto t0 = std::chrono::steady_clock::now();
  const bool ahead = sftp_ahead_ != nullptr || sftp_opening_ != nullptr;
  ssh_channel pending = sftp_opening_;
  sftp_opening_ = nullptr;
  sftp_session sf = sftp_ahead_ ? sftp_ahead_ : open_sftp_channel(host_.ssh.command_timeout, pending);
  sftp_ahead_ = nullptr;
  if (sftp_init(sf) != SSH_OK) {
    const std::string why = ssh_get_error(s);
    sftp_free(sf);
    // A session that died while idle: drop it so the caller may retry afresh.
    if (!ssh_is_connected(s)) {
      mark_broken(why);
      could_not_run(who() + ": connection lost before SFTP could start: " + why);
    }
    could_not_run(who() +
                  ": the server's SFTP subsystem does not answer (is `Subsystem sftp` configured in "
                  "sshd_config?): " +
                  why);
  }
  sftp_ = sf;
  spdlog::debug(
      "{}: SFTP started in {} ms{}", who(),
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count(),
      ahead ? " (its channel opened ahead)" : "");
  return sftp_;
}

void SshConnection::say_refused(const std::string& why, const std::string& instead) {
  std::lock_guard lock(mutex_);
  if (refusal_said_) {
    spdlog::debug("{}; {}", why, instead);
    return;
  }
  refusal_said_ = true;
  spdlog::warn("{}; {}", why, instead);
}

bool SshConnection::close_sftp() {
  std::lock_guard lock(mutex_);
  bool ahead = sftp_ahead_ != nullptr;
  if (ahead) sftp_free(sftp_ahead_);
  sftp_ahead_ = nullptr;
  if (sftp_opening_) {
    // Freed only once sshd has answered its open (an answer for a channel
    // libssh no longer knows is an error on the session), or with the session.
    if (session_ && ssh_is_connected(session_))
      without_blocking([&] { return ssh_channel_open_session(sftp_opening_); });
    if (!session_ || !ssh_is_connected(session_) || ssh_channel_is_open(sftp_opening_)) {
      ssh_channel_free(sftp_opening_);
      sftp_opening_ = nullptr;
      ahead = true;
    }
  }
  if (!sftp_) return ahead;
  sftp_free(sftp_);
  sftp_ = nullptr;
  ++sftp_epoch_;
  return true;
}

void SshConnection::disconnect() {
  if (!session_) return;
  // The SFTP channel belongs to the session: free it first, while that is valid.
  close_sftp();
  if (sftp_opening_) ssh_channel_free(sftp_opening_);  // still unanswered: goes with the session
  sftp_opening_ = nullptr;
  if (ssh_is_connected(session_)) ssh_disconnect(session_);
  ssh_free(session_);
  session_ = nullptr;
  chain_.reset();  // after the session: its socket is the chain's last pair end
}

bool SshConnection::keepalive_if_idle() {
  if (!session_) return false;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_sent_ < kKeepaliveInterval) return true;
  last_sent_ = now;
  return ssh_send_ignore(session_, "labgate keepalive") == SSH_OK && ssh_is_connected(session_);
}

void SshConnection::connect() {
  if (!resolve_error_.empty()) throw Failure(ExitCode::kUsageError, host_.name + ": " + resolve_error_);
  // A server (or jump host) that hangs up before login is asked again, within
  // connect_timeout: sshd's MaxStartups and a full listen queue pass in moments.
  ServerWait wait;
  wait.limit = host_.ssh.connect_timeout;
  wait.pause = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  std::unique_ptr<JumpChain> chain;
  ssh_session s = nullptr;
  connect_retrying_drops(
      who(), [&] { s = connect_once(chain); }, wait);
  session_ = s;
  chain_ = std::move(chain);
  ++generation_;
  broken_reason_.clear();
  last_sent_ = std::chrono::steady_clock::now();
}

ssh_session SshConnection::connect_once(std::unique_ptr<JumpChain>& chain) {
  const profile::Host& target = resolved_.target.host;
  const auto verify = [&](const std::string& who) {
    return [who, &target](ssh_session s) { verify_host_key(s, target, who); };
  };
  chain.reset();
  int fd = -1;
  if (!resolved_.jumps.empty()) {
    chain = std::make_unique<JumpChain>(
        resolved_.jumps, target.address, target.ssh.port,
        [](const Endpoint& hop, const std::string& who, int hop_fd) {
          ssh_session s = open_endpoint(
              hop.host, who, hop_fd, [&](ssh_session hs) { verify_host_key(hs, hop.host, who); }, true);
          if (hop_fd < 0) tune_socket(s, kDeadAfter);  // the first hop's TCP socket carries everything
          return s;
        });
    fd = chain->take_fd();
  }
  ssh_session s = open_endpoint(target, who(), fd, verify(who()), true);
  if (fd < 0) tune_socket(s, kDeadAfter);
  return s;
}

}  // namespace labgate::transport

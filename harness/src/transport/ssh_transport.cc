// Transport over SSH: run and start (see ssh_transport.h; files in ssh_sftp.cc).
#include "ssh_transport.h"

#include <spdlog/spdlog.h>

#include "labgate/transport/interrupt.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/transport/shell_steps.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "remote_command.h"
#include "server_wait.h"
#include "ssh_control.h"
#include "ssh_exec.h"
#include "ssh_process.h"

namespace labgate::transport {

namespace {
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
// After a kill, how long to wait for the rest of the output before giving up.
constexpr milliseconds kDrainAfterKill{3000};
// How long a waiting command lets other threads use the connection between looks.
constexpr milliseconds kWaitSlice{20};

void drain(SshExec& ex, milliseconds limit) {
  const auto until = Clock::now() + limit;
  while (!ex.pump(milliseconds(100)) && Clock::now() < until) {
  }
}
}  // namespace

SshTransport::SshTransport(const profile::Host& host)
    : name_(host.name), conn_(std::make_shared<SshConnection>(host)) {
  conn_->set_shell_control([this](const std::vector<std::string>& argv, std::chrono::milliseconds limit) {
    return shell_.run_if_idle(argv, limit);
  });
  conn_->set_idle_shell_closer([this] {
    const bool shell = shell_.close_if_idle();
    return spare_.close_for_room() || shell;
  });
}

SshTransport::~SshTransport() {
  // A started process may keep the connection beyond this transport and its shell.
  conn_->set_idle_shell_closer(nullptr);
  conn_->set_shell_control(nullptr);
}

SshTransport& SshTransport::overflow(const ChannelRefused& refused, const std::string& what) {
  std::lock_guard lock(overflow_mutex_);
  if (!overflow_) {
    if (depth_ + 1 > kMaxOverflowDepth) throw refused;
    conn_->say_refused(refused.what(), "labgate opens connection " + std::to_string(depth_ + 2) +
                                           " to this host for " + what + " and what else finds no slot");
    overflow_ = std::make_unique<SshTransport>(conn_->host());
    overflow_->depth_ = depth_ + 1;
    overflow_->conn_->refusal_already_said();
  }
  return *overflow_;
}

std::string SshTransport::host_identity() {
  std::lock_guard lock(conn_->mutex());
  ssh_session s = conn_->session();  // connected and verified, or it threw
  ssh_key key = nullptr;
  if (ssh_get_server_publickey(s, &key) != SSH_OK || !key) {
    throw Failure(ExitCode::kCouldNotRun,
                  conn_->who() + ": cannot read the server's host key: " + ssh_get_error(s));
  }
  unsigned char* hash = nullptr;
  size_t len = 0;
  const int rc = ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len);
  ssh_key_free(key);
  if (rc != SSH_OK || !hash) {
    throw Failure(ExitCode::kCouldNotRun, conn_->who() + ": cannot hash the server's host key");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "hk-";
  for (size_t i = 0; i < len && i < 8; ++i) {
    id += kHex[hash[i] >> 4];
    id += kHex[hash[i] & 15];
  }
  ssh_clean_pubkey_hash(&hash);
  return id;
}

void SshTransport::prepare_processes() {
  std::unique_lock lock(conn_->mutex());
  if (conn_->connected()) spare_.replenish(lock);
}

void SshTransport::open_ahead() {
  std::lock_guard lock(conn_->mutex());
  // Not connected yet: the shell's start connects and reports what fails; the
  // next housekeeping step opens it ahead.
  if (!conn_->connected() || opened_ahead_ == conn_->generation()) return;
  opened_ahead_ = conn_->generation();
  // Known to print on stdout: files go through /bin/sh on this session.
  if (files_checked_ == conn_->generation() && exec_files_) return;
  conn_->open_sftp_ahead();
}

std::string SshTransport::describe() const {
  const auto& h = conn_->host();
  return "ssh " + h.ssh.user + "@" + h.address + ":" + std::to_string(h.ssh.port);
}

void SshTransport::connect() {
  std::lock_guard lock(conn_->mutex());
  conn_->session();
}

RunResult SshTransport::run(const std::vector<std::string>& argv, const RunOptions& options) {
  std::string cmd;
  try {
    cmd = shell_join(argv);
  } catch (const std::invalid_argument& e) {
    throw Failure(ExitCode::kCouldNotRun, conn_->who() + ": " + e.what());
  }
  if (!options.during_interrupt) throw_if_interrupted("about to run `" + cmd + "` on " + conn_->who());
  // Held while libssh is used, released while waiting for the command (see
  // wait_unlocked): one connection carries the run's steps and the lease's
  // heartbeat, which must not wait behind a two-minute measurement.
  const auto timeout = options.timeout.value_or(conn_->host().ssh.command_timeout);
  // sshd's answer (a channel opened, a request passed to the shell) is waited
  // for within command_timeout at least; the command's clock starts after it.
  const auto answer_wait = answer_limit(timeout, conn_->host().ssh.command_timeout);
  // A housekeeping step goes to the host's one shell (before the connection's
  // lock: the shell takes its own first, then that one).
  if (ShellSteps::active() && !options.on_stderr_line && !options.on_stdout_line && shell_.usable()) {
    open_ahead();
    if (auto r = shell_.run(argv, options, timeout, answer_wait)) return *r;  // else: on a channel of its own
  }
  std::unique_lock lock(conn_->mutex());
  auto t0 = Clock::now();
  std::unique_ptr<SshExec> ex;
  // What does not go to the host's shell (a probe's or a tool's client, a
  // probe run that prints no lines, a ping, the lease's heartbeat) starts in the
  // spare channel, whose login shell started earlier, and leaves a new one
  // behind: no login shell waited for (issue 23).
  const bool streams = options.on_stderr_line || options.on_stdout_line;
  try {
    ex = spare_.take(lock, argv, options.pgid_file, cmd, options.output_limit);
    const bool spare = ex != nullptr;
    if (!ex) {
      try {
        ex = SshExec::open(*conn_, wrap_remote_command(argv, options.pgid_file), cmd, options.output_limit,
                           channel_wait_for(*conn_, answer_wait, &lock, !options.during_interrupt));
      } catch (const ChannelRefused& refused) {
        lock.unlock();
        return overflow(refused, "`" + cmd + "`").run(argv, options);
      }
    }
    t0 = Clock::now();
    if (options.on_stderr_line) ex->on_stderr_line(options.on_stderr_line);
    if (options.on_stdout_line) ex->on_stdout_line(options.on_stdout_line);
    ex->send_input(options.input);
    if (spare || streams) spare_.replenish(lock);
    RunResult r;
    while (!ex->pump(milliseconds(0))) {
      if (ex->overflowed()) break;
      if (!options.during_interrupt && pending_interrupt()) {
        if (ex->pgid()) kill_remote_group(*conn_, *ex->pgid(), milliseconds(1000));
        throw_if_interrupted("running `" + cmd + "` on " + conn_->who());
      }
      if (Clock::now() - t0 >= timeout) {
        r.timed_out = true;
        if (ex->pgid()) {
          kill_remote_group(*conn_, *ex->pgid(), milliseconds(2000));
        } else {
          spdlog::warn("{}: `{}` timed out before announcing its process group; only its channel is closed",
                       conn_->who(), cmd);
        }
        drain(*ex, kDrainAfterKill);
        break;
      }
      if (!conn_->keepalive_if_idle()) throw ConnectionLost{ssh_get_error(conn_->session())};
      wait_unlocked(lock, *conn_, kWaitSlice);
    }
    if (ex->overflowed()) {
      if (ex->pgid()) kill_remote_group(*conn_, *ex->pgid(), milliseconds(1000));
      throw Failure(ExitCode::kCouldNotRun,
                    conn_->who() + ": `" + cmd + "` wrote more than " + format_size(options.output_limit) +
                        " to " + ex->overflowed_stream() + "; stopped it (output limit per stream)");
    }
    if (ex->at_eof()) {
      ex->collect_status();
    } else {
      ex->close();
    }
    ex->fill(r);
    r.duration = Clock::now() - t0;
    spdlog::debug("{}: `{}` {}: {} ms", conn_->who(), excerpt(cmd, 120),
                  spare ? "in the spare channel" : "on a channel of its own",
                  std::chrono::duration_cast<milliseconds>(r.duration).count());
    return r;
  } catch (const ConnectionLost& lost) {
    fail_after_drop(*conn_, ex ? ex->pgid() : std::nullopt, cmd, lost.why, Clock::now() - t0,
                    ex ? ex->generation() : -1);
  }
}

std::unique_ptr<Process> SshTransport::start(const std::vector<std::string>& argv,
                                             const StartOptions& options) {
  std::string cmd;
  try {
    cmd = shell_join(argv);
  } catch (const std::invalid_argument& e) {
    throw Failure(ExitCode::kCouldNotRun, conn_->who() + ": " + e.what());
  }
  throw_if_interrupted("about to start `" + cmd + "` on " + conn_->who());
  std::unique_lock lock(conn_->mutex());
  const auto t0 = Clock::now();
  try {
    // A probe server or a tool starts in the spare channel (see run()).
    std::unique_ptr<SshExec> ex = spare_.take(lock, argv, options.pgid_file, cmd, options.output_limit);
    spdlog::debug("{}: `{}` started {}", conn_->who(), excerpt(cmd, 120),
                  ex ? "in the spare channel" : "on a channel of its own");
    if (!ex) {
      try {
        ex = SshExec::open(*conn_, wrap_remote_command(argv, options.pgid_file), cmd, options.output_limit,
                           channel_wait_for(*conn_, conn_->host().ssh.command_timeout, &lock, true));
      } catch (const ChannelRefused& refused) {
        lock.unlock();
        return overflow(refused, "`" + cmd + "`").start(argv, options);
      }
    }
    ex->send_input("");
    spare_.replenish(lock);
    return std::make_unique<SshProcess>(conn_, std::move(ex));
  } catch (const ConnectionLost& lost) {
    fail_after_drop(*conn_, std::nullopt, cmd, lost.why, Clock::now() - t0);
  }
}

}  // namespace labgate::transport

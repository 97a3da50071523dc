// A long-running command started over SSH (see ssh_process.h).
#include "ssh_process.h"

#include <spdlog/spdlog.h>

#include "labgate/transport/interrupt.h"
#include "labgate/util/exit_code.h"
#include "ssh_control.h"

namespace labgate::transport {

namespace {
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
}  // namespace

SshProcess::SshProcess(std::shared_ptr<SshConnection> conn, std::unique_ptr<SshExec> exec)
    : conn_(std::move(conn)), exec_(std::move(exec)), command_(exec_->command()), started_(Clock::now()) {
  std::lock_guard lock(conn_->mutex());
  // The group id is the first thing the wrapper prints; without it stop() could
  // only close the channel, which leaves the program running on the host.
  const auto until = Clock::now() + conn_->host().ssh.connect_timeout;
  try {
    while (!exec_->pgid() && !exec_->at_eof() && Clock::now() < until) exec_->pump(milliseconds(50));
  } catch (const ConnectionLost& lost) {
    fail_after_drop(*conn_, exec_->pgid(), command_, lost.why, Clock::now() - started_);
  }
  if (exec_->pgid()) pgid_ = *exec_->pgid();
  if (exec_->at_eof()) finish();
}

SshProcess::~SshProcess() {
  try {
    stop(std::chrono::seconds(2));
  } catch (const std::exception& e) {
    spdlog::warn("{}: could not stop `{}`: {}", conn_->who(), command_, e.what());
  }
}

void SshProcess::finish() {
  exec_->collect_status();
  RunResult r;
  exec_->fill(r);
  r.duration = Clock::now() - started_;
  result_ = std::move(r);
}

bool SshProcess::pump_until(Clock::time_point until, std::string_view needle) {
  // As SshTransport::run: the connection is free for other channels while we wait.
  std::unique_lock lock(conn_->mutex());
  if (result_) return result_->out.find(needle) != std::string::npos;
  try {
    for (;;) {
      if (!needle.empty() && exec_->stdout_text().find(needle) != std::string::npos) return true;
      if (exec_->pump(milliseconds(0))) {
        finish();
        return !needle.empty() && result_->out.find(needle) != std::string::npos;
      }
      if (exec_->overflowed()) {
        kill_remote_group(*conn_, pgid_, milliseconds(1000));
        throw Failure(ExitCode::kCouldNotRun, conn_->who() + ": `" + command_ + "` wrote more than " +
                                                  format_size(exec_->output_limit()) + " to " +
                                                  exec_->overflowed_stream() + "; stopped it");
      }
      throw_if_interrupted("waiting for `" + command_ + "` on " + conn_->who());
      const auto now = Clock::now();
      if (now >= until) return false;
      if (!conn_->keepalive_if_idle()) throw ConnectionLost{ssh_get_error(conn_->session())};
      wait_unlocked(lock, *conn_,
                    std::min(milliseconds(20), std::chrono::duration_cast<milliseconds>(until - now) +
                                                   milliseconds(1)));
    }
  } catch (const ConnectionLost& lost) {
    fail_after_drop(*conn_, pgid_ ? std::optional<long>(pgid_) : std::nullopt, command_, lost.why,
                    Clock::now() - started_, exec_->generation());
  }
}

std::optional<RunResult> SshProcess::wait(Nanos timeout) {
  if (!result_) pump_until(Clock::now() + timeout);
  return result_;
}

bool SshProcess::wait_for_output(std::string_view needle, Nanos timeout) {
  return pump_until(Clock::now() + timeout, needle);
}

std::string SshProcess::stdout_so_far() {
  std::lock_guard lock(conn_->mutex());
  if (result_) return result_->out;
  try {
    if (exec_->pump(milliseconds(0))) finish();
  } catch (const ConnectionLost&) {
    // Reported by the next wait() or stop(); this is only a peek.
  }
  return result_ ? result_->out : exec_->stdout_text();
}

RunResult SshProcess::stop(Nanos grace) {
  std::lock_guard lock(conn_->mutex());
  if (result_) return *result_;
  const auto grace_ms = std::chrono::duration_cast<milliseconds>(grace);
  try {
    if (exec_->pump(milliseconds(0))) {
      finish();
      return *result_;
    }
    if (pgid_) kill_remote_group(*conn_, pgid_, grace_ms);
    const auto until = Clock::now() + grace_ms + milliseconds(3000);
    while (!exec_->pump(milliseconds(100)) && Clock::now() < until) {
    }
    if (exec_->at_eof()) {
      finish();
    } else {
      exec_->close();
      RunResult r;
      exec_->fill(r);
      r.duration = Clock::now() - started_;
      r.signal = "KILL";
      result_ = std::move(r);
    }
    return *result_;
  } catch (const ConnectionLost& lost) {
    RunResult r;
    r.signal = "KILL";
    result_ = r;  // never try again: the failure below is the report
    fail_after_drop(*conn_, pgid_ ? std::optional<long>(pgid_) : std::nullopt, command_, lost.why,
                    Clock::now() - started_);
  }
}

}  // namespace labgate::transport

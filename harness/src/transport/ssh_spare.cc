// Spare channels per host, opened ahead of need (see ssh_spare.h).
#include "ssh_spare.h"

#include <spdlog/spdlog.h>

#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "remote_command.h"
#include "server_wait.h"
#include "ssh_control.h"

namespace labgate::transport {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

SpareChannel::~SpareChannel() {
  std::lock_guard lock(conn_.mutex());
  spares_.clear();
}

std::unique_ptr<SshExec> SpareChannel::take(std::unique_lock<std::recursive_mutex>& lock,
                                            const std::vector<std::string>& argv,
                                            const std::optional<std::string>& pgid_file,
                                            const std::string& command, std::size_t output_limit) {
  drop_stale();
  if (spares_.empty()) return nullptr;
  std::unique_ptr<SshExec> ex = std::move(spares_.front());
  spares_.pop_front();
  bool requested = false;
  try {
    // A shell that ended (a login script that exits) left EOF: it cannot run anything.
    // Another output limit (a command-latency probe's 64 MiB) is the spare's
    // own while it has captured nothing (its program has not started).
    if (ex->pump(std::chrono::milliseconds(0)) ||
        (ex->output_limit() != output_limit && !ex->relimit(output_limit))) {
      return nullptr;
    }
    ex->write_input(launcher_request(argv, pgid_file));
    requested = true;
    // The program has started once its group id arrives. As for a channel of
    // its own, sshd (or the login shell still starting) is waited for within the
    // step's timeout, before the command's own clock starts, and a slow one said.
    const auto t0 = Clock::now();
    const auto limit = conn_.host().ssh.command_timeout;
    while (!ex->pgid() && !ex->pump(std::chrono::milliseconds(0)) && Clock::now() - t0 < limit) {
      if (!conn_.keepalive_if_idle()) throw ConnectionLost{ssh_get_error(conn_.session())};
      wait_unlocked(lock, conn_, std::chrono::milliseconds(20));
    }
    if (!ex->pgid() && ex->at_eof()) {
      // Its shell ended before reading the request: nothing ran, a channel of its own does.
      spdlog::debug("{}: the spare channel's shell had ended; `{}` takes a channel of its own", conn_.who(),
                    command);
      return nullptr;
    }
    if (!ex->pgid()) {
      // Never answered within the step's timeout: as a channel open that was not.
      throw Failure(ExitCode::kCouldNotRun,
                    conn_.who() + ": cannot run `" + excerpt(command, 120) +
                        "`: sshd did not start it in the spare channel within " + format_seconds(limit) +
                        " (the TCP connection is up: sshd stopped, swapping or overloaded?)");
    }
    if (Clock::now() - t0 > kSlowAnswer) {
      spdlog::warn(
          "{}: sshd took {} to start `{}` in the spare channel (a stopped, swapping or overloaded server?); "
          "labgate waited, within the step's timeout",
          conn_.who(), format_seconds(Clock::now() - t0), excerpt(command, 120));
    }
  } catch (const ConnectionLost& lost) {
    // Once the request is written the program may run: starting it again on
    // another channel would run it twice; the caller reports the lost session.
    if (requested) throw;
    // Nothing was started on it: the caller's own channel meets the same
    // session and says what is wrong with it.
    spdlog::debug("{}: spare channel unusable ({}); `{}` takes a channel of its own", conn_.who(), lost.why,
                  command);
    return nullptr;
  }
  ex->rename(command);
  ++taken_;
  return ex;
}

void SpareChannel::drop_stale() {
  // A session replaced since (reconnected) freed every spare with it. All go, not
  // only the front one: a stale spare left behind would count toward kDepth
  // (replenish would not replace it) and cost a later take its spare too.
  std::erase_if(spares_, [](const std::unique_ptr<SshExec>& s) { return !s->session_holds_channel(); });
}

void SpareChannel::replenish(std::unique_lock<std::recursive_mutex>& lock) {
  drop_stale();
  while (!disabled_ && spares_.size() < kDepth) {
    try {
      // One attempt, not SshExec::open's: making room for a spare (closing SFTP
      // or labgate's shell) or waiting out a refusal would cost more than it saves.
      // A stopped sshd is waited for as any channel open is (command_timeout):
      // given up on sooner, its open stays pending on the server for a channel
      // labgate no longer knows, and the run loses its spares (issue 22 item 1).
      spares_.push_back(std::make_unique<SshExec>(
          conn_, launcher_remote_command(), "labgate's spare channel", kDefaultOutputLimit,
          channel_wait_for(conn_, conn_.host().ssh.command_timeout, &lock, false)));
      ++opened_;
    } catch (const ConnectionLost& lost) {
      // Refused (MaxSessions, or sshd could not fork): commands open channels of
      // their own from now on, as they did before. A broken session: the next
      // command reconnects and says so, and a spare is tried again after it.
      if (explain_channel_refusal(lost.why) || lost.exec_refused) disabled_ = true;
      spdlog::debug("{}: no spare channel ({})", conn_.who(), lost.why);
      return;
    } catch (const std::exception& e) {
      // sshd did not answer within command_timeout: not worth waiting for again.
      disabled_ = true;
      spdlog::debug("{}: no spare channel ({})", conn_.who(), e.what());
      return;
    }
  }
}

bool SpareChannel::close_for_room() {
  disabled_ = true;
  if (spares_.empty()) return false;
  spares_.clear();  // channels closed: each /bin/sh's `read` meets EOF and it exits
  return true;
}

}  // namespace labgate::transport

// Spare channels per host, opened ahead of need: each one's login shell (however
// slow its ~/.bashrc) starts while the run does something else, then waits in an
// explicit /bin/sh for one command (remote_command.h: launcher_remote_command).
// A probe, a tool or a probe's client takes one and starts at once; a new spare
// is opened behind it. Two wait: a case starts two processes on a host one after
// the other (the noise watch, then a tool's server), and with one spare the
// second waited for a login shell, ~750 ms a sockperf case on slow-shell hosts.
// The program stands where a channel of its own would have put it: its own
// session and process group (stopped over a second channel), output framed past
// any banner, EOF and exit status as before (issue 23).
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ssh_connection.h"
#include "ssh_exec.h"

namespace labgate::transport {

class SpareChannel {
 public:
  explicit SpareChannel(SshConnection& conn) : conn_(conn) {}
  ~SpareChannel();
  SpareChannel(const SpareChannel&) = delete;
  SpareChannel& operator=(const SpareChannel&) = delete;

  /// The caller holds the connection's lock. Gives the waiting spare argv (its
  /// group id appended to `pgid_file` first, as wrap_remote_command does) and
  /// returns it, the program started; nullptr when there is none (none opened
  /// yet, its session replaced, its shell ended): the
  /// caller opens a channel of its own. Stdin is the caller's: send_input next.
  /// It waits for the program's group id (sshd or the spare's login shell may
  /// be slow) within the host's command_timeout, letting go of `lock` meanwhile.
  std::unique_ptr<SshExec> take(std::unique_lock<std::recursive_mutex>& lock,
                                const std::vector<std::string>& argv,
                                const std::optional<std::string>& pgid_file, const std::string& command,
                                std::size_t output_limit);
  /// How many spares wait at most (see the top of this file).
  static constexpr std::size_t kDepth = 2;

  /// The caller holds the connection's lock (`lock`). Opens spares until kDepth
  /// wait. Never throws: a server that refuses the channel (a low
  /// MaxSessions) gets no spares from then on, which is what it had before.
  void replenish(std::unique_lock<std::recursive_mutex>& lock);
  /// Closes the waiting spares to free session slots (the server refused a
  /// channel); no spare is opened again on this connection. True if it did.
  bool close_for_room();
  /// How many spares were opened, and how many taken (for -v and tests).
  int opened() const { return opened_; }
  int taken() const { return taken_; }

 private:
  /// Drops the spares of a session replaced since they were opened.
  void drop_stale();

  SshConnection& conn_;
  std::deque<std::unique_ptr<SshExec>> spares_;  ///< oldest first: its shell is the likeliest ready
  bool disabled_ = false;
  int opened_ = 0, taken_ = 0;
};

}  // namespace labgate::transport

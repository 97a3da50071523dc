// When a request to labgate's shell is given up on (issue 22 item 1, issue 23).
// sshd passes the request to the shell and the shell's acknowledgement back
// (shell_protocol.h); a stopped, swapping or overloaded server delays exactly
// that, as it delays a channel open. So, as for a command on a channel of its
// own, the relay is waited for within its own limit (command_timeout for a
// housekeeping kill) and the command's clock starts at the acknowledgement: a
// server frozen for 12 s is not a kill that took 12 s.
#pragma once

#include <chrono>
#include <optional>

#include "server_wait.h"

namespace labgate::transport {

class ShellDeadline {
 public:
  using Clock = std::chrono::steady_clock;
  using Nanos = std::chrono::nanoseconds;
  /// The request was written at `sent`; sshd may take `relay_limit` to pass it
  /// on, the command `run_limit` from the acknowledgement.
  ShellDeadline(Clock::time_point sent, Nanos relay_limit, Nanos run_limit)
      : sent_(sent), relay_limit_(relay_limit), run_limit_(run_limit) {}
  /// The acknowledgement arrived at `now` (the first call counts).
  void acknowledged(Clock::time_point now) {
    if (acked_) return;
    acked_ = true;
    started_ = now;
  }
  bool is_acknowledged() const { return acked_; }
  /// Past the limit of the phase the request is in.
  bool expired(Clock::time_point now) const {
    return acked_ ? now - started_ >= run_limit_ : now - sent_ >= relay_limit_;
  }
  /// How long sshd took to pass the request on (once acknowledged).
  std::optional<Nanos> relay_time() const {
    if (!acked_) return std::nullopt;
    return started_ - sent_;
  }
  /// Past kSlowAnswer the relay is said (a stopped, swapping or overloaded
  /// server): a running shell acknowledges within a round trip.
  bool relay_was_slow() const { return acked_ && started_ - sent_ > kSlowAnswer; }
  /// The command's own time so far, or since the request when not acknowledged.
  Nanos command_time(Clock::time_point now) const { return now - (acked_ ? started_ : sent_); }

 private:
  Clock::time_point sent_;
  Nanos relay_limit_, run_limit_;
  bool acked_ = false;
  Clock::time_point started_{};
};

}  // namespace labgate::transport

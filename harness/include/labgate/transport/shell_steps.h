// Marks the commands a scope runs as short housekeeping steps (the lease, the
// run directory, facts, counters, the clean-up): over SSH they go to the host's
// one shell (started once per run) instead of a channel of their own each,
// saving a start of the account's login shell and a round trip per step (issue
// 23). Only the thread that declared it is affected, so the lease heartbeat's
// thread and a probe's own run beside it keep channels of their own.
#pragma once

namespace labgate::transport {

class ShellSteps {
 public:
  ShellSteps();
  ~ShellSteps();
  ShellSteps(const ShellSteps&) = delete;
  ShellSteps& operator=(const ShellSteps&) = delete;
  /// True while a ShellSteps lives on the calling thread.
  static bool active();
};

}  // namespace labgate::transport

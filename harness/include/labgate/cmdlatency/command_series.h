// kind = "command" (seed 002's `dig` loop): the runs of one argv on a host, N
// times or for a duration, gathered into a Measurement: a histogram of wall
// times and the failures (non-zero exit or timeout) that max_failures bounds.
// Pure bookkeeping: the caller runs the command (through the host's transport)
// and reports each run here.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"

namespace labgate::cmdlatency {

/// One run, as the caller saw it.
struct Run {
  std::chrono::nanoseconds wall{0};  ///< start of the exec to its exit (or to the kill at timeout)
  int exit_status = 0;
  bool timed_out = false;   ///< killed after the test's `timeout`
  std::string stderr_text;  ///< kept (the first 200 bytes) for the first failure only
};

class CommandSeries {
 public:
  /// For `spec` (kind command) run on `host`.
  CommandSeries(const profile::TestSpec& spec, std::string host);

  /// Whether to start another run, `elapsed` after the first one started:
  /// until `count` runs, or while elapsed < duration when count is unset.
  bool more(std::chrono::nanoseconds elapsed) const;
  /// The pause to sleep before the next run (the test's `pause`).
  std::chrono::nanoseconds pause() const { return pause_; }
  /// The per-run timeout to give the transport.
  std::chrono::nanoseconds run_timeout() const { return timeout_; }

  /// Records a run: every run's wall time goes into the histogram (a slow
  /// failure is still a slow operation); a non-zero exit or a timeout is a failure.
  void add(const Run& r);

  /// When the harness's own exec cost is known (the p50 of running `true` the
  /// same way), it is reported beside the figures, not subtracted from them.
  void set_exec_overhead(std::chrono::nanoseconds p50) { overhead_ = p50; }

  std::uint64_t runs() const { return runs_; }
  std::uint64_t failures() const { return failures_; }

  /// The Measurement: histogram of wall times (ns), reported "failures",
  /// parameters argv/runs/exit codes ("0:98,1:2"), the first failure's stderr,
  /// and a warning when nothing ran or everything failed.
  measure::Measurement measurement(std::chrono::nanoseconds elapsed) const;

 private:
  std::string host_;
  std::vector<std::string> argv_;
  std::optional<std::uint64_t> count_;
  std::chrono::nanoseconds duration_, pause_, timeout_;
  std::optional<std::chrono::nanoseconds> overhead_;
  stats::Histogram hist_;
  std::uint64_t runs_ = 0, failures_ = 0, timeouts_ = 0;
  std::map<int, std::uint64_t> exit_codes_;
  std::string first_failure_;
};

}  // namespace labgate::cmdlatency

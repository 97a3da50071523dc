// Where a gate run tells what it does as it goes (ninja's Status): the run's
// start, each case's start, progress and end, and its messages. The console
// with labgate.log (ConsoleReporter) is the one the CLI and the suites use; unit
// tests pass a recording fake (harness/testing/gate/recording_reporter.h). The
// gate and the engine call this, never spdlog, for what a person reads; the
// record itself (run.json, junit.xml, report.html) is RunBook's.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/test_cases.h"
#include "labgate/results/run_result.h"
#include "labgate/util/messages.h"

namespace labgate::gate {

/// Its info/warning/error/debug are util::Messages', so the lease and the
/// deployment below the gate tell through the run's reporter too.
class Reporter : public util::Messages {
 public:

  /// The run's results folder is open; its log is `log_path` (labgate.log).
  virtual void run_started(const std::string& log_path) = 0;
  /// The run's closing lines (its verdict and where its files are; an empty
  /// line sets them apart on the console).
  virtual void run_finished(const std::vector<std::string>& summary) = 0;

  /// Case `c` starts measuring.
  virtual void case_started(const TestCase& c) = 0;
  /// One line of the probe's stderr while `case_name` measures ("Suite.name"):
  /// a progress line among them is for the person watching.
  virtual void case_progress(const std::string& case_name, const std::string& line) = 0;
  /// A record of a case goes into the run: measured and judged (`error` empty),
  /// or ended by `error` (could not run, not started, stopped): the error was
  /// told when it happened (error(), or the run's stop), the record keeps it.
  virtual void case_finished(const results::TestRecord& r, const std::string& error) = 0;

  // info, warning, error, debug: util::Messages ("timing: ..." debug lines are
  // what bench/gate_overhead.py reads).
  /// A line the console showed by other means (GoogleTest's own printer): the log keeps it too.
  virtual void shown(const std::string& line) = 0;
};

/// The console (stderr, at the CLI's verbosity) and, once run_started, labgate.log.
Reporter& console_reporter();

}  // namespace labgate::gate

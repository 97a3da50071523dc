// The run.json of one results folder as each step of a gate run updates it: the
// preconditions suite sets the checks, the latency suite adds a record per case,
// `labgate run` closes it with the exit code. Each case is recorded in run.json at
// once (checkpoint), so a run killed at any moment leaves what it measured and
// `labgate report` rebuilds the rest from it; the derived files (junit.xml,
// report.html, metrics.prom) are published at the steps' ends and on a stop, so a
// stopped or interrupted run leaves them complete, without rendering them again
// after every case. Steps run one after another on one folder.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/reporter.h"
#include "labgate/profile/profile.h"
#include "labgate/results/run_dir.h"
#include "labgate/results/run_result.h"
#include "labgate/tail/tail_fixes.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

class RunBook {
 public:
  /// Opens `dir`, reading its run.json when a previous step wrote one, else
  /// starting a new record for `profile` (and copying the profile file there).
  /// `reporter` is where the run is told as it goes (the steps that hold this
  /// book tell through it; console_reporter() unless a test listens).
  RunBook(results::RunDir dir, const profile::Profile& profile, const std::string& suffix = "",
          Reporter& reporter = console_reporter());
  /// A new record put together by its caller (`labgate import`: the start time is
  /// the saved output's, the hosts the profile's or none), written as given.
  RunBook(results::RunDir dir, results::RunResult run, Reporter& reporter = console_reporter());

  results::RunDir& dir() { return dir_; }
  const results::RunResult& run() const { return run_; }
  Reporter& reporter() { return *reporter_; }

  void set_checks(std::vector<results::CheckRecord> checks);
  /// Adds a test record, replacing one with the same suite and name/pair.
  void put_test(results::TestRecord record);
  void warn(const std::string& warning);
  /// Records that host `host`'s `key` ("test_address", "test_address.direct"),
  /// written as the name `name`, was `address` on that host for this run.
  void resolved_test_address(const std::string& host, const std::string& key, const std::string& name,
                             const std::string& address);
  void set_error(const std::string& error);
  /// Why the preconditions were not checked in this run (-L, unreachable hosts).
  void set_not_checked(const std::string& why);
  /// Ends the run: end time and exit code.
  void finish(int exit_code);
  /// Ends the run at `end` (an import: the saved run's end, not the moment it was read).
  void finish_at(int exit_code, results::Clock::time_point end);

  /// Writes run.json, checks.json, junit.xml, junit-strict.xml, metrics.prom and
  /// report.html; and fix-tail.sh when outliers have a cause a precondition covers.
  void publish();
  /// Writes run.json alone: what a later step, or `labgate report` after a killed
  /// run, reads. The derived files keep their last publish() until the next.
  void checkpoint();

 private:
  results::RunDir dir_;
  results::RunResult run_;
  Reporter* reporter_;
  bool path_replaced_ = false;  ///< the folder's path was found replaced (and said so)
  std::map<std::string, tail::HostTuning> tuning_;  ///< the profile's isolated/irq_cpus, for fix-tail.sh
};

/// The folder a step should use: the one named in `run_state` (the state file
/// `labgate run-start --state` wrote: CTest's set-up fixture), else a new one
/// under $LABGATE_RESULTS (default ./results) named with `suffix`.
results::RunDir open_or_create_run_dir(const std::string& suffix, const std::string& run_state);

/// What one process of a run answers for, beyond run.json: `labgate run` the
/// whole run; a CTest step only its own part of the shared run.json.
struct ExitScope {
  /// Only the records of this profile test (each of its pairs, CPUs,
  /// subscribers); empty: every test of the run.
  std::string only_test;
  bool checks = true;  ///< the preconditions' rules count (not in a measurement step)
  /// The runner saw a failure outside any record (a GoogleTest assertion: a
  /// broken lease, a result that could not be written).
  bool runner_failed = false;
  bool interrupted = false;  ///< a signal arrived (the run may not say so yet)
};

/// The exit-code policy, in one place, for `labgate run`, every CTest step and
/// the other commands: 3 if anything in scope could not run (the run's error, a
/// signal, an error record), else 1 if a check or test in scope failed or the
/// runner saw a failure, else 0.
ExitCode exit_code_of(const results::RunResult& run, const ExitScope& scope = {});

}  // namespace labgate::gate

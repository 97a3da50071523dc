// Run -> judge -> record for one case: measures it on the session, keeps every
// raw output in the results folder, judges each measurement with the one judge
// (gate::judge_case), stamps when it started, how long it really took and the
// run's conformance, and publishes. Shared by `labgate run`, the CTest suites and
// anything else that measures; the GoogleTest case only turns it into assertions.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/case_runner.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"
#include "labgate/results/run_result.h"

namespace labgate::gate {

struct CaseOutcome {
  std::vector<results::TestRecord> records;  ///< one per measurement (jitter: per CPU), or one error record
  bool could_not_run = false;                ///< the gate failed, not the servers (exit 3)
  std::string error;                         ///< why, when could_not_run
  bool lease_lost = false;                   ///< someone broke the lease while it measured
  /// The run was stopped before or while the case ran (a signal, an earlier
  /// failure): its record is not_run and says why; nothing was judged.
  bool not_run = false;
};

/// Measures `c`, judges and records it. Never throws for a failing host, probe,
/// tool or disk: those become an error record (could_not_run) with the reason.
/// A signal that arrives while it measures makes it not_run, saying so.
CaseOutcome run_judge_record(GateSession& session, RunBook& book, const TestCase& c);

/// The record half of run_judge_record, for measurements that exist already: a
/// live case once run_case returned, or a saved tool output (`labgate import`).
/// Keeps the raw files, judges each measurement (judge_case and the case's
/// rules), stamps `started`, `duration_s` and the run's conformance, writes its
/// measurement.json and puts the records in the book (the caller publishes).
/// Throws when a file cannot be written.
std::vector<results::TestRecord> record_case(RunBook& book, const TestCase& c, const CaseRun& run,
                                             results::Clock::time_point started, double duration_s);

/// The case as a gate run runs it: once the run has stopped nothing starts and
/// the case is recorded not_run with why; the first case that needs the hosts
/// opens the session on `hosts`, and carries the error when it cannot; else
/// run_judge_record.
CaseOutcome run_in_gate(GateRun& run, const TestCase& c, const std::vector<std::string>& hosts);

/// The console line after a case: figure, samples and their sources, in the
/// figures' own units ("p99 41 ns max 2.10 us, 125215 samples (histogram)").
std::string result_line(const results::TestRecord& r);

}  // namespace labgate::gate

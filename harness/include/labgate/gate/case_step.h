// Run -> judge -> record for one case: measures it on the session, keeps every
// raw output in the results folder, judges each measurement with the one judge
// (gate::judge_case), stamps when it started, how long it really took and the
// run's conformance, and records it in run.json (RunBook::checkpoint). Shared by
// `labgate run`, the CTest suites and anything else that measures; the
// GoogleTest case only turns it into assertions.
#pragma once

#include <optional>
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
  /// could_not_run after the measurement finished: its records keep the
  /// figures (verdict error) and `error` says which step failed on which host.
  bool measured = false;
};

/// What measuring one case left, before it is judged and recorded: the part that
/// touches only the case's own hosts, so a disjoint mesh round measures its
/// pairs at the same time and records them one by one afterwards.
struct MeasuredCase {
  CaseRun run;                      ///< measurements and raw outputs (those gathered so far on error)
  std::optional<std::string> error; ///< why it could not run (host, probe, tool); nullopt: measured
  /// A signal stopped it while it measured: not the hosts' fault, nothing judged;
  /// its record is not_run and `error` says "stopped while measuring: ...".
  bool interrupted = false;
  results::Clock::time_point started{};
  double took_s = 0;  ///< wall time of the measurement, set-up and clean-up included
  /// Set by keep_case: the raw files are in the run folder and these are the
  /// judged records (or the one error record), not yet in run.json.
  bool kept = false;
  std::vector<results::TestRecord> records;
  std::optional<std::string> keep_error;  ///< measured, but its files could not be written
};

/// Measures `c` on the session. Never throws for a failing host, probe, tool or
/// disk: the reason is in `error`. Touches only c's hosts (and logs).
MeasuredCase measure_case(GateSession& session, const TestCase& c);

/// Writes a measured case's raw files and measurement.json into its own
/// folder of `dir` and judges it, stamping `conformance`: touches no shared
/// state (run.json is record_case's), so a round's pairs keep theirs on their
/// own threads, each while the others may still measure. A raw file it could
/// not keep beside an error is told to `reporter` (the error matters more).
void keep_case(const results::RunDir& dir, results::Conformance conformance, const TestCase& c, MeasuredCase& m,
               Reporter& reporter);

/// Judges and records what measure_case left (keep_case first, unless done): raw files kept, one record per
/// measurement (or the error record), written to run.json unless `publish` is false
/// (the pairs of one round are written once, with the round's last). The reports
/// follow at the step's end or a stop (RunBook::publish).
CaseOutcome record_case(GateSession& session, RunBook& book, const TestCase& c, MeasuredCase measured,
                        bool publish = true);

/// Measures `c`, judges and records it (measure_case, then record_case). Never
/// throws for a failing host, probe, tool or disk: those become an error record
/// (could_not_run) with the reason. A signal that arrives while it measures
/// makes it not_run, saying so.
CaseOutcome run_judge_record(GateSession& session, RunBook& book, const TestCase& c);

/// The record half of run_judge_record, for measurements that exist already: a
/// live case once run_case returned, or a saved tool output (`labgate import`).
/// Keeps the raw files, judges each measurement (judge_case and the case's
/// rules), stamps `started`, `duration_s` and the run's conformance, writes its
/// measurement.json and puts the records in the book (the caller publishes).
/// Throws when a file cannot be written.
std::vector<results::TestRecord> record_case(RunBook& book, const TestCase& c, const CaseRun& run,
                                             results::Clock::time_point started, double duration_s);

/// What every case of a gate run does before it measures (a single case and a
/// mesh round's pair alike): once the run has stopped nothing starts and the
/// case is recorded not_run with why; the first case that needs the hosts opens
/// the session on `hosts`, and carries the error when it cannot. Returns the
/// session, or nullptr with `out` holding the outcome already recorded.
GateSession* begin_in_gate(GateRun& run, const TestCase& c, const std::vector<std::string>& hosts,
                           CaseOutcome& out);

/// The case as a gate run runs it: begin_in_gate, then run_judge_record. A pair
/// of a disjoint mesh round: case_in_run.h.
CaseOutcome run_in_gate(GateRun& run, const TestCase& c, const std::vector<std::string>& hosts);

/// "measured, but a step after the measurement could not be done: <error>":
/// what a case whose figures are kept says when a later step failed.
std::string after_measuring(const std::string& error);

/// What a case not started after the run stopped says: the stop's reason
/// without its details ("not started: could not reach the hosts"), since the
/// error itself is printed once, by the step that met it.
std::string not_started_reason(const std::string& stopped_why);

/// The console line after a case: figure, samples and their sources, in the
/// figures' own units ("p99 41 ns max 2.10 us, 125215 samples (histogram)").
std::string result_line(const results::TestRecord& r);

}  // namespace labgate::gate

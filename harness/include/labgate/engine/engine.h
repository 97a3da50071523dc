// The engine: one gate run from profile to exit code (the results folder, its
// log, the labels' cases, the session and lease, the preconditions and cases,
// the summary), the one driver of `labgate run`. How the cases are run and
// shown is a CaseRunner's: GoogleTest's in the suites (suites/gtest_runner.h),
// which each CTest step uses too. The CLI and the suites depend on this, not on
// each other.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "labgate/gate/gate_run.h"
#include "labgate/gate/reporter.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/profile.h"
#include "labgate/util/exit_code.h"

namespace labgate::engine {

/// Runs a run's preconditions and cases, each through the gate's one model of
/// it (gate::run_preconditions_in, gate::run_case_in_gate), and shows them.
class CaseRunner {
 public:
  virtual ~CaseRunner() = default;
  /// The preconditions first (when `preconditions`), then every case in order,
  /// on the hosts `hosts`. False when the runner saw a failure outside any
  /// record (gate::ExitScope::runner_failed).
  virtual bool run(gate::GateRun& run, const std::vector<gate::TestCase>& cases,
                   const std::vector<std::string>& hosts, bool preconditions) = 0;
};

struct Options {
  std::string suffix;
  std::set<std::string> labels;  ///< gate::all_labels() when empty
  std::string results_root = "results";
};

/// The hosts a run touches: the preconditions' hosts (when checked) and every case's.
std::vector<std::string> run_hosts(const profile::Profile& p, const std::vector<gate::TestCase>& cases,
                                   bool with_preconditions);

/// Runs the whole gate in this process; returns the run's exit code
/// (gate::exit_code_of over the whole run). Throws Failure(kUsageError) for an
/// unknown label. The run is told as it goes to `reporter` (ninja's Status):
/// the console and labgate.log unless a test listens.
ExitCode run(const profile::Profile& profile, const Options& options, CaseRunner& cases,
             gate::SessionBoundaries boundaries = gate::SessionBoundaries::real(),
             gate::Reporter& reporter = gate::console_reporter());

}  // namespace labgate::engine

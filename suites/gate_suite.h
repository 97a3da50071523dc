// The gate's GoogleTest cases, registered from the profile at run time and run in
// the same process that owns the run: `labgate run` (the engine, through
// GtestRunner) registers them all and runs them preconditions first; each CTest
// test runs the same registration for its part. A case only asks the gate layer
// (gate::run_case_in_gate) to do the work and turns the outcome into an assertion.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "labgate/engine/engine.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/test_cases.h"

namespace labgate::suites {

/// SKIP_RETURN_CODE of the CTest measurement tests: the run had stopped (lease
/// refused, hosts unreachable, "could not run") before this test, which measured
/// nothing and said why.
inline constexpr int kSkippedExitCode = 77;

/// Runs the preconditions pipeline now (a rule's test must exist before
/// RUN_ALL_TESTS), records facts and checks, and registers one test per rule per
/// host. When it cannot run, registers one failing gate/could_not_run test and
/// stops the run: no measurement starts after it.
void register_preconditions(gate::GateRun& run, const std::vector<std::string>& hosts);

/// Registers one test per case; a case run after the run stopped measures
/// nothing and is skipped with the reason.
void register_cases(gate::GateRun& run, const std::vector<gate::TestCase>& cases,
                    const std::vector<std::string>& hosts);

/// Registers the preconditions (when asked) and the cases, and runs them
/// (RUN_ALL_TESTS, GoogleTest initialised by the caller); false when any failed.
bool run_registered(gate::GateRun& run, const std::vector<gate::TestCase>& cases,
                    const std::vector<std::string>& hosts, bool preconditions);

/// GoogleTest as the engine's case runner for `labgate run`: the cases as
/// GoogleTest tests in this process, their lines in labgate.log as on the console.
class GtestRunner : public engine::CaseRunner {
 public:
  bool run(gate::GateRun& run, const std::vector<gate::TestCase>& cases,
           const std::vector<std::string>& hosts, bool preconditions) override;
};

}  // namespace labgate::suites

// The CTest face of the gate: `labgate-preconditions` and `labgate-latency --test
// T` each run their part of the same registered cases (gate_suite.h) on the run
// folder CTest's set-up fixture made, in the one log of that run.
#pragma once

namespace labgate::suites {

enum class SuitePart { kPreconditions, kMeasurements };

/// main() of a suite binary: 0 passed, 1 failed, 2 usage, 3 could not run,
/// kSkippedExitCode when the run had stopped before this test began.
int suite_main(int argc, char** argv, SuitePart part);

}  // namespace labgate::suites

// The kinds that run on one host (`on`), not between two: kind = "command" (the
// cmdrun probe timing an argv on the host) and the disk kinds (the disk probe,
// or sysbench fileio prepare/run/cleanup).
#pragma once

#include "labgate/gate/case_runner.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

/// Runs the test's argv on c.client through the cmdrun probe (count times or for
/// the duration) and reads the runs into one Measurement: the histogram of wall
/// times, "failures" for max_failures, the exit codes. Throws Failure(kCouldNotRun)
/// when the probe cannot run or its output is unusable; a failing command is a
/// result, not an error.
CaseRun run_command_case(GateSession& session, const TestCase& c, CaseRun& run);

/// Random I/O on c.client: the disk probe (tool builtin) or sysbench fileio
/// (tool sysbench, 0.4.x or 1.0.x; cleanup runs whatever happened). One
/// Measurement with "iops", throughput and the I/O-time histogram or sysbench's
/// figures. Throws Failure(kCouldNotRun) naming the host, the command and why
/// (O_DIRECT refused, path refused, sysbench missing or of an unknown version).
CaseRun run_disk_case(GateSession& session, const TestCase& c, CaseRun& run);

}  // namespace labgate::gate

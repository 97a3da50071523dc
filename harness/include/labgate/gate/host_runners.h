// The disk kinds, which run on one host (`on`), not between two: the disk probe,
// or sysbench fileio prepare/run/cleanup. (kind = "command": kinds/command.cc.)
#pragma once

#include "labgate/gate/case_runner.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

/// Random I/O on c.client: the disk probe (tool builtin) or sysbench fileio
/// (tool sysbench, 0.4.x or 1.0.x; cleanup runs whatever happened). One
/// Measurement with "iops", throughput and the I/O-time histogram or sysbench's
/// figures. Throws Failure(kCouldNotRun) naming the host, the command and why
/// (O_DIRECT refused, path refused, sysbench missing or of an unknown version).
CaseRun run_disk_case(GateSession& session, const TestCase& c, CaseRun& run);

}  // namespace labgate::gate

// Runs one test case on the hosts of a gate session: the built-in probes (server
// on the far host bound to its test address, client on the near host) or an
// external tool, and keeps every raw output for the results folder.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"
#include "labgate/measure/measurement.h"

namespace labgate::gate {

struct CaseRun {
  /// One measurement for rr/stream cases, one per CPU for jitter.
  std::vector<measure::Measurement> measurements;
  /// File name -> content (commands, client/server stdout and stderr).
  std::vector<std::pair<std::string, std::string>> raw_files;
};

/// Runs `c`. Throws Failure(kCouldNotRun) naming host, command and what went
/// wrong; the raw outputs gathered so far are in `partial` either way.
CaseRun run_case(GateSession& session, const TestCase& c, CaseRun* partial = nullptr);

}  // namespace labgate::gate

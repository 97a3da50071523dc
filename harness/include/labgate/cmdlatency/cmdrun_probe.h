// The built-in way to run a command test: the static probe `cmdrun` runs the
// argv on the target and times each run there (CLOCK_MONOTONIC around
// fork/exec/wait), so the figures hold neither SSH nor a shell. This file makes
// its command line from a test and reads its JSON into a CommandSeries.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"

namespace labgate::cmdlatency {

/// The probe's argv and how long the harness waits for all of its runs.
struct CmdrunInvocation {
  std::vector<std::string> argv;
  std::chrono::nanoseconds timeout{0};
};

/// `probe` is the uploaded cmdrun; `scratch` a private directory on the host
/// (the run's deployment directory) where the first failure's stderr is kept.
/// The wait covers every run hitting its own timeout, plus a margin.
CmdrunInvocation cmdrun_command(const profile::TestSpec& spec, const std::string& probe,
                                const std::string& scratch);

/// Reads cmdrun's JSON for `spec` run on `host`: each run into a CommandSeries,
/// the probe's fork+exec floor reported beside the figures. Throws
/// measure::ProbeOutputError (probe_failed() when cmdrun said why it could not run).
measure::Measurement parse_cmdrun(std::string_view json, const profile::TestSpec& spec,
                                  const std::string& host);

}  // namespace labgate::cmdlatency

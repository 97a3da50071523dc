// `labgate run` as one process: a new results folder, one log, one signal
// handler, one session and lease, the preconditions then every selected case as
// registered GoogleTest cases, and run.json, junit.xml and report.html closed
// with the verdict.
#pragma once

#include <set>
#include <string>

#include "labgate/profile/profile.h"
#include "labgate/util/exit_code.h"

namespace labgate::suites {

struct InProcessOptions {
  std::string suffix;
  std::set<std::string> labels;  ///< gate::all_labels() when empty
  std::string results_root = "results";
};

/// Runs the whole gate; returns the run's exit code (gate::exit_code_of).
ExitCode run_gate_in_process(const profile::Profile& profile, const InProcessOptions& options);

}  // namespace labgate::suites

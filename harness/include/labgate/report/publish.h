// Keeping a results folder's derived files in step with the run: run.json,
// checks.json, junit.xml and report.html, each written atomically. The run
// command calls publish() after every step, so an interrupted run leaves a
// readable report of what it finished; `labgate report` calls regenerate().
#pragma once

#include "labgate/results/run_dir.h"
#include "labgate/results/run_result.h"

namespace labgate::report {

/// Writes run.json, checks.json, junit.xml, junit-strict.xml, metrics.prom and
/// report.html for `run` into `dir`.
void publish(const results::RunDir& dir, const results::RunResult& run);

/// Rewrites the derived files (junit.xml, junit-strict.xml, metrics.prom,
/// report.html) from the folder's run.json; returns the run.
/// Throws labgate::Failure (exit 2) when run.json is missing or unreadable.
results::RunResult regenerate(const results::RunDir& dir);

}  // namespace labgate::report

// The subcommands of the `labgate` CLI. Each lives in its own file under
// src/cli/ and registers itself on the app; the chosen one leaves its action.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

#include "labgate/util/exit_code.h"

namespace labgate::engine {
class CaseRunner;  // engine/engine.h: only `labgate run` needs the whole engine
}  // namespace labgate::engine

namespace labgate::cli {

/// What a parsed subcommand will do; run after parsing, returns the exit code.
using Action = std::function<ExitCode()>;

/// `labgate validate PROFILE...` (validate_command.cc).
void add_validate_command(CLI::App& app, Action& action);
/// `labgate import --tool T FILE [--test NAME --profile P]` (import_command.cc).
void add_import_command(CLI::App& app, Action& action);
/// `labgate report RESULTS_DIR...` (report_command.cc).
void add_report_command(CLI::App& app, Action& action);
/// `labgate compare RUN_A RUN_B` (compare_command.cc).
void add_compare_command(CLI::App& app, Action& action);

/// `labgate lease status|break PROFILE [--host H] [--force]` (lease_command.cc).
void add_lease_command(CLI::App& app, Action& action);
/// `labgate run`: the whole gate on a pair (run_command.cc), its cases run by `cases`.
void add_run_command(CLI::App& app, Action& action, engine::CaseRunner& cases);
/// `labgate facts` and `labgate check` (check_command.cc).
void add_facts_command(CLI::App& app, Action& action);
void add_check_command(CLI::App& app, Action& action);
/// `labgate list-tests`, `run-start`, `run-finish`: the CTest gate's steps (gate_steps_command.cc).
void add_gate_step_commands(CLI::App& app, Action& action);
/// `labgate keyscan PROFILE [--write]`: host keys of every host and jump host.
void add_keyscan_command(CLI::App& app, Action& action);

/// `labgate metrics RUN_DIR [--push URL]` (metrics_command.cc).
void add_metrics_command(CLI::App& app, Action& action);
/// `labgate trend RUN_DIR... --out FILE` (trend_command.cc).
void add_trend_command(CLI::App& app, Action& action);
/// `labgate profile-info PROFILE`: the profile as JSON for tooling (profile_info_command.cc).
void add_profile_info_command(CLI::App& app, Action& action);
/// `labgate profile-derive TEMPLATE --set KEY=VALUE... --out FILE` (profile_derive_command.cc).
void add_profile_derive_command(CLI::App& app, Action& action);

/// Parses argv, runs the chosen subcommand, maps exceptions to exit codes.
/// `cases` runs `labgate run`'s cases (main.cc: GoogleTest's, suites/gate_suite.h).
int run(int argc, char** argv, engine::CaseRunner& cases);

}  // namespace labgate::cli

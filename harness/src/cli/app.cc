// The `labgate` CLI: global options, subcommand registration, exit-code mapping.
#include <iostream>

#include <spdlog/spdlog.h>

#include "labgate/cli/commands.h"
#include "labgate/transport/libssh_log.h"
#include "labgate/util/logging.h"

namespace labgate::cli {

int run(int argc, char** argv, engine::CaseRunner& cases) {
  CLI::App app{"labgate: acceptance gate for low-latency Linux server pairs"};
  app.set_version_flag("--version", std::string("labgate ") + LABGATE_VERSION);
  int verbosity = 0;
  bool quiet = false;
  app.add_flag("-v,--verbose", verbosity, "debug detail on stderr; -vv adds libssh's own log");
  app.add_flag("-q,--quiet", quiet, "warnings and errors only");
  app.require_subcommand(1);
  // Global flags work after the subcommand too (`labgate validate -v p.toml`).
  app.fallthrough();

  Action action;
  // Subcommands register here, one file each.
  add_validate_command(app, action);
  add_import_command(app, action);
  add_lease_command(app, action);
  add_report_command(app, action);
  add_compare_command(app, action);
  add_run_command(app, action, cases);
  add_facts_command(app, action);
  add_check_command(app, action);
  add_gate_step_commands(app, action);
  add_metrics_command(app, action);
  add_trend_command(app, action);
  add_profile_info_command(app, action);
  add_profile_derive_command(app, action);
  add_keyscan_command(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    // --help and --version are successes; everything else is a usage error.
    return rc == 0 ? 0 : to_int(ExitCode::kUsageError);
  }
  setup_console_logging(quiet ? Verbosity::kQuiet : verbosity > 0 ? Verbosity::kVerbose : Verbosity::kNormal);
  if (verbosity >= 2) transport::enable_libssh_log();
  try {
    return to_int(action());
  } catch (const Failure& f) {
    spdlog::error("{}", f.what());
    return to_int(f.code());
  } catch (const std::exception& e) {
    spdlog::error("internal error: {}", e.what());
    return to_int(ExitCode::kCouldNotRun);
  }
}

}  // namespace labgate::cli

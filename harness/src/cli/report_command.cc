// `labgate report RESULTS_DIR...`: rebuilds report.html and junit.xml of finished
// (or interrupted) runs from their run.json, e.g. after upgrading labgate.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/report/publish.h"
#include "labgate/results/run_dir.h"

namespace labgate::cli {
namespace {

ExitCode regenerate_all(const std::vector<std::string>& dirs) {
  for (const std::string& d : dirs) {
    // A bad folder is a usage error (exit 2) naming it; RunDir says why.
    const results::RunDir dir = results::RunDir::open(d);
    const results::RunResult run = report::regenerate(dir);
    std::cout << "wrote " << (dir.path() / "report.html").string() << " and "
              << (dir.path() / "junit.xml").string() << " (run " << run.run_id << ": " << run.verdict()
              << ")\n";
  }
  return ExitCode::kPassed;
}

}  // namespace

void add_report_command(CLI::App& app, Action& action) {
  auto dirs = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "report", "regenerate report.html and junit.xml of results folders from their run.json");
  cmd->add_option("results_dirs", *dirs, "results/<YYYYmmdd-HHMMSS>-<suffix> folders")->required();
  cmd->callback([&action, dirs] { action = [dirs] { return regenerate_all(*dirs); }; });
}

}  // namespace labgate::cli

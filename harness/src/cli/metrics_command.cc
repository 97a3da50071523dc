// `labgate metrics RUN_DIR [--push URL]`: (re)writes a results folder's
// metrics.prom from its run.json and, with --push, sends it to a Pushgateway.
#include <iostream>
#include <memory>
#include <string>

#include "labgate/cli/commands.h"
#include "labgate/report/metrics.h"
#include "labgate/results/run_dir.h"

namespace labgate::cli {
namespace {

ExitCode write_metrics(const std::string& run_dir, const std::string& push) {
  const results::RunDir dir = results::RunDir::open(run_dir);
  dir.write_text("metrics.prom", report::metrics_text(dir.load_run()));
  std::cout << "wrote " << (dir.path() / "metrics.prom").string() << "\n";
  if (!push.empty()) {
    report::push_metrics(dir.path(), push);
    std::cout << "pushed to " << report::pushgateway_url(push, dir.load_run()) << "\n";
  }
  return ExitCode::kPassed;
}

}  // namespace

void add_metrics_command(CLI::App& app, Action& action) {
  auto dir = std::make_shared<std::string>();
  auto push = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("metrics", "write a results folder's metrics.prom (Prometheus), optionally push it");
  cmd->add_option("run_dir", *dir, "results/<YYYYmmdd-HHMMSS>-<suffix> folder")->required();
  cmd->add_option("--push", *push, "Pushgateway URL, e.g. http://127.0.0.1:9091");
  cmd->callback([&action, dir, push] { action = [dir, push] { return write_metrics(*dir, *push); }; });
}

}  // namespace labgate::cli

// `labgate trend RUN_DIR... --out FILE`: one self-contained HTML page with every
// test's p50/p99/max over the runs against its budget, and FILE's .csv beside it.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/report/trend.h"
#include "labgate/results/atomic_file.h"

namespace labgate::cli {
namespace {

namespace fs = std::filesystem;

ExitCode write_trend(const std::vector<std::string>& dirs, const std::string& out, const std::string& chart_js) {
  if (!fs::is_regular_file(chart_js))
    throw Failure(ExitCode::kUsageError, "trend: Chart.js not found at " + chart_js +
                                             " (Debian: apt-get install libjs-chart.js; or pass --chart-js FILE)");
  std::vector<fs::path> paths(dirs.begin(), dirs.end());
  const report::TrendData data = report::load_trend(paths);
  fs::path csv = out;
  csv.replace_extension(".csv");
  if (csv == fs::path(out)) csv += ".csv";
  results::write_file_atomic(out, report::trend_html(data, results::read_file(chart_js)));
  results::write_file_atomic(csv, report::trend_csv(data));
  std::cout << "wrote " << out << " and " << csv.string() << " (" << data.tests.size() << " tests, "
            << data.runs.size() << " runs)\n";
  return ExitCode::kPassed;
}

}  // namespace

void add_trend_command(CLI::App& app, Action& action) {
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto chart_js = std::make_shared<std::string>(report::kChartJsPath);
  CLI::App* cmd = app.add_subcommand("trend", "one HTML page (and a CSV) of each test's p50/p99/max over many runs");
  cmd->add_option("run_dirs", *dirs, "results folders, any order")->required();
  cmd->add_option("--out", *out, "the HTML page to write; the CSV gets its name with .csv")->required();
  cmd->add_option("--chart-js", *chart_js, "Chart.js 3 to inline")->capture_default_str();
  cmd->callback([&action, dirs, out, chart_js] {
    action = [dirs, out, chart_js] { return write_trend(*dirs, *out, *chart_js); };
  });
}

}  // namespace labgate::cli

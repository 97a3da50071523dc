// `labgate compare RUN_A RUN_B [--fail-on-regression 10%]`: per-test percentile
// deltas between two results folders; exit 1 when B regressed beyond the
// threshold on a gated statistic, 2 when a folder is not a readable run.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/profile/test_spec.h"
#include "labgate/report/compare.h"
#include "labgate/report/figure_format.h"
#include "labgate/results/run_dir.h"

namespace labgate::cli {
namespace {

struct CompareArgs {
  std::string run_a, run_b;
  std::string threshold;
  std::vector<std::string> stats, gated;
};

// Figure names, or their JUnit names (loss_pct, p99_us), as every reporter spells them.
void normalise_stat_names(std::vector<std::string>& names, const char* option) {
  for (auto& s : names) {
    if (auto stat = report::figure_name_of(s)) {
      s = *stat;
      continue;
    }
    // The one-way budget keys (one_way_p99_forward, ...): compared with their error bounds.
    if (const auto stat = profile::parse_stat(s); stat && profile::is_one_way(*stat)) continue;
    std::string list;
    for (const auto& k : report::known_figure_names()) list += (list.empty() ? "" : ", ") + k;
    throw Failure(ExitCode::kUsageError,
                  std::string(option) + ": unknown statistic '" + s + "' (use " + list +
                      ", their JUnit names, or a one-way budget key such as one_way_p99_forward)");
  }
}

ExitCode compare(const CompareArgs& args) {
  report::CompareOptions o;
  if (!args.stats.empty()) o.stats = args.stats;
  if (!args.gated.empty()) o.gated = args.gated;
  normalise_stat_names(o.stats, "--stats");
  normalise_stat_names(o.gated, "--regression-stats");
  if (!args.threshold.empty()) {
    try {
      o.fail_on_regression = report::parse_percent(args.threshold);
    } catch (const std::invalid_argument& e) {
      throw Failure(ExitCode::kUsageError, std::string("--fail-on-regression: ") + e.what());
    }
    // A gated statistic must also be compared, or it could never trip.
    for (const auto& g : o.gated)
      if (std::find(o.stats.begin(), o.stats.end(), g) == o.stats.end()) o.stats.push_back(g);
  }
  const results::RunResult a = results::RunDir::open(args.run_a).load_run();
  const results::RunResult b = results::RunDir::open(args.run_b).load_run();
  const report::Comparison c = report::compare_runs(a, b, o);
  std::cout << report::comparison_table(c, o);
  std::cout.flush();
  return o.fail_on_regression && c.regression() ? ExitCode::kGateFailed : ExitCode::kPassed;
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand("compare", "per-test percentile deltas between two results folders");
  cmd->add_option("run_a", args->run_a, "the baseline results folder")->required();
  cmd->add_option("run_b", args->run_b, "the results folder compared with it")->required();
  cmd->add_option("--fail-on-regression", args->threshold,
                  "exit 1 when B is slower than A by more than this, e.g. 10%");
  cmd->add_option("--stats", args->stats, "statistics to show (default p50,p99,p99_9,max,throughput)")
      ->delimiter(',');
  cmd->add_option(
         "--regression-stats", args->gated,
         "statistics judged for regression (default p99; one-way keys such as one_way_p99_forward too)")
      ->delimiter(',');
  cmd->callback([&action, args] { action = [args] { return compare(*args); }; });
}

}  // namespace labgate::cli

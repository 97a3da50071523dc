// `labgate run PROFILE [--suffix S] [-L label]...`: the whole gate on a pair in
// this one process (suites/in_process_run): preconditions first, then every
// selected measurement. Exit 0 passed, 1 servers failed, 3 the gate could not run.
#include <memory>

#include "labgate/cli/commands.h"
#include "labgate/profile/load.h"
#include "suites/in_process_run.h"

namespace labgate::cli {
namespace {

struct RunArgs {
  std::string profile;
  std::string suffix;
  std::vector<std::string> labels;
  std::string results = "results";
};

ExitCode run_gate(const RunArgs& a) {
  const profile::Profile profile = profile::load_or_throw(a.profile);
  suites::InProcessOptions o;
  o.suffix = a.suffix;
  o.labels.insert(a.labels.begin(), a.labels.end());
  o.results_root = a.results;
  return suites::run_gate_in_process(profile, o);
}

}  // namespace

void add_run_command(CLI::App& app, Action& action) {
  auto a = std::make_shared<RunArgs>();
  auto* sub = app.add_subcommand("run", "run the whole gate (preconditions, then measurements) on a pair");
  sub->add_option("profile", a->profile, "the profile (TOML)")->required();
  sub->add_option("--suffix", a->suffix, "appended to the results folder name, like the seed's dir_suffix");
  sub->add_option("-L,--label", a->labels,
                  "only these suites: preconditions, latency, throughput, jitter, network, command, storage");
  sub->add_option("--results", a->results, "where results folders go")->capture_default_str();
  sub->callback([a, &action] { action = [a] { return run_gate(*a); }; });
}

}  // namespace labgate::cli

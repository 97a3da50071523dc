// `labgate run PROFILE [--suffix S] [--duration D] [--warmup W] [--message-size N]
// [-L label]...`: the whole gate on a pair in
// this one process (engine::run): preconditions first, then every
// selected measurement. Exit 0 passed, 1 servers failed, 3 the gate could not run.
#include <memory>
#include <optional>

#include "labgate/cli/commands.h"
#include "labgate/engine/engine.h"
#include "labgate/profile/load.h"

namespace labgate::cli {
namespace {

struct RunArgs {
  std::string profile;
  std::string suffix;
  std::vector<std::string> labels;
  std::string results = "results";
  std::optional<std::string> duration, warmup, message_size;  ///< the seed's `lowlatencytest SIZE TIME`
};

std::vector<profile::RunOverride> overrides_of(const RunArgs& a) {
  std::vector<profile::RunOverride> o;
  if (a.duration) o.push_back({"duration", *a.duration});
  if (a.warmup) o.push_back({"warmup", *a.warmup});
  if (a.message_size) o.push_back({"message_size", *a.message_size});
  return o;
}

ExitCode run_gate(const RunArgs& a, engine::CaseRunner& cases) {
  const profile::Profile profile = profile::load_or_throw(a.profile, overrides_of(a));
  engine::Options o;
  o.suffix = a.suffix;
  o.labels.insert(a.labels.begin(), a.labels.end());
  o.results_root = a.results;
  return engine::run(profile, o, cases);
}

}  // namespace

void add_run_command(CLI::App& app, Action& action, engine::CaseRunner& cases) {
  auto a = std::make_shared<RunArgs>();
  auto* sub = app.add_subcommand("run", "run the whole gate (preconditions, then measurements) on a pair");
  sub->add_option("profile", a->profile, "the profile (TOML)")->required();
  sub->add_option("--suffix", a->suffix, "appended to the results folder name, like the seed's dir_suffix");
  sub->add_option("-L,--label", a->labels,
                  "only these suites: preconditions, latency, throughput, jitter, network, command, storage");
  sub->add_option("--results", a->results, "where results folders go")->capture_default_str();
  // The seed's `lowlatencytest [message size] [test time] [dir_suffix]`: each wins
  // over the profile for every test that has the parameter; run.json and the
  // report record what it replaced.
  sub->add_option("--duration", a->duration, "measure every test that has a duration for this long, e.g. 120s");
  sub->add_option("--warmup", a->warmup, "the warm-up before every measured series, e.g. 2s");
  sub->add_option("--message-size", a->message_size,
                  "bytes per message of every tcp/udp test, e.g. 64 or 16KiB (a sweep over it becomes this one)");
  sub->callback([a, &action, &cases] { action = [a, &cases] { return run_gate(*a, cases); }; });
}

}  // namespace labgate::cli

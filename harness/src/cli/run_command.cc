// `labgate run PROFILE [--suffix S] [-L label]...`: the whole gate on a pair —
// a new results folder, the precondition suite, then the measurement suites,
// one after another as child processes, and the folder's run.json, junit.xml and
// report.html closed with the verdict. Exit 0 passed, 1 servers failed, 3 the
// gate could not run.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include <spdlog/spdlog.h>

#include "labgate/cli/commands.h"
#include "labgate/gate/run_book.h"
#include "labgate/profile/load.h"
#include "labgate/util/logging.h"
#include "suite_child.h"

namespace labgate::cli {
namespace {

std::string self_dir() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "." : p.parent_path().string();
}

struct RunArgs {
  std::string profile;
  std::string suffix;
  std::vector<std::string> labels;
  std::string results = "results";
};

ExitCode run_gate(const RunArgs& a) {
  static const std::set<std::string> known{"preconditions", "latency", "throughput", "jitter", "network", "command", "storage"};
  std::set<std::string> labels(a.labels.begin(), a.labels.end());
  for (const auto& l : labels)
    if (!known.count(l))
      throw Failure(ExitCode::kUsageError,
                    "unknown label '" + l + "' (preconditions, latency, throughput, jitter, network, command, storage)");
  if (labels.empty()) labels = known;

  const profile::Profile profile = profile::load_or_throw(a.profile);
  auto dir = results::RunDir::create(a.results, a.suffix, results::Clock::now());
  gate::RunBook book(dir, profile, a.suffix);
  book.publish();
  add_log_file(book.dir().log_file().string());
  spdlog::info("gate run {} on '{}' ({})", book.dir().id(), profile.lab_name, a.profile);

  ::setenv("LABGATE_RUN_DIR", book.dir().path().c_str(), 1);
  install_suite_forwarding();

  const std::string bin = self_dir();
  std::vector<int> codes;
  if (labels.count("preconditions"))
    codes.push_back(run_suite_child(bin + "/labgate-preconditions", {"--profile", a.profile}));
  std::string filter;
  for (const auto& [label, suite] :
       std::vector<std::pair<std::string, std::string>>{{"latency", "Latency"}, {"throughput", "Throughput"},
                                                        {"jitter", "Jitter"}, {"network", "Network"}, {"command", "Command"},
                                                        {"storage", "Storage"}})
    if (labels.count(label)) filter += (filter.empty() ? "" : ":") + suite + ".*";
  // After a Ctrl-C or SIGTERM no further suite starts: the user wants the gate stopped.
  if (!filter.empty() && !profile.tests.empty() && !harness_interrupted())
    codes.push_back(
        run_suite_child(bin + "/labgate-latency", {"--profile", a.profile, "--gtest_filter=" + filter}));

  gate::RunBook done(results::RunDir::open(book.dir().path()), profile, a.suffix);
  if (const int sig = harness_interrupted()) {
    spdlog::error("labgate run: interrupted by {}; stopped after cleaning up the hosts", signal_name(sig));
    done.set_error("interrupted by " + signal_name(sig));
  }
  int code = gate::exit_code_of(done.run());
  for (int c : codes) {
    if (c == 2 || c == 3 || c > 3) code = std::max(code, c == 2 ? 2 : 3);
    if (c == 1 && code == 0) code = 1;
  }
  done.finish(code);
  done.publish();
  const auto& run = done.run();
  std::cout << "\nlabgate: " << run.verdict() << " (exit " << code << ")\n"
            << "  results: " << done.dir().path().string() << "\n"
            << "  report:  " << (done.dir().path() / "report.html").string() << "\n"
            << "  junit:   " << (done.dir().path() / "junit.xml").string() << "\n";
  return static_cast<ExitCode>(code);
}

}  // namespace

void add_run_command(CLI::App& app, Action& action) {
  auto a = std::make_shared<RunArgs>();
  auto* sub = app.add_subcommand("run", "run the whole gate (preconditions, then measurements) on a pair");
  sub->add_option("profile", a->profile, "the profile (TOML)")->required();
  sub->add_option("--suffix", a->suffix, "appended to the results folder name, like the seed's dir_suffix");
  sub->add_option("-L,--label", a->labels, "only these suites: preconditions, latency, throughput, jitter, network, command, storage");
  sub->add_option("--results", a->results, "where results folders go")->capture_default_str();
  sub->callback([a, &action] { action = [a] { return run_gate(*a); }; });
}

}  // namespace labgate::cli

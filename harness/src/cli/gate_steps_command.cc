// The steps CTest runs around the acceptance suites (see suites/gate_tests.cmake.in):
//   labgate list-tests PROFILE            one "<test>\t<label>" line per profile test
//   labgate run-start PROFILE --state F   a new results folder; its path into F
//   labgate run-finish --state F          close it: verdict, exit code, report paths
// `labgate run` does the same steps itself for a real pair without CTest.
#include <fstream>
#include <iostream>
#include <memory>

#include "labgate/cli/commands.h"
#include "labgate/gate/run_book.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/load.h"

namespace labgate::cli {
namespace {

ExitCode list_tests(const std::string& path) {
  const auto p = profile::load_or_throw(path);
  for (const auto& t : p.tests) {
    const auto cases = gate::expand_cases(p, t.name);
    std::cout << t.name << "\t" << (cases.empty() ? "latency" : cases.front().label) << "\n";
  }
  return ExitCode::kPassed;
}

ExitCode run_start(const std::string& path, const std::string& state, const std::string& suffix,
                   const std::string& results_root) {
  const auto p = profile::load_or_throw(path);
  auto dir = results::RunDir::create(results_root, suffix, results::Clock::now());
  gate::RunBook book(dir, p, suffix);
  book.publish();
  std::ofstream out(state, std::ios::trunc);
  out << book.dir().path().string() << "\n";
  if (!out) throw Failure(ExitCode::kCouldNotRun, "cannot write the state file " + state);
  std::cout << "results: " << book.dir().path().string() << "\n";
  return ExitCode::kPassed;
}

ExitCode run_finish(const std::string& state) {
  std::ifstream in(state);
  std::string dir;
  if (!in || !std::getline(in, dir) || dir.empty())
    throw Failure(ExitCode::kUsageError, "state file " + state + " names no run folder");
  const profile::Profile unused;  // run.json exists: the book reads it, not the profile
  gate::RunBook book(results::RunDir::open(dir), unused);
  const int code = to_int(gate::exit_code_of(book.run()));
  book.finish(code);
  book.publish();
  std::cout << "labgate: " << book.run().verdict() << " (exit " << code << ")\n"
            << "  results: " << dir << "\n  report:  " << dir << "/report.html\n  junit:   " << dir
            << "/junit.xml\n";
  // The fixture only publishes; the suites' own tests carry the verdict.
  return ExitCode::kPassed;
}

}  // namespace

void add_gate_step_commands(CLI::App& app, Action& action) {
  auto path = std::make_shared<std::string>();
  auto state = std::make_shared<std::string>();
  auto suffix = std::make_shared<std::string>();
  auto results_root = std::make_shared<std::string>("results");

  auto* list = app.add_subcommand("list-tests", "print each profile test with its CTest label");
  list->add_option("profile", *path, "the profile (TOML)")->required();
  list->callback([=, &action] { action = [=] { return list_tests(*path); }; });

  auto* start = app.add_subcommand("run-start", "CTest set-up: make a results folder, write its path to --state");
  start->add_option("profile", *path, "the profile (TOML)")->required();
  start->add_option("--state", *state, "file that receives the folder's path")->required();
  start->add_option("--suffix", *suffix, "appended to the folder name");
  start->add_option("--results", *results_root, "where results folders go")->capture_default_str();
  start->callback([=, &action] { action = [=] { return run_start(*path, *state, *suffix, *results_root); }; });

  auto* finish = app.add_subcommand("run-finish", "CTest clean-up: close the run named in --state");
  finish->add_option("--state", *state, "the set-up's state file")->required();
  finish->callback([=, &action] { action = [=] { return run_finish(*state); }; });
}

}  // namespace labgate::cli

// The whole gate in one process.
#include "in_process_run.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <iostream>

#include "gate_suite.h"
#include "gtest_log.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/kinds.h"
#include "labgate/gate/run_book.h"
#include "labgate/transport/interrupt.h"
#include "labgate/util/logging.h"

namespace labgate::suites {
namespace {

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

}  // namespace

ExitCode run_gate_in_process(const profile::Profile& profile, const InProcessOptions& o) {
  std::set<std::string> labels = o.labels;
  for (const auto& l : labels) {
    const auto& known = gate::all_labels();
    if (std::find(known.begin(), known.end(), l) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw Failure(ExitCode::kUsageError, "unknown label '" + l + "' (" + list + ")");
    }
  }
  if (labels.empty()) labels.insert(gate::all_labels().begin(), gate::all_labels().end());

  transport::install_interrupt_handlers();
  gate::RunBook book(results::RunDir::create(o.results_root, o.suffix, results::Clock::now()), profile, o.suffix);
  add_log_file(book.dir().log_sink_path());  // through the folder's handle
  spdlog::info("gate run {} on '{}' ({})", book.dir().id(), profile.lab_name, profile.path);
  for (const auto& o : profile.overrides)
    if (o.replaced.empty())
      spdlog::warn("override: {}", profile::describe(o));
    else
      spdlog::info("override: {}", profile::describe(o));

  std::vector<gate::TestCase> cases;
  for (auto& c : gate::expand_cases(profile))
    if (labels.count(c.label)) cases.push_back(std::move(c));
  const bool preconditions = labels.count("preconditions") > 0;
  if (!preconditions)
    book.set_not_checked("-L " + joined(labels) + " left the preconditions out");
  book.publish();

  gate::GateRun run(profile, book);
  const std::vector<std::string> hosts = run_hosts(profile, cases, preconditions);
  int argc = 1;
  char program[] = "labgate";
  char* argv[] = {program, nullptr};
  ::testing::InitGoogleTest(&argc, argv);
  log_gtest_to_file();  // labgate.log holds GoogleTest's lines as the console shows them
  if (preconditions) register_preconditions(run, hosts);
  register_cases(run, cases, hosts);
  const int gtest_rc = RUN_ALL_TESTS();
  run.close();
  if (const int sig = transport::pending_interrupt()) {
    spdlog::error("labgate run: interrupted by {}; the hosts were cleaned up{}", transport::signal_name(sig),
                  book.run().error.find("clean-up") == std::string::npos ? "" : " as far as the error above says");
    book.set_error("interrupted by " + transport::signal_name(sig));
  }
  ExitCode code = gate::exit_code_of(book.run());
  // A registered test that failed outside any record (a broken lease) fails the run too.
  if (code == ExitCode::kPassed && gtest_rc != 0) code = ExitCode::kGateFailed;
  book.finish(to_int(code));
  book.publish();
  const auto& r = book.run();
  const std::vector<std::string> summary{
      "labgate: " + r.verdict() + " (exit " + std::to_string(to_int(code)) + ")",
      // When the run could not run, its error was printed once above: the reason's head here.
      "  conforming: " + std::string(results::to_string(r.conformance())) + " (" +
          (r.error.empty() ? r.conformance_why() : gate::brief_reason(r.conformance_why())) + ")",
      // where(): the folder as written, should its path have been replaced mid-run.
      "  results: " + book.dir().where().string(),
      "  report:  " + (book.dir().where() / "report.html").string(),
      "  junit:   " + (book.dir().where() / "junit.xml").string(),
      "  log:     " + (book.dir().where() / "labgate.log").string()};
  std::cout << "\n";
  for (const auto& line : summary) {
    std::cout << line << "\n";
    write_log_file_only(line);  // the log holds the verdict as the console said it
  }
  return code;
}

}  // namespace labgate::suites

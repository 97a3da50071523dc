// A suite binary's main: options, the run folder, the registered cases, the exit code.
#include "suite_main.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>

#include <csignal>
#include <cstdlib>
#include <iostream>

#include "gate_suite.h"
#include "gtest_log.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/run_book.h"
#include "labgate/transport/interrupt.h"
#include "labgate/util/logging.h"
#include "suite_context.h"

namespace labgate::suites {

int suite_main(int argc, char** argv, SuitePart part) {
  const char* program = part == SuitePart::kPreconditions ? "labgate-preconditions" : "labgate-latency";
  ::testing::InitGoogleTest(&argc, argv);
  const auto options = parse_suite_options(argc, argv, program);
  setup_console_logging(options.verbosity);
  auto profile = load_profile(options.profile);
  if (!profile) return 2;
  std::vector<gate::TestCase> cases;
  if (part == SuitePart::kMeasurements) {
    cases = gate::expand_cases(*profile, options.only_test);
    if (cases.empty() && !options.only_test.empty()) {
      std::cerr << program << ": no test named '" << options.only_test << "' in " << options.profile << "\n";
      return 2;
    }
  }
  if (listing_only()) {
    if (part == SuitePart::kMeasurements)
      for (const auto& c : cases)
        ::testing::RegisterTest(c.suite.c_str(), c.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
                                []() -> ::testing::Test* { return nullptr; });
    return RUN_ALL_TESTS();
  }
  // CTest (or whatever started us) dying must not leave this measuring alone:
  // its death is a SIGTERM here, which stops and cleans up like a Ctrl-C.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  transport::install_interrupt_handlers();
  std::optional<gate::RunBook> book;
  try {
    book.emplace(gate::open_or_create_run_dir(options.suffix, options.run_state), *profile, options.suffix);
  } catch (const Failure& f) {
    std::cerr << f.what() << "\n";
    return to_int(f.code());
  }
  gate::Reporter& reporter = book->reporter();
  reporter.run_started(book->dir().log_sink_path());  // through the folder's handle
  log_gtest_to(reporter);  // labgate.log holds GoogleTest's lines as the console shows them
  if (part == SuitePart::kMeasurements) {
    if (auto why = gate::stopped_why(book->run())) {
      // The run stopped before this test: nothing is begun, CTest shows it skipped.
      std::cout << program << ": " << options.only_test << " not started: " << *why << "\n";
      reporter.warning(options.only_test + ": not started: " + *why);
      return kSkippedExitCode;
    }
  }
  bool ran_clean = true;
  {
    gate::GateRun run(*profile, *book);
    const bool with_preconditions = part == SuitePart::kPreconditions;
    ran_clean = run_registered(run, cases, engine::run_hosts(*profile, cases, with_preconditions),
                               with_preconditions);
    run.close();
  }
  try {
    book->publish();
    reporter.run_finished({"results: " + book->dir().where().string()});
  } catch (const std::exception& e) {
    reporter.error(std::string("writing the results: ") + e.what());
    return to_int(ExitCode::kCouldNotRun);
  }
  // This step answers for its own part of the shared run.json: its test, or the rules.
  gate::ExitScope scope;
  scope.only_test = options.only_test;
  scope.checks = part == SuitePart::kPreconditions;
  scope.runner_failed = !ran_clean;
  scope.interrupted = transport::pending_interrupt() != 0;
  return to_int(gate::exit_code_of(book->run(), scope));
}

}  // namespace labgate::suites

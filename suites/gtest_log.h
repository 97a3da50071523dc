// GoogleTest's console lines ([ RUN      ], [       OK ], [  FAILED  ], failure
// messages, the summary) written to the run's log as well, so labgate.log holds
// everything the console showed: a TestEventListener beside GoogleTest's own printer.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "labgate/gate/reporter.h"

namespace labgate::suites {

class GtestLogListener : public ::testing::EmptyTestEventListener {
 public:
  /// `write` takes one line (a failure message may hold several) without its newline.
  explicit GtestLogListener(std::function<void(const std::string&)> write) : write_(std::move(write)) {}

  void OnTestIterationStart(const ::testing::UnitTest& unit_test, int iteration) override;
  void OnEnvironmentsSetUpStart(const ::testing::UnitTest& unit_test) override;
  void OnTestSuiteStart(const ::testing::TestSuite& suite) override;
  void OnTestStart(const ::testing::TestInfo& info) override;
  void OnTestPartResult(const ::testing::TestPartResult& result) override;
  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestSuiteEnd(const ::testing::TestSuite& suite) override;
  void OnEnvironmentsTearDownStart(const ::testing::UnitTest& unit_test) override;
  void OnTestIterationEnd(const ::testing::UnitTest& unit_test, int iteration) override;

 private:
  std::function<void(const std::string&)> write_;
};

/// Appends a GtestLogListener telling each line to `reporter` as shown
/// (Reporter::shown: the console has GoogleTest's own printer, the log keeps
/// the lines too). Call after the reporter's run_started.
void log_gtest_to(gate::Reporter& reporter);

}  // namespace labgate::suites

// GoogleTest's console lines, in GoogleTest's own words, to the run's log.
#include "gtest_log.h"


namespace labgate::suites {
namespace {

std::string count(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}
std::string tests(int n) { return count(n, "test", "tests"); }
std::string suites(int n) { return count(n, "test suite", "test suites"); }
std::string name(const ::testing::TestInfo& t) { return std::string(t.test_suite_name()) + "." + t.name(); }
std::string ms(long long v) { return std::to_string(v) + " ms"; }

}  // namespace

void GtestLogListener::OnTestIterationStart(const ::testing::UnitTest& u, int) {
  const std::string filter = GTEST_FLAG_GET(filter);
  if (filter != "*") write_("Note: Google Test filter = " + filter);
  write_("[==========] Running " + tests(u.test_to_run_count()) + " from " +
         suites(u.test_suite_to_run_count()) + ".");
}

void GtestLogListener::OnEnvironmentsSetUpStart(const ::testing::UnitTest&) {
  write_("[----------] Global test environment set-up.");
}

void GtestLogListener::OnTestSuiteStart(const ::testing::TestSuite& s) {
  write_("[----------] " + tests(s.test_to_run_count()) + " from " + s.name());
}

void GtestLogListener::OnTestStart(const ::testing::TestInfo& t) { write_("[ RUN      ] " + name(t)); }

void GtestLogListener::OnTestPartResult(const ::testing::TestPartResult& r) {
  if (r.type() == ::testing::TestPartResult::kSuccess) return;
  const std::string where =
      r.file_name() ? std::string(r.file_name()) +
                          (r.line_number() >= 0 ? ":" + std::to_string(r.line_number()) : "") + ":"
                    : "unknown file:";
  write_(where + (r.skipped() ? " Skipped\n" : " Failure\n") + r.message());
}

void GtestLogListener::OnTestEnd(const ::testing::TestInfo& t) {
  const ::testing::TestResult& r = *t.result();
  const char* tag = r.Passed() ? "[       OK ] " : r.Skipped() ? "[  SKIPPED ] " : "[  FAILED  ] ";
  write_(tag + name(t) + " (" + ms(r.elapsed_time()) + ")");
}

void GtestLogListener::OnTestSuiteEnd(const ::testing::TestSuite& s) {
  write_("[----------] " + tests(s.test_to_run_count()) + " from " + s.name() + " (" + ms(s.elapsed_time()) +
         " total)");
}

void GtestLogListener::OnEnvironmentsTearDownStart(const ::testing::UnitTest&) {
  write_("[----------] Global test environment tear-down");
}

void GtestLogListener::OnTestIterationEnd(const ::testing::UnitTest& u, int) {
  write_("[==========] " + tests(u.test_to_run_count()) + " from " + suites(u.test_suite_to_run_count()) +
         " ran. (" + ms(u.elapsed_time()) + " total)");
  write_("[  PASSED  ] " + tests(u.successful_test_count()) + ".");
  auto each = [&](const char* tag, bool (::testing::TestResult::*is)() const) {
    for (int i = 0; i < u.total_test_suite_count(); ++i) {
      const ::testing::TestSuite& s = *u.GetTestSuite(i);
      for (int j = 0; s.should_run() && j < s.total_test_count(); ++j) {
        const ::testing::TestInfo& t = *s.GetTestInfo(j);
        if (t.should_run() && (t.result()->*is)()) write_(tag + name(t));
      }
    }
  };
  if (u.skipped_test_count() > 0) {
    write_("[  SKIPPED ] " + tests(u.skipped_test_count()) + ", listed below:");
    each("[  SKIPPED ] ", &::testing::TestResult::Skipped);
  }
  if (!u.Passed()) {
    write_("[  FAILED  ] " + tests(u.failed_test_count()) + ", listed below:");
    each("[  FAILED  ] ", &::testing::TestResult::Failed);
    write_(std::to_string(u.failed_test_count()) +
           (u.failed_test_count() == 1 ? " FAILED TEST" : " FAILED TESTS"));
  }
}

void log_gtest_to(gate::Reporter& reporter) {
  ::testing::UnitTest::GetInstance()->listeners().Append(
      new GtestLogListener([&reporter](const std::string& line) { reporter.shown(line); }));
}

}  // namespace labgate::suites

// GtestLogListener: what GoogleTest printed on the console is in the log, line for
// line. A child run of this binary executes sample tests (a pass, a failure, a
// skip) with the listener writing to a real log file (add_log_file), and its
// console must equal that file's lines.
#include "gtest_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "labgate/util/logging.h"

namespace labgate::suites {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The child's tests (registered only in the child, so CTest never lists them).
class Sample : public ::testing::Test {
 public:
  explicit Sample(int what) : what_(what) {}
  void TestBody() override {
    if (what_ == 1) ADD_FAILURE() << "p99 exceeded its budget\nsecond line of the failure";
    if (what_ == 2) GTEST_SKIP() << "not started: interrupted by SIGINT";
  }

 private:
  int what_;
};

void register_samples() {
  const std::pair<const char*, const char*> names[] = {
      {"Sample", "Passes"}, {"Sample", "FailsWithAMessage"}, {"Sample", "IsSkipped"}, {"Other", "Passes"}};
  for (int i = 0; i < 4; ++i)
    ::testing::RegisterTest(names[i].first, names[i].second, nullptr, nullptr, __FILE__, __LINE__,
                            [i]() -> ::testing::Test* { return new Sample(i == 3 ? 0 : i); });
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    l.erase(0, l.find_first_not_of(' '));  // " 1 FAILED TEST": GoogleTest pads the count
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(GtestLog, TheLogHoldsEveryLineGoogleTestPrintedInOrder) {
  char tmpl[] = "/tmp/labgate-gtest-log-XXXXXX";
  ASSERT_TRUE(mkdtemp(tmpl));
  const fs::path dir = tmpl, log = dir / "labgate.log", console = dir / "console.txt";
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::string cmd =
      "LABGATE_GTEST_LOG_TEST=" + log.string() + " '" + self +
      "' --gtest_filter='Sample.*:Other.*' --gtest_color=no >'" + console.string() +
      "' 2>/dev/null";
  const int rc = std::system(cmd.c_str());
  EXPECT_NE(rc, 0) << "the child's failing sample did not fail it";
  const auto shown = lines(slurp(console));
  // The log's own prefix ("2026-12-02T00:00:00.000 info ") starts each entry.
  const std::regex prefix(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3} info )");
  std::vector<std::string> logged;
  for (auto l : lines(slurp(log))) logged.push_back(std::regex_replace(l, prefix, ""));
  fs::remove_all(dir);
  ASSERT_GT(shown.size(), 10u);
  EXPECT_THAT(shown, ::testing::Contains("[ RUN      ] Sample.FailsWithAMessage"));
  EXPECT_THAT(shown, ::testing::Contains(HasSubstr("[  FAILED  ] Sample.FailsWithAMessage (")));
  EXPECT_THAT(shown, ::testing::Contains(HasSubstr("[  SKIPPED ] Sample.IsSkipped (")));
  EXPECT_THAT(shown, ::testing::Contains(HasSubstr("[       OK ] Other.Passes (")));
  EXPECT_THAT(shown, ::testing::Contains("second line of the failure"));
  EXPECT_EQ(logged, shown) << "labgate.log does not hold what the console showed";
}

TEST(GtestLog, WritesEachEventToItsSink) {
  std::vector<std::string> sink;
  GtestLogListener listener([&](const std::string& l) { sink.push_back(l); });
  const ::testing::TestInfo& me = *::testing::UnitTest::GetInstance()->current_test_info();
  listener.OnTestStart(me);
  listener.OnTestPartResult(::testing::TestPartResult(::testing::TestPartResult::kNonFatalFailure,
                                                      "x_test.cc", 12, "host b: connection refused"));
  listener.OnTestPartResult(
      ::testing::TestPartResult(::testing::TestPartResult::kSuccess, "x_test.cc", 13, ""));
  EXPECT_EQ(sink, (std::vector<std::string>{"[ RUN      ] GtestLog.WritesEachEventToItsSink",
                                            "x_test.cc:12: Failure\nhost b: connection refused"}));
}

}  // namespace
}  // namespace labgate::suites

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // The child of TheLogHoldsEveryLineGoogleTestPrintedInOrder: the listener as a
  // gate run installs it, on a real log file.
  if (const char* log = std::getenv("LABGATE_GTEST_LOG_TEST"); log && *log) {
    labgate::setup_console_logging(labgate::Verbosity::kQuiet);
    labgate::gate::console_reporter().run_started(log);
    labgate::suites::log_gtest_to(labgate::gate::console_reporter());
    labgate::suites::register_samples();
  }
  return RUN_ALL_TESTS();
}

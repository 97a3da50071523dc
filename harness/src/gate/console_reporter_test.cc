// The console reporter writes what the gate tells as labgate.log has always
// held it (the lab tests grep these lines): its level and message, a progress
// line formatted, the verdict lines without the console's blank line, an error
// case's record left to the error said before it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

#include "labgate/gate/case_step.h"
#include "labgate/gate/reporter.h"
#include "results/temp_dir.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A logger of its own for the test: the console reporter adds labgate.log to
// the default logger, which the other tests of this binary share.
class ConsoleReporterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    before_ = spdlog::default_logger();
    auto quiet = std::make_shared<spdlog::logger>("console-reporter-test");
    quiet->set_level(spdlog::level::info);
    spdlog::set_default_logger(quiet);
    console_reporter().run_started((tmp_.path() / "labgate.log").string());
  }
  void TearDown() override { spdlog::set_default_logger(before_); }

  /// labgate.log without its timestamps: "info message" per line.
  std::string log() {
    spdlog::default_logger()->flush();
    std::ifstream in(tmp_.path() / "labgate.log");
    std::string line, out;
    while (std::getline(in, line)) out += line.substr(line.find(' ') + 1) + "\n";
    return out;
  }

  results::testing::TempDir tmp_;
  std::shared_ptr<spdlog::logger> before_;
};

TEST_F(ConsoleReporterTest, MessagesKeepTheirLevelInTheLog) {
  Reporter& r = console_reporter();
  r.info("host a: connecting (198.18.0.2)");
  r.warning("override: duration = 2s");
  r.error("could not take the lab lease: held by jenkins-42");
  r.debug("timing: lease taken in 3 ms");
  EXPECT_EQ(log(),
            "info host a: connecting (198.18.0.2)\n"
            "warning override: duration = 2s\n"
            "error could not take the lab lease: held by jenkins-42\n"
            "debug timing: lease taken in 3 ms\n");
}

TEST_F(ConsoleReporterTest, AProgressLineIsFormattedOtherStderrIsNot) {
  Reporter& r = console_reporter();
  r.case_progress("Latency.tcp_rr_64/a->b",
                  R"({"progress":"tcp_rr","elapsed_s":3.000,"total_s":120.000,"count":9812,"p99_ns":44000,)"
                  R"("max_ns":98200,"p99_ns_so_far":45100,"max_ns_so_far":120000})");
  r.case_progress("Latency.tcp_rr_64/a->b", "pingpong: warning: cannot pin to cpu 3");
  EXPECT_EQ(log(),
            "info Latency.tcp_rr_64/a->b: 3.0/120.0 s, p99 so far 45.1 us, max so far 120 us "
            "(last interval: 9812 samples, p99 44.0 us, max 98.2 us)\n");
}

TEST_F(ConsoleReporterTest, AMeasuredRecordIsItsResultLineAnErroredOneWasSaidBefore) {
  results::TestRecord rec;
  rec.name = "tcp_rr_64";
  rec.pair = "a->b";
  rec.metric = "round-trip time";
  console_reporter().case_finished(rec, "");
  results::TestRecord broken = rec;
  broken.pair = "b->a";
  console_reporter().case_finished(broken, "host b: connection lost");
  EXPECT_EQ(log(), "info " + result_line(rec) + "\n");
}

TEST_F(ConsoleReporterTest, TheVerdictGoesToStdoutAndTheLogAsSaid) {
  ::testing::internal::CaptureStdout();
  console_reporter().run_finished({"", "labgate: passed (exit 0)", "  results: /r/1"});
  console_reporter().shown("[       OK ] Latency.tcp_rr_64/a->b (6244 ms)");
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "\nlabgate: passed (exit 0)\n  results: /r/1\n");
  EXPECT_EQ(log(),
            "info labgate: passed (exit 0)\n"
            "info   results: /r/1\n"
            "info [       OK ] Latency.tcp_rr_64/a->b (6244 ms)\n");
  EXPECT_THAT(log(), Not(HasSubstr("info \n")));
}

}  // namespace
}  // namespace labgate::gate

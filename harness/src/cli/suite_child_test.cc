// Suites as children of `labgate run`: exit codes, their own process group, and
// a signal to the harness reaching the running suite exactly once.
#include "suite_child.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace labgate::cli {
namespace {

class SuiteChild : public ::testing::Test {
 protected:
  void SetUp() override {
    // Other CLI tests drop the default logger (run_cli); a silent one stands in.
    if (!spdlog::default_logger())
      spdlog::set_default_logger(std::make_shared<spdlog::logger>("suite_child_test"));
    ::sigaction(SIGINT, nullptr, &old_int_);
    ::sigaction(SIGTERM, nullptr, &old_term_);
    reset_harness_interrupt();
    install_suite_forwarding();
    char tmpl[] = "/tmp/suite_child_test.XXXXXX";
    dir_ = ::mkdtemp(tmpl);
  }
  void TearDown() override {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
    reset_harness_interrupt();
    std::filesystem::remove_all(dir_);
  }
  std::string read(const std::string& name) {
    std::ifstream in(dir_ + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string dir_;
  struct sigaction old_int_ {
  }, old_term_{};
};

TEST_F(SuiteChild, ReturnsTheExitCodeAndThreeForASignalOrAMissingProgram) {
  EXPECT_EQ(run_suite_child("/bin/sh", {"-c", "exit 1"}), 1);
  EXPECT_EQ(run_suite_child("/bin/sh", {"-c", "kill -KILL $$"}), 3);
  EXPECT_EQ(run_suite_child("/nonexistent/labgate-suite", {}), 3);
  EXPECT_EQ(harness_interrupted(), 0);
}

TEST_F(SuiteChild, RunsInAProcessGroupOfItsOwn) {
  ASSERT_EQ(
      run_suite_child("/bin/sh", {"-c", "ps -o pgid= $$ > \"$1\"/pgid; echo $$ > \"$1\"/pid", "sh", dir_}),
      0);
  EXPECT_EQ(std::stol(read("pgid")), std::stol(read("pid")));
  EXPECT_NE(std::stol(read("pgid")), static_cast<long>(::getpgrp()));
}

TEST_F(SuiteChild, ASignalToTheHarnessReachesTheSuiteOnce) {
  // The suite counts the SIGTERMs it gets; it asks the harness (its parent) to be
  // signalled, then waits a little for any second delivery.
  const std::string script =
      "n=0; trap 'n=$((n+1))' TERM; kill -TERM $PPID; i=0; "
      "while [ $i -lt 10 ]; do sleep 0.05; i=$((i+1)); done; echo $n > \"$1\"/count; exit 3";
  EXPECT_EQ(run_suite_child("/bin/sh", {"-c", script, "sh", dir_}), 3);
  EXPECT_EQ(read("count"), "1\n");
  EXPECT_EQ(harness_interrupted(), SIGTERM);
}

TEST_F(SuiteChild, NoSuiteStartsAfterTheHarnessWasInterrupted) {
  ::kill(::getpid(), SIGINT);  // caught by the forwarding handler: only recorded
  EXPECT_EQ(harness_interrupted(), SIGINT);
  EXPECT_EQ(run_suite_child("/bin/sh", {"-c", "touch \"$1\"/started", "sh", dir_}), 3);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/started"));
  EXPECT_EQ(signal_name(SIGINT), "SIGINT");
  EXPECT_EQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_EQ(signal_name(9), "signal 9");
}

}  // namespace
}  // namespace labgate::cli

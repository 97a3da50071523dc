// Runs the real `labgate` CLI entry point in-process for tests, capturing what it
// prints and the exit code it returns.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/engine/engine.h"

namespace labgate::cli::test_util {

struct Outcome {
  int rc;
  std::string out, err;
};

/// The cli tests never run the gate (`labgate run` is the lab suites'): a case
/// runner asked for is a failing test.
class NoGateRuns : public engine::CaseRunner {
 public:
  bool run(gate::GateRun&, const std::vector<gate::TestCase>&, const std::vector<std::string>&,
           bool) override {
    ADD_FAILURE() << "a cli unit test ran the gate";
    return false;
  }
};

/// `labgate ARGS...`: the exit code and everything written to stdout and stderr.
inline Outcome run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "labgate");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  spdlog::drop("labgate");  // run() registers its console logger anew each time
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  NoGateRuns cases;
  const int rc = run(static_cast<int>(argv.size()), argv.data(), cases);
  return Outcome{rc, ::testing::internal::GetCapturedStdout(), ::testing::internal::GetCapturedStderr()};
}

}  // namespace labgate::cli::test_util

// Running an external program (chromium, xmllint, labgate) from a test with a
// hard timeout: it runs in its own process group, and the whole group is
// killed when it ends or times out, so no browser helper outlives the test.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace labgate::report_test {

struct ProcessResult {
  int exit_code = -1;  ///< -1 when killed by a signal or timed out
  bool timed_out = false;
  std::string output;  ///< stdout and stderr together
};

/// Runs argv[0] (found on PATH) with the arguments; output goes to `log_file`
/// as well as into the result.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                          const std::string& log_file);

/// headless Chromium's argv for a page test: no sandbox (root in CI), no GPU,
/// no network of its own, a private profile directory; `extra` appended.
std::vector<std::string> chromium_argv(const std::vector<std::string>& extra, const std::string& profile_dir);

}  // namespace labgate::report_test

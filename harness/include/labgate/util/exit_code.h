// The exit codes every labgate subcommand uses, so Jenkins can tell
// "the servers are bad" from "the gate itself could not run".
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace labgate {

enum class ExitCode : int {
  kPassed = 0,        ///< gate passed / profile valid
  kGateFailed = 1,    ///< a check or budget failed: the servers are not fit
  kUsageError = 2,    ///< bad command line or invalid profile
  kCouldNotRun = 3,   ///< host unreachable, probe crashed, timeout: the gate is broken
};

constexpr int to_int(ExitCode c) { return static_cast<int>(c); }

/// Thrown anywhere below the CLI to end the run with a given exit code; the CLI
/// prints `what()` and exits. Carries a message that names file/host/key/command.
class Failure : public std::exception {
 public:
  Failure(ExitCode code, std::string message) : code_(code), message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
  std::string message_;
};

/// Ends the run with exit 3, kCouldNotRun (a host, a command or a file failed the
/// gate itself); `message` names what failed.
[[noreturn]] inline void could_not_run(const std::string& message) {
  throw Failure(ExitCode::kCouldNotRun, message);
}

}  // namespace labgate

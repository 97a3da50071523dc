// One local command (Boost.Process) in its own process group, with stdin fed and
// stdout/stderr pumped (bounded) until EOF: the local twin of SshExec, so both
// transports share one meaning of "finished", "timed out" and "too much output".
#pragma once

#include <boost/process/child.hpp>
#include <boost/process/pipe.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "capture.h"
#include "labgate/transport/transport.h"

namespace labgate::transport {

class LocalChild {
 public:
  /// Starts argv (argv[0] searched in PATH). A program that cannot be executed
  /// does not throw: it finishes at once with the shell's statuses (127 not
  /// found, 126 not executable) and the reason on stderr, as over SSH.
  LocalChild(const std::vector<std::string>& argv, std::string input, std::size_t output_limit);
  ~LocalChild();
  LocalChild(const LocalChild&) = delete;
  LocalChild& operator=(const LocalChild&) = delete;

  /// Streams stderr lines to `sink` as they arrive (see RunOptions::on_stderr_line).
  void on_stderr_line(std::function<void(std::string_view)> sink) { err_.on_line(std::move(sink)); }
  /// The same for stdout (RunOptions::on_stdout_line).
  void on_stdout_line(std::function<void(std::string_view)> sink) { out_.on_line(std::move(sink)); }
  /// Moves data, waiting up to `max_wait`; true once both streams are at EOF and
  /// the process has been reaped.
  bool pump(std::chrono::milliseconds max_wait);
  /// SIGTERM to the group, SIGKILL after `grace`; then reaps.
  void kill_group(std::chrono::milliseconds grace);
  bool overflowed() const { return out_.overflowed() || err_.overflowed(); }
  const char* overflowed_stream() const { return out_.overflowed() ? "stdout" : "stderr"; }
  const std::string& stdout_text() { return out_.text(); }
  long pgid() const { return pgid_; }
  void fill(RunResult& r);

 private:
  void reap(bool block);

  boost::process::pipe out_pipe_, err_pipe_, in_pipe_;
  std::optional<boost::process::child> child_;
  long pgid_ = 0;
  Capture out_, err_;
  std::string input_;
  std::size_t input_sent_ = 0;
  int out_fd_ = -1, err_fd_ = -1, in_fd_ = -1;
  bool reaped_ = false;
  int exit_status_ = -1;
  std::string signal_;
};

/// "TERM" for SIGTERM, as SSH's exit-signal names it.
std::string signal_abbrev(int signo);

}  // namespace labgate::transport

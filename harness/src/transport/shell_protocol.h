// The framing of labgate's one shell per host (issue 23): each command is one
// line written to a /bin/sh that reads its stdin, run with its own stdin (the
// caller's input, or /dev/null: it never reads the shell's), and followed by an
// end marker on stdout carrying its exit status and one on stderr. The markers
// carry a random token chosen per shell, so nothing a command prints can end
// it early, and each request's number, so a late reply is never taken for the
// next one's. Before the command, the shell acknowledges the request on stdout:
// until then sshd has not passed it on (stopped, swapping), which is waited for
// as a channel open is, not counted against the command (shell_deadline.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capture.h"
#include "labgate/transport/transport.h"

namespace labgate::transport {

/// The text written to the shell's stdin for request `id` of the shell whose
/// token is `token`: argv (quoted, never pasted) with `input` on its stdin.
std::string shell_request(const std::string& token, long id, const std::vector<std::string>& argv,
                          std::string_view input);

/// One request's reply, gathered from the shell's stdout and stderr as they
/// arrive, each bounded by `limit`.
class ShellReply {
 public:
  ShellReply(const std::string& token, long id, std::size_t limit);
  void feed_out(std::string_view chunk);
  void feed_err(std::string_view chunk);
  /// The shell acknowledged the request: it read it and starts the command.
  bool started() const { return started_; }
  /// Both end markers seen: the command ended and the shell waits for the next.
  bool done() const { return out_done_ && err_done_; }
  bool overflowed() const { return out_.overflowed() || err_.overflowed(); }
  const char* overflowed_stream() const { return out_.overflowed() ? "stdout" : "stderr"; }
  /// The command's output and exit status (once done()).
  RunResult result();
  /// What came after a marker (a stray background writer): never part of a result.
  std::size_t stray_bytes() const { return stray_; }

 private:
  // Appends `chunk` to `held`, moving what precedes the marker into `cap`;
  // returns true once the marker was seen (its status into `status`).
  bool feed(std::string& held, Capture& cap, std::string_view chunk, const std::string& marker,
            bool with_status);

  std::string ack_marker_, out_marker_, err_marker_;
  std::string held_out_, held_err_;
  Capture out_, err_;
  bool started_ = false, out_done_ = false, err_done_ = false;
  int status_ = -1;
  std::size_t stray_ = 0;
};

}  // namespace labgate::transport

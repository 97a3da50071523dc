// Asking sshd again within a step's own time limit. A server that is stopped,
// swapping or starved (a hypervisor pause, a swap storm) leaves the TCP
// connection up but answers a channel request seconds late; libssh gives up on
// each blocking request after the session timeout (connect_timeout) with no
// error set, while the request is still pending on the same channel, so it is
// asked again until the step's timeout (command_timeout) and only then is it a
// failure, saying what happened. A server that turns a connection away before
// authentication (MaxStartups, a full listen queue) is asked again after a
// growing pause, within connect_timeout.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

namespace labgate::transport {

/// Past this, an answer that a running sshd gives within a round trip (a
/// program's group id, labgate's shell acknowledging a request; ~350 ms more
/// where a slow login shell starts first) is said: the server was stopped,
/// swapping or overloaded.
constexpr std::chrono::seconds kSlowAnswer{2};

/// How long a step waits for sshd to answer (open its channel, pass a request
/// to labgate's shell) before its own clock starts: its own timeout, but never
/// less than the host's command_timeout, so that a server stopped for 12 s
/// fails no 10 s counter read (issue 22 item 1).
inline std::chrono::nanoseconds answer_limit(std::chrono::nanoseconds step_timeout,
                                             std::chrono::nanoseconds command_timeout) {
  return std::max(step_timeout, command_timeout);
}

/// What one attempt (a blocking libssh request, a connection) came to.
enum class ServerAnswer {
  kDone,         ///< the server answered yes
  kNoAnswerYet,  ///< libssh's own wait ended first (SSH_AGAIN): still pending
  kRefused,      ///< the server said no or hung up (the caller has why); worth asking again shortly
  kFailed,       ///< anything else (the session broke, a login refused): asking again cannot help
};

/// How long a step waits, and how, for sshd to answer.
struct ServerWait {
  using Clock = std::chrono::steady_clock;
  std::chrono::nanoseconds limit{};  ///< the step's own time limit (command_timeout, connect_timeout)
  /// Called between attempts: releases the connection's lock for a moment so
  /// the run's other threads (the lease heartbeat) are not held up, and sends
  /// a keepalive so a link that died meanwhile is noticed. May be empty.
  std::function<void(std::chrono::milliseconds)> pause;
  /// Tests give a fake clock; the real one otherwise.
  std::function<Clock::time_point()> now = [] { return Clock::now(); };
};

struct WaitOutcome {
  ServerAnswer last = ServerAnswer::kNoAnswerYet;  ///< kDone, or why it stopped asking
  int attempts = 0;
  std::chrono::nanoseconds waited{0};  ///< from the first attempt to the last answer
  /// True when it took more than one attempt: the caller says that the server was slow.
  bool was_slow() const { return attempts > 1; }
};

/// Calls `attempt` until it answers kDone or kFailed or the wait's limit passes;
/// kNoAnswerYet asks again at once (the request is pending, libssh waited), kRefused
/// after a backoff of 50 ms doubling to 1 s. The limit counts from the first attempt.
WaitOutcome wait_for_answer(const std::function<ServerAnswer()>& attempt, const ServerWait& wait);

/// "the server did not answer ... within 60.00s (it was asked 12 times; the TCP
/// connection is up: sshd stopped, swapping or overloaded?)", for messages.
std::string describe_no_answer(const std::string& request, const WaitOutcome& outcome);

}  // namespace labgate::transport

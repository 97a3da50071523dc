// Asking sshd again within a step's own time limit (see server_wait.h).
#include "server_wait.h"

#include <algorithm>

#include "ssh_control.h"  // format_seconds

namespace labgate::transport {

WaitOutcome wait_for_answer(const std::function<ServerAnswer()>& attempt, const ServerWait& wait) {
  WaitOutcome out;
  const auto t0 = wait.now();
  std::chrono::milliseconds backoff{50};
  for (;;) {
    out.last = attempt();
    ++out.attempts;
    out.waited = wait.now() - t0;
    if (out.last == ServerAnswer::kDone || out.last == ServerAnswer::kFailed) return out;
    if (out.waited >= wait.limit) return out;
    // Pending: libssh already waited its session timeout, so ask again at once
    // (after letting other threads in). Refused: the server said no now; a
    // moment later it may have a process slot again.
    std::chrono::milliseconds pause{1};
    if (out.last == ServerAnswer::kRefused) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(wait.limit - out.waited);
      pause = std::min(backoff, left);
      backoff = std::min(backoff * 2, std::chrono::milliseconds(1000));
    }
    if (wait.pause) wait.pause(pause);
  }
}

std::string describe_no_answer(const std::string& request, const WaitOutcome& outcome) {
  return "the server did not " + request + " within " + format_seconds(outcome.waited) + " (asked " +
         std::to_string(outcome.attempts) + (outcome.attempts == 1 ? " time" : " times") +
         "; the TCP connection is up: is sshd stopped, swapping or overloaded?)";
}

}  // namespace labgate::transport

// Connecting again when sshd turns a connection away before login (see connect_retry.h).
#include "connect_retry.h"

#include <spdlog/spdlog.h>

#include "labgate/util/exit_code.h"
#include "ssh_control.h"  // format_seconds

namespace labgate::transport {

bool turned_away_before_login(const std::string& message) {
  // Only ssh_connect's own failures (TCP, banners, key exchange) qualify: a
  // host key or a login refused is an answer, not a hang-up.
  const auto at = message.find("cannot connect: ");
  if (at == std::string::npos) return false;
  const std::string why = message.substr(at);
  for (const char* hangup : {"Connection reset by peer", "Connection closed", "closed by remote host",
                             "Socket error: disconnected", "Broken pipe", "Remote host closed"}) {
    if (why.find(hangup) != std::string::npos) return true;
  }
  return false;
}

int connect_retrying_drops(const std::string& who, const std::function<void()>& connect_once,
                           const ServerWait& wait) {
  std::string last;
  const WaitOutcome out = wait_for_answer(
      [&] {
        try {
          connect_once();
          return ServerAnswer::kDone;
        } catch (const Failure& f) {
          if (!turned_away_before_login(f.what())) throw;
          last = f.what();
          return ServerAnswer::kRefused;
        }
      },
      wait);
  if (out.last == ServerAnswer::kDone) {
    if (out.attempts > 1)
      spdlog::info("{}: connected after the server hung up {} time(s) before login, within {}", who,
                   out.attempts - 1, format_seconds(out.waited));
    return out.attempts;
  }
  throw Failure(ExitCode::kCouldNotRun,
                last + " (the server hung up before login " + std::to_string(out.attempts) +
                    " times within " + format_seconds(out.waited) +
                    ": sshd MaxStartups or a full listen queue is the likely cause; another client, a "
                    "scanner or too many connections at once holds the server's unauthenticated slots)");
}

}  // namespace labgate::transport

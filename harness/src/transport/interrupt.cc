// The harness's interrupt flag (see interrupt.h).
#include "labgate/transport/interrupt.h"

#include <csignal>
#include <cstring>
#include <string>

#include "labgate/util/exit_code.h"

namespace labgate::transport {

namespace {
volatile std::sig_atomic_t g_pending = 0;

extern "C" void on_interrupt(int signo) {
  if (g_pending == 0) g_pending = signo;  // the first one names the stop
}
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  // No SA_RESETHAND: a second Ctrl-C 50 ms after the first must not kill the
  // harness in the middle of removing what it started on the hosts.
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // A closed terminal or ssh session: stop and clean up, never die at once.
  sigaction(SIGHUP, &sa, nullptr);
}

std::string signal_name(int signo) {
  const char* abbrev = sigabbrev_np(signo);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signo);
}

int pending_interrupt() { return g_pending; }

void set_pending_interrupt(int signo) { g_pending = signo; }

void throw_if_interrupted(std::string_view doing) {
  const int s = g_pending;
  if (s == 0) return;
  throw Failure(ExitCode::kCouldNotRun, "interrupted by " + signal_name(s) + " while " + std::string(doing));
}

}  // namespace labgate::transport

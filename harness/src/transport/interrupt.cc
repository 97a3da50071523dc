// The harness's interrupt flag (see interrupt.h).
#include "labgate/transport/interrupt.h"

#include <csignal>
#include <cstring>
#include <string>

#include "labgate/util/exit_code.h"

namespace labgate::transport {

namespace {
volatile std::sig_atomic_t g_pending = 0;

extern "C" void on_interrupt(int signo) { g_pending = signo; }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  // SA_RESETHAND: the first signal asks for an orderly stop and cleanup; a second
  // one kills the harness the usual way.
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int pending_interrupt() { return g_pending; }

void set_pending_interrupt(int signo) { g_pending = signo; }

void throw_if_interrupted(std::string_view doing) {
  const int s = g_pending;
  if (s == 0) return;
  throw Failure(ExitCode::kCouldNotRun, std::string("interrupted by ") +
                                            (s == SIGINT    ? "SIGINT"
                                             : s == SIGTERM ? "SIGTERM"
                                                            : "a signal") +
                                            " while " + std::string(doing));
}

}  // namespace labgate::transport

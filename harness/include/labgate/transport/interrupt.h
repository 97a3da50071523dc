// SIGINT/SIGTERM of the harness: the handler only sets a flag (all that is
// async-signal-safe); every wait loop in the transport polls it and unwinds with
// a Failure, so RAII handles stop remote processes and remove run directories on
// the normal path instead of in a signal handler.
#pragma once

#include <string>
#include <string_view>

namespace labgate::transport {

/// Installs the SIGINT, SIGTERM and SIGHUP handlers (idempotent). Every signal,
/// however many arrive, only sets the flag (the first one is kept): the clean-up
/// always runs to its end, bounded by its own timeouts, and then says what, if
/// anything, is left on which host. (SIGKILL still ends the process at once.)
void install_interrupt_handlers();
/// "SIGINT", "SIGTERM", "SIGHUP" or "signal N".
std::string signal_name(int signo);
/// The pending signal number, 0 if none.
int pending_interrupt();
/// Throws labgate::Failure(kCouldNotRun) "interrupted by SIGINT while <doing>" if one is pending.
void throw_if_interrupted(std::string_view doing);
/// Sets or clears the flag as the handler would (tests, and callers that catch a
/// signal some other way).
void set_pending_interrupt(int signo);

}  // namespace labgate::transport

// SIGINT/SIGTERM of the harness: the handler only sets a flag (all that is
// async-signal-safe); every wait loop in the transport polls it and unwinds with
// a Failure, so RAII handles stop remote processes and remove run directories on
// the normal path instead of in a signal handler.
#pragma once

#include <string_view>

namespace labgate::transport {

/// Installs the SIGINT and SIGTERM handlers (idempotent). A second signal of the
/// same kind gets the default action, so a user can still force an exit.
void install_interrupt_handlers();
/// The pending signal number, 0 if none.
int pending_interrupt();
/// Throws labgate::Failure(kCouldNotRun) "interrupted by SIGINT while <doing>" if one is pending.
void throw_if_interrupted(std::string_view doing);
/// Sets or clears the flag as the handler would (tests, and callers that catch a
/// signal some other way).
void set_pending_interrupt(int signo);

}  // namespace labgate::transport

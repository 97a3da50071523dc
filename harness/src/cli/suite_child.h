// `labgate run`'s suites as child processes, and what a SIGINT/SIGTERM to the
// harness does to them: each reaches the running suite exactly once (it then
// stops and cleans its hosts), and no further suite starts.
#pragma once

#include <string>
#include <vector>

namespace labgate::cli {

/// Installs the forwarding SIGINT/SIGTERM handlers (idempotent).
void install_suite_forwarding();

/// Runs `program args...` in its own process group and returns its exit code
/// (3 when it died of a signal or could not start; 3 without starting it when
/// the harness was already interrupted). A terminal's Ctrl-C goes to
/// the foreground group, the harness's: in a group of its own the suite gets
/// the signal once, forwarded, not twice (a second one would kill it before it
/// cleaned up its hosts).
int run_suite_child(const std::string& program, const std::vector<std::string>& args);

/// The first SIGINT or SIGTERM the harness received, 0 if none.
int harness_interrupted();

/// "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signo);

/// Forgets a received signal (tests).
void reset_harness_interrupt();

}  // namespace labgate::cli

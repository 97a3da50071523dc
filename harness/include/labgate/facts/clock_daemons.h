// The time daemons' own reports: one shell step runs each read-only client
// that is installed (chronyc -c tracking, ntpq -c rv, pmc ... GET
// TIME_STATUS_NP), and their outputs are read into ClockDaemonReports.
// Running programs is kept out of the static facts probe, which only reads
// files and asks the kernel: a client may hang on a socket or need the
// daemon's libraries, and the step has the transport's timeout and privilege.
#pragma once

#include <string>
#include <vector>

#include "labgate/facts/facts.h"

namespace labgate::facts {

/// The shell step (argv): for chrony, ntpd and ptp4l, the client's output
/// between "@@labgate-clock DAEMON COMMAND" and "@@labgate-clock-exit N"
/// lines; N is 127 where the client is not installed. RHEL 5's bash 3.2 runs it.
std::vector<std::string> clock_daemons_command();

/// Splits the step's output into one raw report per daemon (daemon, command,
/// exit_status, output) and reads each. `step_exit` -1 or a missing section
/// (the step timed out or failed): that daemon is "not read" with `step_error`.
std::vector<ClockDaemonReport> read_clock_step(int step_exit, const std::string& out,
                                               const std::string& step_error);

/// Reads one raw report (daemon, command, exit_status and output set) in place.
void read_daemon_report(ClockDaemonReport& r);

/// The raw reports as the "daemons" member the facts snapshot keeps under
/// "clock", and back: a recorded snapshot is judged as the live one was.
std::string add_daemons_to_snapshot(const std::string& snapshot_json,
                                    const std::vector<ClockDaemonReport>& d);

}  // namespace labgate::facts

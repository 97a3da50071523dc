// Runs one profile test with an external tool between two hosts: the tool's
// server on the far host bound to its test address, the client on the near host,
// parse, and the server always stopped, whatever happened in between.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"
#include "labgate/tools/tool_commands.h"
#include "labgate/transport/transport.h"

namespace labgate::tools {

struct DriverOptions {
  /// How long the server may take to bind its port before the test is abandoned.
  std::chrono::nanoseconds ready_timeout = std::chrono::seconds(10);
  /// Between reads of /proc/net for a server that gives no readiness line: each
  /// read is an exec round trip already, so the pause only keeps it from spinning.
  std::chrono::nanoseconds poll_interval = std::chrono::milliseconds(10);
  /// Client runs that found no server (still starting) before giving up, and the
  /// pause before each retry.
  int connect_attempts = 3;
  std::chrono::nanoseconds retry_pause = std::chrono::milliseconds(200);
  /// Ports tried when the profile sets none and a chosen port is taken.
  int port_attempts = 3;
  /// The clock the client's output lines are timed with (tools::account_tool_time);
  /// unset: std::chrono::steady_clock. Tests give a scripted one.
  std::function<std::chrono::nanoseconds()> clock;
};

/// Everything a tool run leaves: the Measurement and, for the results folder,
/// the exact commands and the raw client and server output.
struct ToolRun {
  measure::Measurement measurement;
  ToolInvocation invocation;
  transport::RunResult client;
  transport::RunResult server;
  /// When the client that measured was started and returned, on this
  /// harness's steady clock: places its run on a host's clock (gate/tool_tail.h).
  std::chrono::steady_clock::time_point client_started{}, client_ended{};
  /// The client host's pass over the tool's per-sample log (full_log), run
  /// after the client returned: its output, or nullopt when the test keeps none.
  std::optional<transport::RunResult> full_log;
};

/// Runs `spec` (tool netperf, sockperf or iperf3) from `client_host` to
/// `server_host`. `endpoint.port` 0 picks a random high port (another one when
/// it is taken). Throws labgate::Failure: kUsageError when the tool cannot run
/// this test, kCouldNotRun (naming host, command and what went wrong) when the
/// server does not come up, the client times out, or the tool reports a failure.
/// `kept`, when given, holds what the run left so far (the commands, the client's
/// and the server's raw output) even when it throws: the evidence of a run whose
/// output could not be read is kept in the results folder like any other.
ToolRun run_tool_test(const profile::TestSpec& spec, transport::Transport& client_host,
                      transport::Transport& server_host, Endpoint endpoint,
                      const DriverOptions& options = {}, ToolRun* kept = nullptr);

/// Whether /proc/net/tcp (or udp) text shows a socket bound to ipv4:port, for TCP
/// one in LISTEN state. The wildcard address 0.0.0.0 counts as bound to any.
bool port_bound(std::string_view proc_net, const std::string& address, int port, bool tcp);

}  // namespace labgate::tools

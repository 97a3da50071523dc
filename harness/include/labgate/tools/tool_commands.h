// The exact argv for an external tool's server and client for one profile test
// (netserver/netperf, sockperf sr/pp, iperf3 -s/-c), bound to the test addresses,
// plus what the tool cannot honour (warm-up, open loop) said out loud. Pure.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "labgate/profile/test_spec.h"

namespace labgate::tools {

/// Where the test runs: the server listens on server_address:port (the far host's
/// test address), the client binds to client_address (the near host's).
struct Endpoint {
  std::string server_address;
  std::string client_address;
  int port = 0;
  /// Where on the client host a tool may write its per-sample log (full_log):
  /// a file in the run's private directory. Empty: nowhere, and full_log is refused.
  std::string full_log_path{};
};

struct ToolInvocation {
  std::vector<std::string> server_argv;
  std::vector<std::string> client_argv;
  /// How long the client may take before it is killed: warm-up + duration + margin.
  std::chrono::nanoseconds client_timeout{0};
  /// Transport the server listens with, for readiness checks ("tcp" or "udp").
  std::string server_protocol;
  /// What the server prints once its socket is bound (its own readiness signal);
  /// empty when it prints none in time (iperf3 buffers stdout into a pipe, netserver
  /// prints before it listens): the driver then polls /proc/net instead.
  std::string server_ready_line;
  /// Where the server's socket is bound when that is not the endpoint's
  /// server_address:port (a multicast server binds the group's address and port).
  std::string listen_address;
  int listen_port = 0;
  /// The kind-independent settings as used ("message_size", "duration_s", ...).
  std::map<std::string, std::string> parameters;
  /// What the tool cannot do that the profile asked for, worded for the report.
  std::vector<std::string> warnings;
  /// The client's per-sample log on the client host (full_log), read and
  /// removed after its run (tools/sockperf_full_log.h); empty: none.
  std::string full_log_path{};
};

/// Builds both command lines. Throws std::invalid_argument naming the test and
/// what is wrong when the tool cannot run the test at all (iperf3 for an rr kind,
/// sockperf for a stream, jitter by any tool, a message below a tool's minimum).
ToolInvocation build_invocation(const profile::TestSpec& spec, const Endpoint& endpoint);

/// How long a tool's client may run (warm-up, duration and a bounded margin)
/// before it is hung: ToolInvocation::client_timeout, and the backstop of what
/// runs beside it (the noise watch).
std::chrono::nanoseconds tool_client_timeout(const profile::TestSpec& spec);

}  // namespace labgate::tools

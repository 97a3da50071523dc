// Command lines of the built-in probes for a profile test (see probe_command.h).
#include "labgate/measure/probe_command.h"

#include <cstdio>
#include <stdexcept>

#include "labgate/profile/kind_traits.h"
#include "labgate/profile/limits.h"

namespace labgate::measure {
namespace {

using namespace std::chrono_literals;
using profile::TestKind;
using profile::TestSpec;

/// The probes' own defaults, repeated here so the harness's wait is longer than
/// the probe's hard deadline (connect + warm-up + duration + 2 x server timeout + 5 s).
constexpr auto kServerTimeout = 3s;
constexpr auto kConnectTimeout = 3s;
/// A server with no client for this long exits by itself. With --once it ends
/// right after its one client anyway; this is what cleans up if the client
/// never comes (or the harness dies), and if a UDP client's end is lost.
constexpr auto kIdleTimeout = 30s;
/// The stream probe's ST_TCP_DRAIN_S: what its TCP client's backstop allows the
/// send buffer to drain after the transfer over a lossy link.
constexpr auto kTcpStreamDrain = 30s;

std::string path(const std::string& dir, const TestSpec& spec) {
  return dir.empty() ? probe_binary(spec) : dir + "/" + probe_binary(spec);
}

/// argv behind the launch prefix (the wrapper runs the probe).
std::vector<std::string> launched(const TestSpec& spec, std::vector<std::string> argv) {
  std::vector<std::string> out = launch_prefix(spec);
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

const char* proto(TestKind k) { return profile::is_tcp(k) ? "tcp" : "udp"; }

/// Socket tuning a sweep varies (netperf -s/-S, iperf -Z): the same on both ends.
void add_tuning(const TestSpec& spec, std::vector<std::string>& argv) {
  if (spec.socket_buffer) argv.insert(argv.end(), {"--socket-buffer", std::to_string(*spec.socket_buffer)});
  if (spec.congestion && profile::is_tcp(spec.kind))
    argv.insert(argv.end(), {"--congestion", *spec.congestion});
}

/// What the probes would refuse is refused here, from the table validate reads
/// (labgate/profile/limits.h), so a run never starts a probe only to hear it.
void require_runnable(const TestSpec& spec) {
  for (const std::string& why :
       {profile::message_size_refusal(spec), profile::rate_refusal(spec), profile::interval_refusal(spec)})
    if (!why.empty())
      throw std::invalid_argument("test '" + spec.name + "' (" + spec.pos.str() + "): " + why);
}

void require_pair(const TestSpec& spec) {
  if (spec.kind == TestKind::kJitter)
    throw std::invalid_argument("test '" + spec.name +
                                "': a jitter test has no server and client; use probe_jitter_argv");
  require_runnable(spec);
}

}  // namespace

const char* probe_for(TestKind kind) {
  if (const profile::KindTraits* t = profile::find_kind(kind); t && t->probe) return t->probe;
  throw std::invalid_argument(std::string("no built-in probe measures kind '") + profile::to_string(kind) +
                              "' (path_mtu and ping_flood run the host's own ping)");
}

std::string probe_binary(const TestSpec& spec) {
  const std::string base = probe_for(spec.kind);
  return spec.preload || !spec.wrapper.empty() ? base + "-dyn" : base;
}

std::vector<std::string> launch_prefix(const TestSpec& spec) {
  std::vector<std::string> out;
  if (spec.preload) out = {"env", "LD_PRELOAD=" + *spec.preload};
  out.insert(out.end(), spec.wrapper.begin(), spec.wrapper.end());
  return out;
}

std::string exact_duration(std::chrono::nanoseconds d) {
  const long long ns = d.count();
  if (ns != 0 && ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns != 0 && ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  if (ns != 0 && ns % 1'000 == 0) return std::to_string(ns / 1'000) + "us";
  return std::to_string(ns) + "ns";
}

std::vector<std::string> probe_server_argv(const TestSpec& spec, const std::string& probe_dir,
                                           const std::string& server_address, const std::string& peer_address) {
  require_pair(spec);
  std::vector<std::string> argv{path(probe_dir, spec),
                                "server",
                                "--bind",
                                server_address,
                                "--port",
                                std::to_string(spec.port.value_or(0)),
                                "--proto",
                                proto(spec.kind),
                                "--idle-timeout",
                                exact_duration(kIdleTimeout)};
  argv.push_back("--once");  // one client per server: its summary comes without a stop
  if (spec.cpu.server) argv.insert(argv.end(), {"--cpu", std::to_string(*spec.cpu.server)});
  if (!peer_address.empty()) argv.insert(argv.end(), {"--peer", peer_address});
  if (profile::is_rr(spec.kind)) {
    // The server checks the client's size in the TCP hello, so a mismatch is an error, not a hang.
    argv.insert(argv.end(), {"--size", std::to_string(spec.message_size)});
    if (spec.busy_poll) argv.push_back("--busy-poll");
    if (profile::is_tcp(spec.kind) && !spec.nodelay) argv.push_back("--no-nodelay");
  }
  add_tuning(spec, argv);
  return launched(spec, std::move(argv));
}

std::vector<std::string> probe_client_argv(const TestSpec& spec, const std::string& probe_dir,
                                           const std::string& server_address, int port) {
  require_pair(spec);
  std::vector<std::string> argv{path(probe_dir, spec),
                                "client",
                                "--connect",
                                server_address,
                                "--port",
                                std::to_string(port),
                                "--proto",
                                proto(spec.kind),
                                "--size",
                                std::to_string(spec.message_size),
                                "--duration",
                                exact_duration(spec.duration),
                                "--warmup",
                                exact_duration(spec.warmup),
                                "--interval",
                                exact_duration(spec.interval)};
  if (spec.cpu.client) argv.insert(argv.end(), {"--cpu", std::to_string(*spec.cpu.client)});
  if (profile::is_tcp(spec.kind) && spec.nodelay) argv.push_back("--nodelay");
  if (profile::is_rr(spec.kind)) {
    if (profile::is_tcp(spec.kind) && !spec.nodelay) argv.push_back("--no-nodelay");
    if (spec.busy_poll) argv.push_back("--busy-poll");
    // The outliers worth explaining: over `outlier`, else over the p99 budget
    // (without either the probe follows 10x its running p50).
    std::optional<std::chrono::nanoseconds> outlier = spec.outlier;
    if (const profile::Bound* b = spec.find_bound(profile::Stat::kP99); !outlier && b && b->limit >= 1)
      outlier = std::chrono::nanoseconds(static_cast<long long>(b->limit));
    if (outlier) argv.insert(argv.end(), {"--outlier", exact_duration(*outlier)});
  }
  // Both probes pace on --rate (pingpong's requests, stream's messages); a stream
  // without it sends as fast as the socket takes.
  if (spec.rate_per_sec) {
    char rate[64];
    std::snprintf(rate, sizeof(rate), "%.17g/s", *spec.rate_per_sec);
    argv.insert(argv.end(), {"--rate", rate});
  }
  add_tuning(spec, argv);
  return launched(spec, std::move(argv));
}

std::vector<std::string> probe_jitter_argv(const TestSpec& spec, const std::string& probe_dir) {
  if (spec.kind != TestKind::kJitter)
    throw std::invalid_argument("test '" + spec.name + "' is not a jitter test");
  require_runnable(spec);
  std::vector<std::string> argv{
      path(probe_dir, spec),    "--duration", exact_duration(spec.duration), "--warmup",
      exact_duration(spec.warmup),   "--interval", exact_duration(spec.interval), "--threshold",
      exact_duration(spec.threshold)};
  if (!spec.cpus.empty()) {
    std::string list;
    for (int c : spec.cpus) list += (list.empty() ? "" : ",") + std::to_string(c);
    argv.insert(argv.end(), {"--cpus", list});
  }
  return argv;
}

std::chrono::nanoseconds probe_client_timeout(const TestSpec& spec) {
  // The probe gives up by itself at connect + warm-up + duration + 2 x server
  // timeout + 5 s (jitter: warm-up + duration + 10 s); 10 s more lets its own
  // message arrive before the harness kills it.
  const auto drain = profile::is_stream(spec.kind) && profile::is_tcp(spec.kind) ? kTcpStreamDrain : 0s;
  return spec.warmup + spec.duration + kConnectTimeout + 2 * kServerTimeout + 5s + drain + 10s;
}

}  // namespace labgate::measure

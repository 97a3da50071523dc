// Command lines for netperf, sockperf, iperf3 and sfnt-pingpong from a profile test. Each tool's
// gaps (netperf has no warm-up, sockperf's warm-up is fixed, netperf cannot pace)
// become warnings the report shows, never silent differences.
#include "labgate/tools/tool_commands.h"

#include <cmath>
#include <stdexcept>

#include "labgate/profile/limits.h"
#include "labgate/measure/probe_command.h"
#include "labgate/profile/test_address.h"
#include "labgate/util/units.h"
#include "tool_command_parts.h"

namespace labgate::tools {

using profile::TestKind;
using profile::TestSpec;
using profile::Tool;

void detail::refuse(const TestSpec& spec, const std::string& why) {
  throw std::invalid_argument("test '" + spec.name + "' (" + spec.pos.str() + "): " + why);
}

long detail::whole_seconds(const TestSpec& spec, std::chrono::nanoseconds d, const char* what,
                           ToolInvocation& inv) {
  const double s = std::chrono::duration<double>(d).count();
  const long whole = static_cast<long>(std::ceil(s));
  if (whole < 1)
    refuse(spec, std::string(what) + " must be at least 1s for " + profile::to_string(spec.tool));
  if (static_cast<double>(whole) != s)
    inv.warnings.push_back(std::string(what) + " " + units::format_duration(d) + " rounded up to " +
                           std::to_string(whole) + "s: " + profile::to_string(spec.tool) +
                           " takes whole seconds");
  return whole;
}

void detail::sockperf_pace_and_warmup(const TestSpec& spec, ToolInvocation& inv) {
  if (spec.rate_per_sec) {
    inv.client_argv.push_back("--mps=" +
                              std::to_string(static_cast<long long>(std::llround(*spec.rate_per_sec))));
    inv.warnings.push_back(
        "sockperf paces sends (--mps) but times each reply from its actual send, not its "
        "schedule: stalls are under-reported (coordinated omission)");
  }
  if (spec.warmup.count() > 0)
    inv.warnings.push_back(
        "sockperf's warm-up is its own fixed stage (a few dummy messages, then a valid-duration "
        "window); the profile's warm-up of " +
        units::format_duration(spec.warmup) + " is not applied");
}

namespace {

using detail::refuse;
using detail::whole_seconds;

std::string str(std::uint64_t v) { return std::to_string(v); }

void netperf_command(const TestSpec& spec, const Endpoint& ep, ToolInvocation& inv) {
  const bool rr = profile::is_rr(spec.kind);
  // TCP_RR, UDP_RR, TCP_STREAM, UDP_STREAM: what the kind's traits say passes.
  const std::string test = std::string(profile::is_tcp(spec.kind) ? "TCP" : "UDP") + (rr ? "_RR" : "_STREAM");
  inv.server_protocol = "tcp";  // netserver's control connection
  // -4/-6: netperf's address family for the control and the data connection alike.
  const char* family = profile::is_ipv6(ep.server_address) ? "-6" : "-4";
  inv.server_argv = {"netserver", "-D", "-f", family, "-L", ep.server_address, "-p", std::to_string(ep.port)};
  const long secs = whole_seconds(spec, spec.duration, "duration", inv);
  inv.client_argv = {"netperf", family,
                     "-H",      ep.server_address,
                     "-L",      ep.client_address,
                     "-p",      std::to_string(ep.port),
                     "-t",      test,
                     "-l",      std::to_string(secs),
                     "-j",      "-v",
                     "2",       "-f",
                     "m"};
  if (spec.cpu.client || spec.cpu.server)
    inv.client_argv.insert(inv.client_argv.end(),
                           {"-T", (spec.cpu.client ? std::to_string(*spec.cpu.client) : "") + "," +
                                      (spec.cpu.server ? std::to_string(*spec.cpu.server) : "")});
  inv.client_argv.push_back("--");
  if (rr)
    inv.client_argv.insert(inv.client_argv.end(),
                           {"-r", str(spec.message_size) + "," + str(spec.message_size)});
  else
    inv.client_argv.insert(inv.client_argv.end(), {"-m", str(spec.message_size)});
  if (profile::is_tcp(spec.kind) && spec.nodelay) inv.client_argv.push_back("-D");
  // Seeds 001/003: -s local, -S remote socket buffer; -K local,remote congestion control.
  if (spec.socket_buffer)
    inv.client_argv.insert(inv.client_argv.end(),
                           {"-s", str(*spec.socket_buffer), "-S", str(*spec.socket_buffer)});
  if (spec.congestion && profile::is_tcp(spec.kind))
    inv.client_argv.insert(inv.client_argv.end(), {"-K", *spec.congestion + "," + *spec.congestion});
  std::string keys =
      "P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,STDDEV_LATENCY,MIN_LATENCY,MAX_LATENCY,"
      "THROUGHPUT,THROUGHPUT_UNITS,ELAPSED_TIME";
  keys += rr ? ",TRANSACTION_RATE,RT_LATENCY,REQUEST_SIZE,RESPONSE_SIZE"
             : ",LOCAL_SEND_SIZE,LOCAL_SEND_CALLS,REMOTE_RECV_CALLS";
  inv.client_argv.insert(inv.client_argv.end(), {"-k", keys});
  if (spec.warmup.count() > 0)
    inv.warnings.push_back(
        "netperf has no warm-up option: the profile's warm-up of " + units::format_duration(spec.warmup) +
        " is not applied; connection set-up and cold caches fall inside the measured time");
  inv.warnings.push_back(
      "netperf's percentiles come from its own histogram and stop at P99; "
      "p99_9 and above cannot be judged from netperf");
}

void sockperf_command(const TestSpec& spec, const Endpoint& ep, ToolInvocation& inv) {
  if (spec.kind == TestKind::kUdpMulticast) return detail::sockperf_multicast_command(spec, ep, inv);
  if (!profile::is_rr(spec.kind))
    refuse(spec, std::string("sockperf measures ping-pong round trips; ") + profile::to_string(spec.kind) +
                     " needs tool = \"netperf\", \"iperf3\" or \"builtin\"");
  const bool tcp = profile::is_tcp(spec.kind);
  if (spec.congestion && tcp)
    refuse(spec,
           "sockperf has no option for the TCP congestion control; sweep congestion with tool = "
           "\"builtin\", \"netperf\" or \"iperf3\"");
  inv.server_protocol = tcp ? "tcp" : "udp";
  // sockperf sr binds (and listens) before its receive loop, which it announces
  // with "[tid N] using recvfrom() to block on socket(s)" (3.x and 2.x).
  inv.server_ready_line = "to block on socket(s)";
  const std::string port = std::to_string(ep.port);
  const std::string program = spec.tool_path.value_or("sockperf");
  inv.server_argv = {program, "sr", "-i", ep.server_address, "-p", port};
  if (tcp) inv.server_argv.push_back("--tcp");
  if (spec.socket_buffer)
    inv.server_argv.insert(inv.server_argv.end(), {"--buffer-size", str(*spec.socket_buffer)});
  if (spec.cpu.server)
    inv.server_argv.insert(inv.server_argv.end(), {"--cpu-affinity", std::to_string(*spec.cpu.server)});
  const long secs = whole_seconds(spec, spec.duration, "duration", inv);
  // sockperf pp runs one thread that its --sender/--receiver-affinity do not pin; taskset does.
  if (spec.cpu.client) inv.client_argv = {"taskset", "-c", std::to_string(*spec.cpu.client)};
  inv.client_argv.insert(inv.client_argv.end(),
                         {program, "pp", "-i", ep.server_address, "-p", port, "-m", str(spec.message_size),
                          "-t", std::to_string(secs), "--full-rtt", "--client_ip", ep.client_address});
  if (tcp) inv.client_argv.push_back("--tcp");
  if (tcp && !spec.nodelay) inv.client_argv.push_back("--tcp-avoid-nodelay");
  if (spec.socket_buffer)
    inv.client_argv.insert(inv.client_argv.end(), {"--buffer-size", str(*spec.socket_buffer)});
  if (spec.full_log) {
    if (ep.full_log_path.empty()) refuse(spec, "full_log needs a directory of the run on the client host");
    // CLOCK_MONOTONIC instead of the TSC from its own start: the noise watch's
    // clock, so each logged round trip lies on the watch's windows exactly.
    inv.client_argv.insert(inv.client_argv.end(), {"--no-rdtsc", "--full-log", ep.full_log_path});
    inv.full_log_path = ep.full_log_path;
    inv.parameters["timing_clock"] = "CLOCK_MONOTONIC (--no-rdtsc, for full_log)";
  }
  detail::sockperf_pace_and_warmup(spec, inv);
}

void iperf3_command(const TestSpec& spec, const Endpoint& ep, ToolInvocation& inv) {
  if (!profile::is_stream(spec.kind))
    refuse(spec, std::string("iperf3 measures throughput, not round trips; ") +
                     profile::to_string(spec.kind) +
                     " needs tool = \"netperf\", \"sockperf\" or \"builtin\"");
  const bool udp = !profile::is_tcp(spec.kind);
  inv.server_protocol = "tcp";  // iperf3's control connection, also for UDP tests
  const std::string port = std::to_string(ep.port);
  const long secs = whole_seconds(spec, spec.duration, "duration", inv);
  const long omit = spec.warmup.count() > 0 ? whole_seconds(spec, spec.warmup, "warm-up", inv) : 0;
  // -1: serve one test and exit; the idle timeout ends a server whose client never came.
  const std::string program = spec.tool_path.value_or("iperf3");
  inv.server_argv = {program,
                     "-s",
                     "-1",
                     "-B",
                     ep.server_address,
                     "-p",
                     port,
                     "--idle-timeout",
                     std::to_string(secs + omit + 60)};
  inv.client_argv = {program,
                     "-c",
                     ep.server_address,
                     "-B",
                     ep.client_address,
                     "-p",
                     port,
                     "-t",
                     std::to_string(secs),
                     "-O",
                     std::to_string(omit),
                     "-J",
                     "--connect-timeout",
                     "5000",
                     "-l",
                     str(spec.message_size)};
  if (udp) {
    inv.client_argv.push_back("-u");
    if (spec.rate_per_sec) {
      const double bits = *spec.rate_per_sec * static_cast<double>(spec.message_size) * 8.0;
      inv.client_argv.insert(inv.client_argv.end(),
                             {"-b", std::to_string(static_cast<long long>(std::llround(bits)))});
    } else {
      inv.client_argv.insert(inv.client_argv.end(), {"-b", "0"});
      inv.warnings.push_back(
          "no rate in the profile: iperf3 sends UDP unpaced (-b 0), so loss shows the receiver's "
          "capacity, as netperf UDP_STREAM does");
    }
  } else if (spec.rate_per_sec) {
    const double bits = *spec.rate_per_sec * static_cast<double>(spec.message_size) * 8.0;
    inv.client_argv.insert(inv.client_argv.end(),
                           {"-b", std::to_string(static_cast<long long>(std::llround(bits)))});
  }
  if (spec.cpu.client || spec.cpu.server) {
    if (!spec.cpu.client)
      refuse(spec, "iperf3 -A pins the client first: set cpu.client as well as cpu.server");
    std::string a = std::to_string(*spec.cpu.client);
    if (spec.cpu.server) a += "," + std::to_string(*spec.cpu.server);
    inv.client_argv.insert(inv.client_argv.end(), {"-A", a});
  }
  if (!udp && !spec.nodelay)
    inv.warnings.push_back("iperf3 has no switch for Nagle; nodelay = false is not applied");
  // -w sets both buffers on both ends (the server takes it from the client); -C the sender's algorithm.
  if (spec.socket_buffer) inv.client_argv.insert(inv.client_argv.end(), {"-w", str(*spec.socket_buffer)});
  if (spec.congestion && !udp) inv.client_argv.insert(inv.client_argv.end(), {"-C", *spec.congestion});
}

void sfnt_pingpong_command(const TestSpec& spec, const Endpoint& ep, ToolInvocation& inv) {
  if (spec.kind == TestKind::kUdpMulticast) return detail::sfnt_multicast_command(spec, ep, inv);
  if (!profile::is_rr(spec.kind))
    refuse(spec, std::string("sfnt-pingpong measures ping-pong round trips; ") +
                     profile::to_string(spec.kind) + " needs tool = \"netperf\", \"iperf3\" or \"builtin\"");
  const bool tcp = profile::is_tcp(spec.kind);
  if (spec.congestion && tcp)
    refuse(spec,
           "sfnt-pingpong has no option for the TCP congestion control; sweep congestion with tool = "
           "\"builtin\", \"netperf\" or \"iperf3\"");
  if (spec.socket_buffer)
    refuse(spec,
           "sfnt-pingpong has no option for the socket buffer sizes; use tool = \"builtin\", "
           "\"netperf\" or \"sockperf\" for socket_buffer");
  // The server listens on the wildcard address (both families) and serves one
  // client, which sends its options over that connection. It says it is waiting
  // on stderr only: the driver reads /proc/net for its port instead.
  inv.server_protocol = "tcp";
  const std::string port = std::to_string(ep.port);
  const std::string program = spec.tool_path.value_or("sfnt-pingpong");
  inv.server_argv = {program, "--port", port};
  const auto ms = [](std::chrono::nanoseconds d) {
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
  };
  const auto secs = std::chrono::duration<double>(spec.duration).count();
  // It stops at --maxiter samples even before --maxms: room for a 1-us round trip
  // for the whole duration (8 bytes a sample on the client), and never below its default.
  const auto maxiter = std::max<long long>(1000000, std::llround(std::ceil(secs * 1e6)));
  // --rtt: its figures are round trips as measured, not samples halved; one
  // size; --minms = --maxms: it pings until the duration has passed; --timeout:
  // a lost UDP ping ends it with an error after 5 s instead of hanging.
  inv.client_argv = {program,
                     "--port",
                     port,
                     "--sizes",
                     str(spec.message_size),
                     "--minms",
                     ms(spec.duration),
                     "--maxms",
                     ms(spec.duration),
                     "--maxiter",
                     std::to_string(maxiter),
                     "--warmupms",
                     ms(spec.warmup),
                     "--rtt",
                     "--timeout",
                     "5"};
  // --bind: the UDP socket's address on each end ("client;server"); TCP pings go
  // over the connection the client opened to the server's address.
  if (!tcp) inv.client_argv.push_back("--bind=" + ep.client_address + ";" + ep.server_address);
  if (tcp && spec.nodelay) inv.client_argv.push_back("--nodelay");
  // Unless told, it pins both ends to core 1 ("avoid core 0"): labgate places
  // nothing the profile did not ask for, so an unset end is "any".
  const auto core = [](const std::optional<int>& c) { return c ? std::to_string(*c) : std::string("any"); };
  inv.client_argv.push_back("--affinity=" + core(spec.cpu.client) + ";" + core(spec.cpu.server));
  inv.client_argv.insert(inv.client_argv.end(), {tcp ? "tcp" : "udp", ep.server_address});
}

}  // namespace

std::chrono::nanoseconds tool_client_timeout(const TestSpec& spec) {
  const auto total = spec.warmup + spec.duration;
  // Generous but bounded: a tool that outlives its run by this much is hung.
  return total + std::max<std::chrono::nanoseconds>(std::chrono::seconds(30), total / 5);
}

ToolInvocation build_invocation(const TestSpec& spec, const Endpoint& ep) {
  if (spec.kind == TestKind::kJitter)
    refuse(spec, "jitter tests run the built-in jitter probe, not an external tool");
  const bool multicast = spec.kind == TestKind::kUdpMulticast;
  if (multicast && spec.tool != Tool::kSockperf && spec.tool != Tool::kSfntPingpong)
    refuse(spec, std::string(profile::to_string(spec.tool)) +
                     " has no multicast mode; udp_multicast runs the built-in feed, sockperf or sfnt-pingpong");
  if (!profile::is_rr(spec.kind) && !profile::is_stream(spec.kind) && !multicast)
    refuse(spec, std::string("netperf, sockperf and iperf3 measure rr and stream kinds, not ") +
                     profile::to_string(spec.kind));
  if (ep.server_address.empty() || ep.client_address.empty())
    refuse(spec, "both hosts need a test_address for " + std::string(profile::to_string(spec.tool)));
  if (ep.port < 1 || ep.port > 65535)
    refuse(spec, "port " + std::to_string(ep.port) + " is not a TCP/UDP port");
  if (profile::is_ipv6(ep.server_address) != profile::is_ipv6(ep.client_address))
    refuse(spec, "the server's test address " + ep.server_address + " and the client's " + ep.client_address +
                     " are not of one family (IPv4 and IPv6 cannot talk to each other)");
  ToolInvocation inv;
  switch (spec.tool) {
    case Tool::kNetperf:
      netperf_command(spec, ep, inv);
      break;
    case Tool::kSockperf:
      sockperf_command(spec, ep, inv);
      break;
    case Tool::kIperf3:
      iperf3_command(spec, ep, inv);
      break;
    case Tool::kSfntPingpong:
      sfnt_pingpong_command(spec, ep, inv);
      break;
    case Tool::kBuiltin:
      refuse(spec, "tool = \"builtin\" runs labgate's own probes, not an external tool");
    case Tool::kSysbench:  // disk kinds: labgate/storage/sysbench_command.h
      refuse(spec, "sysbench runs the disk kinds; see labgate::storage::sysbench_commands");
  }
  // After the tool's own refusals (a kind it cannot run): what it would refuse, from
  // the table validate reads (labgate/profile/limits.h).
  // A tool's multicast ping-pong has its udp_rr's limits (the same sockets and messages).
  TestSpec limits = spec;
  if (multicast) limits.kind = TestKind::kUdpRr;
  for (const std::string& why : {profile::message_size_refusal(limits), profile::rate_refusal(limits)})
    if (!why.empty()) refuse(spec, why);
  // wrapper = "...": both ends run under it (a kernel-bypass launcher, numactl).
  const auto prefix = measure::launch_prefix(spec);
  inv.server_argv.insert(inv.server_argv.begin(), prefix.begin(), prefix.end());
  inv.client_argv.insert(inv.client_argv.begin(), prefix.begin(), prefix.end());
  if (!spec.wrapper.empty()) {
    std::string w;
    for (const auto& word : spec.wrapper) w += (w.empty() ? "" : " ") + word;
    inv.parameters["wrapper"] = w;
  }
  inv.client_timeout = tool_client_timeout(spec);
  inv.parameters["message_size"] = str(spec.message_size);
  inv.parameters["duration"] = units::format_duration(spec.duration);
  inv.parameters["server_address"] = ep.server_address;
  inv.parameters["client_address"] = ep.client_address;
  inv.parameters["port"] = std::to_string(ep.port);
  if (spec.cpu.client) inv.parameters["cpu.client"] = std::to_string(*spec.cpu.client);
  if (spec.cpu.server) inv.parameters["cpu.server"] = std::to_string(*spec.cpu.server);
  if (spec.socket_buffer) inv.parameters["socket_buffer"] = str(*spec.socket_buffer);
  if (spec.congestion) inv.parameters["congestion"] = *spec.congestion;
  return inv;
}

}  // namespace labgate::tools

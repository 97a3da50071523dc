// udp_multicast run by sockperf or sfnt-pingpong (issue 24): their own multicast
// ping-pong between the publisher (the tool's client) and one subscriber (its
// server). Profile validation allows one subscriber only (load_multicast.cc says
// why, sockperf issue #220).
#include <algorithm>
#include <cmath>

#include "labgate/profile/test_address.h"
#include "tool_command_parts.h"

namespace labgate::tools::detail {

namespace {

std::string ms_of(std::chrono::nanoseconds d) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

void group_parameters(const profile::TestSpec& spec, ToolInvocation& inv, const std::string& path) {
  inv.parameters["multicast.group"] = spec.multicast.group + ":" + std::to_string(spec.multicast.port);
  inv.parameters["multicast.ttl"] = std::to_string(spec.multicast.ttl);
  inv.parameters["multicast.path"] = path;
}

}  // namespace

void sockperf_multicast_command(const profile::TestSpec& spec, const Endpoint& ep, ToolInvocation& inv) {
  if (profile::is_ipv6(ep.server_address))
    refuse(spec, "udp_multicast is IPv4 (a 224.0.0.0/4 group); the test addresses are IPv6");
  const profile::MulticastParams& mc = spec.multicast;
  const std::string program = spec.tool_path.value_or("sockperf");
  const std::string port = std::to_string(mc.port), ttl = std::to_string(mc.ttl);
  inv.server_protocol = "udp";
  // sr binds the group's address and port and joins it, then says it blocks.
  inv.server_ready_line = "to block on socket(s)";
  inv.listen_address = mc.group;
  inv.listen_port = mc.port;
  // Each end joins, sends and receives on its own test address's interface
  // (--mc-rx-if/--mc-tx-if), not wherever the route table points 224.0.0.0/4.
  inv.server_argv = {program,        "sr", "-i",           mc.group, "-p",       port, "--mc-rx-if",
                     ep.server_address, "--mc-tx-if", ep.server_address, "--mc-ttl", ttl};
  const long secs = whole_seconds(spec, spec.duration, "duration", inv);
  inv.client_argv = {program,      "pp",        "-i",  mc.group,        "-p", port,
                     "--mc-rx-if", ep.client_address, "--mc-tx-if", ep.client_address, "--mc-ttl", ttl,
                     "-m",         std::to_string(spec.message_size), "-t", std::to_string(secs), "--full-rtt"};
  if (spec.socket_buffer)
    for (auto* argv : {&inv.server_argv, &inv.client_argv})
      argv->insert(argv->end(), {"--buffer-size", std::to_string(*spec.socket_buffer)});
  if (mc.source) {
    // SSM: the subscriber takes the feed from the publisher only, the publisher
    // the answers (sent to the group) from the subscriber only.
    inv.server_argv.insert(inv.server_argv.end(), {"--mc-source-filter", *mc.source});
    inv.client_argv.insert(inv.client_argv.end(), {"--mc-source-filter", ep.server_address});
    inv.parameters["multicast.source"] = *mc.source;
  }
  sockperf_pace_and_warmup(spec, inv);
  group_parameters(spec, inv,
                   "round trip through the group both ways: sockperf's subscriber (sr) answers each ping to the "
                   "group (its default), the publisher (pp) joined it to hear the answer");
}

void sfnt_multicast_command(const profile::TestSpec& spec, const Endpoint& ep, ToolInvocation& inv) {
  if (profile::is_ipv6(ep.server_address))
    refuse(spec, "udp_multicast is IPv4 (a 224.0.0.0/4 group); the test addresses are IPv6");
  const profile::MulticastParams& mc = spec.multicast;
  const std::string program = spec.tool_path.value_or("sfnt-pingpong");
  // The server listens for its one client's TCP control connection (on the
  // wildcard address, the port labgate chose), then both join the group.
  inv.server_protocol = "tcp";
  const std::string port = std::to_string(ep.port);
  inv.server_argv = {program, "--port", port};
  const auto secs = std::chrono::duration<double>(spec.duration).count();
  const auto maxiter = std::max<long long>(1000000, std::llround(std::ceil(secs * 1e6)));
  // As its udp_rr (tool_commands.cc says why each option), with --mcast and
  // --mcastintf in place of --bind: a socket bound to a unicast address would
  // not receive the group's datagrams.
  inv.client_argv = {program,     "--port",     port,          "--sizes",
                     std::to_string(spec.message_size),        "--minms", ms_of(spec.duration),
                     "--maxms",   ms_of(spec.duration),        "--maxiter", std::to_string(maxiter),
                     "--warmupms", ms_of(spec.warmup),         "--rtt",   "--timeout",
                     "5",         "--mcast",    mc.group,      "--mcastintf=" + ep.client_address + ";" + ep.server_address,
                     "--ttl",     std::to_string(mc.ttl),      "--affinity=any;any",
                     "udp",       ep.server_address};
  inv.warnings.push_back("sfnt-pingpong's multicast ping-pong binds the group on ports of its own choosing (one "
                         "each end); the profile's group port " +
                         std::to_string(mc.port) + " is not used");
  group_parameters(spec, inv,
                   "round trip through the group both ways: sfnt-pingpong's client and server both join the "
                   "group and each sends to the other's port on it");
}

}  // namespace labgate::tools::detail

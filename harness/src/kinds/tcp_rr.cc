// kind = "tcp_rr": a TCP request/response ping-pong from `from` to `to`'s test
// address (or a mesh's pairs): a round trip per message, its latency figures
// (one-way delay too, from the built-in pingpong), the hosts' counters around it.
// What it shares with the other tcp/udp kinds (keys, tools, probe, runner) is
// kinds/socket_kind.cc; the probe's and tools' commands and the tools' parsers
// ask its traits (is_rr, is_stream, is_tcp).
#include "kinds/socket_kind.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::Tool;

// The latencies only: TCP resends a lost segment, so no request goes missing.
bool tcp_rr_produces(Tool tool, Stat stat) {
  return socket_reports(tool, stat, Exchange::kRoundTrip, false);
}

constexpr SocketKind kTcpRrKind{
    .kind = profile::TestKind::kTcpRr,
    .name = "tcp_rr",
    .exchange = Exchange::kRoundTrip,
    .transport = Transport::kTcp,
    .produces = tcp_rr_produces,
    .suite = "Latency",
    .label = "latency",
};

const profile::KindRegistration kTcpRrTraits{socket_traits(kTcpRrKind)};
#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
const gate::RunnerRegistration kTcpRrRunner{socket_runner(kTcpRrKind)};
#endif

}  // namespace
}  // namespace labgate::kinds

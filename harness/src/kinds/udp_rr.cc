// kind = "udp_rr": a UDP request/response ping-pong from `from` to `to`'s test
// address (or a mesh's pairs): a round trip per message, its latency figures
// (one-way delay too, from the built-in pingpong), the requests or replies lost,
// the hosts' counters around it.
// What it shares with the other tcp/udp kinds (keys, tools, probe, runner) is
// kinds/socket_kind.cc; the probe's and tools' commands and the tools' parsers
// ask its traits (is_rr, is_stream, is_tcp).
#include "kinds/socket_kind.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::Tool;

// The latencies and `dropped`: a UDP request or its reply can be lost.
bool udp_rr_produces(Tool tool, Stat stat) {
  return socket_reports(tool, stat, Exchange::kRoundTrip, stat == Stat::kDropped);
}

constexpr SocketKind kUdpRrKind{
    .kind = profile::TestKind::kUdpRr,
    .name = "udp_rr",
    .exchange = Exchange::kRoundTrip,
    .transport = Transport::kUdp,
    .produces = udp_rr_produces,
    .suite = "Latency",
    .label = "latency",
};

const profile::KindRegistration kUdpRrTraits{socket_traits(kUdpRrKind)};
#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
const gate::RunnerRegistration kUdpRrRunner{socket_runner(kUdpRrKind)};
#endif

}  // namespace
}  // namespace labgate::kinds

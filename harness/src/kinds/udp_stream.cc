// kind = "udp_stream": one-way bulk datagrams from `from` to `to`'s test address
// (or a mesh's pairs): the throughput the receiver counted, the datagrams it
// never got, each send's time, the hosts' counters around it.
// What it shares with the other tcp/udp kinds (keys, tools, probe, runner) is
// kinds/socket_kind.cc; the probe's and tools' commands and the tools' parsers
// ask its traits (is_rr, is_stream, is_tcp).
#include "kinds/socket_kind.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::Tool;

// The throughput and the datagrams lost beside the send times.
bool udp_stream_produces(Tool tool, Stat stat) {
  return socket_reports(tool, stat, Exchange::kBulk, stat == Stat::kMinThroughput || stat == Stat::kMaxLoss);
}

constexpr SocketKind kUdpStreamKind{
    .kind = profile::TestKind::kUdpStream,
    .name = "udp_stream",
    .exchange = Exchange::kBulk,
    .transport = Transport::kUdp,
    .produces = udp_stream_produces,
    .suite = "Throughput",
    .label = "throughput",
};

const profile::KindRegistration kUdpStreamTraits{socket_traits(kUdpStreamKind)};
#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
const gate::RunnerRegistration kUdpStreamRunner{socket_runner(kUdpStreamKind)};
#endif

}  // namespace
}  // namespace labgate::kinds

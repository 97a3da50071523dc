// kind = "tcp_stream": one-way bulk sends over a TCP connection from `from` to
// `to`'s test address (or a mesh's pairs): the throughput the receiver counted,
// each send's time, the hosts' counters around it; buffers_cover_bdp is judged
// on it (bdp_rule.h: a TCP stream, by these traits).
// What it shares with the other tcp/udp kinds (keys, tools, probe, runner) is
// kinds/socket_kind.cc; the probe's and tools' commands and the tools' parsers
// ask its traits (is_rr, is_stream, is_tcp).
#include "kinds/socket_kind.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::Tool;

// The throughput beside the send times.
bool tcp_stream_produces(Tool tool, Stat stat) {
  return socket_reports(tool, stat, Exchange::kBulk, stat == Stat::kMinThroughput);
}

constexpr SocketKind kTcpStreamKind{
    .kind = profile::TestKind::kTcpStream,
    .name = "tcp_stream",
    .exchange = Exchange::kBulk,
    .transport = Transport::kTcp,
    .produces = tcp_stream_produces,
    .suite = "Throughput",
    .label = "throughput",
};

const profile::KindRegistration kTcpStreamTraits{socket_traits(kTcpStreamKind)};
#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
const gate::RunnerRegistration kTcpStreamRunner{socket_runner(kTcpStreamKind)};
#endif

}  // namespace
}  // namespace labgate::kinds

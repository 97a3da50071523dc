// What the four tcp/udp kinds (tcp_rr, udp_rr, tcp_stream, udp_stream) share,
// written once: the keys they take, the tools that run them and the statistics
// those report, their probe, "measuring" line and runner (the built-in probes or
// a tool, with both hosts' counters around it). Each kind's own file
// (kinds/tcp_rr.cc, ...) says what is its own in a SocketKind and registers it.
#pragma once

#include "labgate/profile/kind_traits.h"
#include "labgate/profile/test_spec.h"
#ifndef LABGATE_PROFILE_ONLY
#include "labgate/gate/kind_runner.h"
#endif

namespace labgate::kinds {

/// What passes between the two hosts: a round trip per message (the pingpong
/// probe; sockperf, sfnt-pingpong) or one-way bulk sends (the stream probe; iperf3).
enum class Exchange { kRoundTrip, kBulk };
enum class Transport { kTcp, kUdp };

/// What one tcp/udp kind is, beyond what they share.
struct SocketKind {
  profile::TestKind kind;
  const char* name;  ///< the profile's spelling: "tcp_rr"
  Exchange exchange;
  Transport transport;
  /// Which statistics `tool` reports for it: socket_reports with its own figures.
  bool (*produces)(profile::Tool, profile::Stat);
  const char* suite;  ///< the GoogleTest suite: "Latency"
  const char* label;  ///< the CTest label and `labgate run -L` name: "latency"
};

/// Whether `tool` reports `stat` for a tcp/udp kind whose own figures beyond the
/// latencies and counters include `stat` when `own` (udp_rr: dropped; the
/// streams: min_throughput, udp's max_loss).
bool socket_reports(profile::Tool tool, profile::Stat stat, Exchange e, bool own);

/// Its profile traits: the shared keys (a round trip's outlier, full_log and
/// one-way keys, TCP's nodelay and congestion), its tools, its probe.
profile::KindTraits socket_traits(const SocketKind& k);

#ifndef LABGATE_PROFILE_ONLY
/// Its runner: suite and label, the probes' "measuring" line, one case per pair
/// measured by the built-in probes or the tool between both hosts' counters.
gate::KindRunner socket_runner(const SocketKind& k);
#endif

}  // namespace labgate::kinds

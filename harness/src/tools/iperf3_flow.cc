// One iperf3 flow -> Measurement: the same figures whether -J or a text log
// said them, and the direction the data really went.
#include <cstdio>

#include "iperf3_parts.h"
#include "labgate/tools/parsers.h"
#include "sockperf_parts.h"

namespace labgate::tools {

bool sent_by_server(const measure::Measurement& m) {
  const auto it = m.parameters.find(kDirectionKey);
  return it != m.parameters.end() && it->second == kSentByServer;
}

namespace iperf3 {

bool known_version(const std::string& printed) {
  // "iperf 3.12", "iperf 3.21": the digits after the last space.
  const auto v = sockperf::parse_version(printed.substr(printed.rfind(' ') + 1));
  return v && v->major == 3 && v->minor <= 21;
}

measure::Measurement to_measurement(const Run& run, const Flow& f) {
  measure::Measurement m;
  m.source = "iperf3";
  m.kind = profile::to_string(f.kind);
  m.metric = measure::Metric::kSendTime;
  m.parameters = run.parameters;
  m.parameters["tool"] = "iperf3";
  m.parameters["latency"] = "none: iperf3 measures throughput and loss, not per-message latency";
  m.parameters["iperf3.read_from"] = run.read_from;
  if (run.version) m.parameters["iperf3.version"] = *run.version;
  if (run.timesecs) m.parameters["iperf3.timesecs"] = *run.timesecs;
  if (run.blksize) m.parameters["message_size"] = *run.blksize;
  m.parameters["iperf3.num_streams"] = std::to_string(f.streams);
  m.parameters[kDirectionKey] = f.sent_by_server ? kSentByServer : kSentByClient;
  if (f.bidir)
    m.parameters["iperf3.bidir"] =
        "one of the two directions of a --bidir run, each recorded as its own pair";
  m.warmup_s = run.omit_s;
  m.parameters["warmup"] = "iperf3 --omit: the first seconds are sent but not counted";
  m.warnings = f.warnings;
  m.throughput_bps = f.received_bps;
  m.duration_s = f.seconds.value_or(0);
  if (f.sent_bps) m.parameters["iperf3.sender_bps"] = std::to_string(*f.sent_bps);
  if (f.retransmits) {
    m.reported["retransmits"] = *f.retransmits;
    m.parameters["iperf3.retransmits"] = std::to_string(static_cast<long long>(*f.retransmits));
  }
  // The kernel's smoothed TCP RTT estimate, kept for context only: it is not a per-message round trip.
  if (f.srtt_us) m.parameters["iperf3.tcp_srtt_mean_us"] = std::to_string(static_cast<long long>(*f.srtt_us));
  if (!profile::is_tcp(f.kind)) {  // a UDP stream's receiver counts loss and jitter
    m.parameters["iperf3.jitter"] = "RFC 3550 interarrival jitter at the receiver, in reported.jitter (ns)";
    if (f.jitter_ms) m.reported["jitter"] = *f.jitter_ms * 1e6;
    if (f.packets && f.lost) {
      m.counts_drops = true;  // iperf3's receiver counts missing sequence numbers
      m.sent = static_cast<std::uint64_t>(*f.packets);
      m.dropped = static_cast<std::uint64_t>(*f.lost);
      m.received = m.sent > m.dropped ? m.sent - m.dropped : 0;
      if (*f.packets > 0)
        m.loss_fraction = *f.lost / *f.packets;
      else if (f.lost_percent)
        m.loss_fraction = *f.lost_percent / 100.0;
    }
    m.out_of_order = f.out_of_order;
  }
  // Sample accounting for a stream: the intervals iperf3 reported must cover the
  // time it says it measured (a stalled or cut-short run reports fewer).
  // Both on the client's clock: the summary's other time is the server's
  // (client_time_is_senders), so it is the expectation only when nothing else is said.
  const double timed = f.client_seconds.value_or(m.duration_s);
  if (f.covered_s && timed > 0) {
    measure::SampleExpectation e;
    e.expected = timed;
    e.held = std::min(*f.covered_s, timed * 2);
    char buf[192];
    if (f.client_seconds)
      std::snprintf(buf, sizeof buf,
                    "seconds of intervals: the client's %.3f s as %s, its %zu intervals cover %.3f s", timed,
                    client_time_is_senders(f.sent_by_server, f.bidir) ? "sender" : "receiver", f.intervals,
                    *f.covered_s);
    else
      std::snprintf(buf, sizeof buf, "seconds of intervals: %.3f s measured, its %zu intervals cover %.3f s",
                    timed, f.intervals, *f.covered_s);
    e.basis = buf;
    e.shortfall_means = "iperf3 reported no interval for part of the run (it stalled or was cut short)";
    m.expectation = e;
  }
  return m;
}

}  // namespace iperf3
}  // namespace labgate::tools

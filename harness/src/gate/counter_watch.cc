// Counters around one case: snapshots on both hosts, deltas into the measurements.
#include "labgate/gate/counter_watch.h"

#include <chrono>

namespace labgate::gate {

using namespace std::chrono_literals;

bool watches_counters(profile::TestKind kind) {
  return profile::is_rr(kind) || profile::is_stream(kind) || kind == profile::TestKind::kPingFlood;
}

std::vector<std::string> unbudgeted_trouble(const counters::Delta& d, const profile::TestSpec& spec) {
  // A bounded figure is judged by its budget, so it is no warning here.
  counters::Delta rest = d;
  if (spec.find_bound(profile::Stat::kMaxRetransmits)) rest.retransmits.reset();
  if (spec.find_bound(profile::Stat::kMaxRxDrops)) rest.rx_drops = 0;
  if (spec.find_bound(profile::Stat::kMaxRxErrors)) rest.rx_errors = 0;
  if (spec.find_bound(profile::Stat::kMaxUdpRcvbufErrors)) rest.udp_rcvbuf_errors.reset();
  std::vector<std::string> out;
  for (const auto& line : counters::trouble(rest)) out.push_back("counters: " + line + " during the test");
  return out;
}

CounterWatch::CounterWatch(GateSession& session, const TestCase& c) : session_(session), case_(c) {
  for (const std::string& host : {c.client, c.server}) {
    if (host.empty()) continue;
    Side s;
    s.host = host;
    s.before = take(host, s.raw_before, s.error);
    sides_.push_back(std::move(s));
  }
}

std::optional<counters::Snapshot> CounterWatch::take(const std::string& host, std::string& raw,
                                                     std::string& error) {
  const auto argv = counters::snapshot_command();
  try {
    transport::RunOptions o;
    o.timeout = 10s;
    const auto r = session_.transport(host).run(argv, o);
    raw = r.out;
    if (!r.ok()) {
      error = "host " + host + ": cat /proc/net/{snmp,netstat,dev}: " + r.describe() + ": " +
              r.err.substr(0, 200);
      return std::nullopt;
    }
    return counters::parse_snapshot(r.out, "counters on " + host);
  } catch (const std::exception& e) {
    error = "host " + host + ": reading network counters: " + e.what();
    return std::nullopt;
  }
}

void CounterWatch::finish(CaseRun& run) {
  for (Side& s : sides_) {
    std::string raw_after, error = s.error;
    std::optional<counters::Snapshot> after;
    if (s.before) after = take(s.host, raw_after, error);
    run.raw_files.emplace_back("counters-" + s.host + "-before.txt", s.raw_before);
    run.raw_files.emplace_back("counters-" + s.host + "-after.txt", raw_after);
    for (auto& m : run.measurements) {
      if (!after) {
        m.warnings.push_back("counters not measured: " + error);
        continue;
      }
      counters::Delta d = counters::delta(*s.before, *after);
      d.host = s.host;
      counters::add_to_measurement(d, m);
      for (const auto& w : unbudgeted_trouble(d, *case_.spec)) m.warnings.push_back(w);
    }
  }
}

}  // namespace labgate::gate

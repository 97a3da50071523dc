// What the tcp/udp kinds share (see socket_kind.h).
#include "kinds/socket_kind.h"

#include <cmath>

#ifndef LABGATE_PROFILE_ONLY
#include "labgate/gate/bdp_rule.h"
#include "labgate/gate/case_runner.h"
#include "labgate/gate/congestion_check.h"
#include "labgate/gate/counter_watch.h"
#include "labgate/gate/kinds.h"
#include "labgate/util/units.h"
#endif

namespace labgate::kinds {

using profile::Stat;
using profile::Tool;

namespace {

// --- In a profile ---

std::vector<std::string> socket_keys(Exchange e, Transport t) {
  std::vector<std::string> keys{"from",    "to",        "pairs", "directions",    "hosts",   "mesh_schedule",
                                "message_size", "rate", "port",  "busy_poll",     "cpu",     "socket_buffer",
                                "wrapper", "preload",   "warmup", "interval",     "duration"};
  if (e == Exchange::kRoundTrip) keys.insert(keys.end(), {"outlier", "full_log", "one_way_max_error"});
  if (t == Transport::kTcp) keys.insert(keys.end(), {"nodelay", "congestion"});
  return keys;
}

// Every tool but sysbench runs a round trip or a stream, each its own.
bool round_trip_tool(Tool tool) {
  return tool == Tool::kBuiltin || tool == Tool::kNetperf || tool == Tool::kSockperf || tool == Tool::kSfntPingpong;
}
bool bulk_tool(Tool tool) { return tool == Tool::kBuiltin || tool == Tool::kNetperf || tool == Tool::kIperf3; }

// netperf's omni output has P50/P90/P99, mean, stddev and max latency; no finer tail.
bool netperf_latency(Stat s) {
  return s == Stat::kP50 || s == Stat::kP90 || s == Stat::kP99 || s == Stat::kMax || s == Stat::kMean ||
         s == Stat::kStddev;
}

#ifndef LABGATE_PROFILE_ONLY
// --- In a gate run ---

std::string paced_measuring(const profile::TestSpec& t, const char* unpaced) {
  if (t.tool != Tool::kBuiltin) return "";  // the tool's own wording (gate/kinds.cc)
  const std::string how =
      t.rate_per_sec ? "open loop at " + std::to_string(std::llround(*t.rate_per_sec)) + "/s" : unpaced;
  return "measuring for " + units::format_duration(t.duration) + gate::excluded_warmup(t) + ", " + how;
}
std::string round_trip_measuring(const profile::TestSpec& t) { return paced_measuring(t, "closed loop"); }
// A stream without a rate is neither loop: it sends as fast as the socket takes.
std::string bulk_measuring(const profile::TestSpec& t) {
  return paced_measuring(t, "unpaced (as fast as the socket takes)");
}

gate::CaseRun run_socket_case(gate::GateSession& session, const gate::TestCase& c, gate::CaseRun& run) {
  gate::check_congestion(session, c);
  if (c.spec->tool == Tool::kBuiltin) {
    gate::run_builtin_pair(session, c, run);  // reads the counters in its own commands
  } else {
    gate::CounterWatch watch(session, c);  // both hosts' /proc counters around the tool's run
    gate::run_tool_case(session, c, run);
    watch.finish(run);
  }
  if (gate::judges_bdp(session.profile(), c)) gate::judge_bdp(session, c, run);  // a TCP stream's
  return run;
}
#endif

}  // namespace

bool socket_reports(Tool tool, Stat stat, Exchange e, bool own) {
  const bool rr = e == Exchange::kRoundTrip;
  if (profile::is_counter(stat)) return true;  // from /proc snapshots around the run, whoever measures
  // Only the built-in pingpong stamps its replies with the server's clock.
  if (profile::is_one_way(stat)) return tool == Tool::kBuiltin && rr;
  // What the kind can report at all, whoever measures it.
  if (!profile::is_latency(stat) && !own) return false;
  switch (tool) {
    case Tool::kBuiltin:
      return true;  // per-message times, drops, throughput and loss
    case Tool::kSockperf:
      return true;  // rr only: full percentiles; udp_rr dropped messages
    case Tool::kIperf3:
      return !profile::is_latency(stat);  // throughput and loss, no latency
    case Tool::kNetperf:
      // rr: latency only (a UDP_RR drop stalls the test rather than being counted);
      // stream: throughput, and loss from UDP_STREAM's sent vs received messages.
      return rr ? netperf_latency(stat) : !profile::is_latency(stat);
    case Tool::kSysbench:
      return false;  // disk kinds only
    case Tool::kSfntPingpong:
      // Its table: mean, min, median, max, its one percentile (labgate runs the
      // default, 99) and stddev; it counts no drops (a lost UDP ping stalls it).
      return stat == Stat::kP50 || stat == Stat::kP99 || stat == Stat::kMax || stat == Stat::kMean ||
             stat == Stat::kStddev;
  }
  return false;
}

profile::KindTraits socket_traits(const SocketKind& k) {
  const bool rr = k.exchange == Exchange::kRoundTrip;
  return {
      .kind = k.kind,
      .name = k.name,
      .probe = rr ? "pingpong" : "stream",
      .takes = socket_keys(k.exchange, k.transport),
      .own = {},  // every key it takes is shared
      .refuses = {},
      .series = true,  // a measured series: warm-up and interval checked against the duration
      .tool_runs = rr ? round_trip_tool : bulk_tool,
      .produces = k.produces,
      .between_hosts = true,
      .round_trip = rr,
      .bulk = !rr,
      .tcp = k.transport == Transport::kTcp,
  };
}

#ifndef LABGATE_PROFILE_ONLY
gate::KindRunner socket_runner(const SocketKind& k) {
  return {
      .kind = k.kind,
      .suite = k.suite,
      .label = k.label,
      .measuring = k.exchange == Exchange::kRoundTrip ? round_trip_measuring : bulk_measuring,
      .expand = nullptr,  // one case per (from, to) pair or mesh pair
      .run = run_socket_case,
      .watches_counters = true,  // both hosts' /proc counters around each case
  };
}
#endif

}  // namespace labgate::kinds

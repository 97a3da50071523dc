// The kinds table and what each kind's runner does while it measures.
#include "labgate/gate/kinds.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "labgate/util/units.h"

namespace labgate::gate {
namespace {

using profile::TestKind;
using profile::Tool;

std::string seconds(profile::Nanos d) { return units::format_duration(d); }

std::string warmup_part(const profile::TestSpec& t) {
  return t.warmup.count() > 0 ? " after a " + seconds(t.warmup) + " warm-up (excluded)" : " (no warm-up)";
}

}  // namespace

KindInfo kind_info(TestKind k) {
  switch (k) {
    case TestKind::kTcpRr:
    case TestKind::kUdpRr: return {"Latency", "latency"};
    case TestKind::kTcpStream:
    case TestKind::kUdpStream: return {"Throughput", "throughput"};
    case TestKind::kJitter: return {"Jitter", "jitter"};
    case TestKind::kPathMtu:
    case TestKind::kPingFlood: return {"Network", "network"};
    case TestKind::kCommand: return {"Command", "command"};
    case TestKind::kDiskRandomRead:
    case TestKind::kDiskRandomWrite:
    case TestKind::kDiskRandomRw: return {"Storage", "storage"};
    case TestKind::kUdpMulticast:
      return {"Multicast", "multicast"};
  }
  return {"Latency", "latency"};
}

const std::vector<std::string>& all_labels() {
  static const std::vector<std::string> labels{"preconditions", "latency", "throughput", "jitter",
                                               "network",       "command", "storage",    "multicast"};
  return labels;
}

std::string measuring_description(const profile::TestSpec& t) {
  switch (t.kind) {
    case TestKind::kPathMtu:
      return "probing the largest packet that passes with Don't Fragment, both directions (mtu " +
             (t.mtu ? std::to_string(*t.mtu) : std::string("not set")) + ")";
    case TestKind::kPingFlood:
      return "ping -f -c " + std::to_string(t.ping.count) + " -s " + std::to_string(t.ping.size) +
             " (a count, no deadline of labgate's; ping's own figures)";
    case TestKind::kCommand:
      return t.command.count ? "running the command " + std::to_string(*t.command.count) +
                                   " times (each bounded by " + seconds(t.command.timeout) + ")"
                             : "running the command repeatedly for " + seconds(t.duration) + " (each bounded by " +
                                   seconds(t.command.timeout) + ")";
    case TestKind::kUdpMulticast:
      if (t.tool != Tool::kBuiltin) break;  // a tool's multicast ping-pong: as its udp_rr, below
      return "publishing to " + t.multicast.group + ":" + std::to_string(t.multicast.port) + " for " +
             seconds(t.duration) + warmup_part(t) + " at " +
             std::to_string(std::llround(t.rate_per_sec.value_or(0))) + "/s to " +
             std::to_string(t.multicast.subscribers.size()) + " subscriber(s), each answering 1 in " +
             std::to_string(t.multicast.reply_every);
    default: break;
  }
  switch (t.tool) {
    case Tool::kNetperf:
      return "netperf for " + seconds(t.duration) +
             " by netperf's own clock (netperf has no warm-up exclusion; its -k figures are the figures)";
    case Tool::kSockperf:
      // sockperf 3.x: -t is its whole run, of which it leaves out the first 400 ms
      // and the last 50 ms; before every run it sleeps 2 s (tools/tool_time.h).
      return "sockperf for " + seconds(t.duration) +
             " by sockperf's own clock, its first 400 ms its own warm-up and its last 50 ms its "
             "cool-down (the profile's warm-up is not applied), after the fixed 2-s pause sockperf "
             "takes before every run";
    case Tool::kSfntPingpong:
      return "sfnt-pingpong for " + seconds(t.duration) + " by its own clock (--minms/--maxms) after " +
             (t.warmup.count() > 0 ? "a " + seconds(t.warmup) : std::string("its default 500 ms")) +
             " warm-up of 1-byte pings it leaves out (--warmupms), closed loop";
    case Tool::kIperf3: {
      const auto whole = std::chrono::ceil<std::chrono::seconds>(t.warmup);
      return "iperf3 for " + seconds(t.duration) + " by iperf3's own clock" +
             (whole.count() > 0
                  ? " after a " + seconds(whole) + " warm-up it sends but does not count (--omit)"
                  : std::string(" (no warm-up)")) +
             " (throughput and loss only)";
    }
    case Tool::kSysbench:
      return "sysbench fileio for " + seconds(t.duration) + " (its own timing)";
    case Tool::kBuiltin: break;
  }
  if (t.kind == TestKind::kJitter) return "spinning on the clock for " + seconds(t.duration) + warmup_part(t);
  if (profile::is_disk(t.kind)) return "random I/O for " + seconds(t.duration) + warmup_part(t);
  // A stream without a rate is neither loop: it sends as fast as the socket takes.
  std::string how = t.rate_per_sec ? "open loop at " + std::to_string(std::llround(*t.rate_per_sec)) + "/s"
                    : profile::is_stream(t.kind) ? "unpaced (as fast as the socket takes)"
                                                 : "closed loop";
  return "measuring for " + seconds(t.duration) + warmup_part(t) + ", " + how;
}

}  // namespace labgate::gate

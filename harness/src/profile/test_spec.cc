// Spellings of the test enums, and the tables of which tool runs which kind and
// which statistics each (tool, kind) reports.
#include "labgate/profile/test_spec.h"

#include <array>

#include "labgate/profile/kind_traits.h"

namespace labgate::profile {
namespace {

constexpr std::array<TestKind, 12> kKinds{
    TestKind::kTcpRr,          TestKind::kUdpRr,           TestKind::kTcpStream,    TestKind::kUdpStream,
    TestKind::kJitter,         TestKind::kPathMtu,         TestKind::kPingFlood,    TestKind::kCommand,
    TestKind::kDiskRandomRead, TestKind::kDiskRandomWrite, TestKind::kDiskRandomRw, TestKind::kUdpMulticast};
constexpr std::array<Tool, 6> kTools{Tool::kBuiltin, Tool::kNetperf,  Tool::kSockperf,
                                     Tool::kIperf3,  Tool::kSysbench, Tool::kSfntPingpong};
constexpr std::array<Stat, 25> kStats{Stat::kP50,
                                      Stat::kP90,
                                      Stat::kP99,
                                      Stat::kP99_9,
                                      Stat::kP99_99,
                                      Stat::kMax,
                                      Stat::kMean,
                                      Stat::kStddev,
                                      Stat::kDropped,
                                      Stat::kMinThroughput,
                                      Stat::kMaxLoss,
                                      Stat::kMdev,
                                      Stat::kMinIops,
                                      Stat::kMaxFailures,
                                      Stat::kMaxRetransmits,
                                      Stat::kMaxRxDrops,
                                      Stat::kMaxRxErrors,
                                      Stat::kMaxUdpRcvbufErrors,
                                      Stat::kMaxGap,
                                      Stat::kOneWayP50Forward,
                                      Stat::kOneWayP99Forward,
                                      Stat::kOneWayMaxForward,
                                      Stat::kOneWayP50Reverse,
                                      Stat::kOneWayP99Reverse,
                                      Stat::kOneWayMaxReverse};

template <typename E, std::size_t N>
std::optional<E> parse_by_name(std::string_view s, const std::array<E, N>& all) {
  for (E e : all)
    if (s == to_string(e)) return e;
  return std::nullopt;
}

// netperf's omni output has P50/P90/P99, mean, stddev and max latency; no finer tail.
bool netperf_latency(Stat s) {
  return s == Stat::kP50 || s == Stat::kP90 || s == Stat::kP99 || s == Stat::kMax || s == Stat::kMean ||
         s == Stat::kStddev;
}

}  // namespace

// mdev is ping's own figure, not a histogram's; the one-way figures are the one-way record's.
bool is_latency(Stat s) { return unit_of(s) == StatUnit::kNanos && s != Stat::kMdev && !is_one_way(s); }

const char* to_string(TestKind k) {
  if (const KindTraits* t = find_kind(k)) return t->name;
  switch (k) {
    case TestKind::kTcpRr:
      return "tcp_rr";
    case TestKind::kUdpRr:
      return "udp_rr";
    case TestKind::kTcpStream:
      return "tcp_stream";
    case TestKind::kUdpStream:
      return "udp_stream";
    default:  // the kinds of harness/src/kinds/ (above); unregistered: the kinds test fails
      break;
  }
  return "?";
}

const char* to_string(MeshSchedule s) {
  return s == MeshSchedule::kDisjoint ? "disjoint" : "sequential";
}

const char* to_string(Tool t) {
  switch (t) {
    case Tool::kBuiltin:
      return "builtin";
    case Tool::kNetperf:
      return "netperf";
    case Tool::kSockperf:
      return "sockperf";
    case Tool::kIperf3:
      return "iperf3";
    case Tool::kSysbench:
      return "sysbench";
    case Tool::kSfntPingpong:
      return "sfnt-pingpong";
  }
  return "?";
}

const char* to_string(Stat s) {
  switch (s) {
    case Stat::kP50:
      return "p50";
    case Stat::kP90:
      return "p90";
    case Stat::kP99:
      return "p99";
    case Stat::kP99_9:
      return "p99_9";
    case Stat::kP99_99:
      return "p99_99";
    case Stat::kMax:
      return "max";
    case Stat::kMean:
      return "mean";
    case Stat::kStddev:
      return "stddev";
    case Stat::kDropped:
      return "dropped";
    case Stat::kMinThroughput:
      return "min_throughput";
    case Stat::kMaxLoss:
      return "max_loss";
    case Stat::kMdev:
      return "mdev";
    case Stat::kMinIops:
      return "min_iops";
    case Stat::kMaxFailures:
      return "max_failures";
    case Stat::kMaxRetransmits:
      return "max_retransmits";
    case Stat::kMaxRxDrops:
      return "max_rx_drops";
    case Stat::kMaxRxErrors:
      return "max_rx_errors";
    case Stat::kMaxUdpRcvbufErrors:
      return "max_udp_rcvbuf_errors";
    case Stat::kMaxGap:
      return "max_gap";
    case Stat::kOneWayP50Forward:
      return "one_way_p50_forward";
    case Stat::kOneWayP99Forward:
      return "one_way_p99_forward";
    case Stat::kOneWayMaxForward:
      return "one_way_max_forward";
    case Stat::kOneWayP50Reverse:
      return "one_way_p50_reverse";
    case Stat::kOneWayP99Reverse:
      return "one_way_p99_reverse";
    case Stat::kOneWayMaxReverse:
      return "one_way_max_reverse";
  }
  return "?";
}

std::optional<TestKind> parse_test_kind(std::string_view s) { return parse_by_name(s, kKinds); }
std::optional<Tool> parse_tool(std::string_view s) { return parse_by_name(s, kTools); }
std::optional<Stat> parse_stat(std::string_view s) { return parse_by_name(s, kStats); }

std::span<const TestKind> all_test_kinds() { return kKinds; }
std::span<const Tool> all_tools() { return kTools; }
std::span<const Stat> all_stats() { return kStats; }

StatUnit unit_of(Stat s) {
  switch (s) {
    case Stat::kDropped:
    case Stat::kMinIops:
    case Stat::kMaxFailures:
    case Stat::kMaxRetransmits:
    case Stat::kMaxRxDrops:
    case Stat::kMaxRxErrors:
    case Stat::kMaxUdpRcvbufErrors:
    case Stat::kMaxGap:
      return StatUnit::kCount;
    case Stat::kMinThroughput:
      return StatUnit::kBitsPerSec;
    case Stat::kMaxLoss:
      return StatUnit::kFraction;
    default:
      return StatUnit::kNanos;
  }
}

bool is_floor(Stat s) { return s == Stat::kMinThroughput || s == Stat::kMinIops; }
bool is_counter(Stat s) {
  return s == Stat::kMaxRetransmits || s == Stat::kMaxRxDrops || s == Stat::kMaxRxErrors ||
         s == Stat::kMaxUdpRcvbufErrors;
}

const char* reported_key(Stat s) {
  switch (s) {
    case Stat::kMdev:
      return "mdev";
    case Stat::kMinIops:
      return "iops";
    case Stat::kMaxFailures:
      return "failures";
    case Stat::kMaxRetransmits:
      return "retransmits";
    case Stat::kMaxRxDrops:
      return "rx_drops";
    case Stat::kMaxRxErrors:
      return "rx_errors";
    case Stat::kMaxUdpRcvbufErrors:
      return "udp_rcvbuf_errors";
    case Stat::kMaxGap:
      return "longest_gap";
    default:
      return nullptr;
  }
}

bool is_one_way(Stat s) {
  return s == Stat::kOneWayP50Forward || s == Stat::kOneWayP99Forward || s == Stat::kOneWayMaxForward ||
         s == Stat::kOneWayP50Reverse || s == Stat::kOneWayP99Reverse || s == Stat::kOneWayMaxReverse;
}

bool is_rr(TestKind k) { return k == TestKind::kTcpRr || k == TestKind::kUdpRr; }
bool is_stream(TestKind k) { return k == TestKind::kTcpStream || k == TestKind::kUdpStream; }
bool is_tcp(TestKind k) { return k == TestKind::kTcpRr || k == TestKind::kTcpStream; }
bool is_disk(TestKind k) {
  return k == TestKind::kDiskRandomRead || k == TestKind::kDiskRandomWrite || k == TestKind::kDiskRandomRw;
}
bool is_network(TestKind k) {
  if (const KindTraits* t = find_kind(k)) return t->between_hosts;
  return is_rr(k) || is_stream(k);
}

bool tool_runs(Tool tool, TestKind kind) {
  if (const KindTraits* t = find_kind(kind)) return t->tool_runs(tool);
  switch (tool) {
    case Tool::kBuiltin:
      return true;
    case Tool::kNetperf:
      return is_rr(kind) || is_stream(kind);
    case Tool::kSockperf:
    case Tool::kSfntPingpong:
      return is_rr(kind);
    case Tool::kIperf3:
      return is_stream(kind);
    case Tool::kSysbench:
      return false;  // the disk kinds (kinds/disk.cc)
  }
  return false;
}

bool produces(Tool tool, TestKind kind, Stat stat) {
  if (!tool_runs(tool, kind)) return false;
  if (const KindTraits* t = find_kind(kind)) return t->produces(tool, stat);
  if (is_counter(stat))  // from /proc snapshots around the run, whoever measures
    return is_rr(kind) || is_stream(kind);
  // Only the built-in pingpong stamps its replies with the server's clock.
  if (is_one_way(stat)) return tool == Tool::kBuiltin && is_rr(kind);
  // What the kind can report at all, whoever measures it.
  const bool kind_has = is_latency(stat) || (stat == Stat::kDropped && kind == TestKind::kUdpRr) ||
                        (stat == Stat::kMinThroughput && is_stream(kind)) ||
                        (stat == Stat::kMaxLoss && kind == TestKind::kUdpStream);
  if (!kind_has) return false;
  switch (tool) {
    case Tool::kBuiltin:
      return true;  // per-message times, drops, throughput and loss
    case Tool::kSockperf:
      return true;  // rr only: full percentiles; udp_rr dropped messages
    case Tool::kIperf3:
      return !is_latency(stat);  // throughput and loss, no latency
    case Tool::kNetperf:
      // rr: latency only (a UDP_RR drop stalls the test rather than being counted);
      // stream: throughput, and loss from UDP_STREAM's sent vs received messages.
      return is_rr(kind) ? netperf_latency(stat) : !is_latency(stat);
    case Tool::kSysbench:
      return false;  // disk kinds only (handled above)
    case Tool::kSfntPingpong:
      // Its table: mean, min, median, max, its one percentile (labgate runs the
      // default, 99) and stddev; it counts no drops (a lost UDP ping stalls it).
      return stat == Stat::kP50 || stat == Stat::kP99 || stat == Stat::kMax || stat == Stat::kMean ||
             stat == Stat::kStddev;
  }
  return false;
}

const Bound* TestSpec::find_bound(Stat s) const {
  for (const Bound& b : budget)
    if (b.stat == s) return &b;
  return nullptr;
}

}  // namespace labgate::profile

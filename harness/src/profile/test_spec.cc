// Spellings of the test enums, and which tool runs which kind and which
// statistics each (tool, kind) reports: for the kinds, what they registered
// (labgate/profile/kind_traits.h, harness/src/kinds/).
#include "labgate/profile/test_spec.h"

#include <array>

#include "labgate/profile/kind_traits.h"

namespace labgate::profile {
namespace {

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

template <typename E, typename All>
std::optional<E> parse_by_name(std::string_view s, const All& all) {
  for (E e : all)
    if (s == to_string(e)) return e;
  return std::nullopt;
}

}  // namespace

// mdev is ping's own figure, not a histogram's; the one-way figures are the one-way record's.
bool is_latency(Stat s) { return unit_of(s) == StatUnit::kNanos && s != Stat::kMdev && !is_one_way(s); }

const char* to_string(TestKind k) {
  const KindTraits* t = find_kind(k);
  return t ? t->name : "?";  // unregistered: the kinds test fails
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

std::optional<TestKind> parse_test_kind(std::string_view s) {
  return parse_by_name<TestKind>(s, registered_kinds());
}
std::optional<Tool> parse_tool(std::string_view s) { return parse_by_name<Tool>(s, kTools); }
std::optional<Stat> parse_stat(std::string_view s) { return parse_by_name<Stat>(s, kStats); }

std::span<const TestKind> all_test_kinds() { return registered_kinds(); }
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

// What each kind registered (kinds/<kind>.cc); an unregistered kind is none of them.
bool is_rr(TestKind k) {
  const KindTraits* t = find_kind(k);
  return t && t->round_trip;
}
bool is_stream(TestKind k) {
  const KindTraits* t = find_kind(k);
  return t && t->bulk;
}
bool is_tcp(TestKind k) {
  const KindTraits* t = find_kind(k);
  return t && t->tcp;
}
bool is_network(TestKind k) {
  const KindTraits* t = find_kind(k);
  return t && t->between_hosts;
}

bool tool_runs(Tool tool, TestKind kind) {
  const KindTraits* t = find_kind(kind);
  return t && t->tool_runs(tool);
}

bool produces(Tool tool, TestKind kind, Stat stat) {
  return tool_runs(tool, kind) && find_kind(kind)->produces(tool, stat);
}

const Bound* TestSpec::find_bound(Stat s) const {
  for (const Bound& b : budget)
    if (b.stat == s) return &b;
  return nullptr;
}

}  // namespace labgate::profile

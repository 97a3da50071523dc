// Spellings of the test enums, and the tables of which tool runs which kind and
// which statistics each (tool, kind) reports.
#include "labgate/profile/test_spec.h"

#include <array>

namespace labgate::profile {
namespace {

constexpr std::array<TestKind, 5> kKinds{TestKind::kTcpRr, TestKind::kUdpRr, TestKind::kTcpStream,
                                         TestKind::kUdpStream, TestKind::kJitter};
constexpr std::array<Tool, 4> kTools{Tool::kBuiltin, Tool::kNetperf, Tool::kSockperf, Tool::kIperf3};
constexpr std::array<Stat, 11> kStats{Stat::kP50,     Stat::kP90,           Stat::kP99,    Stat::kP99_9,
                                      Stat::kP99_99,  Stat::kMax,           Stat::kMean,   Stat::kStddev,
                                      Stat::kDropped, Stat::kMinThroughput, Stat::kMaxLoss};

template <typename E, std::size_t N>
std::optional<E> parse_by_name(std::string_view s, const std::array<E, N>& all) {
  for (E e : all)
    if (s == to_string(e)) return e;
  return std::nullopt;
}

bool is_latency(Stat s) { return unit_of(s) == StatUnit::kNanos; }

// netperf's omni output has P50/P90/P99, mean, stddev and max latency; no finer tail.
bool netperf_latency(Stat s) {
  return s == Stat::kP50 || s == Stat::kP90 || s == Stat::kP99 || s == Stat::kMax || s == Stat::kMean ||
         s == Stat::kStddev;
}

}  // namespace

const char* to_string(TestKind k) {
  switch (k) {
    case TestKind::kTcpRr:
      return "tcp_rr";
    case TestKind::kUdpRr:
      return "udp_rr";
    case TestKind::kTcpStream:
      return "tcp_stream";
    case TestKind::kUdpStream:
      return "udp_stream";
    case TestKind::kJitter:
      return "jitter";
  }
  return "?";
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
      return StatUnit::kCount;
    case Stat::kMinThroughput:
      return StatUnit::kBitsPerSec;
    case Stat::kMaxLoss:
      return StatUnit::kFraction;
    default:
      return StatUnit::kNanos;
  }
}

bool is_floor(Stat s) { return s == Stat::kMinThroughput; }
bool is_rr(TestKind k) { return k == TestKind::kTcpRr || k == TestKind::kUdpRr; }
bool is_stream(TestKind k) { return k == TestKind::kTcpStream || k == TestKind::kUdpStream; }
bool is_tcp(TestKind k) { return k == TestKind::kTcpRr || k == TestKind::kTcpStream; }

bool tool_runs(Tool tool, TestKind kind) {
  switch (tool) {
    case Tool::kBuiltin:
      return true;
    case Tool::kNetperf:
      return is_rr(kind) || is_stream(kind);
    case Tool::kSockperf:
      return is_rr(kind);
    case Tool::kIperf3:
      return is_stream(kind);
  }
  return false;
}

bool produces(Tool tool, TestKind kind, Stat stat) {
  if (!tool_runs(tool, kind)) return false;
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
  }
  return false;
}

const Bound* TestSpec::find_bound(Stat s) const {
  for (const Bound& b : budget)
    if (b.stat == s) return &b;
  return nullptr;
}

}  // namespace labgate::profile

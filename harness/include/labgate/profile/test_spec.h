// One [[test]] of a profile: what to measure (kind, tool, hosts, parameters) and
// the budget it must meet, plus the tables of which tool measures which kind and
// which statistics each produces (the loader and the budget evaluator share them).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/profile/source_pos.h"

namespace labgate::profile {

using Nanos = std::chrono::nanoseconds;

enum class TestKind { kTcpRr, kUdpRr, kTcpStream, kUdpStream, kJitter };
enum class Tool { kBuiltin, kNetperf, kSockperf, kIperf3 };

/// The statistics a budget may bound.
enum class Stat {
  kP50,
  kP90,
  kP99,
  kP99_9,
  kP99_99,
  kMax,
  kMean,
  kStddev,
  kDropped,
  kMinThroughput,
  kMaxLoss
};

/// How a statistic's limit is expressed (and so parsed from the profile).
enum class StatUnit {
  kNanos,       ///< a duration: "140us"
  kCount,       ///< an integer: dropped = 0
  kBitsPerSec,  ///< a rate: "940Mbit/s"
  kFraction,    ///< a percentage: "0.1%" -> 0.001
};

/// Profile spellings: "tcp_rr", "builtin", "p99_9", ...
const char* to_string(TestKind k);
const char* to_string(Tool t);
const char* to_string(Stat s);
std::optional<TestKind> parse_test_kind(std::string_view s);
std::optional<Tool> parse_tool(std::string_view s);
std::optional<Stat> parse_stat(std::string_view s);

/// Every value of each enum, in declaration order (for messages and loops).
std::span<const TestKind> all_test_kinds();
std::span<const Tool> all_tools();
std::span<const Stat> all_stats();

StatUnit unit_of(Stat s);
/// min_throughput is a floor (observed must be >= limit); every other stat a ceiling.
bool is_floor(Stat s);
/// tcp_rr / udp_rr: a round trip per message.
bool is_rr(TestKind k);
/// tcp_stream / udp_stream: one-way bulk sends.
bool is_stream(TestKind k);
/// tcp_rr / tcp_stream: a TCP connection (so nodelay applies).
bool is_tcp(TestKind k);

/// Whether `tool` can run a test of kind `kind` (sockperf: rr; iperf3: stream;
/// netperf: rr and stream; builtin: all).
bool tool_runs(Tool tool, TestKind kind);
/// Whether a `kind` test run by `tool` reports statistic `stat`, so a budget on it
/// can be judged. E.g. iperf3 reports throughput and loss only; netperf's
/// percentiles stop at p99; `dropped` exists for udp_rr only.
bool produces(Tool tool, TestKind kind, Stat stat);

/// One bound: latency stats in ns, dropped as a count, throughput in bit/s,
/// loss as a fraction (0.001 for "0.1%"). min_throughput is a floor, the rest ceilings.
struct Bound {
  Stat stat;
  double limit;
  SourcePos pos;
  std::string as_written;  ///< the profile's text ("140us"), for messages and reports
};

/// netperf -T client,server: the CPU each side of the test is pinned to.
struct CpuPlacement {
  std::optional<int> client;
  std::optional<int> server;
};

struct TestSpec {
  std::string name;
  TestKind kind = TestKind::kTcpRr;
  Tool tool = Tool::kBuiltin;
  std::string from, to;         ///< rr/stream kinds: client host -> server host
  std::vector<std::string> on;  ///< jitter: hosts to run on
  std::vector<int> cpus;        ///< jitter: CPUs to spin on (empty: one unpinned thread)
  Nanos duration = std::chrono::seconds(120);
  Nanos warmup = std::chrono::seconds(2);           ///< measured but not counted, before `duration`
  std::uint64_t message_size = 64;                  ///< bytes per message (rr/stream)
  CpuPlacement cpu;                                 ///< rr/stream pinning; unset = not pinned
  std::optional<double> rate_per_sec;               ///< open-loop send rate; unset = closed loop
  Nanos interval = std::chrono::seconds(1);         ///< length of one interval of the series
  bool nodelay = true;                              ///< TCP_NODELAY (tcp kinds)
  bool busy_poll = false;                           ///< spin on non-blocking receive instead of sleeping
  Nanos threshold = std::chrono::microseconds(10);  ///< jitter: a gap above this is an event
  std::optional<int> port;                          ///< server port; unset = chosen per run
  std::vector<Bound> budget;
  SourcePos pos;  ///< the [[test]] header

  /// The bound on `s`, if the budget has one.
  const Bound* find_bound(Stat s) const;
};

}  // namespace labgate::profile

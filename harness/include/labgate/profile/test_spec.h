// One [[test]] of a profile (or one case of a swept [[test]]): what to measure
// (kind, tool, hosts, parameters) and the budget it must meet, plus which tool
// measures which kind and which statistics each produces (the loader and the
// budget evaluator share them), as each kind registered them
// (labgate/profile/kind_traits.h, harness/src/kinds/<kind>.cc).
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

/// The kinds other code names (a tool's parser maps its output to one; udp_multicast
/// borrows udp_rr's figures). A kind no other code names may take a value of its
/// own past these in its kinds/ file (kinds/unnamed_kind_test.cc); the list of
/// kinds is the registry's (labgate/profile/kind_traits.h), not this enum.
enum class TestKind {
  kTcpRr,
  kUdpRr,
  kTcpStream,
  kUdpStream,
  kJitter,
  kPathMtu,          ///< largest packet that passes with Don't Fragment, vs the expected MTU
  kPingFlood,        ///< ICMP echo flood (ping -f): loss and rtt min/avg/max/mdev
  kCommand,          ///< an argv run N times or for a duration: wall times and exit codes
  kDiskRandomRead,   ///< random reads of block_size on a file below a configured directory
  kDiskRandomWrite,  ///< random writes, likewise
  kDiskRandomRw,     ///< a mix of both (read_mix of the operations are reads)
  kUdpMulticast,     ///< one publisher to many subscribers: per-subscriber loss, gap and round trips
};
enum class Tool { kBuiltin, kNetperf, kSockperf, kIperf3, kSysbench, kSfntPingpong };

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
  kMaxLoss,
  kMdev,                ///< ping's rtt mdev (a duration)
  kMinIops,             ///< disk operations per second (a floor)
  kMaxFailures,         ///< command runs that failed or timed out
  kMaxRetransmits,      ///< delta of Tcp RetransSegs during the test, both hosts summed
  kMaxRxDrops,          ///< delta of interfaces' rx drop + fifo, both hosts summed
  kMaxRxErrors,         ///< delta of interfaces' rx errs + frame, both hosts summed
  kMaxUdpRcvbufErrors,  ///< delta of Udp RcvbufErrors, both hosts summed
  kMaxGap,              ///< udp_multicast: the longest run of lost messages a subscriber saw
  /// One-way delay (issue 24), forward = from -> to (the request's way), reverse =
  /// to -> from (the reply's): the built-in pingpong's figures, judged only when
  /// the clock offset's error bound is within one_way_max_error.
  kOneWayP50Forward,
  kOneWayP99Forward,
  kOneWayMaxForward,
  kOneWayP50Reverse,
  kOneWayP99Reverse,
  kOneWayMaxReverse
};

/// How a statistic's limit is expressed (and so parsed from the profile).
enum class StatUnit {
  kNanos,       ///< a duration: "140us"
  kCount,       ///< an integer: dropped = 0, min_iops = 150, max_retransmits = 0
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
/// min_throughput and min_iops are floors (observed must be >= limit); every other
/// stat a ceiling.
bool is_floor(Stat s);
/// The counter-delta statistics (max_retransmits, max_rx_drops, ...): measured by
/// labgate from /proc snapshots around any network test, whatever the tool.
bool is_counter(Stat s);
/// The key a Measurement carries a non-latency statistic under in `reported`
/// ("iops" for min_iops, "retransmits" for max_retransmits, ...); nullptr for the
/// statistics Measurement::stat() already knows (latencies, dropped, throughput, loss).
const char* reported_key(Stat s);
/// one_way_p50_forward ... one_way_max_reverse: read from the one-way record
/// (labgate/measure/one_way.h), not from the round-trip histogram.
bool is_one_way(Stat s);
/// A round trip per message (tcp_rr, udp_rr): the kind's registered traits say.
bool is_rr(TestKind k);
/// One-way bulk sends (tcp_stream, udp_stream), likewise.
bool is_stream(TestKind k);
/// A TCP connection (tcp_rr, tcp_stream: so nodelay and congestion apply), likewise.
bool is_tcp(TestKind k);
/// Traffic between two hosts' test addresses (rr, stream, ping_flood, path_mtu):
/// `from`/`to` apply, and counter budgets for rr, stream and ping_flood.
bool is_network(TestKind k);

/// Whether `tool` can run a test of kind `kind` (sockperf: rr; iperf3: stream;
/// netperf: rr and stream; sysbench: disk kinds; builtin: all).
bool tool_runs(Tool tool, TestKind kind);
/// Whether a `kind` test run by `tool` reports statistic `stat`, so a budget on it
/// can be judged. E.g. iperf3 reports throughput and loss only; netperf's
/// percentiles stop at p99; `dropped` exists for udp_rr only; ping -f prints
/// only min/avg/max/mdev; sysbench fileio prints min/avg/max and one percentile
/// (labgate runs it with --percentile=99).
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

/// kind = "ping_flood": `ping -f -c count -s size [-i interval]`.
struct PingParams {
  std::uint64_t count = 1000;     ///< echo requests to send
  std::uint64_t size = 56;        ///< ICMP payload bytes (ping -s); 56 is ping's default
  std::optional<Nanos> interval;  ///< ping -i; unset = flood pace (the next as each reply comes)
};

/// kind = "command": run `argv` on one host `count` times, or for `duration`.
struct CommandParams {
  std::vector<std::string> argv;             ///< e.g. {"dig", "@ns1", "example.internal"}; never via a shell
  std::optional<std::uint64_t> count;        ///< runs; unset = repeat for the test's duration
  Nanos pause{0};                            ///< sleep between the end of one run and the next start
  Nanos timeout = std::chrono::seconds(30);  ///< one run longer than this is killed and counts as failed
};

/// The disk kinds: random I/O on one file created (and removed) below `dir`.
struct DiskParams {
  std::string dir;   ///< the configured directory: [defaults.test] disk_dir, or the test's `dir`
  std::string path;  ///< the file, strictly below dir; default <dir>/labgate-<test name>.dat
  std::uint64_t file_size = std::uint64_t{1} << 30;  ///< 1 GiB
  std::uint64_t block_size = 16 * 1024;              ///< 16 KiB, the seeds' sysbench block
  int threads = 1;
  bool direct = true;     ///< O_DIRECT: the page cache would make the numbers fiction
  double read_mix = 0.6;  ///< disk_random_rw: fraction of operations that read (sysbench's 1.5 ratio)
};

/// One swept parameter of a test case: `message_size = [64, 1024]` gives cases
/// with {"message_size", "64"} and {"message_size", "1024"}.
struct SweepPoint {
  std::string parameter;
  std::string value;  ///< as written in the profile ("16KiB", "cubic", "1024")
};

/// kind = "udp_multicast": `from` publishes to `group`, each host of `to` subscribes.
struct MulticastParams {
  std::vector<std::string> subscribers;  ///< to = ["b", "c", ...], file order
  std::string group;                     ///< "239.1.1.1" (from group = "239.1.1.1:5000")
  int port = 0;
  std::optional<std::string> source;  ///< SSM: the (S, G) join's source address
  int ttl = 1;                        ///< IP_MULTICAST_TTL: 1 keeps the feed on the subnet
  std::uint64_t reply_every = 100;    ///< each subscriber answers 1 in this many messages
};

/// mesh_schedule: a mesh's pairs one after another, or in rounds of disjoint
/// pairs (no host in two pairs at once) whose pairs are measured at the same time.
enum class MeshSchedule { kSequential, kDisjoint };

/// "sequential" or "disjoint", as written in a profile.
const char* to_string(MeshSchedule s);

/// pairs = "mesh": instead of one from/to, every pair of `hosts` (each a host
/// with a test address), one direction (a->b for a listed before b) or both.
struct MeshSpec {
  std::vector<std::string> hosts;  ///< the test's `hosts`, else every host with a test_address, file order
  bool both_directions = true;     ///< directions = "both" (default) or "one"
  MeshSchedule schedule = MeshSchedule::kSequential;  ///< mesh_schedule (default "sequential")
};

struct TestSpec {
  std::string name;  ///< "tcp_rr_64", or for a swept test "tcp_stream_sweep/message_size=1024"
  TestKind kind = TestKind::kTcpRr;
  Tool tool = Tool::kBuiltin;
  std::string from, to;         ///< rr/stream kinds: client host -> server host
  /// The test network it measures over (test_address = { direct = ... }); a list
  /// in the profile sweeps: one case per network, "name/network=direct".
  /// Empty: the hosts' only test address.
  std::string network;
  std::optional<MeshSpec> mesh; ///< pairs = "mesh": every pair instead of from/to
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
  /// rr: every round trip over this is kept with its circumstances ("Why the
  /// tail"); unset: the p99 budget, else the probe's 10x running p50.
  std::optional<Nanos> outlier;
  /// sockperf tcp_rr/udp_rr: sockperf times on CLOCK_MONOTONIC (--no-rdtsc) and
  /// writes every round trip (--full-log) on the client host, whose worst are
  /// joined with the noise watch one by one like the built-in probe's outliers
  /// (tools/sockperf_full_log.h). Off by default: it changes sockperf's clock
  /// and writes ~45 B per round trip on the host until the case reads it.
  bool full_log = false;
  /// rr: the widest clock-offset bound at which one-way figures are reported
  /// (issue 24); unset: reported whenever the bound is known, beside it.
  std::optional<Nanos> one_way_max_error;
  Nanos threshold = std::chrono::microseconds(10);  ///< jitter: a gap above this is an event
  std::optional<int> port;                          ///< server port; unset = chosen per run
  /// Sample accounting: the share of the samples a run must have produced that may
  /// be missing before the case fails ("1%" by default, sample_tolerance = "0.5%").
  double sample_tolerance = 0.01;
  std::optional<std::uint64_t> socket_buffer;       ///< SO_SNDBUF and SO_RCVBUF, both ends (netperf -s/-S)
  std::optional<std::string> congestion;            ///< TCP_CONGESTION ("cubic"), tcp kinds
  /// sockperf / iperf3: the program run on both hosts ("sockperf-3.10",
  /// "/opt/iperf/bin/iperf3"), one version beside another; unset: the plain name.
  std::optional<std::string> tool_path;
  /// wrapper = "onload --profile=latency": the command prefix both ends' tool or
  /// probe runs under, as words (a kernel-bypass launcher, numactl, ...).
  std::vector<std::string> wrapper;
  /// preload = "libxlio.so": the built-in probes run their dynamically linked
  /// build with LD_PRELOAD set to it, and the case fails unless both ends report
  /// the library mapped in their own process (tcp/udp kinds, tool = "builtin").
  std::optional<std::string> preload;
  std::optional<int> mtu;                           ///< path_mtu: the MTU the path must carry
  PingParams ping;                                  ///< ping_flood
  CommandParams command;                            ///< command (runs on on[0])
  DiskParams disk;                                  ///< disk kinds
  MulticastParams multicast;                        ///< udp_multicast
  std::string sweep_of;                             ///< the swept [[test]]'s name; empty if not swept
  std::vector<SweepPoint> sweep;                    ///< this case's swept values, in file order
  std::vector<Bound> budget;  ///< budget = {...}, with the matching budget_by overrides applied
  SourcePos pos;              ///< the [[test]] header

  /// The bound on `s`, if the budget has one.
  const Bound* find_bound(Stat s) const;
};

}  // namespace labgate::profile
